import { createHash } from 'node:crypto';
import { lstat, readdir } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { mapLimit } from './parallel.js';
import { openInside } from './safe-path.js';

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
}

/** Files read at once: enough to keep the disk and libuv's pool busy, few enough to bound memory. */
const CONCURRENCY = 8;
/** Files past this size are hashed in pieces, never held whole. */
const PIECE = 8 * 1024 * 1024;

/**
 * A digest of everything below `root`: each file's path relative to `root`
 * and its content (never its modification time: a checkout or a restored
 * copy gives unchanged files new times), each folder's and each symbolic
 * link's path. Links are named, never followed, and every file is opened
 * through {@link openInside}, so nothing outside `root` is read even if the
 * tree changes while it is walked. A missing `root` has a digest of its own;
 * a `root` that is a file is digested alone, and one that is a link is not read.
 */
export async function digestTree(root: string, options: TreeDigestOptions = {}): Promise<TreeDigest> {
  const entries: string[] = [];
  const files: string[] = [];
  const relOf = new Map<string, string>();
  let links = 0;
  const walk = async (dir: string): Promise<void> => {
    const list = await readdir(dir, { withFileTypes: true });
    for (const e of list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const path = join(dir, e.name);
      const rel = relative(root, path).split(sep).join('/');
      if (e.isSymbolicLink()) {
        links++;
        entries.push(`link ${rel}`);
      } else if (e.isDirectory()) {
        if (options.skip?.(path, e.name)) continue;
        entries.push(`dir ${rel}`);
        await walk(path);
      } else if (e.isFile()) {
        entries.push(`file ${rel}`);
        files.push(path);
        relOf.set(rel, path);
      } else {
        entries.push(`other ${rel}`);
      }
    }
  };
  // The root itself: a folder is walked, a single file (a config file) digested, a link named, never followed.
  const top = await lstat(root).catch(() => undefined);
  let inside = root;
  if (!top) entries.push('absent');
  else if (top.isSymbolicLink()) {
    links++;
    entries.push('link .');
  } else if (top.isFile()) {
    entries.push('file .');
    files.push(root);
    relOf.set('.', root);
    inside = dirname(root);
  } else await walk(root);
  const sizes = new Map<string, number>();
  const digests = await mapLimit(files, CONCURRENCY, async (path) => {
    const handle = await openInside(inside, path);
    try {
      const hash = createHash('sha256');
      let size = 0;
      if ((await handle.stat()).size <= PIECE) {
        const data = await handle.readFile();
        hash.update(data);
        size = data.length;
      } else {
        const buffer = Buffer.allocUnsafe(PIECE);
        for (;;) {
          const { bytesRead } = await handle.read(buffer, 0, PIECE, null);
          if (!bytesRead) break;
          hash.update(buffer.subarray(0, bytesRead));
          size += bytesRead;
        }
      }
      sizes.set(path, size);
      return hash.digest('hex');
    } finally {
      await handle.close();
    }
  });
  const byPath = new Map(files.map((f, i) => [f, digests[i]]));
  const hash = createHash('sha256');
  for (const entry of entries) {
    hash.update(entry).update('\0');
    if (entry.startsWith('file ')) hash.update(byPath.get(relOf.get(entry.slice(5))!)!).update('\0');
  }
  let bytes = 0;
  for (const size of sizes.values()) bytes += size;
  return { digest: hash.digest('hex'), files: files.length, bytes, links };
}
