import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser.js';
import { buildSite, listFiles } from '../helpers/build.js';
import { serveStatic } from '../helpers/serve.js';
import { corpusRoot } from '../helpers/shared.js';
import { serveSampleSite, type ServedSite } from './site-helpers.js';

/**
 * Code inside a closed `<details>` is built plain (marked `data-hl="lazy"`) and
 * highlighted in the browser when opened, from the site's own scripts; code
 * shown open is highlighted by the build.
 */
describe('code in closed details is highlighted when opened', () => {
  let site: ServedSite;
  let out = '';
  beforeAll(async () => {
    site = await serveSampleSite('sp-lazy-');
    out = site.out;
  }, 300_000);
  afterAll(() => site?.close());


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
    const page = await site.browser.newPage();
    const outside: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(site.server.url) && !r.url().startsWith('data:')) outside.push(r.url());
    });
    const response = await page.goto(new URL(path, site.server.url).href);
    expect(response?.status()).toBe(200);
    const before = await page.evaluate(() => {
      // A numbered block when there is one: its gutter is drawn as it opens.
      const pre = document.querySelector('pre[data-hl="lazy"][data-start]') ?? document.querySelector('pre[data-hl="lazy"]')!;
      pre.setAttribute('data-test-target', '');
      return { text: pre.textContent, spans: pre.querySelectorAll('span[class^="t-"]').length, start: pre.getAttribute('data-start') };
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
      const gutter = pre.querySelector(':scope > code > .gutter');
      return { text: (pre.querySelector(':scope > code > .src') ?? pre).textContent, lazy: pre.getAttribute('data-hl'), gutter: gutter?.textContent ?? null };
    });
    // The same text, now coloured; nothing fetched from elsewhere.
    expect(after.text).toBe(before.text);
    expect(after.lazy).toBeNull();
    // A numbered block sent without its gutter (data-start) has it drawn, one number per line from the first.
    if (before.start !== null) {
      const numbers = after.gutter!.split('\n');
      expect(numbers[0]).toBe(before.start);
      expect(numbers.length).toBe(before.text!.split('\n').length);
      expect(Number(numbers[numbers.length - 1])).toBe(Number(before.start) + numbers.length - 1);
    }
    expect(outside).toEqual([]);
    expect(site.server.notFound).toEqual([]);
    await page.close();
  }, 60_000);
});

/**
 * Diffs inside a closed `<details>` (here: edits made by subagents, whose
 * transcripts start closed) are built plain and coloured when opened, keeping
 * the marked words of changed lines and the lines' numbers.
 */
describe('diffs in closed details are highlighted when opened', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('colours the lines of a lazy diff, leaves marked lines as they are, and changes no text', async () => {
    const source = mkdtempSync(join(tmpdir(), 'sp-lazy-diff-src-'));
    const out = mkdtempSync(join(tmpdir(), 'sp-lazy-diff-out-'));
    dirs.push(source, out, `${out}-cache`);
    // A real session whose subagents made edits.
    cpSync(join(corpusRoot, 'sample-project'), join(source, 'sample-project'), { recursive: true });
    const run = await buildSite(out, { SESSIONPRESS_SOURCE: source });
    expect(run.code, run.log.slice(-2000)).toBe(0);
    const file = listFiles(join(out, 'sessions')).find((p) => p.endsWith('.html') && /<pre class="code diff"[^>]*data-hl="lazy"/.test(readFileSync(p, 'utf8')));
    expect(file, 'a page with a lazy diff').toBeTruthy();
    const server = await serveStatic(out);
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      await page.goto(new URL(file!.slice(out.length + 1).replace(/index\.html$/, ''), server.url).href);
      const before = await page.evaluate(() => {
        const pre = document.querySelector('pre.diff[data-hl="lazy"]')!;
        pre.setAttribute('data-test-target', '');
        const lines = [...pre.querySelectorAll(':scope > code > *')];
        return { text: pre.textContent, lines: lines.map((l) => l.tagName), marked: lines.map((l) => l.querySelector('mark')?.outerHTML ?? null), spans: pre.querySelectorAll('span[class^="t-"]').length };
      });
      expect(before.spans).toBe(0);
      await page.evaluate(() => {
        const pre = document.querySelector('[data-test-target]')!;
        for (let d = pre.closest('details'); d; d = d.parentElement?.closest('details') ?? null) (d as HTMLDetailsElement).open = true;
      });
      await page.waitForFunction(() => document.querySelector('[data-test-target]')!.querySelectorAll('span[class^="t-"]').length > 0, undefined, { timeout: 20_000 });
      const after = await page.evaluate(() => {
        const pre = document.querySelector('[data-test-target]')!;
        const lines = [...pre.querySelectorAll(':scope > code > *')];
        return { text: pre.textContent, lines: lines.map((l) => l.tagName), marked: lines.map((l) => l.querySelector('mark')?.outerHTML ?? null), lazy: pre.getAttribute('data-hl') };
      });
      expect(after.lazy).toBeNull();
      expect(after.text).toBe(before.text);
      expect(after.lines).toEqual(before.lines);
      expect(after.marked).toEqual(before.marked);
      expect(server.notFound).toEqual([]);
    } finally {
      await browser.close();
      await server.close();
    }
  }, 180_000);
});
