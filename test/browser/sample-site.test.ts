import { PERMALINK } from '../../src/lib/render/interface-labels.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { JSDOM } from 'jsdom';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanDist } from '../../scripts/lib/import/scan-dist.js';
import { seriousA11yViolations } from '../helpers/browser.js';
import { searchAndLand, serveSampleSite, uniqueWord, type ServedSite } from './site-helpers.js';

/**
 * What a person sees on the site built from the bundled samples: the README's
 * own `npm run build`, into a temporary folder.
 */
let site: ServedSite;
let out = '';
let server: ServedSite['server'];
let browser: ServedSite['browser'];
let sessionUrls: string[] = [];

beforeAll(async () => {
  site = await serveSampleSite('sp-sample-');
  ({ out, server, browser } = site);
  sessionUrls = site.sessionPaths;
}, 600_000);

afterAll(() => site?.close());

async function open(path: string, width = 1200): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 800 } });
  await page.goto(`${server.url}${path}`);
  return page;
}

describe('the sample site in Chromium', () => {
  it('holds nothing the strict audit flags: no home path, username, address or secret in pages or search index', async () => {
    // The samples are written with invented home paths and tokens; the build must have redacted every one.
    const { files, findings } = await scanDist(out);
    expect(files).toBeGreaterThan(10);
    expect(findings).toEqual([]);
  });

  it('opens a session from the index', async () => {
    expect(sessionUrls.length).toBeGreaterThanOrEqual(3);
    const page = await open('');
    const link = page.locator('.session-list a').first();
    const title = (await link.textContent())!.trim();
    await link.click();
    await expect.poll(() => page.locator('h1').textContent(), { timeout: 15_000 }).toContain(title.slice(0, 20));
    expect(await page.locator('[data-transcript] [data-uuid]').count()).toBeGreaterThan(2);
    await page.close();
  });

  it('opens a collapsed output without JavaScript help', async () => {
    const page = await browser.newPage({ javaScriptEnabled: false });
    let found = false;
    for (const path of sessionUrls) {
      await page.goto(`${server.url}${path}`);
      // A tool call collapsed to its row (outside any other closed section) if the page has one, else any
      // collapsed part. Element handles, not locators: a `details:not([open])` locator would re-resolve to
      // the next closed one as soon as this one opens.
      const details = (await page.$('[data-transcript] details.tool:not([open]):not(details:not([open]) *)')) ?? (await page.$('[data-transcript] details:not([open])'));
      if (!details) continue;
      const body = (await details.$(':scope > :not(summary)'))!;
      const summary = (await details.$(':scope > summary'))!;
      expect(await body.isVisible()).toBe(false);
      await summary.click();
      expect(await details.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
      expect(await body.isVisible()).toBe(true);
      found = true;
      break;
    }
    expect(found).toBe(true);
    await page.close();
  });

  it('gives every message a copy-link button that puts its permalink in reach', async () => {
    const page = await open(sessionUrls[0]);
    // A message's permalink: the link in its header, or first in a continuation (PERMALINK).
    const permalinks = PERMALINK.split(',').map((s) => `[data-transcript] ${s.trim()}`).join(', ');
    const messages = await page.locator(permalinks).count();
    expect(messages).toBeGreaterThan(2);
    expect(messages).toBe(await page.locator('[data-transcript] [data-uuid]:not(.empty)').count());
    await expect.poll(() => page.locator('[data-transcript] button.copy-link').count(), { timeout: 15_000 }).toBe(messages);
    const button = page.locator('[data-transcript] button.copy-link').nth(1);
    const href = await button.evaluate((b) => b.previousElementSibling!.getAttribute('href'));
    expect(href).toMatch(/^#m-/);
    // The button shows on hover or keyboard focus: reach it the keyboard's way, from its permalink.
    expect(await button.isVisible()).toBe(false);
    await button.evaluate((b) => (b.previousElementSibling as HTMLElement).focus());
    expect(await button.isVisible()).toBe(true);
    await button.click();
    // Headless Chromium may refuse the clipboard; then the link is put in the address bar instead.
    await expect.poll(async () => (await button.textContent()) === 'Copied' || new URL(page.url()).hash === href, { timeout: 15_000 }).toBe(true);
    await page.close();
  });

  it('follows a permalink to a message, in view and highlighted', async () => {
    const path = sessionUrls[0];
    const doc = new JSDOM(readFileSync(join(out, path, 'index.html'), 'utf8')).window.document;
    const all = [...doc.querySelectorAll('[data-transcript] [data-uuid]')];
    const target = all[Math.floor(all.length * 0.75)].getAttribute('data-uuid')!;
    const page = await open(`${path}#m-${target}`);
    const el = page.locator(`[data-uuid="${target}"]`).first();
    await expect.poll(() => el.evaluate((e) => e.classList.contains('is-target')), { timeout: 15_000 }).toBe(true);
    const box = (await el.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(-1);
    expect(box.y).toBeLessThan(800);
    const outline = await el.evaluate((e) => getComputedStyle(e).outlineStyle + getComputedStyle(e).backgroundColor);
    expect(outline).not.toBe('none' + 'rgba(0, 0, 0, 0)');
    await page.close();
  });

  it('switches between light and dark themes and remembers the choice', async () => {
    const page = await open(sessionUrls[0]);
    const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const before = await bg();
    await page.click('[data-theme-toggle]');
    const after = await bg();
    expect(after).not.toBe(before);
    await page.reload();
    expect(await bg()).toBe(after);
    await page.close();
  });

  it('reads on a 360 px phone without scrolling the page sideways', async () => {
    for (const path of ['', ...sessionUrls.slice(0, 3)]) {
      const page = await open(path, 360);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, path).toBeLessThanOrEqual(0);
      await page.close();
    }
  });

  it('has no serious or critical accessibility violation on the index, the search page and three sessions', async () => {
    const problems: Record<string, unknown> = {};
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const path of ['', 'search/', ...sessionUrls.slice(0, 3)]) {
        const page = await browser.newPage({ viewport: { width: 1200, height: 800 }, colorScheme });
        await page.goto(`${server.url}${path}`);
        const found = await seriousA11yViolations(page);
        if (found.length) problems[`${colorScheme} ${path || 'index'}`] = found;
        await page.close();
      }
      // The search dialog, open and showing results.
      const page = await browser.newPage({ viewport: { width: 1200, height: 800 }, colorScheme });
      await page.goto(server.url);
      await page.keyboard.press('/');
      await page.fill('[data-search-input]', uniqueWord(out, sessionUrls).word);
      await page.locator('[data-search-results] a.result-hit').first().waitFor();
      const found = await seriousA11yViolations(page);
      if (found.length) problems[`${colorScheme} search dialog`] = found;
      await page.close();
    }
    expect(problems).toEqual({});
  });

  it('searches for a word found in one message and lands on that message', async () => {
    const { word, path, uuid } = uniqueWord(out, sessionUrls);
    const page = await open('');
    const href = await searchAndLand(page, word, path, uuid);
    expect(href).toContain(path);
    await page.close();
  });

  it('narrows a query to one project with the filter on the search page', async () => {
    const word = wordInEveryProject();
    const page = await open(`search/?q=${encodeURIComponent(word)}`);
    const select = page.locator('select[data-filter="project"]');
    await select.waitFor();
    const status = page.locator('[data-search-page-status]');
    await expect.poll(() => status.textContent(), { timeout: 15_000 }).toMatch(/\d+ sessions? match/);
    const metas = () => page.locator('[data-search-page-results] > li > .result-meta').allTextContents();
    const before = await metas();
    const options = await select.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value).filter(Boolean));
    expect(options.length).toBeGreaterThanOrEqual(2);
    // The unfiltered query finds sessions of more than one project (notes may add a filter value of their own).
    const projects = options.filter((o) => before.some((m) => m.includes(o)));
    expect(projects.length).toBeGreaterThanOrEqual(2);
    const chosen = projects[0];
    await select.selectOption(chosen);
    await expect.poll(async () => (await metas()).length, { timeout: 15_000 }).toBeLessThan(before.length);
    const after = await metas();
    expect(after.length).toBeGreaterThan(0);
    for (const m of after) expect(m).toContain(chosen);
    await page.close();
  });
});

/** A word of 6+ letters found in the transcript of at least one session of every project. */
function wordInEveryProject(): string {
  const byProject = new Map<string, Set<string>>();
  for (const path of sessionUrls) {
    const project = path.split('/')[1];
    const doc = new JSDOM(readFileSync(join(out, path, 'index.html'), 'utf8')).window.document;
    // Only text the index holds: thinking, tables of contents and other ignored parts are left out.
    for (const ignored of doc.querySelectorAll('[data-pagefind-ignore]')) ignored.remove();
    const words = (doc.querySelector('[data-transcript]')?.textContent ?? '').toLowerCase().match(/\b[a-z]{6,}\b/g) ?? [];
    const set = byProject.get(project) ?? new Set();
    for (const w of words) set.add(w);
    byProject.set(project, set);
  }
  const [first, ...rest] = [...byProject.values()];
  const common = [...first].filter((w) => rest.every((s) => s.has(w))).sort();
  if (!common.length) throw new Error('no word is common to every project');
  return common[0];
}
