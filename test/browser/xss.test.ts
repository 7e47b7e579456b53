import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser.js';
import { serveStatic, type StaticServer } from '../helpers/serve.js';
import { loadExpect } from '../helpers/shared.js';
import { fixturesSite, sessionPagePaths } from './site-helpers.js';

/**
 * The hostile fixtures in a real browser: no payload of EXPECT.json's `xss`
 * set may run, whatever a reader does short of clicking a link, and every
 * payload's marker must still be readable as text.
 */
const expectations = loadExpect();
const xss = expectations.xss as {
  session_id: string;
  detect: { window_property: string; title_prefix: string };
  forbidden_selectors: string[];
  title_marker: string;
  payloads: Array<{ id: string; marker: string; payload: string; effect: string }>;
};
let out: string;
let server: StaticServer;
let browser: Browser;
let xssPath: string;

beforeAll(async () => {
  out = await fixturesSite();
  server = await serveStatic(out);
  browser = await launchBrowser();
  const path = sessionPagePaths(out).find((p) => p.endsWith(`/${xss.session_id}/`));
  if (!path) throw new Error(`no page for the XSS session ${xss.session_id}`);
  xssPath = path;
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

interface Watch {
  page: Page;
  /** Everything a payload could have done that the page recorded: window property writes, title changes, dialogs, navigations, errors. */
  events: string[];
}

/**
 * A page that reports any payload effect: writes to the watched window
 * property (trapped before any page script runs), every document.title
 * assignment, alert()/confirm() dialogs, and navigations away from the page
 * (a meta refresh to javascript:, say).
 */
async function watchedPage(): Promise<Watch> {
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  const events: string[] = [];
  await page.exposeFunction('__spReport', (what: string) => events.push(what));
  await page.addInitScript(
    ({ prop }) => {
      const report = (what: string) => (window as unknown as { __spReport(w: string): void }).__spReport(what);
      Object.defineProperty(window, prop, {
        configurable: false,
        get: () => undefined,
        set: (v) => report(`window.${prop} = ${String(v)}`),
      });
      const title = Object.getOwnPropertyDescriptor(Document.prototype, 'title')!;
      Object.defineProperty(Document.prototype, 'title', {
        configurable: true,
        get() {
          return title.get!.call(this);
        },
        set(v) {
          report(`document.title = ${String(v)}`);
          title.set!.call(this, v);
        },
      });
    },
    { prop: xss.detect.window_property },
  );
  page.on('dialog', (d) => {
    events.push(`dialog ${d.type()}: ${d.message()}`);
    void d.dismiss();
  });
  page.on('framenavigated', (f) => {
    if (f === page.mainFrame() && !f.url().startsWith(server.url)) events.push(`navigated to ${f.url()}`);
  });
  return { page, events };
}

/** What a curious reader does: scroll to the end, move the mouse about, open every collapsed part. */
async function readEverything(page: Page): Promise<void> {
  await page.evaluate(async () => {
    for (let y = 0; y < document.documentElement.scrollHeight; y += 500) {
      window.scrollTo(0, y);
      await new Promise((r) => setTimeout(r, 10));
    }
  });
  for (const [x, y] of [[100, 100], [600, 400], [300, 700], [1000, 200]]) await page.mouse.move(x, y, { steps: 5 });
  // Opening <details> by clicking their summaries fires `toggle` (ontoggle payloads) and renders their content.
  for (let round = 0; round < 5; round++) {
    const opened = await page.evaluate(() => {
      let n = 0;
      for (const s of document.querySelectorAll<HTMLElement>('details:not([open]) > summary')) {
        s.click();
        n++;
      }
      return n;
    });
    if (!opened) break;
  }
  await page.waitForTimeout(300);
}

/** Checks of a loaded page; returns the text a reader sees. */
async function assertInert(watch: Watch, label: string): Promise<string> {
  const { page, events } = watch;
  const state = await page.evaluate(
    ({ prop, selectors }) => ({
      value: (window as unknown as Record<string, unknown>)[prop],
      title: document.title,
      forbidden: selectors.flatMap((sel) =>
        [...document.querySelectorAll('[data-transcript], [data-branch], .session-header, main, [data-search-results]')].flatMap((root) =>
          [...root.querySelectorAll(sel)].map((e) => `${sel}: ${e.outerHTML.slice(0, 120)}`),
        ),
      ),
      text: document.body.innerText,
    }),
    { prop: xss.detect.window_property, selectors: xss.forbidden_selectors },
  );
  expect(events, `${label}: effects`).toEqual([]);
  expect(state.value, `${label}: window.${xss.detect.window_property}`).toBeUndefined();
  expect(state.title.startsWith(xss.detect.title_prefix), `${label}: title "${state.title}"`).toBe(false);
  expect([...new Set(state.forbidden)], `${label}: forbidden elements in page content`).toEqual([]);
  return state.text;
}

describe('XSS payloads of the fixtures in Chromium', () => {
  it('the XSS session page runs none and shows every marker as text', async () => {
    const watch = await watchedPage();
    const response = await watch.page.goto(`${server.url}${xssPath}`, { waitUntil: 'networkidle' });
    expect(response?.status()).toBe(200);
    await readEverything(watch.page);
    const text = await assertInert(watch, 'session page');
    const missing = [...xss.payloads.map((p) => p.marker), xss.title_marker].filter((m) => !text.includes(m));
    expect(missing, 'markers not visible on the page').toEqual([]);
    // The guard works: the trap records a write made the way a payload would make it.
    await watch.page.evaluate((prop) => ((window as unknown as Record<string, unknown>)[prop] = 'self-test'), xss.detect.window_property);
    expect(watch.events).toEqual([`window.${xss.detect.window_property} = self-test`]);
    await watch.page.close();
  });

  it('the index and the project page of the XSS session run none', async () => {
    const html = readFileSync(join(out, xssPath, 'index.html'), 'utf8');
    const project = /<a href="(\/projects\/[^"]+\/)"/.exec(html)?.[1];
    expect(project, 'the session page links its project').toBeDefined();
    for (const path of ['', project!.slice(1)]) {
      const watch = await watchedPage();
      expect((await watch.page.goto(`${server.url}${path}`, { waitUntil: 'networkidle' }))?.status()).toBe(200);
      await readEverything(watch.page);
      const text = await assertInert(watch, path || 'index');
      // The project name comes from the hostile cwd: its marker is shown as text.
      const cwdMarker = xss.payloads.find((p) => p.effect === 'title')!.marker;
      expect(text, path || 'index').toContain(cwdMarker);
      await watch.page.close();
    }
    // Regrouped, the list is drawn by its script from the JSON listing: the titles still arrive as text.
    for (const path of ['?group=day', `${project!.slice(1)}?group=day`]) {
      const watch = await watchedPage();
      expect((await watch.page.goto(`${server.url}${path}`, { waitUntil: 'networkidle' }))?.status()).toBe(200);
      await watch.page.locator('.day-group li.card').first().waitFor();
      const text = await assertInert(watch, path);
      expect(text, path).toContain(xss.title_marker);
      await watch.page.close();
    }
  });

  it('search results for payload markers render as text', async () => {
    const watch = await watchedPage();
    await watch.page.goto(server.url, { waitUntil: 'networkidle' });
    await watch.page.keyboard.press('/');
    let shownAsText = 0;
    for (const p of xss.payloads) {
      // Clear first, so the status checked below belongs to this query, not the last one.
      await watch.page.fill('[data-search-input]', '');
      await expect.poll(() => watch.page.locator('[data-search-status]').textContent(), { timeout: 15_000 }).toBe('');
      await watch.page.fill('[data-search-input]', p.marker);
      await expect.poll(() => watch.page.locator('[data-search-status]').textContent(), { timeout: 15_000 }).toMatch(/\d+ sessions? match/);
      await watch.page.waitForTimeout(200);
      const found = await watch.page.evaluate(() => {
        const list = document.querySelector('[data-search-results]')!;
        return {
          tags: [...new Set([...list.querySelectorAll('*')].map((e) => e.tagName.toLowerCase()))],
          text: (list as HTMLElement).innerText,
          hrefs: [...list.querySelectorAll('a')].map((a) => a.getAttribute('href') ?? ''),
        };
      });
      // Only the elements the result rows are built from (src/scripts/search-results.ts).
      expect(found.tags.filter((t) => !['li', 'a', 'p', 'ul', 'span', 'mark'].includes(t)), p.marker).toEqual([]);
      for (const href of found.hrefs) expect(href.startsWith('/'), href).toBe(true);
      if (found.text.includes(p.marker) && /[<>]/.test(found.text)) shownAsText++;
    }
    // At least one excerpt carries a payload's markup characters, visible as text.
    expect(shownAsText).toBeGreaterThan(0);
    await assertInert(watch, 'search dialog');
    await watch.page.close();
  });
});
