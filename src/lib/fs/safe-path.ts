import { constants } from 'node:fs';
import { lstat, open, realpath, type FileHandle } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';

/**
 * Paths checked by where they really are. A source tree may come from a
 * cloned repository, which can commit a symlink (`tool-results -> ~/.kube`)
 * or a file named `...jsonl`; nothing here trusts a name or follows a link.
 */

/** Control characters (C0, DEL, C1) and the line and paragraph separators: never part of a name we make a path of. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/**
 * Whether `name` is safe as one path segment: not empty, not `.` or `..`, no
 * separator (`/`, `\`) and no control character. An id made from a file name
 * (`...jsonl` → `..`) becomes a folder name in copies, so it must pass this.
 */
export function isSafeName(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && !/[\\/]/.test(name) && !CONTROL.test(name);
}

/** Why `name` is not safe as a path segment, in a few words; undefined when it is. */
export function unsafeNameReason(name: string): string | undefined {
  if (name === '') return 'an empty name';
  if (name === '.' || name === '..') return `"${name}" names a folder, not a session`;
  if (/[\\/]/.test(name)) return 'a path separator in the name';
  if (CONTROL.test(name)) return 'a control character in the name';
  return undefined;
}

/** Whether `path` is `folder` itself or below it, compared as resolved absolute paths (no file system access). */
export function isWithin(folder: string, path: string): boolean {
  const rel = relative(resolve(folder), resolve(path));
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** Whether `path` is strictly below `folder` (never the folder itself). */
export function isStrictlyWithin(folder: string, path: string): boolean {
  return isWithin(folder, path) && resolve(folder) !== resolve(path);
}

/** The real path of a folder, or the resolved path when it does not exist (yet). */
export async function realFolder(folder: string): Promise<string> {
  try {
    return await realpath(folder);
  } catch {
    return resolve(folder);
  }
}

/** A path refused because reading or writing it would leave its root or follow a link. */
export class UnsafePathError extends Error {
  override name = 'UnsafePathError';
  constructor(
    message: string,
    /** The path as given. */
    readonly path: string,
  ) {
    super(message);
  }
}

/** Whether the entry at `path` itself is a symlink (not followed); false when it does not exist. */
export async function isSymlink(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * Opens a file under `root` for reading, only when it is a regular file whose
 * real location is inside the real `root`: the file itself is opened with
 * O_NOFOLLOW (a symlink fails to open), and its folder's real path must lie
 * within the root's, so a symlinked folder on the way is refused too.
 */
export async function openInside(root: string, path: string): Promise<FileHandle> {
  const [realRoot, realDir] = await Promise.all([realFolder(root), realpath(dirname(resolve(path)))]);
  if (!isWithin(realRoot, realDir)) throw new UnsafePathError(`${path} lies outside the source folder (through a symbolic link); not read`, path);
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOOP') throw new UnsafePathError(`${path} is a symbolic link; not followed`, path);
    throw err;
  }
  const st = await handle.stat();
  if (!st.isFile()) {
    await handle.close();
    throw new UnsafePathError(`${path} is not a regular file; not read`, path);
  }
  return handle;
}

/** Reads a whole file under `root` as UTF-8 through {@link openInside}. */
export async function readTextInside(root: string, path: string): Promise<string> {
  const handle = await openInside(root, path);
  try {
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}
