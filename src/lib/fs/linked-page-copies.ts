import fs from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isStrictlyWithin } from './safe-path.js';
import { createSafeTarget, temporaryPathBeside } from './safe-write.js';

type WriteFile = typeof fs.promises.writeFile;
type CopyFile = typeof fs.promises.copyFile;

/**
 * Makes Astro's copies of the pages it renders hard links to the pages, until
 * the returned function is called.
 *
 * Astro's incremental build (`experimental.incrementalBuild`) writes every page
 * it renders twice, the same bytes each time: into the output folder
 * (`outDir`), then into its cache (`copies`, `<cacheDir>/dist/`), from which a
 * later build restores, by copying it back, a page missing from the output
 * folder (a deploy on a fresh machine restores every unchanged page). On the
 * bench corpus that second copy was 3,021 more files and 133 MB more on disk,
 * on the generated 630 MB session 1,543 files and 467 MB. Each is a new file,
 * and creating one is what Astro's page step spends its kernel time on: on
 * ext4 after many files were freed, a third of a cold build's page step went
 * to finding free inodes.
 *
 * - A write of bytes into `copies` whose very bytes (the same `Buffer`, as
 *   Astro passes it to both writes) were just written to a regular file in
 *   `outDir` is made a link to that file.
 * - A copy from `copies` into `outDir` (a page restored) is made a link to
 *   the cached copy.
 * - A page written again while another name holds its file (its copy) is
 *   written as a new file, not into that one: the copy keeps what the last
 *   successful build wrote until Astro writes it again (a build that fails
 *   half-way leaves it as it was).
 *
 * A link is put in place whole: made beside its destination, then renamed
 * over it, so a file there, which may be linked to something else, is never
 * written into. Anything else, and any link that fails (another disk, a file
 * system without links), is done as it was. What replaces a page with a new
 * file (the encrypted archive does) leaves its copy as Astro wrote it.
 */
export function linkPageCopies(outDir: string, copies: string): () => void {
  const originalWrite = fs.promises.writeFile;
  const originalCopy = fs.promises.copyFile;
  // Written with the project's safe writer (its own imports of Node's calls, not these wrapped ones).
  const pages = createSafeTarget(outDir);
  // The bytes of each page written into the output folder, by the Buffer that held them, until Astro copies them.
  const written = new WeakMap<object, string>();
  const writeFile = (async (file, data, options) => {
    const path = pathOf(file);
    if (path !== undefined && typeof data === 'object' && data !== null && isStrictlyWithin(copies, path)) {
      const page = written.get(data);
      if (page !== undefined && (await linkInPlace(page, path, (data as Uint8Array).byteLength))) return;
    }
    const page = path !== undefined && data instanceof Uint8Array && isStrictlyWithin(outDir, path);
    // A page whose file another name holds (its copy in the cache) is written anew, never into that file.
    if (page && (await linkCount(path)) > 1) await pages.writeFile(path, data);
    else await originalWrite(file, data, options);
    if (page) written.set(data, path);
  }) as WriteFile;
  const copyFile = (async (from, to, mode) => {
    const source = pathOf(from);
    const target = pathOf(to);
    // A page restored from the cache (never with COPYFILE_EXCL, which a link put in place could not honour).
    if (source !== undefined && target !== undefined && !mode && isStrictlyWithin(copies, source) && isStrictlyWithin(outDir, target) && (await linkInPlace(source, target))) return;
    await originalCopy(from, to, mode);
  }) as CopyFile;
  fs.promises.writeFile = writeFile;
  fs.promises.copyFile = copyFile;
  return () => {
    if (fs.promises.writeFile === writeFile) fs.promises.writeFile = originalWrite;
    if (fs.promises.copyFile === copyFile) fs.promises.copyFile = originalCopy;
  };
}

/** How many names a file has (0 when there is none at `path`, or it is not a regular file). */
async function linkCount(path: string): Promise<number> {
  const stat = await fs.promises.lstat(path).catch(() => undefined);
  return stat?.isFile() ? stat.nlink : 0;
}

/** The path a `writeFile` call names, when it names one (not a file handle). */
function pathOf(file: unknown): string | undefined {
  if (typeof file === 'string') return resolve(file);
  if (file instanceof URL && file.protocol === 'file:') return fileURLToPath(file);
  return undefined;
}

/**
 * Puts a hard link to `page` at `target`, replacing what is there whole;
 * whether it did. `page` must be a regular file (never a symbolic link to
 * something else), of `bytes` bytes when given.
 */
async function linkInPlace(page: string, target: string, bytes?: number): Promise<boolean> {
  const stat = await fs.promises.lstat(page).catch(() => undefined);
  if (!stat?.isFile() || (bytes !== undefined && stat.size !== bytes)) return false;
  const beside = temporaryPathBeside(target);
  try {
    await fs.promises.link(page, beside);
    await fs.promises.rename(beside, target);
    return true;
  } catch {
    await fs.promises.rm(beside, { force: true }).catch(() => undefined);
    return false;
  }
}

