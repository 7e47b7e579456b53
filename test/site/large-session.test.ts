import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLargeSession } from '../../scripts/lib/bench/large-session.js';
import { countElements, PAGE_LIMITS } from '../../scripts/lib/bench/page-weight.js';
import { buildSite, listFiles } from '../helpers/build.js';
import { SPREAD_RUN_PAGES } from '../../src/lib/search/shards.js';

/**
 * One long generated session (the bench's generator), built: its pages are
 * cut by weight, so each stays under 400 KB and 8,000 elements with its frame,
 * and every link the pages make to a message of the session lands on the page
 * that holds it.
 */
const work = mkdtempSync(join(tmpdir(), 'sp-large-'));
const out = join(work, 'dist');
// Small search shards, so the session's pages are spread over several of them in runs of consecutive pages,
// as a long session's are on a real site (and their number does not change as the session grows: that would
// index everything again).
const config = join(work, 'sessionpress.config.json');
writeFileSync(config, JSON.stringify({ search: { shardSizeMB: 0.1 } }));
const env = { SESSIONPRESS_SOURCE: join(work, 'src'), SESSIONPRESS_CONFIG: config };
let pages: Map<string, string>;
let log = '';

beforeAll(async () => {
  await makeLargeSession(join(work, 'src'), 10e6);
  const run = await buildSite(out, env);
  log = run.log;
  expect(run.code, run.log.slice(-3000)).toBe(0);
  pages = new Map(
    listFiles(join(out, 'sessions'))
      .filter((f) => f.endsWith('index.html'))
      .map((f) => [f.slice(out.length).replace(/index\.html$/, ''), readFileSync(f, 'utf8')]),
  );
}, 600_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The page number of a session page's path (`…/<session>/` is page 1, `…/<session>/7/` page 7). */
function pageNumber(path: string): number {
  return Number(/\/(\d+)\/(?:index\.html)?$/.exec(path)?.[1] ?? 1);
}

describe('a long session, built', () => {
  it('is cut into pages that each stay under 400 KB and 8,000 elements', () => {
    expect(pages.size, log.slice(-2000)).toBeGreaterThan(10);
    for (const [path, html] of pages) {
      expect(Buffer.byteLength(html), path).toBeLessThan(PAGE_LIMITS.bytes);
      expect(countElements(html), path).toBeLessThan(PAGE_LIMITS.elements);
    }
  });

  it('shows every message once, and every link to a message of it lands on the page that has it', () => {
    const ids = new Map<string, string>();
    for (const [path, html] of pages) {
      for (const m of html.matchAll(/\bdata-uuid="([^"]+)"/g)) {
        expect(ids.has(m[1]), m[1]).toBe(false);
        ids.set(m[1], path);
      }
    }
    let links = 0;
    for (const [path, html] of pages) {
      for (const m of html.matchAll(/href="([^"#]*)#m-([0-9a-f-]+)"/g)) {
        const target = m[1] === '' ? path : m[1];
        expect(ids.get(m[2]), `${path} → ${m[1]}#m-${m[2]}`).toBe(target);
        links++;
      }
    }
    expect(links).toBeGreaterThan(pages.size);
  });

  it('lists a bounded window of its pages on page 1; a later page shows its own page and what lasts, and links page 1', () => {
    const [first, ...later] = [...pages.entries()].sort(([a], [b]) => pageNumber(a) - pageNumber(b));
    const list = /<details class="ov-pages">[\s\S]*?<\/details>/.exec(first[1])?.[0] ?? '';
    expect(list).not.toBe('');
    expect((list.match(/<li\b/g) ?? []).length).toBeLessThanOrEqual(25);
    expect(first[1]).toContain(`Page 1 of ${pages.size}`);
    expect(first[1]).toContain('<dt>Activity</dt>');
    for (const [path, html] of later) {
      const n = pageNumber(path);
      expect(html, path).not.toContain('class="ov-pages"');
      expect(html, path).not.toContain('<dt>Activity</dt>');
      expect(html, path).not.toContain('<dt>Tokens</dt>');
      expect(html, path).not.toMatch(/Page \d+ of \d+/);
      expect(html, path).toContain(`<span>Page ${n}</span>`);
      expect(html, path).toContain(`<a href="${first[0]}">page 1</a>`);
      // The session's filters stay on every page, so a filtered search still finds its later pages.
      expect(html, path).toContain('data-pagefind-filter="tool"');
      expect(html.includes('rel="next"'), path).toBe(n < pages.size);
    }
  });

  it('gives page 1 its anchor map, inline or beside it', () => {
    const first = [...pages.entries()].find(([path]) => !/\/\d+\/$/.test(path))!;
    const src = /id="anchor-map" data-src="([^"]+)"/.exec(first[1])?.[1];
    if (src) expect(existsSync(join(out, src, ''))).toBe(true);
    else expect(first[1]).toContain('id="anchor-map" data-map=');
  });
  it('after lines are appended, reuses the unchanged pages of its last render, and builds what a clean build builds', async () => {
    const before = pages.size;
    // The generator is deterministic: a larger target writes the same lines, then more.
    await makeLargeSession(join(work, 'src'), 11e6);
    const grown = await buildSite(out, { ...env, SESSIONPRESS_VERBOSE: '1' });
    expect(grown.code, grown.log.slice(-3000)).toBe(0);
    const reused = Number(/(\d+) unchanged pages? of changed sessions reused/.exec(grown.log.replace(/\x1b\[[0-9;]*m/g, ''))?.[1] ?? 0);
    // Every page but the last, which took the new lines.
    expect(reused).toBe(before - 1);
    // And Astro copied every page between page 1 (the session's totals) and the last of before: none
    // of them shows anything the new lines changed.
    const copied = [...grown.log.replace(/\x1b\[[0-9;]*m/g, '').matchAll(/├─ (\/sessions\/\S+) \((?:restored|cached)\)/g)].map((m) => pageNumber(m[1]));
    expect(copied.sort((a, b) => a - b)).toEqual(Array.from({ length: before - 2 }, (_, i) => i + 2));
    const clean = join(work, 'clean');
    const fresh = await buildSite(clean, env);
    expect(fresh.code, fresh.log.slice(-3000)).toBe(0);
    const files = listFiles(join(clean, 'sessions')).filter((f) => f.endsWith('.html'));
    // The Markdown twin too: the pages the grown render kept have their Markdown copied from the last twin.
    const twins = listFiles(join(clean, 'sessions')).filter((f) => f.endsWith('.md'));
    expect(twins.length).toBe(1);
    for (const f of twins) expect(readFileSync(join(out, f.slice(clean.length)), 'utf8') === readFileSync(f, 'utf8'), f).toBe(true);
    expect(files.length).toBeGreaterThan(before);
    for (const f of files) expect(readFileSync(join(out, f.slice(clean.length)), 'utf8'), f).toBe(readFileSync(f, 'utf8'));

    // Search: page 1's header and overview changed (the running totals), but pagefind never reads
    // those, so only the shards of the pages that took new lines are indexed again...
    const plain = grown.log.replace(/\x1b\[[0-9;]*m/g, '');
    const search = /indexed (\d+) of (\d+) pages in [\d.]+s: (\d+) of (\d+) shards rebuilt/.exec(plain);
    expect(search, plain.slice(-3000)).not.toBeNull();
    const [indexed, all, rebuilt, shards] = search!.slice(1).map(Number);
    const added = files.length - before;
    // Only session pages are searched here, and the session's pages (fewer than 32) are two runs: two shards.
    expect(shards, plain.slice(-2000)).toBe(2);
    expect(added).toBeGreaterThan(0);
    // The rewritten last page and the pages added after it are one run of consecutive pages (shards.ts):
    // one shard, however many pages the lines added (here the session stays within its second run).
    expect(before + added, 'the session left its second run of pages: pick another size').toBeLessThanOrEqual(2 * SPREAD_RUN_PAGES);
    expect(rebuilt, plain.slice(-2000)).toBe(1);
    expect(indexed).toBeLessThan(all / 2);
    // ...and the index it leaves is byte for byte the one a clean build makes.
    const bundle = (root: string) => listFiles(join(root, '_sessionpress')).filter((f) => /[\\/]pagefind(-\d+)?[\\/]/.test(f)).map((f) => f.slice(root.length));
    expect(bundle(out).sort()).toEqual(bundle(clean).sort());
    for (const f of bundle(clean)) expect(readFileSync(join(out, f)).equals(readFileSync(join(clean, f))), f).toBe(true);
  }, 900_000);
});
