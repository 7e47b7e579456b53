import { existsSync } from 'node:fs';
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { listFiles, mapLimit } from '../lib/fs/parallel.js';

/** Folders of the output that other integrations manage themselves (each clears what it no longer writes). */
const MANAGED = [/^pagefind(-\d+)?\//, /^_sessionpress\//];

/** Kept in Astro's cache folder: the output folder the last build wrote, and when it finished. */
const STATE_FILE = 'sessionpress-out-dir.json';

/**
 * Keeps the output folder between builds instead of letting Astro empty it
 * (`vite.build.emptyOutDir: false` in astro.config.mjs), so that the pages an
 * incremental build reuses are already in place: emptying the folder and
 * copying every unchanged page back from the cache was most of a rebuild with
 * nothing changed.
 *
 * What this integration guarantees in exchange: the folder holds exactly what
 * this build produced, as a clean build would.
 * - A folder this cache did not build last (another `--outDir`, a cache that was
 *   cleared, a build that failed) is emptied first, as Astro would have.
 * - After the build, every file it did not produce is removed: a page is kept
 *   if Astro reports it among this build's outputs (rendered or reused),
 *   anything else only if this build wrote it. The search index and the
 *   browser highlighter folders are managed by their own integrations.
 */
export function outDirIntegration(): AstroIntegration {
  let cacheDir = '';
  let outDir = '';
  let started = 0;
  const statePath = () => join(cacheDir, STATE_FILE);
  return {
    name: 'sessionpress-out-dir',
    hooks: {
      'astro:config:done': ({ config }) => {
        cacheDir = fileURLToPath(config.cacheDir);
        outDir = fileURLToPath(config.outDir).replace(/[\\/]$/, '');
      },
      'astro:build:start': async ({ logger }) => {
        // Whole seconds: some file systems keep coarse modification times.
        started = Math.floor(Date.now() / 1000) * 1000 - 1000;
        const last = existsSync(statePath()) ? (JSON.parse(await readFile(statePath(), 'utf8')) as { outDir?: string }) : {};
        // Forgotten until this build succeeds: a build that fails half-way leaves a folder to empty next time.
        await rm(statePath(), { force: true });
        if (last.outDir !== outDir && existsSync(outDir)) {
          logger.debug(`emptying ${outDir}: the last build of this cache wrote ${last.outDir ?? 'nothing'}`);
          await emptyFolder(outDir);
        }
      },
      'astro:build:done': async ({ dir, assets, logger }) => {
        const root = fileURLToPath(dir).replace(/[\\/]$/, '');
        const produced = new Set<string>();
        for (const urls of assets.values()) for (const u of urls) produced.add(fileURLToPath(u));
        const removed = await pruneStale(root, produced, started);
        if (removed) logger.info(`removed ${removed} file${removed === 1 ? '' : 's'} the last build left that this one did not produce`);
        await writeFile(statePath(), JSON.stringify({ outDir }));
      },
    },
  };
}

/** Removes everything in a folder but `.git` (as Astro does). */
async function emptyFolder(dir: string): Promise<void> {
  for (const name of await readdir(dir)) if (name !== '.git') await rm(join(dir, name), { recursive: true, force: true });
}

/** Deletes the files under `root` that this build neither reported nor wrote, then the folders left empty. */
async function pruneStale(root: string, produced: Set<string>, since: number): Promise<number> {
  const files = await listFiles(root);
  const stale = (
    await mapLimit(files, 16, async (file) => {
      const rel = relative(root, file).split(sep).join('/');
      if (rel.startsWith('.git/') || produced.has(file) || MANAGED.some((re) => re.test(rel))) return undefined;
      return (await stat(file)).mtimeMs >= since ? undefined : file;
    })
  ).filter((f): f is string => !!f);
  if (!stale.length) return 0;
  await mapLimit(stale, 16, (f) => rm(f, { force: true }));
  // Only a removal can leave a folder empty (Astro writes no empty folders).
  await removeEmptyFolders(root, true);
  return stale.length;
}

/** Removes empty folders below `dir` (not `dir` itself when `keep`); true when `dir` ended up empty. */
async function removeEmptyFolders(dir: string, keep = false): Promise<boolean> {
  let empty = true;
  for (const e of await readdir(dir, { withFileTypes: true })) {
    if (e.isDirectory() && (await removeEmptyFolders(join(dir, e.name)))) continue;
    empty = false;
  }
  if (empty && !keep) await rm(dir, { recursive: true, force: true });
  return empty;
}
