import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { SessionJob, SessionJobResult } from './process-session.js';

export interface SessionPool {
  run(job: SessionJob): Promise<SessionJobResult>;
  close(): Promise<void>;
  size: number;
}

/**
 * Starts worker threads that process sessions in parallel. The worker's
 * TypeScript is bundled with esbuild into `node_modules/.sessionpress/` (npm
 * packages stay external and resolve from the project), so it runs the same
 * code as the in-process path. `size` 1 serves a rebuild with one changed
 * session: a worker loads the bundle faster than Vite transforms the same code
 * in the build's own thread. Returns undefined where a worker cannot start (the
 * worker source is not beside this file).
 */
export async function createSessionPool(projectRoot: string, size = Math.min(availableParallelism(), 4)): Promise<SessionPool | undefined> {
  if (size < 1) return undefined;
  const entry = fileURLToPath(new URL('./session-worker.ts', import.meta.url));
  if (!existsSync(entry)) return undefined;
  const esbuild = await import('esbuild');
  const bundled = await esbuild.build({ entryPoints: [entry], write: false, bundle: true, platform: 'node', format: 'esm', target: 'node22', packages: 'external', logLevel: 'error' });
  const code = bundled.outputFiles[0].contents;
  // Named by its content: two builds of different trees (a copy of the project sharing its node_modules)
  // never load each other's worker, and an unchanged worker is not written again.
  const outfile = join(projectRoot, 'node_modules', '.sessionpress', `session-worker-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
  if (!existsSync(outfile)) {
    await mkdir(dirname(outfile), { recursive: true });
    // Written under a temporary name and renamed, so concurrent builds never load a half-written file.
    const tmp = `${outfile}.${process.pid}.tmp`;
    await writeFile(tmp, code);
    await rename(tmp, outfile);
    await removeOldWorkers(dirname(outfile));
  } else {
    // Marked as in use, so that another build's clean-up (below) leaves it.
    const now = new Date();
    await utimes(outfile, now, now).catch(() => undefined);
  }

  const workers = Array.from({ length: size }, () => new Worker(outfile));
  const idle = [...workers];
  const waiting: Array<() => void> = [];
  let nextId = 0;
  const pending = new Map<number, { resolve: (r: SessionJobResult) => void; reject: (e: Error) => void; worker: Worker }>();
  for (const w of workers) {
    w.on('message', ({ id, result, error }: { id: number; result?: SessionJobResult; error?: string }) => {
      const p = pending.get(id);
      if (!p) return;
      pending.delete(id);
      idle.push(w);
      waiting.shift()?.();
      if (error) p.reject(new Error(error));
      else p.resolve(result!);
    });
    w.on('error', (err) => {
      for (const [id, p] of pending) if (p.worker === w) {
        pending.delete(id);
        p.reject(err);
      }
    });
  }
  return {
    size,
    async run(job) {
      while (!idle.length) await new Promise<void>((r) => waiting.push(r));
      const worker = idle.pop()!;
      const id = nextId++;
      return new Promise<SessionJobResult>((resolve, reject) => {
        pending.set(id, { resolve, reject, worker });
        worker.postMessage({ id, job });
      });
    },
    async close() {
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}

/**
 * Worker bundles of earlier code: one is written per version of the worker's
 * sources. Those unused for an hour go (a build that started with one has long
 * loaded it by then).
 */
async function removeOldWorkers(dir: string): Promise<void> {
  const cutoff = Date.now() - 3600_000;
  for (const name of await readdir(dir)) {
    if (!/^session-worker(-[0-9a-f]+)?\.mjs$/.test(name)) continue;
    const path = join(dir, name);
    const st = await stat(path).catch(() => undefined);
    if (st && st.mtimeMs < cutoff) await rm(path, { force: true });
  }
}
