import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Plugin } from 'esbuild';
import { Worker } from 'node:worker_threads';
import type { SessionJob, SessionJobResult } from './process-session.js';
import type { SessionProgress } from './progress.js';

/**
 * Worker threads that run jobs of one kind: `run` resolves with the job's
 * result (`onProgress` is told what the thread reports on the way), `close`
 * stops every thread.
 */
export interface ThreadPool<J, R, P = never> {
  run(job: J, onProgress?: (p: P) => void): Promise<R>;
  close(): Promise<void>;
  size: number;
}

/** The pool the loader sends sessions to. */
export type SessionPool = ThreadPool<SessionJob, SessionJobResult, SessionProgress>;

/**
 * What a worker thread posts back for a job: its result, or the error it threw
 * (a plain object, as errors do not cross threads whole), after any number of
 * progress reports.
 */
export type ThreadAnswer<R, P = never> = { result: R } | { error: { name: string; message: string; stack?: string } } | { progress: P };

/** A thread that dies is replaced at most this many times per pool: a thread that cannot start at all would be restarted forever. */
const MAX_RESTARTS = 8;

/**
 * Runs jobs on worker threads, one job per thread at a time; each thread
 * answers with a {@link ThreadAnswer}. A thread that dies (an exception
 * nothing in it caught, its heap full) fails only the job it held, with the
 * reason it died, and a new thread takes its place, so the other jobs of a
 * build still run. `first` are threads started already (taken before new ones).
 */
export function createThreadPool<J, R, P = never>(start: () => Worker, size: number, first: Worker[] = []): ThreadPool<J, R, P> {
  const live = new Set<Worker>();
  const idle: Worker[] = [];
  const waiting: Array<() => void> = [];
  const pending = new Map<Worker, { resolve: (r: R) => void; reject: (e: Error) => void; onProgress?: (p: P) => void }>();
  let closed = false;
  let restarts = 0;
  const wake = () => waiting.shift()?.();
  const fail = (w: Worker, error: Error) => {
    const p = pending.get(w);
    pending.delete(w);
    p?.reject(error);
  };
  const add = (w: Worker) => {
    live.add(w);
    idle.push(w);
    w.on('message', (answer: ThreadAnswer<R, P>) => {
      const p = pending.get(w);
      if (!p) return;
      if ('progress' in answer) {
        p.onProgress?.(answer.progress);
        return;
      }
      pending.delete(w);
      idle.push(w);
      wake();
      if ('error' in answer) p.reject(Object.assign(new Error(answer.error.message), { name: answer.error.name, stack: answer.error.stack }));
      else p.resolve(answer.result);
    });
    // 'error' comes before 'exit' and says why the thread died.
    w.on('error', (err) => fail(w, err));
    w.once('exit', (code) => {
      fail(w, new Error(`worker thread stopped (exit code ${code})`));
      live.delete(w);
      if (idle.includes(w)) idle.splice(idle.indexOf(w), 1);
      if (closed) return;
      if (restarts++ < MAX_RESTARTS) add(start());
      // Waiting jobs look again: at a new thread, or at none left.
      waiting.splice(0).forEach((f) => f());
    });
  };
  for (const w of first.slice(0, size)) add(w);
  while (live.size < size) add(start());
  return {
    size,
    async run(job, onProgress) {
      while (!idle.length) {
        if (!live.size) throw new Error('every worker thread stopped');
        await new Promise<void>((r) => waiting.push(r));
      }
      const worker = idle.pop()!;
      return new Promise<R>((resolve, reject) => {
        pending.set(worker, { resolve, reject, ...(onProgress ? { onProgress } : {}) });
        worker.postMessage(job);
      });
    },
    async close() {
      closed = true;
      await Promise.all([...live].map((w) => w.terminate()));
    },
  };
}

/** Sessions smaller than this are processed without a helper thread: starting one costs more than it saves. */
export const HELPER_MIN_BYTES = 8e6;

/**
 * Whether a session job gets a helper thread (helper-thread.ts): a big
 * session processed alone on `threads` threads while the machine has a core
 * to spare. A grown one's starts only when needed (see `startHelperThread`).
 */
export function wantsHelperThread(job: SessionJob, jobs: number, threads: number, cores = availableParallelism()): boolean {
  return jobs === 1 && threads < cores && job.source.size >= HELPER_MIN_BYTES;
}

/**
 * Starts worker threads that process sessions in parallel. The worker's
 * TypeScript is bundled with esbuild into Astro's cache folder, its npm
 * packages left out of the bundle and imported by absolute URL, resolved from
 * the sources that import them (the cache may be anywhere; the package may be
 * installed read-only, so nothing is written beside it), so it runs the same
 * code as the in-process path. `size` 1 serves a rebuild with one changed
 * session: a worker loads the bundle faster than Vite transforms the same code
 * in the build's own thread. Returns undefined where a worker cannot start (the
 * worker source is not beside this file).
 */
export async function createSessionPool(cacheDir: string, size = Math.min(availableParallelism(), 4)): Promise<SessionPool | undefined> {
  if (size < 1) return undefined;
  // A thread the integration started while Astro was starting (prestartSessionPool) is taken first.
  const early = await takePrestarted(cacheDir);
  const outfile = early?.outfile ?? (await workerBundle(cacheDir));
  if (!outfile) return undefined;
  early?.worker.ref();
  return createThreadPool<SessionJob, SessionJobResult, SessionProgress>(() => new Worker(outfile), size, early ? [early.worker] : []);
}

/**
 * The worker's bundle in the cache folder (written when its code changed), or
 * undefined where no worker can start (the worker source is not beside this file).
 */
async function workerBundle(cacheDir: string): Promise<string | undefined> {
  const entry = fileURLToPath(new URL('./session-worker.ts', import.meta.url));
  if (!existsSync(entry)) return undefined;
  // Required, not imported: the integration starts a thread from a module Vite's config runner loaded, and
  // that runner is closed by then (a dynamic import through it fails). esbuild is CommonJS either way.
  const esbuild = createRequire(import.meta.url)('esbuild') as typeof import('esbuild');
  const bundled = await esbuild.build({
    entryPoints: [entry],
    write: false,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    // Node's own conditions only (esbuild adds `module` by default): the same files Node would load.
    conditions: [],
    plugins: [packagesByUrl()],
    logLevel: 'error',
  });
  const code = bundled.outputFiles[0].contents;
  // Named by its content: two builds of different trees sharing a cache folder never load each other's
  // worker, and an unchanged worker is not written again.
  const outfile = join(cacheDir, 'sessionpress-worker', `session-worker-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
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

  return outfile;
}

/** Threads started ahead of the loader, by cache folder. */
type Prestarted = Map<string, Promise<{ outfile: string; worker: Worker; exited: boolean } | undefined>>;

/**
 * On `globalThis`: the integration that starts a thread and the loader that
 * takes it are separate instances of this module in one process (Node loads
 * one, Vite's module runner the other).
 */
function prestarted(): Prestarted {
  const key = Symbol.for('sessionpress.prestarted-workers');
  const g = globalThis as typeof globalThis & { [key: symbol]: Prestarted | undefined };
  return (g[key] ??= new Map());
}

/**
 * Starts one worker thread for the sessions of `cacheDir` now, before the
 * loader knows whether any session changed: loading the bundle, the
 * highlighter and the redaction rules (worker-warm-up.ts) then overlaps
 * Astro's own start (the integration calls this in `astro:config:setup`)
 * instead of delaying the first session by about a second. The loader's
 * `createSessionPool` takes it; `releasePrestarted` stops it when there is
 * nothing to process. Until taken it does not keep the process alive.
 */
export function prestartSessionPool(cacheDir: string): void {
  const started = prestarted();
  const key = resolve(cacheDir);
  if (started.has(key)) return;
  started.set(
    key,
    workerBundle(cacheDir).then(
      (outfile) => {
        if (!outfile) return undefined;
        const worker = new Worker(outfile);
        worker.unref();
        const early = { outfile, worker, exited: false };
        // A thread that failed to start is not handed to the loader (which then starts its own); its error is not thrown here.
        worker.on('error', () => undefined);
        worker.once('exit', () => (early.exited = true));
        return early;
      },
      () => undefined,
    ),
  );
}

/** The thread started early for `cacheDir`, once: undefined when none was. */
async function takePrestarted(cacheDir: string): Promise<{ outfile: string; worker: Worker } | undefined> {
  const started = prestarted();
  // By the folder resolved: Astro hands the loader its cache folder with a trailing slash.
  const key = resolve(cacheDir);
  // Removed before waiting: two callers at once (a dev server's syncs) never both get the one thread.
  const pending = started.get(key);
  started.delete(key);
  const early = await pending;
  return early && !early.exited ? early : undefined;
}

/** Stops the thread started early for `cacheDir` (the loader had nothing to process). */
export async function releasePrestarted(cacheDir: string): Promise<void> {
  const early = await takePrestarted(cacheDir);
  await early?.worker.terminate();
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

/**
 * Leaves npm packages out of the bundle, as imports of the absolute file URL
 * they resolve to from the importing source: the bundle, written in the cache
 * folder, has no node_modules of its own to look them up in.
 */
function packagesByUrl(): Plugin {
  return {
    name: 'sessionpress-packages-by-url',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.path.startsWith('node:') || args.pluginData === 'by-url') return undefined;
        const found = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: 'by-url' });
        if (found.errors.length || !found.path) return undefined;
        // Node's built-ins by their bare name (`fs`) stay as they are.
        if (found.external && !found.path.startsWith('/')) return { path: found.path, external: true };
        return { path: pathToFileURL(found.path).href, external: true };
      });
    },
  };
}
