import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSite, listFiles } from '../helpers/build.js';
import { repoRoot } from '../helpers/shared.js';
import { isTemporaryFile } from '../../src/lib/fs/safe-write.js';

/** A folder on another file system than the project, where the machine has one (a tmpfs at /dev/shm). */
const other = existsSync('/dev/shm') && statSync('/dev/shm').dev !== statSync(repoRoot).dev ? mkdtempSync('/dev/shm/sp-other-disk-') : undefined;
const cache = mkdtempSync(join(tmpdir(), 'sp-other-disk-cache-'));
afterAll(() => {
  if (other) rmSync(other, { recursive: true, force: true });
  rmSync(cache, { recursive: true, force: true });
});

describe('an output folder on another disk than the project', () => {
  // Astro moved its prerendered assets into it with a rename, and the build failed: "EXDEV: cross-device link not permitted".
  it.skipIf(!other)('is built, and built again over the last build, with its styles', async () => {
    const out = join(other!, 'site');
    for (const run of ['first', 'again']) {
      const build = await buildSite(out, { SESSIONPRESS_CACHE_DIR: cache }, run === 'again' ? ['--force'] : []);
      expect(build.code, `${run}: ${build.log.slice(-2000)}`).toBe(0);
      expect(build.log).not.toContain('EXDEV');
      expect(existsSync(join(out, 'index.html'))).toBe(true);
      expect(readdirSync(join(out, '_astro')).some((f) => f.endsWith('.css'))).toBe(true);
      // Nothing of the move is left behind.
      expect(listFiles(out).filter((f) => isTemporaryFile(f) || f.endsWith('.part') || f.includes('.prerender'))).toEqual([]);
    }
  }, 300_000);
});
