import { readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ListingChunk } from '../../src/lib/site/listing.js';
import { buildSite, listFiles } from '../helpers/build.js';
import { manySessions } from '../helpers/many-sessions.js';

/**
 * Session lists larger than one page, under a base and a prefix: the index
 * and each project's page show one page of cards, numbered pages link every
 * session exactly once without JavaScript, the JSON listing holds every
 * session, and no page of the site exceeds the limits the session pages meet.
 */
const PAGE = 5;
const BASE = '/sub';
const PREFIX = 'p/';
const MAX_BYTES = 400 * 1024;
const MAX_ELEMENTS = 8000;
let root = '';
let out = '';
let pagesDir = '';

beforeAll(async () => {
  const many = await manySessions(6, { indexPageSize: PAGE, prefix: `/${PREFIX}` });
  root = many.root;
  out = join(root, 'dist');
  pagesDir = join(out, PREFIX);
  const run = await buildSite(out, { SESSIONPRESS_SOURCE: many.source, SESSIONPRESS_CONFIG: many.config, SESSIONPRESS_BASE: BASE });
  if (run.code !== 0) throw new Error(`build failed:\n${run.log.slice(-3000)}`);
}, 600_000);

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(`${join(root, 'dist')}-cache`, { recursive: true, force: true });
});

const doc = (path: string) => new JSDOM(readFileSync(join(pagesDir, path, 'index.html'), 'utf8')).window.document;
/** A site URL (`/sub/p/page/2/`) as a path below the prefix's folder (`page/2/`). */
const local = (href: string) => {
  expect(href.startsWith(`${BASE}/${PREFIX}`), href).toBe(true);
  return href.slice(`${BASE}/${PREFIX}`.length);
};
const cardSlugs = (d: Document) => [...d.querySelectorAll('[data-session-groups] li.card a.card-title')].map((a) => local(a.getAttribute('href')!).replace(/^sessions\//, '').replace(/\/$/, ''));

/** The cards of a list and of every page its "next" links lead to, page by page. */
function followPages(first: string): string[][] {
  const pages: string[][] = [];
  let path: string | undefined = first;
  while (path !== undefined) {
    const d = doc(path);
    pages.push(cardSlugs(d));
    const next = d.querySelector('[data-list-pager] a[rel="next"]')?.getAttribute('href');
    path = next ? local(next) : undefined;
    expect(pages.length).toBeLessThan(100);
  }
  return pages;
}

/** Every session the site has a page for: `<project>/<session>`. */
function sessionSlugs(): string[] {
  return listFiles(join(pagesDir, 'sessions'))
    .filter((f) => f.endsWith('index.html'))
    .map((f) => f.slice(join(pagesDir, 'sessions').length + 1).split('/').slice(0, 2).join('/'))
    .filter((s, i, all) => all.indexOf(s) === i)
    .sort();
}

function listing(): ListingChunk['rows'] {
  const first = JSON.parse(readFileSync(join(pagesDir, 'list', '1.json'), 'utf8')) as ListingChunk;
  const rows = first.rows;
  for (let i = 2; i <= first.chunks; i++) rows.push(...(JSON.parse(readFileSync(join(pagesDir, 'list', `${i}.json`), 'utf8')) as ListingChunk).rows);
  return rows;
}

describe('a site with more sessions than a page holds', () => {
  it('has more sessions than one page and more than one project with several pages', () => {
    expect(sessionSlugs().length).toBeGreaterThan(3 * PAGE);
  });

  it('lists every session once in the JSON listing, newest first, with the total', () => {
    const rows = listing();
    expect(rows.map((r) => r.s).sort()).toEqual(sessionSlugs());
    expect(new Set(rows.map((r) => r.s)).size).toBe(rows.length);
    const keys = rows.map((r) => r.k);
    expect(keys).toEqual([...keys].sort().reverse());
    expect(JSON.parse(readFileSync(join(pagesDir, 'list', '1.json'), 'utf8')).total).toBe(rows.length);
  });

  it('shows the newest sessions on the index, and links every session exactly once across its numbered pages', () => {
    const rows = listing();
    const pages = followPages('');
    expect(pages[0].sort()).toEqual(rows.slice(0, PAGE).map((r) => r.s).sort());
    for (const p of pages) expect(p.length).toBeLessThanOrEqual(PAGE);
    expect(pages.length).toBe(Math.ceil(rows.length / PAGE));
    const all = pages.flat();
    expect(all.length).toBe(rows.length);
    expect(all.sort()).toEqual(sessionSlugs());
  });

  it("links every session of a project exactly once across the project's pages", () => {
    const rows = listing();
    const projects = [...new Set(rows.map((r) => r.p))];
    let paged = 0;
    for (const slug of projects) {
      const pages = followPages(`projects/${slug}/`);
      if (pages.length > 1) paged++;
      for (const p of pages) expect(p.length, slug).toBeLessThanOrEqual(PAGE);
      expect(pages.flat().sort(), slug).toEqual(rows.filter((r) => r.p === slug).map((r) => r.s).sort());
    }
    expect(paged).toBeGreaterThan(0);
  });

  it('names its page of the listing to the list script, under the base and prefix', () => {
    const root = doc('').querySelector<HTMLElement>('[data-session-groups]')!;
    expect(root.dataset.base).toBe(`${BASE}/${PREFIX}`);
    expect(root.dataset.listPage).toBe('1');
    expect(Number(root.dataset.total)).toBe(listing().length);
    expect(root.dataset.listingChunks).toBe('1');
  });

  it('keeps every page and JSON file under 400 KB and every page under 8,000 elements', () => {
    const files = listFiles(out).filter((f) => f.endsWith('.html') || f.endsWith('.json'));
    expect(files.length).toBeGreaterThan(10);
    for (const f of files) {
      expect(statSync(f).size, f).toBeLessThanOrEqual(MAX_BYTES);
      if (f.endsWith('.html')) expect(new JSDOM(readFileSync(f, 'utf8')).window.document.querySelectorAll('*').length, f).toBeLessThanOrEqual(MAX_ELEMENTS);
    }
  });
});
