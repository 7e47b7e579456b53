import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/schemas/config.js';
import { slugify, sessionSlug } from '../../src/lib/site/slug.js';
import { projectSlugOf } from '../../src/lib/site/slug.js';
import { paginateTurns, pageOfMessage, pageOfPrompt } from '../../src/lib/site/pages.js';
import { linkTo } from '../../src/lib/site/links.js';
import { resolveEmbed, EmbedError } from '../../src/lib/site/embed.js';
import { estimateCost } from '../../src/lib/site/cost.js';
import { corpusRoot, fixturesRoot, loadExpect, repoRoot } from '../helpers/shared.js';
import { loadSessionFile } from '../helpers/sessions.js';

const E = loadExpect();

describe('config', () => {
  it('uses defaults without a file and lets the environment win', () => {
    const c = loadConfig(repoRoot, { SESSIONPRESS_SOURCE: fixturesRoot, SESSIONPRESS_BASE: '/repo/' });
    expect(c.sourceDir).toBe(fixturesRoot);
    expect(c.base).toBe('/repo');
    expect(c.pageSize).toBe(40);
  });
  it('fails with a message naming each bad field', () => {
    expect(() => loadConfig(repoRoot, { SESSIONPRESS_SITE: 'not a url', SESSIONPRESS_BASE: 'repo' })).toThrow(/site:.*\n.*base:/s);
    expect(() => loadConfig(repoRoot, { SESSIONPRESS_SOURCE: '/nonexistent/folder' })).toThrow(/does not exist.*SESSIONPRESS_SOURCE/s);
  });
});

describe('slugs', () => {
  it('never lets a username or markup into a URL', () => {
    for (const s of E.sessions) {
      const folder = s.file.split('/')[1];
      const slug = projectSlugOf(folder);
      expect(slug).toMatch(/^[a-z0-9-]+$/);
      expect(slug).not.toContain(E.canary.username);
    }
    expect(projectSlugOf('-Users-ada-work-api')).toBe('work-api');
    expect(slugify('<img src=x>')).toBe('img-src-x');
    expect(sessionSlug('6ad40a5a-7d74-4501-9f1c-2c4cff87cdd9')).toBe('6ad40a5a-7d74-4501-9f1c-2c4cff87cdd9');
    expect(sessionSlug('a b/c')).toBe('a-b-c');
  });
});

describe('pages and links', async () => {
  const big = await loadSessionFile(fixturesRoot, E.big.file.replace(/^projects\//, ''));
  it('splits turns into pages (by turns and by weight) so earlier messages keep their page when a session grows', () => {
    const pages = paginateTurns(big.turns, 40);
    expect(pages.length).toBeGreaterThanOrEqual(Math.ceil(big.turns.length / 40));
    const grown = paginateTurns([...big.turns, ...big.turns.slice(0, 3)], 40);
    const indexes = (list: typeof pages) => list.map((p) => p.map((t) => t.index));
    expect(indexes(grown.slice(0, pages.length - 1))).toEqual(indexes(pages.slice(0, -1)));
    // The last page may take some of the new turns after its own.
    expect(indexes(grown)[pages.length - 1].slice(0, pages[pages.length - 1].length)).toEqual(indexes(pages)[pages.length - 1]);
  });
  it('finds the page of a prompt and of a message by uuid prefix', () => {
    const last = big.turns[big.turns.length - 1];
    const byPrompt = pageOfPrompt(big, last.index, 40)!;
    expect(byPrompt.page).toBe(paginateTurns(big.turns, 40).length);
    const asst = last.messages.find((m) => m.kind === 'assistant')!;
    expect(pageOfMessage(big, asst.uuid.slice(0, 10), 40)).toEqual({ page: byPrompt.page, uuid: asst.uuid });
  });
  it('builds absolute URLs under a base path and a Markdown line', () => {
    const link = linkTo(big, { site: 'https://me.github.io', base: '/repo', pageSize: 40, entryId: `work-search-indexer/${big.sessionId}`, prompt: 1 });
    expect(link.url).toBe(`https://me.github.io/repo/sessions/work-search-indexer/${big.sessionId}/#m-${big.turns.find((t) => t.prompt)!.prompt!.uuid}`);
    expect(link.markdown).toMatch(/^\[.+ — prompt 1\]\(https:\/\/me\.github\.io\/repo\/sessions\//);
    const lastPrompt = big.turns[big.turns.length - 1];
    const deep = linkTo(big, { base: '/', pageSize: 40, entryId: `p/${big.sessionId}`, prompt: lastPrompt.index });
    expect(deep.url).toMatch(new RegExp(`^/sessions/p/${big.sessionId}/\\d+/#m-`));
    expect(() => linkTo(big, { base: '/', pageSize: 40, entryId: `p/${big.sessionId}`, message: 'zzzz' })).toThrow(/no message/);
  });
});

describe('embeds', async () => {
  const s = await loadSessionFile(corpusRoot, '-fixtures-status-line/forked_session.jsonl');
  it('resolves a prompt, a message, a range and the whole session', () => {
    expect(resolveEmbed(s, { id: s.sessionId, prompt: 1 }).messages[0].kind).toBe('user');
    const m = s.messages[2];
    expect(resolveEmbed(s, { id: s.sessionId, message: m.uuid.slice(0, 8) }).messages).toEqual([m]);
    expect(resolveEmbed(s, { id: s.sessionId, from: s.messages[1].uuid, to: s.messages[3].uuid }).messages).toHaveLength(3);
    expect(resolveEmbed(s, { id: s.sessionId }).messages).toHaveLength(s.messages.length);
  });
  it('explains what did not resolve', () => {
    expect(() => resolveEmbed(s, { id: s.sessionId, prompt: 99 })).toThrow(EmbedError);
    expect(() => resolveEmbed(s, { id: s.sessionId, message: 'nope' })).toThrow(/message="nope"/);
  });
});

describe('cost', () => {
  it('prices known models from the table and refuses to guess unknown ones', () => {
    const table = { asOf: 'x', currency: 'USD', models: [{ match: 'sonnet-4', input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 }] };
    const u = { model: 'claude-sonnet-4-5-20250929', messages: 1, inputTokens: 1_000_000, outputTokens: 1_000_000, cacheCreationTokens: 0, cacheReadTokens: 0 };
    expect(estimateCost(u, table)).toBe(18);
    expect(estimateCost({ ...u, model: 'mystery' }, table)).toBeUndefined();
  });
});
