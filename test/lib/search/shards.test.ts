import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as pagefind from 'pagefind';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleDir } from '../../../src/lib/search/manifest.js';
import { assignShards, fragmentDates, MAX_SHARDS, oversizedSessions, shardCount, shardOf, SPREAD_RUN_PAGES } from '../../../src/lib/search/shards.js';

describe('shardCount', () => {
  it('keeps a site smaller than one shard in one bundle and splits a larger one by size', () => {
    expect(shardCount(10e6, 32e6)).toBe(1);
    expect(shardCount(32e6, 32e6)).toBe(1);
    expect(shardCount(33e6, 32e6)).toBe(2);
    expect(shardCount(105e6, 32e6)).toBe(4);
    expect(shardCount(129e6, 32e6)).toBe(8);
    expect(shardCount(1e12, 32e6)).toBe(MAX_SHARDS);
    expect(shardCount(5e6, 0)).toBe(1);
  });

  it('keeps its number as a site grows, but at each doubling, so growth seldom re-indexes every shard', () => {
    const counts = new Set<number>();
    let changes = 0;
    let last = 1;
    // A site growing by 1 MB at a time from 1 MB to 400 MB, 10 MB shards.
    for (let mb = 1; mb <= 400; mb++) {
      const count = shardCount(mb * 1e6, 10e6);
      counts.add(count);
      if (count !== last) changes++;
      last = count;
      // Below the cap, never more than a shard's worth of HTML in one shard on average, and never half-empty shards.
      if (count < MAX_SHARDS) expect(mb * 1e6 / count).toBeLessThanOrEqual(10e6);
      if (count > 1 && count < MAX_SHARDS) expect(mb * 1e6 / count).toBeGreaterThan(5e6);
    }
    expect([...counts].sort((a, b) => a - b)).toEqual([1, 2, 4, 8, MAX_SHARDS]);
    expect(changes).toBe(4);
  });
});

describe('shardOf', () => {
  it('puts every page of one session in the same shard', () => {
    for (let n = 2; n <= 8; n++) {
      const first = shardOf('sessions/proj/abc-123/index.html', n);
      expect(shardOf('sessions/proj/abc-123/2/index.html', n)).toBe(first);
      expect(shardOf('sessions/proj/abc-123/17/index.html', n)).toBe(first);
    }
  });

  it('spreads the pages of a session larger than a shard over the shards, and only those', () => {
    const big = Array.from({ length: 8 * SPREAD_RUN_PAGES }, (_, i) => ({ rel: `sessions/proj/huge/${i ? `${i + 1}/` : ''}index.html`, bytes: 1e6 }));
    const small = [{ rel: 'sessions/proj/small/index.html', bytes: 1e6 }, { rel: 'sessions/proj/small/2/index.html', bytes: 1e6 }, { rel: 'index.html', bytes: 40e6 }];
    const spread = oversizedSessions([...big, ...small], 10e6);
    expect([...spread]).toEqual([['sessions/proj/huge', 8 * SPREAD_RUN_PAGES]]);
    const n = 8;
    const used = new Set(big.map((p) => shardOf(p.rel, n, spread)));
    // Eight runs of pages: seven over 7 of the 8 shards, the last in the tail shard (numbered n).
    expect(used.size).toBe(n);
    expect(used.has(n)).toBe(true);
    expect(new Set(big.map((p) => shardOf(p.rel, n, spread, false))).size).toBe(n);
    expect(shardOf('sessions/proj/small/2/index.html', n, spread)).toBe(shardOf('sessions/proj/small/index.html', n, spread));
    // Without the set, the session stays in one shard, as before.
    expect(new Set(big.map((p) => shardOf(p.rel, n))).size).toBe(1);
  });

  it('spreads such a session in runs of consecutive pages, evenly, and keeps its last run in the tail shard', () => {
    const page = (i: number) => `sessions/proj/huge/${i > 1 ? `${i}/` : ''}index.html`;
    const pages = Array.from({ length: 8 * SPREAD_RUN_PAGES + 3 }, (_, i) => ({ rel: page(i + 1), bytes: 1e6 }));
    const spread = oversizedSessions(pages, 10e6);
    const n = 8;
    const shardOfPage = (i: number) => shardOf(page(i), n, spread);
    // Each full run of pages is in one shard, the next run in the next shard round: every shard gets one run.
    const perShard = new Map<number, number>();
    for (let i = 1; i <= 8 * SPREAD_RUN_PAGES; i++) {
      perShard.set(shardOfPage(i), (perShard.get(shardOfPage(i)) ?? 0) + 1);
      if ((i - 1) % SPREAD_RUN_PAGES !== 0) expect(shardOfPage(i), `page ${i}`).toBe(shardOfPage(i - 1));
      else if (i > 1) expect(shardOfPage(i), `page ${i}`).toBe((shardOfPage(i - 1) + 1) % n);
    }
    expect([...perShard.values()]).toEqual(Array(n).fill(SPREAD_RUN_PAGES));
    // The three pages of the last run, which an append rewrites and adds to, are in the tail shard.
    for (let i = 8 * SPREAD_RUN_PAGES + 1; i <= pages.length; i++) expect(shardOfPage(i)).toBe(n);
    // As the session grows, a page's shard stays, but for the last run, which joins its shard once a page follows it.
    const grown = oversizedSessions([...pages, ...Array.from({ length: SPREAD_RUN_PAGES }, (_, i) => ({ rel: page(pages.length + i + 1), bytes: 1e6 }))], 10e6);
    for (let i = 1; i <= 8 * SPREAD_RUN_PAGES; i++) expect(shardOf(page(i), n, grown)).toBe(shardOfPage(i));
    for (let i = 8 * SPREAD_RUN_PAGES + 1; i <= pages.length; i++) expect(shardOf(page(i), n, grown)).toBe(shardOf(page(i), n, spread, false));
  });

  it('is stable, in range, and spreads sessions over every shard', () => {
    const n = 4;
    const counts = new Array(n).fill(0);
    for (let i = 0; i < 400; i++) {
      const s = shardOf(`sessions/p${i % 7}/session-${i}/index.html`, n);
      expect(s).toBe(shardOf(`sessions/p${i % 7}/session-${i}/index.html`, n));
      counts[s]++;
    }
    // 400 sessions over 4 shards: none empty, none with more than twice its share.
    for (const c of counts) expect(c).toBeGreaterThan(50);
    for (const c of counts) expect(c).toBeLessThan(200);
    expect(shardOf('notes/a/index.html', 1)).toBe(0);
  });

  it('names bundles _sessionpress/pagefind, _sessionpress/pagefind-2, …', () => {
    expect([0, 1, 2].map(bundleDir)).toEqual(['_sessionpress/pagefind', '_sessionpress/pagefind-2', '_sessionpress/pagefind-3']);
  });
});

describe('assignShards', () => {
  const sessionPage = (session: string, i: number) => `sessions/proj/${session}/${i > 1 ? `${i}/` : ''}index.html`;
  /** A site of 60 sessions of 8 pages of 30 KB, and `huge` with `pages` pages of 200 KB, each page's content version in `v`. */
  const site = (pages: number, huge = ['huge']) => [
    ...Array.from({ length: 60 }, (_, s) => Array.from({ length: 8 }, (_, i) => ({ rel: sessionPage(`s${s}`, i + 1), bytes: 30e3 }))).flat(),
    ...huge.flatMap((name) => Array.from({ length: pages }, (_, i) => ({ rel: sessionPage(name, i + 1), bytes: 200e3 }))),
  ];
  /** The shards as page lists: a shard whose list is unchanged and holds no changed page is reused. */
  const lists = (pages: Array<{ rel: string; bytes: number }>) => assignShards(pages, 10e6).shards.map((g) => g.map((p) => p.rel).join('\n'));

  it('indexes again only the tail shard when an append stays within the last run of a spread session', () => {
    let reindexed = 0;
    let steps = 0;
    let sealed = 0;
    // 40 to 80 MB in the huge session and 14 MB beside it: always 8 shards (a new number moves every page).
    for (let pages = 200; pages < 320; pages += 3) {
      expect(assignShards(site(pages), 10e6).count).toBe(8);
      const before = lists(site(pages));
      const after = assignShards(site(pages + 3), 10e6);
      // The append rewrote the last page and added three: those pages and any shard whose list moved are indexed again.
      const changed = new Set([sessionPage('huge', pages), ...[1, 2, 3].map((k) => sessionPage('huge', pages + k))]);
      const stale = after.shards.filter((g) => !before.includes(g.map((p) => p.rel).join('\n')) || g.some((p) => changed.has(p.rel)));
      reindexed += stale.flat().reduce((n, p) => n + p.bytes, 0) / (after.shards.flat().reduce((n, p) => n + p.bytes, 0) / after.count);
      steps++;
      const withinRun = Math.floor((pages - 1) / SPREAD_RUN_PAGES) === Math.floor((pages + 2) / SPREAD_RUN_PAGES);
      if (withinRun) {
        // Only the tail shard, which holds the session's last run and nothing else.
        expect(stale.length, `${pages} pages`).toBe(1);
        expect(stale[0].every((p) => p.rel.startsWith('sessions/proj/huge/'))).toBe(true);
        expect(stale[0].length).toBeLessThanOrEqual(SPREAD_RUN_PAGES);
      } else {
        // The run the session grew past joins its shard: that one too.
        expect(stale.length, `${pages} pages`).toBe(2);
        sealed++;
      }
    }
    expect(sealed).toBeGreaterThan(0);
    // On average, less than half of what an average shard holds (all of one such shard, spread runs alone).
    expect(reindexed / steps).toBeLessThan(0.5);
  });

  it('never makes the tail larger than an average shard: past that, the last runs stay in their own shards', () => {
    // Twelve huge sessions: their last runs (15 pages of 200 KB each) would hold 36 MB, more than an average shard (17 MB).
    const pages = site(111, Array.from({ length: 12 }, (_, i) => `huge-${i}`));
    const { count, shards } = assignShards(pages, 10e6);
    const total = pages.reduce((n, p) => n + p.bytes, 0);
    expect(count).toBe(MAX_SHARDS);
    expect(shards.length).toBe(count);
    const spread = oversizedSessions(pages, 10e6);
    // Every page in the shard its run picks, no tail (all 16 shards hold pages, so bundle i is shard i).
    for (const [i, g] of shards.entries()) for (const p of g) expect(shardOf(p.rel, count, spread, false)).toBe(i);
    for (const g of shards) expect(g.reduce((n, p) => n + p.bytes, 0)).toBeLessThan(2 * total / count);
    // One huge session: its tail is the last shard, with its last run only.
    const one = assignShards(site(100), 10e6);
    expect(one.shards.length).toBe(one.count + 1);
    expect(one.shards.at(-1)!.map((p) => p.rel)).toEqual(Array.from({ length: 100 - 6 * SPREAD_RUN_PAGES }, (_, i) => sessionPage('huge', 6 * SPREAD_RUN_PAGES + i + 1)));
  });

  it('gives a site with nothing to search one empty shard', () => {
    expect(assignShards([], 10e6)).toEqual({ count: 1, shards: [[]] });
  });
});

describe('fragmentDates', () => {
  afterAll(() => pagefind.close());

  it('reads each page’s date from a written bundle, keyed by the id pagefind gives its results', async () => {
    const { index } = await pagefind.createIndex({});
    const page = (title: string, date: string) =>
      `<html><body><main data-pagefind-body><h1 data-pagefind-meta="title">${title}</h1><time data-pagefind-meta="date" data-pagefind-sort="date">${date}</time><p>words about ${title}</p></main></body></html>`;
    await index!.addHTMLFile({ sourcePath: 'sessions/p/one/index.html', content: page('one', '2026-01-02 10:00 UTC') });
    await index!.addHTMLFile({ sourcePath: 'sessions/p/two/index.html', content: page('two', '2025-12-31 23:59 UTC') });
    await index!.addHTMLFile({ sourcePath: 'notes/n/index.html', content: '<html><body><main data-pagefind-body><h1>note</h1></main></body></html>' });
    const out = join(mkdtempSync(join(tmpdir(), 'sp-shard-')), 'pagefind');
    const written = await index!.writeFiles({ outputPath: out });
    expect(written.errors).toEqual([]);
    const dates = await fragmentDates(out);
    expect(Object.values(dates).sort()).toEqual(['2025-12-31 23:59 UTC', '2026-01-02 10:00 UTC']);
    for (const id of Object.keys(dates)) expect(id).toMatch(/^[a-z]+_[0-9a-f]+$/);
    rmSync(join(out, '..'), { recursive: true, force: true });
  });
});
