import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser.js';
import { serveStatic, type StaticServer } from '../helpers/serve.js';
import { loadExpect } from '../helpers/shared.js';
import { fixturesSite, sessionPagePaths } from './site-helpers.js';

/**
 * The search index as a visitor's browser sees it, through pagefind's own JS
 * API: planted secrets and personal data must be unfindable, look-alikes that
 * a correct redactor leaves alone must be found.
 *
 * pagefind splits queries into words and falls back to prefix matches (a query
 * for an absent word can return pages holding words that share its first
 * letters), so "no results" is not a usable test. What is checked instead is
 * what a visitor could read: no result's data (content, excerpt, title and
 * other meta, sub-results, filters) contains the value.
 */
const expectations = loadExpect();
const mustNotAppear: string[] = expectations.must_not_appear;
const mustAppear: string[] = expectations.must_appear;
const canaryId: string = expectations.canary.session_id;
const big = expectations.big as { session_id: string; first_prompt_marker: string };
let out: string;
let server: StaticServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  out = await fixturesSite();
  server = await serveStatic(out);
  browser = await launchBrowser();
  page = await browser.newPage();
  await page.goto(server.url);
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

interface Check {
  /** Results seen, and distinct pages whose data was read. */
  results: number;
  pages: number;
  /** `value` found in the data of page `url`, reached by `query`. */
  hits: Array<{ value: string; url: string; query: string | null }>;
}

/**
 * Runs pagefind queries in the page and looks for `values` in every string of
 * each result's data (content, excerpt, meta, sub-results, anchors). Each page's
 * data is read once: the excerpts of later queries are cut from the same content.
 * Only the findings cross back to Node; whole pages would not fit in a string.
 */
function searchFor(queries: Array<string | null>, values: string[]): Promise<Check> {
  return page.evaluate(
    async ({ queries, values }) => {
      // Built with Function: vitest rewrites a literal import() in test code, even inside page functions.
      const pagefind = await new Function('return import("/_sessionpress/pagefind/pagefind.js")')();
      await pagefind.options({ baseUrl: '/' });
      const strings = (v: unknown, acc: string[] = []): string[] => {
        if (typeof v === 'string') acc.push(v);
        else if (Array.isArray(v)) for (const x of v) strings(x, acc);
        else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) strings([k, x], acc);
        return acc;
      };
      const seen = new Set<string>();
      const out = { results: 0, pages: 0, hits: [] as Array<{ value: string; url: string; query: string | null }> };
      for (const query of queries) {
        const res = await pagefind.search(query);
        for (const r of res.results) {
          out.results++;
          if (seen.has(r.id)) continue;
          seen.add(r.id);
          out.pages++;
          const d = await r.data();
          const all = strings(d);
          for (const value of values) if (all.some((s) => s.includes(value))) out.hits.push({ value, url: d.url, query });
        }
      }
      return out;
    },
    { queries, values },
  );
}

/** The long runs of letters and digits of a value: the words pagefind indexes it under. */
function segments(value: string): string[] {
  return (value.match(/[A-Za-z0-9]{8,}/g) ?? []).filter((s) => s !== value);
}

const describeHits = (c: Check) => c.hits.map((h) => `${h.value.slice(0, 24)}… in ${h.url} (query ${JSON.stringify(h.query?.slice(0, 24) ?? null)})`);

describe('search over the fixtures site', () => {
  it('no indexed page and no filter value holds a planted secret or personal detail', async () => {
    // A null query lists every indexed page.
    const all = await searchFor([null], [...mustNotAppear, ...mustAppear]);
    expect(all.pages).toBeGreaterThanOrEqual(sessionPagePaths(out).length);
    // The scan sees page text: every look-alike kept on the canary page turns up in it.
    expect(mustAppear.filter((v) => !all.hits.some((h) => h.value === v))).toEqual([]);
    expect(describeHits({ ...all, hits: all.hits.filter((h) => mustNotAppear.includes(h.value)) })).toEqual([]);
    const filters: string = await page.evaluate(async () => {
      const pagefind = await new Function('return import("/_sessionpress/pagefind/pagefind.js")')();
      return JSON.stringify(await pagefind.filters());
    });
    expect(filters.length).toBeGreaterThan(2);
    expect(mustNotAppear.filter((v) => filters.includes(v))).toEqual([]);
  });

  it('querying a planted value, or the words in it, finds no page that holds it', async () => {
    const queries = [...new Set(mustNotAppear.flatMap((v) => [v, ...segments(v)]))];
    const found = await searchFor(queries, mustNotAppear);
    expect(describeHits(found)).toEqual([]);
  });

  it('finds every look-alike a correct redactor keeps, on the canary page', async () => {
    expect(mustAppear.length).toBeGreaterThan(0);
    const missing: string[] = [];
    for (const value of mustAppear) {
      const found = await searchFor([value], [value]);
      if (!found.hits.some((h) => h.url.includes(canaryId))) missing.push(value);
    }
    expect(missing).toEqual([]);
  });
});

describe('the large session and first search query load (sizes and times printed for the notes, not asserted)', () => {
  it('measures load time and size of the first and last page of the large session', async () => {
    const pages = sessionPagePaths(out).filter((p) => p.includes(`/${big.session_id}/`));
    const number = (p: string) => Number(/\/(\d+)\/$/.exec(p)?.[1] ?? 1);
    pages.sort((a, b) => number(a) - number(b));
    expect(pages.length).toBeGreaterThan(1);
    for (const path of [pages[0], pages.at(-1)!]) {
      const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
      const tab = await context.newPage();
      const started = performance.now();
      const response = await tab.goto(`${server.url}${path}`, { waitUntil: 'load' });
      const wall = performance.now() - started;
      expect(response?.status()).toBe(200);
      const m = await tab.evaluate(() => {
        const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
        const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
        return {
          dcl: nav.domContentLoadedEventEnd,
          load: nav.loadEventEnd || performance.now(),
          html: nav.encodedBodySize,
          other: resources.reduce((n, r) => n + r.encodedBodySize, 0),
          requests: resources.length + 1,
          nodes: document.getElementsByTagName('*').length,
        };
      });
      const html = readFileSync(join(out, path, 'index.html'));
      const gz = gzipSync(html).length;
      console.log(
        `[measure] big session page ${number(path)}/${pages.length}: DOMContentLoaded ${m.dcl.toFixed(0)} ms, load ${m.load.toFixed(0)} ms (goto ${wall.toFixed(0)} ms); ` +
          `HTML ${(m.html / 1024).toFixed(0)} KiB (${(gz / 1024).toFixed(0)} KiB gzipped), other resources ${(m.other / 1024).toFixed(0)} KiB, ${m.requests} requests, ${m.nodes} elements`,
      );
      expect(m.html).toBeGreaterThan(0);
      await context.close();
    }
  });

  it('measures the bytes the first search query downloads', async () => {
    const context = await browser.newContext();
    const tab = await context.newPage();
    const got: Array<Promise<{ kind: string; bytes: number }>> = [];
    await tab.goto(server.url, { waitUntil: 'networkidle' });
    tab.on('response', (r) => {
      const path = new URL(r.url()).pathname;
      if (!path.startsWith('/_sessionpress/pagefind/')) return;
      const kind = /\/fragment\//.test(path) ? 'fragments' : /\/index\//.test(path) ? 'index chunks' : /\/filter\//.test(path) ? 'filters' : /wasm\.|\.wasm$/.test(path) ? 'wasm' : /\.js$/.test(path) ? 'js' : 'meta';
      got.push(r.body().then((b) => ({ kind, bytes: b.length }), () => ({ kind, bytes: 0 })));
    });
    // waitForLoadState('networkidle') returns at once on a page that was idle before: wait for quiet here.
    const settle = async () => {
      for (let n = -1; n !== got.length; ) {
        n = got.length;
        await tab.waitForTimeout(700);
      }
      return Promise.all(got);
    };
    const summary = (list: Array<{ kind: string; bytes: number }>) => {
      const by = new Map<string, number>();
      for (const { kind, bytes } of list) by.set(kind, (by.get(kind) ?? 0) + bytes);
      const total = list.reduce((n, x) => n + x.bytes, 0);
      return `${(total / 1024).toFixed(0)} KiB in ${list.length} requests (${[...by].map(([k, v]) => `${k} ${(v / 1024).toFixed(0)} KiB`).join(', ')})`;
    };
    await tab.keyboard.press('/');
    await tab.fill('[data-search-input]', big.first_prompt_marker);
    await tab.locator('[data-search-results] a.result-hit').first().waitFor();
    const first = await settle();
    await tab.fill('[data-search-input]', 'error');
    await expect.poll(() => tab.locator('[data-search-status]').textContent(), { timeout: 15_000 }).toMatch(/\d+ sessions? match/);
    const second = await settle();
    console.log(`[measure] first search query ("${big.first_prompt_marker}", results rendered): ${summary(first)}`);
    console.log(`[measure] after a second, common query ("error"): ${summary(second)} in all`);
    expect(first.reduce((n, x) => n + x.bytes, 0)).toBeGreaterThan(0);
    await context.close();
  });
});
