import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/shared.js';
import { listFiles } from '../helpers/build.js';
import { searchAndLand, serveSampleSite, uniqueWord, type ServedSite } from './site-helpers.js';

/**
 * The samples published as a GitHub Pages project site: everything lives under
 * /sessionpress-demo/, and the server answers 404 to anything outside it, as
 * the user's own root site would. The search index is split into shards, as on
 * a large site (a tiny shard size makes the few sample pages need several), so
 * merging shards is tested under a base path too.
 */
const BASE = '/sessionpress-demo';
const SITE = 'https://example.github.io';
let site: ServedSite;
let out = '';
let server: ServedSite['server'];
let browser: ServedSite['browser'];
let sessionPaths: string[] = [];
let configDir = '';
/** Notes of the repository (MDX that may embed sample transcripts); the build publishes each. */
const notesDir = join(repoRoot, 'content', 'notes');
const hasNotes = existsSync(notesDir) && readdirSync(notesDir, { recursive: true }).some((f) => /\.mdx?$/.test(String(f)));

beforeAll(async () => {
  configDir = mkdtempSync(join(tmpdir(), 'sp-base-config-'));
  const config = join(configDir, 'sessionpress.config.json');
  writeFileSync(config, JSON.stringify({ search: { shardSizeMB: 0.1 } }));
  site = await serveSampleSite('sp-base-', { SESSIONPRESS_BASE: BASE, SESSIONPRESS_SITE: SITE, SESSIONPRESS_CONFIG: config }, `${BASE}/`);
  ({ out, server, browser, sessionPaths } = site);
}, 600_000);

afterAll(async () => {
  await site?.close();
  if (configDir) rmSync(configDir, { recursive: true, force: true });
});

/** A page that records every failed response and request. */
async function recordingPage(): Promise<{ page: Page; failures: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  const failures: string[] = [];
  page.on('response', (r) => {
    if (r.status() >= 400) failures.push(`${r.status()} ${r.url()}`);
  });
  page.on('requestfailed', (r) => {
    // Leaving a page cancels what it was still loading (the search page's pagefind): not a broken link.
    if (r.failure()?.errorText !== 'net::ERR_ABORTED') failures.push(`failed ${r.url()} ${r.failure()?.errorText ?? ''}`);
  });
  return { page, failures };
}

/** Every URL a page refers to: links, images, scripts, stylesheets, icons, the canonical link. */
async function referencedUrls(page: Page): Promise<{ links: string[]; resources: string[]; canonical: string | null }> {
  return page.evaluate(() => {
    const abs = (u: string) => new URL(u, location.href).href;
    const links = [...document.querySelectorAll<HTMLAnchorElement>('a[href]')].map((a) => a.href);
    const resources = [
      ...[...document.querySelectorAll<HTMLImageElement>('img[src]')].map((i) => abs(i.getAttribute('src')!)),
      ...[...document.querySelectorAll<HTMLScriptElement>('script[src]')].map((s) => abs(s.getAttribute('src')!)),
      ...[...document.querySelectorAll<HTMLLinkElement>('link[href]:not([rel="canonical"])')].map((l) => abs(l.getAttribute('href')!)),
      ...[...document.querySelectorAll('source[srcset], img[srcset]')].flatMap((e) =>
        e.getAttribute('srcset')!.split(',').map((part) => abs(part.trim().split(/\s+/)[0])),
      ),
    ];
    const canonical = document.querySelector<HTMLLinkElement>('link[rel="canonical"]')?.href ?? null;
    return { links, resources, canonical };
  });
}

async function checkPage(path: string): Promise<{ visited: number; resources: number; images: number }> {
  const { page, failures } = await recordingPage();
  const response = await page.goto(`${server.url}${path}`);
  expect(response?.status(), path).toBe(200);
  // Lazy images load once scrolled to.
  await page.evaluate(async () => {
    for (let y = 0; y < document.documentElement.scrollHeight; y += 600) {
      window.scrollTo(0, y);
      await new Promise((r) => setTimeout(r, 20));
    }
  });
  await page.waitForLoadState('networkidle');
  const { links, resources, canonical } = await referencedUrls(page);
  const origin = new URL(server.url).origin;

  expect(canonical, `${path}: canonical link`).toBe(`${SITE}${BASE}/${path}`);
  const internal = [...new Set(links.filter((l) => l.startsWith(origin)).map((l) => l.split('#')[0]))];
  for (const url of internal) expect(new URL(url).pathname.startsWith(`${BASE}/`), url).toBe(true);
  for (const url of resources.filter((u) => !u.startsWith('data:'))) {
    expect(url.startsWith(`${origin}${BASE}/`), url).toBe(true);
    const r = await page.request.get(url);
    expect(r.status(), url).toBe(200);
  }
  // Every image the page shows decoded: a broken src would have naturalWidth 0.
  const broken = await page.evaluate(() => [...document.images].filter((i) => !i.complete || i.naturalWidth === 0).map((i) => i.src));
  expect(broken, `${path}: broken images`).toEqual([]);

  // Visit each internal page link in the browser, as a reader would. Links to files (a full-size
  // image) are fetched instead: Chromium asks the host root for /favicon.ico on a bare image document.
  const visitor = await recordingPage();
  for (const url of internal) {
    const isFile = /\.[a-z0-9]+$/i.test(new URL(url).pathname) && !url.endsWith('.html');
    const r = isFile ? await visitor.page.request.get(url) : await visitor.page.goto(url, { waitUntil: 'networkidle' });
    expect(r?.status(), url).toBe(200);
  }
  await visitor.page.close();

  expect(failures, `${path}: failed responses`).toEqual([]);
  expect(visitor.failures, `${path}: failed responses on linked pages`).toEqual([]);
  const images = await page.locator('img').count();
  await page.close();
  return { visited: internal.length, resources: resources.length, images };
}

describe('the samples under a base path (GitHub Pages project site)', () => {
  it('loads every link, image, script and stylesheet of the index under the base', async () => {
    const { visited, resources } = await checkPage('');
    // The index links every session and project; a stylesheet and a script load.
    expect(visited).toBeGreaterThanOrEqual(sessionPaths.length + 2);
    expect(resources).toBeGreaterThanOrEqual(2);
    expect(server.notFound).toEqual([]);
  });

  it('loads the JSON listing under the base when the list is regrouped, and links its cards under the base', async () => {
    const { page, failures } = await recordingPage();
    await page.goto(server.url);
    const hrefs = (p: string) => page.$$eval(`${p} a.card-title`, (as) => as.map((a) => a.getAttribute('href')!).sort());
    const built = await hrefs('[data-session-groups] li.card');
    await page.locator('[data-group-toggle] button[data-group="day"]').click();
    await expect.poll(() => page.locator('.day-group li.card').count()).toBe(built.length);
    expect(await hrefs('.day-group li.card')).toEqual(built);
    for (const href of built) expect(href.startsWith(`${BASE}/sessions/`), href).toBe(true);
    expect(failures).toEqual([]);
    expect(server.notFound).toEqual([]);
    await page.close();
  });

  it('loads every link, image, script and stylesheet of a session page with images under the base', async () => {
    const withImage = sessionPaths.find((p) => readFileSync(join(out, p, 'index.html'), 'utf8').includes('<img'));
    expect(withImage, 'a sample session with an image').toBeDefined();
    const { visited, images } = await checkPage(withImage!);
    expect(images).toBeGreaterThan(0);
    expect(visited).toBeGreaterThanOrEqual(2);
    expect(server.notFound).toEqual([]);
  });

  it.skipIf(!hasNotes)('loads every link, image, script and stylesheet of each note under the base', async () => {
    const notes = listFiles(join(out, 'notes'))
      .filter((f) => f.endsWith('index.html') && f !== join(out, 'notes', 'index.html'))
      .map((f) => f.slice(out.length + 1).replace(/index\.html$/, ''));
    expect(notes.length).toBeGreaterThan(0);
    for (const path of notes) await checkPage(path);
    expect(server.notFound).toEqual([]);
  });

  it('searches under the base path and lands on the message', async () => {
    const { word, path, uuid } = uniqueWord(out, sessionPaths);
    const { page, failures } = await recordingPage();
    const pagefindRequests: string[] = [];
    page.on('request', (r) => {
      if (/\/pagefind(-\d+)?\//.test(r.url())) pagefindRequests.push(new URL(r.url()).pathname);
    });
    await page.goto(server.url);
    const href = await searchAndLand(page, word, path, uuid, { firstHit: false });
    expect(href.startsWith(`${BASE}/${path}`), href).toBe(true);
    expect(pagefindRequests.length).toBeGreaterThan(0);
    for (const p of pagefindRequests) expect(p, p).toMatch(new RegExp(`^${BASE}/_sessionpress/pagefind(-\\d+)?/`));
    // Every shard of the index was asked.
    for (const shard of shardDirs()) expect(pagefindRequests.some((p) => p.startsWith(`${BASE}/${shard}/`)), shard).toBe(true);
    expect(failures).toEqual([]);
    expect(server.notFound).toEqual([]);
    await page.close();
  });

  it('merges every shard of the search index: all filters, all pages, dates in order', async () => {
    const shards = shardDirs();
    expect(shards.length).toBeGreaterThan(1);
    const manifest = JSON.parse(readFileSync(join(out, '_sessionpress', 'pagefind', 'sessionpress-search.json'), 'utf8'));
    expect(manifest.shards).toEqual(shards.slice(1).map((d) => `${d}/`));
    // What the site holds, read from its pages: the project filter of every searchable page (notes
    // have one too), and each session's date.
    const projectsInSite = listFiles(out)
      .filter((f) => f.endsWith('.html'))
      .map((f) => /data-pagefind-filter="project"[^>]*>([^<]+)</.exec(readFileSync(f, 'utf8'))?.[1])
      .filter((p): p is string => !!p);
    const sessions = sessionPaths
      .filter((p) => !/\/\d+\/$/.test(p))
      .map((p) => {
        const html = readFileSync(join(out, p, 'index.html'), 'utf8');
        return {
          project: /data-pagefind-filter="project"[^>]*>([^<]+)</.exec(html)![1],
          date: /data-pagefind-sort="date">([^<]+)</.exec(html)![1],
        };
      });
    const { page, failures } = await recordingPage();
    await page.goto(`${server.url}search/`);
    const projectFilter = page.locator('select[data-filter="project"]');
    await projectFilter.waitFor({ timeout: 15_000 });
    const projects = (await projectFilter.locator('option').allTextContents()).slice(1).map((t) => t.replace(/ \(\d+\)$/, ''));
    expect(projects.sort()).toEqual([...new Set(projectsInSite)].sort());
    expect(projects.length).toBeGreaterThan(1);
    // Newest first, across shards: every session, in date order.
    await page.selectOption('[data-search-sort]', 'date:desc');
    await page.selectOption('select[data-filter="project"]', projects[0]);
    await page.selectOption('select[data-filter="project"]', '');
    await page.fill('[data-search-page-input]', 'the');
    const expected = sessions.filter((s) => s.date).map((s) => s.date).sort().reverse();
    await expect
      .poll(async () => (await page.locator('[data-search-page-results] > li .result-meta').allTextContents()).map((t) => t.split(' · ').pop()), { timeout: 15_000 })
      .toEqual(expected);
    expect(failures).toEqual([]);
    await page.close();
  });
});

/** The search bundles of the built site: `_sessionpress/pagefind`, `_sessionpress/pagefind-2`, … in order. */
function shardDirs(): string[] {
  return readdirSync(join(out, '_sessionpress'))
    .filter((d) => /^pagefind(-\d+)?$/.test(d))
    .sort((a, b) => Number(a.split('-')[1] ?? 1) - Number(b.split('-')[1] ?? 1))
    .map((d) => `_sessionpress/${d}`);
}
