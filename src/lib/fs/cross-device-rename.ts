import fs, { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { temporaryPathBeside } from './safe-write.js';

/**
 * Whether Astro's build would move files from `workingFolder` to `outDir`
 * across file systems. Astro writes the prerendered part of a build below the
 * working folder when the output folder is not inside it (its modules must
 * find the project's packages from there), then moves that part's assets into
 * the output folder with `rename`. `/tmp` is a tmpfs on many systems, and a
 * container's volumes are mounts of their own.
 */
export function movesAcrossDevices(outDir: string, workingFolder: string): boolean {
  const out = resolve(outDir);
  // Astro's own test (`getOutDirWithinCwd`): a plain prefix of the path.
  if (out.startsWith(workingFolder)) return false;
  return deviceOf(out) !== deviceOf(workingFolder);
}

/** The file system a path is on, or would be on once created: that of its nearest existing folder. */
export function deviceOf(path: string): number {
  let existing = resolve(path);
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  return statSync(existing).dev;
}

/**
 * Lets `fs.promises.rename` move a file to another file system, until the
 * returned function is called: where the rename fails with `EXDEV`, the file
 * is copied beside its destination, renamed over it (a file there is replaced
 * whole, as a rename replaces it), and the original removed. Astro's
 * build moves its prerendered assets with that call, and failed with `EXDEV:
 * cross-device link not permitted` for an output folder on another disk (see
 * `movesAcrossDevices`). Any other failure, and a rename Node can do, are left
 * as they were.
 */
export function allowCrossDeviceRename(): () => void {
  const original = fs.promises.rename;
  const rename: typeof original = async (from, to) => {
    try {
      return await original(from, to);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      // As a rename would, it replaces what is at `to`, whole: copied beside it, then renamed over it.
      const part = temporaryPathBeside(to instanceof URL ? fileURLToPath(to) : String(to));
      await fs.promises.copyFile(from, part, fs.constants.COPYFILE_EXCL);
      await original(part, to);
      await fs.promises.rm(from);
    }
  };
  fs.promises.rename = rename;
  return () => {
    if (fs.promises.rename === rename) fs.promises.rename = original;
  };
}
