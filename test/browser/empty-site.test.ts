import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser.js';
import { buildSite } from '../helpers/build.js';
import { serveStatic } from '../helpers/serve.js';

/** A source folder with no sessions and no notes still builds, and search says there is nothing rather than failing. */
describe('a site with nothing to search', () => {
  it('builds, and its search answers "0 sessions match"', async () => {
    const root = mkdtempSync(join(tmpdir(), 'sp-empty-'));
    const out = join(root, 'dist');
    try {
      const run = await buildSite(out, { SESSIONPRESS_SOURCE: mkdtempSync(join(root, 'src-')), SESSIONPRESS_NOTES: mkdtempSync(join(root, 'notes-')) });
      expect(run.code, run.log.slice(-2000)).toBe(0);
      // One line says the folder holds no session; Astro does not warn once per page that the collection is empty.
      expect(run.log.match(/No Claude Code session files in /g)).toHaveLength(1);
      expect(run.log).not.toMatch(/does not exist or is empty/);
      expect(JSON.parse(readFileSync(join(out, '_sessionpress', 'pagefind', 'sessionpress-search.json'), 'utf8')).pages).toBe(0);
      const server = await serveStatic(out);
      const browser = await launchBrowser();
      try {
        const page = await browser.newPage();
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(String(e)));
        await page.goto(server.url);
        await page.keyboard.press('/');
        await page.fill('[data-search-input]', 'anything');
        await expect.poll(() => page.locator('[data-search-status]').textContent(), { timeout: 15_000 }).toBe('0 sessions match');
        expect(errors).toEqual([]);
      } finally {
        await browser.close();
        await server.close();
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
      rmSync(`${out}-cache`, { recursive: true, force: true });
    }
  }, 300_000);
});
