import { describe, expect, it } from 'vitest';
import { entryDigest, laterPageKey, sessionPageKey } from '../../../src/lib/build/page-key.js';
import { laterPageData } from '../../../src/lib/site/later-page.js';
import type { SessionEntry } from '../../../src/schemas/session.js';

const data = (promptCount: number, pageCount: number, title = 'Fix the parser') =>
  ({
    sessionId: 's1',
    slug: 'proj/s1',
    projectSlug: 'proj',
    projectName: 'proj',
    projectPath: '~/proj',
    title,
    titleSource: 'prompt',
    facts: { projectPath: '~/proj', projectName: 'proj', versions: [], models: [], gitBranches: [], promptCount, messageCount: promptCount * 10, toolCallCount: 0, toolCounts: {}, usage: [], pullRequests: [], tags: [] },
    pageCount,
    pageKeys: Array.from({ length: pageCount }, (_, i) => `k${i + 1}`),
    hasAbandoned: false,
    abandonedCount: 0,
    assets: [],
    cacheKey: `c${promptCount}`,
    diagnostics: { total: 0, badLines: 0, sourceFile: 'proj/s1.jsonl' },
    redactions: [],
    subagentCount: 0,
    hiddenCounts: {},
    unknownMetadata: {},
  }) satisfies SessionEntry;

const chrome = { older: { slug: 'proj/s0', title: 'Earlier' } };
const later = (d: SessionEntry, page: number, pageKey = d.pageKeys![page - 1], c = chrome, site = 'site') => laterPageKey(laterPageData(d, page), page, pageKey, c, site);

describe('session page keys', () => {
  it('keep a later page\'s key when the session grows past it, and change page 1\'s', () => {
    const before = data(40, 12);
    const after = data(44, 13);
    for (let page = 2; page < 12; page++) expect(later(after, page), `page ${page}`).toBe(later(before, page));
    expect(later(after, 12)).not.toBe(later(before, 12));
    expect(sessionPageKey(entryDigest({ data: after }), 1, chrome, 'site')).not.toBe(sessionPageKey(entryDigest({ data: before }), 1, chrome, 'site'));
  });

  it('change a later page\'s key with its own render, its page number, its view, its neighbours and the config', () => {
    const d = data(40, 12);
    const key = later(d, 3);
    expect(later(d, 3, 'other render')).not.toBe(key);
    expect(laterPageKey(laterPageData(d, 3), 4, 'k3', chrome, 'site')).not.toBe(key);
    expect(later(data(40, 12, 'Fix the lexer'), 3)).not.toBe(key);
    expect(later(d, 3, 'k3', { older: { slug: 'proj/s0', title: 'Renamed' } })).not.toBe(key);
    expect(later(d, 3, 'k3', chrome, 'other site')).not.toBe(key);
    expect(later(d, 3)).toBe(key);
  });
});
