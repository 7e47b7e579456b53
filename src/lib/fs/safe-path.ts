import { closeSync, constants, existsSync, fstatSync, openSync, readlinkSync, realpathSync } from 'node:fs';
import { lstat, open, realpath, type FileHandle } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

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
  /** The path as given. */
  readonly path: string;
  constructor(message: string, path: string) {
    super(message);
    this.path = path;
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
 * O_NOFOLLOW: a symbolic link as the last part of the path fails to open.
 * O_NONBLOCK: a FIFO planted in the tree opens at once (and is then refused
 * as not a regular file) instead of waiting forever for a writer; it changes
 * nothing for a regular file.
 */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** Whether this system names an open file's real location under /proc/self/fd (Linux). */
const PROC_FD = existsSync('/proc/self/fd');

/**
 * Where the file open as `fd` really is. On Linux, /proc names the file that
 * was opened, whatever happened to the path since (no window between a check
 * and the open); elsewhere, the real path of its folder as it is now.
 */
function openedLocation(fd: number, path: string): string {
  if (PROC_FD) {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      // Fall through: the folder's real path.
    }
  }
  return join(realpathSync.native(dirname(path)), basename(path));
}

/**
 * The checks shared by {@link openInside} and {@link openInsideSync}, made on
 * the open file: it must be a regular file whose real location lies inside `realRoot`.
 */
function checkOpened(realRoot: string, fd: number, path: string, isFile: boolean): void {
  if (!isWithin(realRoot, openedLocation(fd, path))) throw new UnsafePathError(`${path} lies outside the source folder (through a symbolic link); not read`, path);
  if (!isFile) throw new UnsafePathError(`${path} is not a regular file; not read`, path);
}

function refuseByName(root: string, path: string): void {
  if (!isWithin(root, path)) throw new UnsafePathError(`${path} lies outside the source folder; not read`, path);
}

function refuseLink(err: unknown, path: string): never {
  if ((err as NodeJS.ErrnoException).code === 'ELOOP') throw new UnsafePathError(`${path} is a symbolic link; not followed`, path);
  throw err;
}

/**
 * Opens a file under `root` for reading, only when it is a regular file whose
 * real location is inside the real `root`: a path that climbs out by name is
 * refused before anything is opened, the file itself is opened with
 * O_NOFOLLOW (a symlink fails to open), and the location of the file that
 * was opened must lie within the root's, so a symlinked folder on the way is refused too.
 */
export async function openInside(root: string, path: string): Promise<FileHandle> {
  const realRoot = await realFolder(root);
  // Named below the root as given, or below its real path (a caller that resolved the path first).
  if (!isWithin(realRoot, path)) refuseByName(root, path);
  const handle = await open(path, OPEN_FLAGS).catch((err: unknown) => refuseLink(err, path));
  try {
    checkOpened(realRoot, handle.fd, path, (await handle.stat()).isFile());
  } catch (err) {
    await handle.close();
    throw err;
  }
  return handle;
}

/**
 * {@link openInside} without waiting on libuv's thread pool, for reading
 * thousands of small files one after another (a tree's digest: ~30 µs a file
 * against ~160 µs through promises). `realRoot` is the root's real path,
 * resolved once by the caller, and `path` must be named below it (walk the
 * real root, not a linked name of it). Returns the descriptor and the file's size;
 * the caller closes it.
 */
export function openInsideSync(realRoot: string, path: string): { fd: number; size: number } {
  refuseByName(realRoot, path);
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (err) {
    refuseLink(err, path);
  }
  try {
    const st = fstatSync(fd);
    checkOpened(realRoot, fd, path, st.isFile());
    return { fd, size: st.size };
  } catch (err) {
    closeSync(fd);
    throw err;
  }
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
