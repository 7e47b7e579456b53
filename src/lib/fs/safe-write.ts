import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { isStrictlyWithin, isWithin, UnsafePathError } from './safe-path.js';

/**
 * The one way to write into a target folder (an import's `content/sessions`,
 * a capture's `.claude-sessions`, an export's file): every path must lie
 * below the target, no folder on the way may be a symbolic link (a cloned
 * repository can commit `.claude-sessions -> ~`), a file is replaced only by a
 * whole new one (written beside it, then renamed over it), and a delete
 * removes a link itself, never what it points at.
 */
export interface SafeTarget {
  /** The target folder, resolved. */
  readonly root: string;
  /** Writes a whole file: a temporary file beside it (created exclusively), then renamed over the old one. */
  writeFile(path: string, data: string | Uint8Array): Promise<void>;
  /** Writes a file under a temporary name beside `path` and returns that name, for callers that swap several files in at once ({@link SafeTarget.swapIn}). */
  stageFile(path: string, data: string | Uint8Array): Promise<string>;
  /** Renames a staged file over its final path. */
  swapIn(staged: string, path: string): Promise<void>;
  /** Appends to a file (created when missing), never through a link. */
  appendFile(path: string, data: string): Promise<void>;
  /** Removes a file or folder strictly below the target; a link is removed itself. Missing is fine. */
  remove(path: string): Promise<void>;
  /** Creates a folder below the target (and the ones above it), refusing links on the way. */
  ensureDir(path: string): Promise<void>;
}

/**
 * A target folder to write into safely (see {@link SafeTarget}). The folder
 * itself may not be a symbolic link either: it is created when missing.
 */
export function createSafeTarget(folder: string): SafeTarget {
  const root = resolve(folder);

  /** Each existing part from the root down to `dir` must be a real folder; missing ones are created when `create`. */
  const walk = async (dir: string, create: boolean): Promise<void> => {
    if (!isWithin(root, dir)) throw new UnsafePathError(`${dir} lies outside ${root}; not written`, dir);
    const parts = relative(root, dir).split(sep).filter(Boolean);
    let at = root;
    for (const part of [undefined, ...parts]) {
      if (part !== undefined) at = join(at, part);
      let st;
      try {
        st = await lstat(at);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        if (!create) return;
        try {
          await mkdir(at, { recursive: at === root });
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
        }
        st = await lstat(at);
      }
      if (st.isSymbolicLink()) throw new UnsafePathError(`${at} is a symbolic link; nothing is written through it`, at);
      if (!st.isDirectory()) throw new UnsafePathError(`${at} is not a folder`, at);
    }
  };

  const checkFile = (path: string): string => {
    const abs = resolve(path);
    if (!isStrictlyWithin(root, abs)) throw new UnsafePathError(`${abs} lies outside ${root}; not written`, abs);
    return abs;
  };

  const stageFile = async (path: string, data: string | Uint8Array): Promise<string> => {
    const abs = checkFile(path);
    await walk(dirname(abs), true);
    // Exclusive creation fails on an existing name, a link included, so the temporary file is always a new one.
    const tmp = join(dirname(abs), temporaryName(basename(abs)));
    const handle = await open(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o644);
    try {
      await handle.writeFile(data);
    } finally {
      await handle.close();
    }
    return tmp;
  };

  const swapIn = async (staged: string, path: string): Promise<void> => {
    const abs = checkFile(path);
    if (dirname(resolve(staged)) !== dirname(abs)) throw new UnsafePathError(`${staged} is not beside ${abs}`, staged);
    await walk(dirname(abs), false);
    // rename() replaces a link at `abs` with the file; it never writes through it.
    await rename(staged, abs);
  };

  return {
    root,
    stageFile,
    swapIn,
    async writeFile(path, data) {
      const staged = await stageFile(path, data);
      try {
        await swapIn(staged, path);
      } catch (err) {
        await rm(staged, { force: true });
        throw err;
      }
    },
    async appendFile(path, data) {
      const abs = checkFile(path);
      await walk(dirname(abs), true);
      const handle = await open(abs, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0), 0o644).catch((err: NodeJS.ErrnoException) => {
        throw err.code === 'ELOOP' ? new UnsafePathError(`${abs} is a symbolic link; nothing is written through it`, abs) : err;
      });
      try {
        await handle.appendFile(data);
      } finally {
        await handle.close();
      }
    },
    async remove(path) {
      const abs = checkFile(path);
      // Nothing to remove when a folder on the way is missing; a link on the way is refused.
      await walk(dirname(abs), false);
      try {
        await lstat(dirname(abs));
      } catch {
        return;
      }
      // rm() looks at the entry itself (lstat): a link is unlinked, its target left alone.
      await rm(abs, { recursive: true, force: true });
    },
    async ensureDir(path) {
      await walk(resolve(path), true);
    },
  };
}

/** The name a file is written under before it is renamed over `name` (`.<name>.<pid>.<hex>.tmp`): new every time. */
function temporaryName(name: string): string {
  return `.${name}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
}

/**
 * A temporary path beside `path` (see `temporaryName`), for a file put there
 * by other means than {@link SafeTarget.stageFile} (a link, a copy) and then
 * renamed over `path`; {@link isTemporaryFile} knows it if a kill leaves it.
 */
export function temporaryPathBeside(path: string): string {
  return join(dirname(path), temporaryName(basename(path)));
}

/**
 * Whether a path is a temporary file the safe writer left behind (a write cut
 * short by a kill): callers that tidy a target remove these, and never take
 * one for a file of their own.
 */
export function isTemporaryFile(path: string): boolean {
  return /(^|[\\/])\.[^\\/]+\.\d+\.[0-9a-f]+\.tmp$/.test(path);
}
