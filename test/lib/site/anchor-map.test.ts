/**
 * The anchor map page 1 of a long session forwards `#m-` and `#t-` links with:
 * every anchor of pages 2+ found on its page, page 1's own left out, keys just
 * long enough, and small enough on the large fixture session to carry tool
 * calls too.
 */
import { describe, expect, it } from 'vitest';
import { buildAnchorMap, pageOfAnchor, anchorKey } from '../../../src/lib/site/anchor-map.js';
import { paginateTurns, shownCalls } from '../../../src/lib/site/pages.js';
import { renderSession } from '../../../src/lib/build/render-session.js';
import { ANCHOR_MAP_INLINE_MAX, placeAnchorMap, sessionAnchorMap, toEntryData } from '../../../src/lib/build/entry-data.js';
import { messageAnchor, toolAnchor } from '../../../src/lib/site/urls.js';
import { corpusRoot, fixturesRoot, loadExpect } from '../../helpers/shared.js';
import { loadSessionFile } from '../../helpers/sessions.js';

const E = loadExpect();

/** The attribute page 1 carries: the map as JSON, quotes escaped as Astro writes them. */
function attributeBytes(value: unknown): number {
  return JSON.stringify(value).replace(/&/g, '&amp;').replace(/"/g, '&quot;').length;
}

describe('buildAnchorMap / pageOfAnchor', () => {
  it('finds messages and tool calls of later pages; page 1 and unknown anchors are not forwarded', () => {
    const map = buildAnchorMap([
      ['m-0b6f1c2e-0000-4000-8000-000000000001', 1],
      ['t-toolu_01AbCdEfGhIjKlMnOpQrStUv', 1],
      ['m-7d1e9a40-0000-4000-8000-000000000002', 2],
      ['t-toolu_01XyZ0123456789abcdefghij', 2],
      ['m-c3a8b5f1-0000-4000-8000-000000000003', 3],
      ['t-toolu_vrtx_01Q9w8e7r6t5y4u3i2o1pA', 3],
    ]);
    expect(pageOfAnchor(map, 'm-7d1e9a40-0000-4000-8000-000000000002')).toBe(2);
    expect(pageOfAnchor(map, 't-toolu_01XyZ0123456789abcdefghij')).toBe(2);
    expect(pageOfAnchor(map, 'm-c3a8b5f1-0000-4000-8000-000000000003')).toBe(3);
    expect(pageOfAnchor(map, 't-toolu_vrtx_01Q9w8e7r6t5y4u3i2o1pA')).toBe(3);
    // Page 1 holds its own anchors; the map does not list them.
    expect(pageOfAnchor(map, 'm-0b6f1c2e-0000-4000-8000-000000000001')).toBeUndefined();
    expect(pageOfAnchor(map, 't-toolu_01AbCdEfGhIjKlMnOpQrStUv')).toBeUndefined();
    expect(map.pages).toHaveLength(2);
    // Other anchors (headings, abandoned branches) and other kinds of id are never forwarded.
    expect(pageOfAnchor(map, 'b-7d1e9a40-0000-4000-8000-000000000002')).toBeUndefined();
    expect(pageOfAnchor(map, '7d1e9a40-0000-4000-8000-000000000002')).toBeUndefined();
    expect(pageOfAnchor(map, 'm-ffffffff-0000-4000-8000-000000000009')).toBeUndefined();
  });

  it('drops the `toolu_01` every call id shares, so tool keys tell calls apart in a few characters', () => {
    const map = buildAnchorMap([['t-toolu_01XyZ0123456789abcdefghij', 2]]);
    expect(map.pages[0]).toBe('XyZ012');
    expect(anchorKey('t-toolu_bdrk_01XyZ0123456789abcdefghij', map.keyLength)).toBe('XyZ012');
    // An id in another shape is kept whole from its start.
    expect(anchorKey('t-call_42', 4)).toBe('call');
    expect(anchorKey('m-', 6)).toBeUndefined();
  });

  it('makes keys longer only when two pages would share one', () => {
    const samePage = buildAnchorMap([
      ['m-abcdef01-0000-4000-8000-000000000001', 2],
      ['m-abcdef02-0000-4000-8000-000000000002', 2],
    ]);
    expect(samePage.keyLength).toBe(6);
    const shared = [
      ['m-abcdef01-0000-4000-8000-000000000001', 2],
      ['m-abcdef02-0000-4000-8000-000000000002', 3],
    ] as const;
    const split = buildAnchorMap(shared);
    expect(split.keyLength).toBe(8);
    expect(pageOfAnchor(split, shared[0][0])).toBe(2);
    expect(pageOfAnchor(split, shared[1][0])).toBe(3);
    // A page-1 anchor counts too: a key never names page 1 and a later page.
    const withFirst = buildAnchorMap([
      ['t-tool_1', 1],
      ['t-tool_12', 2],
    ]);
    expect(pageOfAnchor(withFirst, 't-tool_1')).toBeUndefined();
    expect(pageOfAnchor(withFirst, 't-tool_12')).toBe(2);
  });

  it('leaves out ids a space-separated list cannot hold, and keeps the first page of an id listed twice', () => {
    const map = buildAnchorMap([
      ['t-bad id', 2],
      ['t-toolu_01Same000000000000000000', 2],
      ['t-toolu_01Same000000000000000000', 3],
    ]);
    expect(map.pages.join(' ').split(' ')).toEqual(['Same00']);
    expect(pageOfAnchor(map, 't-bad id')).toBeUndefined();
    expect(pageOfAnchor(map, 't-toolu_01Same000000000000000000')).toBe(2);
  });
});

describe('the anchor map of a rendered session', () => {
  it('forwards every tool call (subagents’ included) and every message shown on a later page, as the HTML has them', async () => {
    // A corpus session with subagents, on pages of two prompts.
    const s = await loadSessionFile(corpusRoot, '-src-deep-manifest/a7da6a22-facc-4fcd-8bab-f83c87862004.jsonl');
    const rendered = await renderSession(s, { pageSize: 2, assetBase: '/assets/', indexToolOutput: false, indexThinking: false });
    expect(rendered.pages.length).toBeGreaterThan(2);
    const data = toEntryData(s, rendered, { findings: [] }, { identity: { entryId: `p/${s.sessionId}`, folderSlug: 'p', projectSlug: 'p', projectName: 'p', projectPath: '/p', copyFolder: '-p' }, cacheKey: 'k' });
    const map = data.anchorMap!;
    expect(map.pages).toHaveLength(rendered.pages.length - 1);
    for (const [i, html] of rendered.pages.entries()) {
      const page = i + 1;
      const toolIds = [...html.value.matchAll(/\bid="t-([^"]+)"/g)].map((m) => m[1]);
      expect(toolIds.length, `page ${page}`).toBeGreaterThan(0);
      // The model's list of shown calls is exactly what the page renders.
      expect(Object.entries(rendered.toolAnchors).filter(([, p]) => p === page).map(([id]) => id).sort()).toEqual([...toolIds].sort());
      for (const id of toolIds) expect(pageOfAnchor(map, toolAnchor(id)), `t-${id}`).toBe(page === 1 ? undefined : page);
      for (const [uuid, p] of Object.entries(rendered.anchors)) {
        if (p !== page) continue;
        expect(pageOfAnchor(map, messageAnchor(uuid))).toBe(page === 1 ? undefined : page);
      }
    }
    // Calls inside subagent transcripts are there too.
    const ownCalls = s.messages.flatMap((m) => (m.kind === 'assistant' ? m.toolCalls : []));
    expect(Object.keys(rendered.toolAnchors).length).toBeGreaterThan(ownCalls.length);
  }, 120_000);

  it('a one-page session has no map', async () => {
    const s = await loadSessionFile(corpusRoot, '-fixtures-claude-code-transcripts/sample_session.jsonl');
    const rendered = await renderSession(s, { pageSize: 1000, assetBase: '/assets/', indexToolOutput: false, indexThinking: false });
    expect(rendered.pages).toHaveLength(1);
    expect(toEntryData(s, rendered, { findings: [] }, { identity: { entryId: `p/${s.sessionId}`, folderSlug: 'p', projectSlug: 'p', projectName: 'p', projectPath: '/p', copyFolder: '-p' }, cacheKey: 'k' }).anchorMap).toBeUndefined();
  }, 120_000);

  it('on the large fixture session, carries tool calls and still weighs less than the old message-only map', async () => {
    const big = await loadSessionFile(fixturesRoot, E.big.file.replace(/^projects\//, ''));
    const messages: Array<[string, number]> = [];
    const calls: Array<[string, number]> = [];
    for (const [i, turns] of paginateTurns(big.turns, 40).entries()) {
      for (const t of turns) {
        for (const m of t.messages) messages.push([messageAnchor(m.uuid), i + 1]);
        for (const c of shownCalls(t.messages)) calls.push([toolAnchor(c.id), i + 1]);
      }
    }
    expect(calls).toHaveLength(E.big.tool_calls);
    const map = buildAnchorMap([...messages, ...calls]);
    for (const [id, page] of [...messages, ...calls]) expect(pageOfAnchor(map, id), id).toBe(page === 1 ? undefined : page);
    // The map page 1 carried before: message uuid → page, as JSON.
    const old = attributeBytes({ base: '/sessions/p/s/', pages: Object.fromEntries(messages.map(([id, p]) => [id.slice(2), p])) });
    const now = attributeBytes({ base: '/sessions/p/s/', ...map });
    expect(now).toBeLessThan(old / 3);
  }, 120_000);
});

describe('where page 1 finds the map', () => {
  it('carries a small map itself, and leaves a large one to a file beside it, so page 1 does not grow with the session', async () => {
    const s = await loadSessionFile(corpusRoot, '-src-deep-manifest/a7da6a22-facc-4fcd-8bab-f83c87862004.jsonl');
    const rendered = await renderSession(s, { pageSize: 2, assetBase: '/assets/', indexToolOutput: false, indexThinking: false });
    const ids = { identity: { entryId: 'p/s', folderSlug: 'p', projectSlug: 'p', projectName: 'p', projectPath: '/p', copyFolder: '-p' }, cacheKey: 'k' };
    const small = toEntryData(s, rendered, { findings: [] }, ids);
    expect(small.anchorMap).toBeDefined();
    expect(small.anchorMapFile).toBeUndefined();
    // A map of 5,000 keys on 50 pages, as a session of thousands of messages has.
    const keys = Array.from({ length: 5000 }, (_, i) => [`m-${i.toString(16).padStart(8, '0')}-0000-4000-8000-000000000000`, 1 + (i % 50)] as const);
    const large = buildAnchorMap(keys);
    expect(JSON.stringify(large).length).toBeGreaterThan(ANCHOR_MAP_INLINE_MAX);
    const placed = placeAnchorMap(large);
    const data = toEntryData(s, rendered, { findings: [] }, ids, placed);
    expect(data.anchorMap).toBeUndefined();
    expect(data.anchorMapFile).toBe(true);
    // The render's writers put beside the pages exactly the map the entry says is there, and no other.
    expect(placed).toEqual({ file: large });
    expect(placeAnchorMap(sessionAnchorMap(rendered))).toEqual({ inline: sessionAnchorMap(rendered) });
    expect(placeAnchorMap(undefined)).toEqual({});
  }, 120_000);
});

describe('pageOfAnchor on a map of another form', () => {
  it('forwards nothing rather than throwing (a page built by an older version)', () => {
    const old = { base: '/s/', pages: { '7d1e9a40-0000-4000-8000-000000000002': 2 } } as unknown as Parameters<typeof pageOfAnchor>[0];
    expect(pageOfAnchor(old, 'm-7d1e9a40-0000-4000-8000-000000000002')).toBeUndefined();
  });
});
