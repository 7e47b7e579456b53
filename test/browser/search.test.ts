import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JSDOM } from 'jsdom';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../helpers/build.js';
import { launchBrowser } from '../helpers/browser.js';
import { serveStatic, type StaticServer } from '../helpers/serve.js';
import { repoRoot } from '../helpers/shared.js';
import { COMMON_SESSIONS, COMMON_WORD, HIDDEN_WORD, writeSearchFixture } from '../fixtures/search/sessions.js';
import { EXCLUDE_SELECTORS } from '../../src/integrations/pagefind.js';
import { sessionPagePaths } from './site-helpers.js';

/**
 * Search as a reader uses it, on the bundled samples plus a small invented
 * tree (test/fixtures/search): landing on the words, the query in the URL,
 * more results than one page, the dialog's keys, excerpts of message text
 * only, and a search page that fits a phone.
 */
let root = '';
let out = '';
let server: StaticServer;
let browser: Browser;
let sessionPaths: string[] = [];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'sp-search-'));
  const source = join(root, 'source');
  const samples = join(repoRoot, 'content', 'sessions');
  for (const d of readdirSync(samples, { withFileTypes: true })) if (d.isDirectory()) cpSync(join(samples, d.name), join(source, d.name), { recursive: true });
  writeSearchFixture(source);
  // The repository's notes quote sample sessions by id; this site has its own (empty) notes folder.
  mkdirSync(join(root, 'notes'));
  out = join(root, 'site');
  const run = await buildSite(out, { SESSIONPRESS_SOURCE: source, SESSIONPRESS_NOTES: join(root, 'notes'), SESSIONPRESS_CACHE_DIR: join(root, 'cache') });
  if (run.code !== 0) throw new Error(`build failed:\n${run.log.slice(-3000)}`);
  sessionPaths = sessionPagePaths(out);
  server = await serveStatic(out);
  browser = await launchBrowser();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

async function open(path: string, width = 1280, colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 800 }, colorScheme });
  await page.goto(`${server.url}${path}`);
  return page;
}

async function openDialog(page: Page, query: string): Promise<void> {
  await page.keyboard.press('/');
  await expect.poll(() => page.locator('[data-search-dialog]').evaluate((d) => (d as HTMLDialogElement).open), { timeout: 15_000 }).toBe(true);
  await page.fill('[data-search-input]', query);
  await expect.poll(() => page.locator('[data-search-status]').textContent(), { timeout: 15_000 }).toMatch(/\d+ sessions? match/);
}

/** Clicks the search page's "More results" until every result is shown. */
async function showAll(page: Page): Promise<void> {
  const rows = page.locator('[data-search-page-results] > li');
  const more = page.locator('[data-search-page-more]');
  while (await more.isVisible()) {
    const before = await rows.count();
    await more.click();
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBeGreaterThan(before);
  }
}

/** Every session page's transcript, parsed. */
function transcripts(): Array<{ path: string; doc: Document }> {
  return sessionPaths.map((path) => ({ path, doc: new JSDOM(readFileSync(join(out, path, 'index.html'), 'utf8')).window.document }));
}

describe('search', () => {
  it('the hidden word is, in the built page, only inside a closed section', () => {
    const found = transcripts().flatMap(({ path, doc }) => {
      const text = doc.querySelector('[data-transcript]')?.textContent ?? '';
      return text.toLowerCase().includes(HIDDEN_WORD) ? [{ path, doc }] : [];
    });
    expect(found).toHaveLength(1);
    const { doc } = found[0];
    const holders = [...doc.querySelectorAll('[data-transcript] *')].filter((e) => [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent!.toLowerCase().includes(HIDDEN_WORD)));
    expect(holders.length).toBeGreaterThan(0);
    for (const h of holders) expect(h.closest('details:not([open])'), 'inside a closed <details>').not.toBeNull();
  });

  it('lands on a word inside a collapsed section: the section open, the word marked and in view', async () => {
    const page = await open('');
    await openDialog(page, HIDDEN_WORD);
    const hit = page.locator('[data-search-results] a.result-hit').first();
    const href = (await hit.getAttribute('href'))!;
    expect(href).toContain(`highlight=${HIDDEN_WORD}`);
    await hit.click();
    await page.waitForURL((u) => u.pathname.startsWith('/sessions/'));
    const mark = page.locator('mark.search-mark.is-current');
    await mark.waitFor({ timeout: 15_000 });
    expect((await mark.textContent())!.toLowerCase()).toBe(HIDDEN_WORD);
    // Every section around it is open, so the word is visible, and it is within the viewport.
    expect(await mark.evaluate((m) => [...document.querySelectorAll('details')].filter((d) => d.contains(m) && !d.open).length)).toBe(0);
    expect(await mark.isVisible()).toBe(true);
    await expect.poll(async () => {
      const box = (await mark.boundingBox())!;
      return box.y >= 0 && box.y + box.height <= 800;
    }).toBe(true);
    // The word is marked, not the whole message.
    expect(await page.locator('.is-target').count()).toBe(0);
    const colours = await mark.evaluate((m) => ({ mark: getComputedStyle(m).backgroundColor, message: getComputedStyle(m.closest('[data-uuid]')!).backgroundColor }));
    expect(colours.message).not.toBe(colours.mark);
    await page.close();
  });

  it('marks the query words on the page a result title opens', async () => {
    const page = await open('');
    await openDialog(page, COMMON_WORD);
    const title = page.locator('[data-search-results] a.result-title').first();
    await title.click();
    await page.waitForURL((u) => u.pathname.startsWith('/sessions/'));
    await page.locator('mark.search-mark').first().waitFor({ timeout: 15_000 });
    const words = await page.locator('mark.search-mark').allTextContents();
    expect(words.length).toBeGreaterThan(0);
    for (const w of words) expect(w.toLowerCase()).toBe(COMMON_WORD);
    await page.close();
  });

  it('keeps the query in the URL, and Back returns to it with as many results', async () => {
    const page = await open('search/');
    await page.fill('[data-search-page-input]', COMMON_WORD);
    await expect.poll(() => new URL(page.url()).searchParams.get('q'), { timeout: 15_000 }).toBe(COMMON_WORD);
    const rows = page.locator('[data-search-page-results] > li');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(10);
    await page.click('[data-search-page-more]');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(20);
    await page.locator('[data-search-page-results] a.result-hit').nth(12).click();
    await page.waitForURL((u) => u.pathname.startsWith('/sessions/'));
    await page.goBack();
    await page.waitForURL((u) => u.pathname === '/search/');
    expect(new URL(page.url()).searchParams.get('q')).toBe(COMMON_WORD);
    await expect.poll(() => page.inputValue('[data-search-page-input]'), { timeout: 15_000 }).toBe(COMMON_WORD);
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(20);
    // A link with the query opens the same search.
    const linked = await open(`search/?q=${COMMON_WORD}`);
    await expect.poll(() => linked.locator('[data-search-page-results] > li').count(), { timeout: 15_000 }).toBe(10);
    await linked.close();
    await page.close();
  });

  it('shows results beyond the first page on the search page and in the dialog', async () => {
    const page = await open(`search/?q=${COMMON_WORD}`);
    const rows = page.locator('[data-search-page-results] > li');
    const more = page.locator('[data-search-page-more]');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(10);
    const firstPage = await rows.locator('a.result-title').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    const total = Number(/^(\d+)/.exec((await page.locator('[data-search-page-status]').textContent()) ?? '')?.[1]);
    expect(total).toBeGreaterThanOrEqual(COMMON_SESSIONS);
    expect(await more.isVisible()).toBe(true);
    await showAll(page);
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(total);
    const all = await rows.locator('a.result-title').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(new Set(all).size).toBe(total);
    expect(all.slice(0, 10)).toEqual(firstPage);
    await page.close();

    const home = await open('');
    await openDialog(home, COMMON_WORD);
    const dialogRows = home.locator('[data-search-results] > li');
    const before = await dialogRows.count();
    expect(before).toBeLessThan(COMMON_SESSIONS);
    await home.click('[data-search-more]');
    await expect.poll(() => dialogRows.count(), { timeout: 15_000 }).toBeGreaterThan(before);
    // Focus moved to the first new result, for keyboard users.
    expect(await home.evaluate((n) => document.activeElement === document.querySelectorAll('[data-search-results] > li')[n]?.querySelector('a.result-hit'), before)).toBe(true);
    await home.close();
  });

  it('moves through the dialog with the arrow keys and opens a hit with Enter', async () => {
    const page = await open('');
    await openDialog(page, COMMON_WORD);
    const hits = page.locator('[data-search-results] a.result-hit');
    await hits.nth(1).waitFor();
    const focused = () => page.evaluate(() => [...document.querySelectorAll('[data-search-results] a.result-hit')].indexOf(document.activeElement as Element));
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe(0);
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe(1);
    await page.keyboard.press('ArrowUp');
    expect(await focused()).toBe(0);
    await page.keyboard.press('ArrowUp');
    expect(await page.evaluate(() => document.activeElement?.matches('[data-search-input]'))).toBe(true);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    const href = (await hits.nth(1).getAttribute('href'))!;
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => `${u.pathname}${u.search}${u.hash}` === href);
    await page.close();

    // Enter in the input opens the first hit.
    const again = await open('');
    await openDialog(again, COMMON_WORD);
    const first = (await again.locator('[data-search-results] a.result-hit').first().getAttribute('href'))!;
    await again.keyboard.press('Enter');
    await again.waitForURL((u) => `${u.pathname}${u.search}${u.hash}` === first);
    await again.close();
  });

  it('shows excerpts of message text: no interface label, no markdown syntax', async () => {
    // The labels of the built pages: text the pages keep out of the index on purpose.
    const labels = new Set<string>();
    for (const { doc } of transcripts()) {
      // Marked in the page, or left out by the index settings.
      for (const el of doc.querySelectorAll(['[data-pagefind-ignore]', ...EXCLUDE_SELECTORS].map((s) => `[data-transcript] ${s}`).join(', '))) {
        const t = (el.textContent ?? '').replace(/\s+/g, ' ').trim();
        // Labels that cannot be message words: with a count, a `·`, or several words.
        if (t.length >= 6 && /[·\d]|\s/.test(t) && !/[.!?]$/.test(t)) labels.add(t);
      }
    }
    expect(labels.size).toBeGreaterThan(0);
    const page = await open('search/');
    const excerpts: string[] = [];
    for (const q of [COMMON_WORD, 'audit', 'file', 'the', 'diff', 'test', 'error', 'function']) {
      // Cleared first, so the status waited for belongs to this query.
      await page.fill('[data-search-page-input]', '');
      await expect.poll(() => page.locator('[data-search-page-status]').textContent(), { timeout: 15_000 }).toBe('');
      await page.fill('[data-search-page-input]', q);
      await expect.poll(() => page.locator('[data-search-page-status]').textContent(), { timeout: 15_000 }).toMatch(/\d+ sessions? match/);
      await showAll(page);
      excerpts.push(...(await page.locator('[data-search-page-results] .result-excerpt').allTextContents()));
    }
    expect(excerpts.length).toBeGreaterThan(COMMON_SESSIONS);
    for (const e of excerpts) {
      for (const label of labels) expect(e, `label "${label}"`).not.toContain(label);
      expect(e).not.toMatch(/Show diff|Show file|Copy link|\bShow \d+ more lines?\b|\d+ matching lines/);
      // Markdown around words (code keeps its own `**` and `#`, as in `/** doc */`).
      expect(e).not.toMatch(/`|\*\*[\p{L}]|[\p{L}]\*\*|(^|[.!?] )#{1,6} \p{Lu}/u);
    }
    // Titles come from prompts written in markdown; the syntax is gone, the words stay.
    await page.fill('[data-search-page-input]', COMMON_WORD);
    await expect.poll(() => page.locator('[data-search-page-results] .result-title').count(), { timeout: 15_000 }).toBe(10);
    for (const t of await page.locator('[data-search-page-results] .result-title').allTextContents()) {
      expect(t).toContain(COMMON_WORD);
      expect(t).not.toMatch(/`|\*\*/);
    }
    // Rows name the message they land on.
    const where = await page.locator('[data-search-page-results] .result-where').allTextContents();
    expect(where.length).toBeGreaterThan(0);
    for (const w of where) expect(w.trim()).not.toBe('');
    await page.close();
  });

  it('fits a 360 and a 390 px phone without scrolling sideways, filters and results shown', async () => {
    for (const width of [360, 390]) {
      const page = await open(`search/?q=${COMMON_WORD}`, width);
      await page.locator('select[data-filter="project"]').waitFor({ timeout: 15_000 });
      await expect.poll(() => page.locator('[data-search-page-results] > li').count(), { timeout: 15_000 }).toBe(10);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), `${width} px`).toBeLessThanOrEqual(0);
      await page.close();
    }
  });
});
