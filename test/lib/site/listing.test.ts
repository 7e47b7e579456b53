import { describe, expect, it } from 'vitest';
import { cardRow, pageCount, pageSlice } from '../../../src/lib/site/listing.js';
import type { SessionEntry } from '../../../src/schemas/session.js';
import prices from '../../../src/data/prices.json';

describe('pages of a session list', () => {
  it('counts pages, one even for an empty list', () => {
    expect([0, 1, 5, 6, 10, 11].map((n) => pageCount(n, 5))).toEqual([1, 1, 1, 2, 2, 3]);
  });

  it('slices each page so that the pages together hold every item once', () => {
    const items = Array.from({ length: 12 }, (_, i) => i);
    const pages = Array.from({ length: pageCount(items.length, 5) }, (_, i) => pageSlice(items, i + 1, 5));
    expect(pages).toEqual([[0, 1, 2, 3, 4], [5, 6, 7, 8, 9], [10, 11]]);
  });
});

describe('the card of a session', () => {
  const entry = (over: Partial<SessionEntry> = {}, facts: Record<string, unknown> = {}) =>
    ({
      slug: 'proj/abc',
      title: '<img src=x onerror=alert(1)>',
      projectSlug: 'proj',
      projectName: 'Proj',
      subagentCount: 0,
      facts: { firstTimestamp: '2026-02-03T10:00:00Z', lastTimestamp: '2026-02-03T11:00:00Z', durationMs: 3_600_000, promptCount: 1, toolCallCount: 2, models: ['claude-opus-4-5-20251101', '<synthetic>'], usage: [], ...facts },
      ...over,
    }) as unknown as SessionEntry;

  it('holds what the card shows, the title as given (the script sets it as text)', () => {
    const row = cardRow(entry(), prices);
    expect(row).toMatchObject({ s: 'proj/abc', t: '<img src=x onerror=alert(1)>', p: 'proj', k: '2026-02-03T11:00:00Z', i: '2026-02-03T10:00:00Z', ms: 3_600_000, n: 1, c: 2, a: 0, m: ['opus-4-5'] });
    expect(row.r).toBeUndefined();
    expect(row.wt).toBeUndefined();
  });

  it('names its pull requests and its worktree and branch', () => {
    const row = cardRow(entry({ checkout: { worktree: 'wt-1', branch: 'fix/a' } }, { pullRequests: [{ number: 7, url: 'https://example.com/o/r/pull/7', repository: 'o/r' }] }), prices);
    expect(row.r).toEqual([['o/r#7', 'https://example.com/o/r/pull/7']]);
    expect(row.wt).toEqual([{ label: 'worktree', value: 'wt-1' }, { label: 'branch', value: 'fix/a' }]);
  });

  it('gives an undated session no time and no duration (it sorts last)', () => {
    const row = cardRow(entry({}, { firstTimestamp: undefined, lastTimestamp: undefined, durationMs: undefined }), prices);
    expect([row.k, row.i, row.ms]).toEqual(['', '', undefined]);
  });
});
