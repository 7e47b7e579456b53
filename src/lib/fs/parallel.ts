import { copyFile, mkdir, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';

/**
 * Runs `fn` over `items` with at most `limit` calls in flight, and returns the
 * results in the order of `items`. File work on thousands of small files is
 * bound by waiting, not by the CPU: a few requests at once keep libuv's thread
 * pool busy where one at a time leaves it idle.
 */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const run = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, run));
  return out;
}

/** The files below a folder (absolute paths), sorted, so callers are deterministic. */
export async function listFiles(dir: string, filter: (name: string) => boolean = () => true): Promise<string[]> {
  return (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile() && filter(e.name))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/**
 * Copies a folder tree file by file, many at a time. `fs.cp` stats every entry
 * one after another and took 0.6 s for a 1,300-file search index; this takes a
 * fraction of that.
 */
export async function copyTree(from: string, to: string): Promise<void> {
  const files = await listFiles(from);
  const dirs = new Set(files.map((f) => join(to, relative(from, f), '..')));
  dirs.add(to);
  for (const d of [...dirs].sort()) await mkdir(d, { recursive: true });
  await mapLimit(files, 16, (f) => copyFile(f, join(to, relative(from, f))));
}
