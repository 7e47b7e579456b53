import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JSDOM } from 'jsdom';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, listFiles } from '../helpers/build.js';
import { launchBrowser, seriousA11yViolations } from '../helpers/browser.js';
import { serveStatic, type StaticServer } from '../helpers/serve.js';
import { repoRoot } from '../helpers/shared.js';

/**
 * What a person sees on the site built from the bundled samples: the README's
 * own `npm run build`, into a temporary folder.
 */
const out = mkdtempSync(join(tmpdir(), 'sp-sample-'));
let server: StaticServer;
let browser: Browser;
let sessionUrls: string[] = [];

beforeAll(async () => {
  const run = await buildSite(out, { SESSIONPRESS_SOURCE: join(repoRoot, 'content', 'sessions') });
  if (run.code !== 0) throw new Error(`build failed:\n${run.log.slice(-3000)}`);
  server = await serveStatic(out);
  browser = await launchBrowser();
  sessionUrls = listFiles(join(out, 'sessions'))
    .filter((f) => f.endsWith('index.html'))
    .map((f) => f.slice(out.length + 1).replace(/index\.html$/, ''))
    .sort();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function open(path: string, width = 1200): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 800 } });
  await page.goto(`${server.url}${path}`);
  return page;
}

/** A word that occurs in exactly one message of one session page, and nowhere else on the site. */
function uniqueWord(): { word: string; path: string; uuid: string } {
  const seen = new Map<string, Array<{ path: string; uuid: string }>>();
  for (const path of sessionUrls) {
    const doc = new JSDOM(readFileSync(join(out, path, 'index.html'), 'utf8')).window.document;
    for (const msg of doc.querySelectorAll('[data-transcript] [data-uuid]')) {
      if (msg.querySelector('[data-uuid]')) continue; // innermost messages only
      const words = new Set((msg.textContent ?? '').toLowerCase().match(/\b[a-z]{9,14}\b/g) ?? []);
      for (const w of words) {
        const list = seen.get(w) ?? [];
        list.push({ path, uuid: msg.getAttribute('data-uuid')! });
        seen.set(w, list);
      }
    }
  }
  const everything = listFiles(out)
    .filter((f) => f.endsWith('.html'))
    .map((f) => readFileSync(f, 'utf8').toLowerCase())
    .join('\n');
  for (const [word, where] of [...seen].sort()) {
    if (where.length === 1 && everything.split(word).length - 1 === 1) return { word, ...where[0] };
  }
  throw new Error('no word occurs in exactly one message');
}

describe('the sample site in Chromium', () => {
  it('opens a session from the index', async () => {
    expect(sessionUrls.length).toBeGreaterThanOrEqual(3);
    const page = await open('');
    const link = page.locator('.session-list a').first();
    const title = (await link.textContent())!.trim();
    await link.click();
    await expect.poll(() => page.locator('h1').textContent()).toContain(title.slice(0, 20));
    expect(await page.locator('[data-transcript] [data-uuid]').count()).toBeGreaterThan(2);
    await page.close();
  });

  it('opens a collapsed output without JavaScript help', async () => {
    const page = await browser.newPage({ javaScriptEnabled: false });
    let found = false;
    for (const path of sessionUrls) {
      await page.goto(`${server.url}${path}`);
      const details = page.locator('[data-transcript] details:not([open])').first();
      if ((await details.count()) === 0) continue;
      const body = details.locator(':scope > :not(summary)').first();
      expect(await body.isVisible()).toBe(false);
      await details.locator(':scope > summary').click();
      expect(await body.isVisible()).toBe(true);
      found = true;
      break;
    }
    expect(found).toBe(true);
    await page.close();
  });

  it('follows a permalink to a message, in view and highlighted', async () => {
    const path = sessionUrls[0];
    const doc = new JSDOM(readFileSync(join(out, path, 'index.html'), 'utf8')).window.document;
    const all = [...doc.querySelectorAll('[data-transcript] [data-uuid]')];
    const target = all[Math.floor(all.length * 0.75)].getAttribute('data-uuid')!;
    const page = await open(`${path}#m-${target}`);
    const el = page.locator(`[data-uuid="${target}"]`).first();
    await expect.poll(() => el.evaluate((e) => e.classList.contains('is-target'))).toBe(true);
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

  it('has no serious or critical accessibility violation on the index and three sessions', async () => {
    for (const path of ['', ...sessionUrls.slice(0, 3)]) {
      const page = await open(path);
      expect(await seriousA11yViolations(page), path || 'index').toEqual([]);
      await page.close();
    }
  });

  it('searches for a word found in one message and lands on that message', async () => {
    const { word, path, uuid } = uniqueWord();
    const page = await open('');
    await page.keyboard.press('/');
    await page.fill('[data-search-input]', word);
    const hit = page.locator('[data-search-results] a.result-hit').first();
    await hit.waitFor();
    await hit.click();
    await page.waitForURL((u) => u.pathname.endsWith(path) || u.pathname.endsWith(`/${path}`));
    const el = page.locator(`[data-uuid="${uuid}"]`).first();
    await expect.poll(() => el.evaluate((e) => e.classList.contains('is-target'))).toBe(true);
    const box = (await el.boundingBox())!;
    expect(box.y).toBeLessThan(800);
    expect(box.y + box.height).toBeGreaterThan(0);
    await page.close();
  });

  it('filters search results by project', async () => {
    const page = await open('search/');
    const select = page.locator('select[data-filter="project"]');
    await select.waitFor();
    const options = await select.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value).filter(Boolean));
    expect(options.length).toBeGreaterThanOrEqual(2);
    await select.selectOption(options[0]);
    const results = page.locator('[data-search-page-results] > li');
    await results.first().waitFor();
    const metas = await page.locator('[data-search-page-results] .result-meta').allTextContents();
    expect(metas.length).toBeGreaterThan(0);
    for (const m of metas) expect(m).toContain(options[0]);
    await page.close();
  });
});
