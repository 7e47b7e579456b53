import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as pagefind from 'pagefind';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleDir } from '../../../src/lib/search/manifest.js';
import { fragmentDates, MAX_SHARDS, oversizedSessions, shardCount, shardOf, SPREAD_RUN_PAGES } from '../../../src/lib/search/shards.js';

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
    expect([...spread]).toEqual(['sessions/proj/huge']);
    const n = 8;
    const used = new Set(big.map((p) => shardOf(p.rel, n, spread)));
    // Eight runs of pages over 8 shards: every shard gets some.
    expect(used.size).toBe(n);
    expect(shardOf('sessions/proj/small/2/index.html', n, spread)).toBe(shardOf('sessions/proj/small/index.html', n, spread));
    // Without the set, the session stays in one shard, as before.
    expect(new Set(big.map((p) => shardOf(p.rel, n))).size).toBe(1);
  });

  it('spreads such a session in runs of consecutive pages, evenly, so pages added at its end fall in one shard', () => {
    const page = (i: number) => `sessions/proj/huge/${i > 1 ? `${i}/` : ''}index.html`;
    const pages = Array.from({ length: 8 * SPREAD_RUN_PAGES }, (_, i) => ({ rel: page(i + 1), bytes: 1e6 }));
    const spread = oversizedSessions(pages, 10e6);
    const n = 8;
    const shardOfPage = (i: number) => shardOf(page(i), n, spread);
    // Each run of pages is in one shard, the next run in the next shard round: every shard gets one run.
    const perShard = new Map<number, number>();
    for (let i = 1; i <= pages.length; i++) {
      perShard.set(shardOfPage(i), (perShard.get(shardOfPage(i)) ?? 0) + 1);
      if ((i - 1) % SPREAD_RUN_PAGES !== 0) expect(shardOfPage(i), `page ${i}`).toBe(shardOfPage(i - 1));
      else if (i > 1) expect(shardOfPage(i), `page ${i}`).toBe((shardOfPage(i - 1) + 1) % n);
    }
    expect([...perShard.values()]).toEqual(Array(n).fill(SPREAD_RUN_PAGES));
    // Three pages appended after page 100 (mid-run) and the rewritten page 100: one shard.
    expect(new Set([100, 101, 102, 103].map(shardOfPage)).size).toBe(1);
    // A page's shard does not depend on the pages after it.
    const grown = oversizedSessions([...pages, { rel: page(pages.length + 1), bytes: 1e6 }], 10e6);
    for (let i = 1; i <= pages.length; i++) expect(shardOf(page(i), n, grown)).toBe(shardOfPage(i));
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
