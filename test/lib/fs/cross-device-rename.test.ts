import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { allowCrossDeviceRename, movesAcrossDevices } from '../../../src/lib/fs/cross-device-rename.js';

const here = mkdtempSync(join(tmpdir(), 'sp-xdev-'));
/** A folder on another file system than the temporary folder, where the machine has one (a tmpfs at /dev/shm). */
const other = existsSync('/dev/shm') && statSync('/dev/shm').dev !== statSync(here).dev ? mkdtempSync('/dev/shm/sp-xdev-') : undefined;
afterAll(() => {
  rmSync(here, { recursive: true, force: true });
  if (other) rmSync(other, { recursive: true, force: true });
});

describe('an output folder on another file system', () => {
  it('is told apart from one on the same file system, or inside the working folder, by its nearest existing folder', () => {
    expect(movesAcrossDevices(join(here, 'site'), here)).toBe(false);
    expect(movesAcrossDevices(join(tmpdir(), 'not-yet', 'site'), here)).toBe(false);
    if (!other) return;
    expect(movesAcrossDevices(join(other, 'not-yet', 'site'), here)).toBe(true);
    // Inside the working folder, Astro keeps its own files there: nothing moves.
    expect(movesAcrossDevices(join(other, 'site'), other)).toBe(false);
  });

  it.skipIf(!other)('gets a file moved to it, replacing one there, while allowed, and a rename fails across as before otherwise', async () => {
    const from = join(here, 'a.css');
    const to = join(other!, 'out', 'a.css');
    mkdirSync(join(other!, 'out'));
    writeFileSync(from, 'new');
    writeFileSync(to, 'old');
    await expect(fs.promises.rename(from, to)).rejects.toThrow(/EXDEV/);
    const restore = allowCrossDeviceRename();
    try {
      // Astro names the files by URL.
      await fs.promises.rename(new URL(`file://${from}`), new URL(`file://${to}`));
      expect(readFileSync(to, 'utf8')).toBe('new');
      expect(existsSync(from)).toBe(false);
      // Any other failure is as it was.
      await expect(fs.promises.rename(join(here, 'missing.css'), to)).rejects.toThrow(/ENOENT/);
    } finally {
      restore();
    }
    writeFileSync(from, 'again');
    await expect(fs.promises.rename(from, to)).rejects.toThrow(/EXDEV/);
    await expect(rename(from, to)).rejects.toThrow(/EXDEV/);
    expect(readFileSync(to, 'utf8')).toBe('new');
  });
});
