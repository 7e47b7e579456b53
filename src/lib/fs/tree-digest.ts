import { createHash } from 'node:crypto';
import { closeSync, readdirSync, readSync } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { isWithin, openInsideSync, realFolder } from './safe-path.js';

/** What {@link digestTree} found below a folder. */
export interface TreeDigest {
  /** sha256 (hex) of every entry's relative path, kind and, for a file, its content. */
  digest: string;
  files: number;
  bytes: number;
  /** Symbolic links met (named in the digest, never followed). */
  links: number;
}

export interface TreeDigestOptions {
  /** Folders (absolute) not to descend into, and names of folders never descended into anywhere (`node_modules`). */
  skip?: (path: string, name: string) => boolean;
  /** Filled with each file's content digest (as {@link digestFileInside} gives it), by its path relative to the root, with `/`. */
  fileDigests?: Map<string, string>;
}

/** Read in pieces of this size: a file of any size is hashed without being held whole. */
const PIECE = 1024 * 1024;
/** Files digested between two turns of the event loop (a progress line or a timer is never held up long). */
const BATCH = 256;

/**
 * A digest of everything below `root`: each file's path relative to `root`
 * and its content (never its modification time: a checkout or a restored
 * copy gives unchanged files new times), each folder's and each symbolic
 * link's path. Links are named, never followed, and every file is opened
 * through {@link openInsideSync}, so nothing outside `root` is read even if the
 * tree changes while it is walked. A missing `root` has a digest of its own;
 * a `root` that is a file is digested alone, and one that is a link is not read.
 *
 * Files are read with synchronous calls, one after another: the files are
 * nearly always in the page cache (a build just wrote or read them), where a
 * read through libuv's thread pool costs ~160 µs a file in hand-offs and a
 * synchronous one ~30 µs (5,136 output files: 1.05 s → 0.45 s).
 */
export async function digestTree(root: string, options: TreeDigestOptions = {}): Promise<TreeDigest> {
  const entries: string[] = [];
  const files: string[] = [];
  let links = 0;
  // The root itself: a folder is walked, a single file (a config file) digested, a link named, never followed.
  const top = await lstat(root).catch(() => undefined);
  if (!top) return finish(['absent'], [], 0, undefined);
  if (top.isSymbolicLink()) return finish(['link .'], [], 1, undefined);
  // Walked from its real path (a folder above the root may be a link: that is the user's own choice of place).
  const real = await realFolder(root);
  if (top.isFile()) return finish(['file .'], [real], 0, dirname(real), options.fileDigests);
  const walk = (dir: string): void => {
    const list = readdirSync(dir, { withFileTypes: true });
    for (const e of list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const path = join(dir, e.name);
      const rel = relative(real, path).split(sep).join('/');
      if (e.isSymbolicLink()) {
        links++;
        entries.push(`link ${rel}`);
      } else if (e.isDirectory()) {
        // `skip` is asked about the path as the caller named it.
        if (options.skip?.(join(root, relative(real, path)), e.name)) continue;
        entries.push(`dir ${rel}`);
        walk(path);
      } else if (e.isFile()) {
        entries.push(`file ${rel}`);
        files.push(path);
      } else {
        entries.push(`other ${rel}`);
      }
    }
  };
  walk(real);
  return finish(entries, files, links, real, options.fileDigests);
}

/**
 * The sha-256 (hex) of one file's content and its length, read through
 * {@link openInsideSync} (never through a link, never outside `realRoot`, the
 * root's real path) in pieces into `buffer`, so a file of any size is never
 * held whole. Synchronous: see {@link digestTree} for why.
 */
export function digestFileInside(realRoot: string, path: string, buffer: Buffer = Buffer.allocUnsafe(PIECE)): { digest: string; bytes: number } {
  const { fd } = openInsideSync(realRoot, path);
  const hash = createHash('sha256');
  let bytes = 0;
  try {
    for (;;) {
      const read = readSync(fd, buffer, 0, buffer.length, null);
      if (!read) break;
      hash.update(buffer.subarray(0, read));
      bytes += read;
    }
  } finally {
    closeSync(fd);
  }
  return { digest: hash.digest('hex'), bytes };
}

/**
 * The content digest of each of `paths` (files below `root`), in order:
 * undefined for one that cannot be read, or that turned into a link or
 * moved outside `root` since it was listed. What a file holds decides whether
 * it changed, never its modification time: a checkout or a restored copy
 * gives unchanged files new times, and a file replaced within one clock tick
 * by another of the same size keeps its time.
 *
 * `known` holds digests taken just before, by {@link digestTree} of the same
 * root (`fileDigests`), by path relative to the root: a file found there is
 * not read again (the command that starts a build has just read them all to
 * decide whether to build at all).
 */
export async function digestFilesInside(root: string, paths: readonly string[], known?: { get(relPath: string): string | undefined }): Promise<Array<string | undefined>> {
  const realRoot = await realFolder(root);
  const buffer = Buffer.allocUnsafe(PIECE);
  const out: Array<string | undefined> = [];
  for (const [i, path] of paths.entries()) {
    const given = known?.get(relative(resolve(root), resolve(path)).split(sep).join('/'));
    if (given) {
      out.push(given);
      continue;
    }
    try {
      // Named below the root as given (a linked name of it, say) or below its real path.
      const real = isWithin(realRoot, path) ? path : join(realRoot, relative(resolve(root), resolve(path)));
      out.push(digestFileInside(realRoot, real, buffer).digest);
    } catch {
      out.push(undefined);
    }
    if (i % BATCH === BATCH - 1) await new Promise((done) => setImmediate(done));
  }
  return out;
}

/** Hashes the listed files in the order of `entries` and combines the whole. */
async function finish(entries: string[], files: string[], links: number, realRoot: string | undefined, fileDigests?: Map<string, string>): Promise<TreeDigest> {
  const hash = createHash('sha256');
  const buffer = files.length ? Buffer.allocUnsafe(PIECE) : undefined;
  let bytes = 0;
  let next = 0;
  for (const [i, entry] of entries.entries()) {
    hash.update(entry).update('\0');
    if (!entry.startsWith('file ')) continue;
    const one = digestFileInside(realRoot!, files[next++], buffer);
    fileDigests?.set(entry.slice('file '.length), one.digest);
    bytes += one.bytes;
    hash.update(one.digest).update('\0');
    if (i % BATCH === BATCH - 1) await new Promise((done) => setImmediate(done));
  }
  return { digest: hash.digest('hex'), files: files.length, bytes, links };
}
