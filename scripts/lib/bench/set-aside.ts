import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';

/**
 * Where a bench puts the output and caches of its earlier runs (`setAside`),
 * inside its own folder: a rename must stay on one file system.
 */
export function trashOf(benchDir: string): string {
  return join(benchDir, 'trash');
}

let counter = 0;

/**
 * Moves `path`, when it exists, into `trash` instead of deleting it, so that a
 * cold run starts from nothing without a mass deletion just before it. On
 * this machine's disk (ext4 without a journal) every file created in the
 * seconds after thousands were deleted costs far more kernel time, and the
 * cost grew run after run: a cold build's page step, with the last run's
 * 5,000 files deleted before each, went from 3.8 to 7.9 s (kernel time 3.6 to
 * 11.4 s) over four runs; with them moved aside it stayed at 3.1–3.6 s
 * (kernel time 2.1–2.7 s). Deleting them measured the bench's own cleanup,
 * and weighed on a tool by the files it writes. `emptyTrash` deletes them
 * once nothing is being measured.
 */
export async function setAside(path: string, trash: string): Promise<void> {
  if (!existsSync(path)) return;
  await mkdir(trash, { recursive: true });
  await rename(path, join(trash, `${basename(path)}-${process.pid}-${++counter}`));
}

/** Deletes what `setAside` moved into `trash` (and what an interrupted bench left there). */
export async function emptyTrash(trash: string): Promise<void> {
  await rm(trash, { recursive: true, force: true });
}
