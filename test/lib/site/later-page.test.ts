import { describe, expect, it } from 'vitest';
import { sessionEntrySchema, type SessionEntry } from '../../../src/schemas/session.js';
import { laterPageData } from '../../../src/lib/site/later-page.js';

/** A stored entry of a session of `pages` pages, as the loader keeps it (checked against the schema). */
function entry(pages: number, more: { facts?: Partial<SessionEntry['facts']> } & Partial<Omit<SessionEntry, 'facts'>> = {}): SessionEntry {
  const { facts, ...rest } = more;
  return sessionEntrySchema.parse({
    sessionId: 's1',
    slug: 'proj/s1',
    projectSlug: 'proj',
    projectName: 'proj',
    projectPath: '~/proj',
    title: 'Fix the parser',
    titleSource: 'prompt',
    facts: {
      projectPath: '~/proj',
      projectName: 'proj',
      firstTimestamp: '2026-10-01T08:00:00Z',
      lastTimestamp: '2026-10-01T09:00:00Z',
      durationMs: 3_600_000,
      versions: ['2.1.150'],
      models: ['claude-sonnet-4-5'],
      gitBranches: ['main'],
      promptCount: 40,
      messageCount: 400,
      toolCallCount: 120,
      toolCounts: { Read: 70, Bash: 50 },
      usage: [{ model: 'claude-sonnet-4-5', messages: 200, inputTokens: 1000, outputTokens: 2000, cacheCreationTokens: 0, cacheReadTokens: 5000 }],
      recordedCost: { totalCostUSD: 1.25 },
      ...facts,
    },
    pageCount: pages,
    pageKeys: Array.from({ length: pages }, (_, i) => `k${i + 1}`),
    hasAbandoned: false,
    abandonedCount: 0,
    assets: [],
    cacheKey: `render-of-${pages}`,
    diagnostics: { total: 2, badLines: 1, sourceFile: 'proj/s1.jsonl' },
    redactions: [{ rule: 'aws', count: 3 }],
    subagentCount: 4,
    ...rest,
  });
}

/** The same session after lines were appended: every running total moved, and a page was added. */
function grown(): SessionEntry {
  const e = entry(13);
  return {
    ...e,
    facts: {
      ...e.facts,
      lastTimestamp: '2026-10-01T10:00:00Z',
      durationMs: 7_200_000,
      promptCount: 44,
      messageCount: 450,
      toolCallCount: 130,
      toolCounts: { Read: 72, Bash: 58 },
      usage: [{ ...e.facts.usage[0], messages: 230, outputTokens: 2600 }],
      recordedCost: { totalCostUSD: 1.5 },
    },
    diagnostics: { ...e.diagnostics, total: 3 },
    redactions: [{ rule: 'aws', count: 4 }],
    subagentCount: 5,
  };
}

describe('laterPageData', () => {
  it('is the same for every page before the last after the session grew', () => {
    const before = entry(12);
    const after = grown();
    for (let page = 2; page < 12; page++) expect(laterPageData(after, page), `page ${page}`).toEqual(laterPageData(before, page));
    // The old last page gains a next page: its pager changes, so its view does.
    expect(laterPageData(after, 12)).not.toEqual(laterPageData(before, 12));
  });

  it('holds no running total of the session', () => {
    const view = laterPageData(grown(), 5);
    const text = JSON.stringify(view);
    for (const total of ['"2026-10-01T10:00:00Z"', '7200000', '"lastTimestamp"', '"recordedCost"', '130', '"k5"', 'render-of-13']) expect(text, total).not.toContain(total);
    expect(view.facts).toMatchObject({ promptCount: 0, messageCount: 0, toolCallCount: 0, usage: [] });
    expect(view.facts.toolCounts).toEqual({ Bash: 0, Read: 0 });
    expect(view).toMatchObject({ subagentCount: 0, redactions: [], diagnostics: { total: 0, badLines: 0 } });
    // Whether a next page exists, and nothing more about how many there are.
    expect(view.pageCount).toBe(6);
    expect(laterPageData(grown(), 13).pageCount).toBe(13);
  });

  it('keeps what the page shows and search filters by, so a change to it reaches the page', () => {
    const base = laterPageData(entry(12), 3);
    const changes: Array<Parameters<typeof entry>[1]> = [
      { title: 'Fix the lexer' },
      { projectName: 'other' },
      { facts: { models: ['claude-sonnet-4-5', 'claude-opus-4-5'] } },
      { facts: { toolCounts: { Read: 70, Bash: 50, Grep: 1 } } },
      { facts: { gitBranches: ['main', 'fix'] } },
      { facts: { versions: ['2.1.150', '2.1.151'] } },
      { facts: { tags: ['parser'] } },
      { facts: { pullRequests: [{ number: 7, url: 'https://github.com/o/r/pull/7' }] } },
      { facts: { firstTimestamp: '2026-09-30T08:00:00Z' } },
      { checkout: { branch: 'fix' } },
    ];
    for (const change of changes) expect(laterPageData(entry(12, change), 3), JSON.stringify(change)).not.toEqual(base);
  });

  it('is still a valid entry, so the page renders from it alone', () => {
    expect(() => sessionEntrySchema.parse(laterPageData(grown(), 4))).not.toThrow();
  });
});
