import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JSDOM } from 'jsdom';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, listFiles } from '../helpers/build.js';
import { launchBrowser } from '../helpers/browser.js';
import { serveStatic, type StaticServer } from '../helpers/serve.js';
import { repoRoot } from '../helpers/shared.js';

/**
 * Code inside a closed `<details>` is built plain (marked `data-hl="lazy"`) and
 * highlighted in the browser when opened, from the site's own scripts; code
 * shown open is highlighted by the build.
 */
describe('code in closed details is highlighted when opened', () => {
  const root = mkdtempSync(join(tmpdir(), 'sp-lazy-'));
  const out = join(root, 'site');
  let server: StaticServer;
  let browser: Browser;
  beforeAll(async () => {
    const run = await buildSite(out, { SESSIONPRESS_SOURCE: join(repoRoot, 'content', 'sessions') });
    expect(run.code, run.log.slice(-2000)).toBe(0);
    server = await serveStatic(out);
    browser = await launchBrowser();
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('builds closed code plain and open code highlighted', () => {
    let lazy = 0;
    for (const f of listFiles(join(out, 'sessions')).filter((p) => p.endsWith('.html'))) {
      const doc = new JSDOM(readFileSync(f, 'utf8')).window.document;
      for (const pre of doc.querySelectorAll('[data-transcript] pre[data-hl="lazy"]')) {
        lazy++;
        expect(pre.closest('details:not([open])'), 'a lazy block sits in a closed details').not.toBeNull();
        expect(pre.querySelector('span[class^="t-"]'), 'and has no colours yet').toBeNull();
        expect(pre.getAttribute('data-lang')).toBeTruthy();
      }
    }
    expect(lazy).toBeGreaterThan(0);
  });

  it('colours a lazy block when its details opens, with no request outside the site', async () => {
    const file = listFiles(join(out, 'sessions')).find((p) => p.endsWith('.html') && readFileSync(p, 'utf8').includes('data-hl="lazy"'))!;
    const path = file.slice(out.length + 1).replace(/index\.html$/, '');
    const page = await browser.newPage();
    const outside: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(server.url) && !r.url().startsWith('data:')) outside.push(r.url());
    });
    const response = await page.goto(new URL(path, server.url).href);
    expect(response?.status()).toBe(200);
    const before = await page.evaluate(() => {
      const pre = document.querySelector('pre[data-hl="lazy"]')!;
      pre.setAttribute('data-test-target', '');
      return { text: pre.textContent, spans: pre.querySelectorAll('span[class^="t-"]').length };
    });
    expect(before.spans).toBe(0);
    // Open every closed details around the block, outermost first.
    await page.evaluate(() => {
      const pre = document.querySelector('[data-test-target]')!;
      const chain: HTMLDetailsElement[] = [];
      for (let d = pre.closest('details'); d; d = d.parentElement?.closest('details') ?? null) chain.unshift(d as HTMLDetailsElement);
      for (const d of chain) d.open = true;
    });
    await page.waitForFunction(() => document.querySelector('[data-test-target]')!.querySelectorAll('span[class^="t-"]').length > 0, undefined, { timeout: 20_000 });
    const after = await page.evaluate(() => {
      const pre = document.querySelector('[data-test-target]')!;
      return { text: pre.textContent, lazy: pre.getAttribute('data-hl') };
    });
    // The same text, now coloured; nothing fetched from elsewhere.
    expect(after.text).toBe(before.text);
    expect(after.lazy).toBeNull();
    expect(outside).toEqual([]);
    expect(server.notFound).toEqual([]);
    await page.close();
  }, 60_000);
});
