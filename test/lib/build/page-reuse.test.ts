import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLargeSession } from '../../../scripts/lib/bench/large-session.js';
import { renderSession, type RenderSessionOptions } from '../../../src/lib/build/render-session.js';
import { loadHighlighter } from '../../../src/lib/render/highlight.js';
import { paginateTurns } from '../../../src/lib/site/pages.js';
import type { AssistantMessage, Session, Subagent } from '../../../src/lib/transcript/types.js';
import { loadSessionFile } from '../../helpers/sessions.js';

/**
 * A session that grew by appended lines reuses the pages of its last render
 * that show the same messages: the generator is deterministic, so the 3 MB
 * session is the first part of the 4.5 MB one.
 */
const work = mkdtempSync(join(tmpdir(), 'sp-reuse-'));
let small: Session;
let grown: Session;
const options: RenderSessionOptions = { pageSize: 40, assetBase: '/a/', indexToolOutput: true, indexThinking: false };
const renderPages = (session: Session) => paginateTurns(session.turns, options.pageSize);

beforeAll(async () => {
  await loadHighlighter();
  const a = await makeLargeSession(join(work, 'a'), 3e6);
  const b = await makeLargeSession(join(work, 'b'), 4.5e6);
  small = await loadSessionFile(join(work, 'a'), relative(join(work, 'a'), a.file));
  grown = await loadSessionFile(join(work, 'b'), relative(join(work, 'b'), b.file));
}, 120_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('renderSession with the pages of the last render', () => {
  it('reuses every page whose messages did not change, and the pages equal a render from scratch', async () => {
    const before = await renderSession(small, options, { salt: 's1' });
    expect(before.pageDigests).toHaveLength(before.pages.length);
    const read: number[] = [];
    const previous = {
      digests: before.pageDigests!,
      read: async (page: number) => {
        read.push(page);
        return before.pages[page - 1];
      },
    };
    const after = await renderSession(grown, options, { salt: 's1', previous });
    const fresh = await renderSession(grown, options, { salt: 's1' });
    expect(after.pages.map(String)).toEqual(fresh.pages.map(String));
    expect(after.pageDigests).toEqual(fresh.pageDigests);
    expect(after.pages.length).toBeGreaterThan(before.pages.length);
    // Every page but the last of the smaller session is reused; the last took new messages.
    expect(read).toEqual(Array.from({ length: before.pages.length - 1 }, (_, i) => i + 1));
    // And the render says so, page by page (the twin keeps the Markdown of exactly these pages).
    expect(after.reused).toEqual(Array.from({ length: after.pageCount }, (_, i) => i < before.pages.length - 1));
    expect(fresh.reused.some(Boolean)).toBe(false);
  }, 300_000);

  it('keys every page by what it shows, so the pages an append does not reach keep their keys', async () => {
    const before = await renderSession(small, options, { salt: 's1' });
    const after = await renderSession(grown, options, { salt: 's1', previous: { digests: before.pageDigests!, read: async (page: number) => before.pages[page - 1] } });
    expect(before.pageKeys).toHaveLength(before.pageCount);
    expect(new Set(before.pageKeys).size).toBe(before.pageCount);
    const kept = before.pageCount - 1;
    expect(after.pageKeys.slice(0, kept)).toEqual(before.pageKeys.slice(0, kept));
    // The last page took new lines (or its last prompt's turn went on): its key moved.
    expect(after.pageKeys[kept]).not.toBe(before.pageKeys[kept]);
    // Another render (here: other settings, through the salt) keys every page anew.
    const other = await renderSession(small, options, { salt: 's2' });
    for (const [i, key] of other.pageKeys.entries()) expect(key).not.toBe(before.pageKeys[i]);
    // Without page digests (a render that reuses nothing) a page is keyed by its HTML: the same each time.
    const plain = await renderSession(small, options);
    expect((await renderSession(small, options)).pageKeys).toEqual(plain.pageKeys);
    expect(new Set(plain.pageKeys).size).toBe(plain.pageCount);
  }, 300_000);

  it('keys every page by the abandoned branches too, which every page shows', async () => {
    const before = await renderSession(small, options, { salt: 's1' });
    // A branch rewound from a message of page 1: only page 1's transcript gains its marker.
    const rewound: Session = { ...small, abandoned: [{ forkParentUuid: small.messages[0].uuid, firstUuid: 'b-1', messages: [small.messages[1]] }] };
    const after = await renderSession(rewound, options, { salt: 's1', previous: { digests: before.pageDigests!, read: async (page: number) => before.pages[page - 1] } });
    expect(after.pageDigests!.slice(1)).toEqual(before.pageDigests!.slice(1));
    for (const [i, key] of after.pageKeys.entries()) expect(key, `page ${i + 1}`).not.toBe(before.pageKeys[i]);
  }, 300_000);

  it('hands each page to a sink as it is made, in order, reused ones included, and holds none of them', async () => {
    const before = await renderSession(small, options, { salt: 's1' });
    const previous = { digests: before.pageDigests!, read: async (page: number) => before.pages[page - 1] };
    const sunk: Array<[number, string]> = [];
    const streamed = await renderSession(grown, options, { salt: 's1', previous }, async (page, html) => void sunk.push([page, html.value]));
    const held = await renderSession(grown, options, { salt: 's1' });
    expect(streamed.pages).toEqual([]);
    expect(streamed.pageCount).toBe(held.pages.length);
    expect(sunk.map(([n]) => n)).toEqual(held.pages.map((_, i) => i + 1));
    expect(sunk.map(([, text]) => text)).toEqual(held.pages.map(String));
  }, 300_000);

  it('with a sink, keeps the reused pages where the caller can (a file copy) without reading them, and sinks only the new ones', async () => {
    const before = await renderSession(small, options, { salt: 's1' });
    const kept: number[] = [];
    const sunk: number[] = [];
    let reads = 0;
    const previous = { digests: before.pageDigests!, read: async (p: number) => (reads++, before.pages[p - 1]), keep: async (p: number) => void kept.push(p) };
    const done: Array<[number, number]> = [];
    const after = await renderSession(grown, options, { salt: 's1', previous }, async (page) => void sunk.push(page), undefined, (pages, total) => void done.push([pages, total]));
    expect(reads).toBe(0);
    expect(kept).toEqual(Array.from({ length: before.pages.length - 1 }, (_, i) => i + 1));
    expect(sunk).toEqual(Array.from({ length: after.pageCount - kept.length }, (_, i) => kept.length + i + 1));
    expect(after.reused.flatMap((r, i) => (r ? [i + 1] : []))).toEqual(kept);
    // Progress counts every page, kept or rendered, as it is done.
    expect(done).toEqual(Array.from({ length: after.pageCount }, (_, i) => [i + 1, after.pageCount]));
  }, 300_000);

  it('sees a change deep inside a subagent shared by two calls, and re-renders only its page', async () => {
    // The calls of page 2 spawn one subagent, shared (the same object on every call): the digest sees every string inside it.
    const withAgent = (answer: string): Session => {
      const session = structuredClone(small);
      const pages = renderPages(session);
      const calls = pages[1].flatMap((t) => t.messages).flatMap((m) => (m.kind === 'assistant' ? m.toolCalls : []));
      expect(calls.length).toBeGreaterThan(1);
      const reply = structuredClone(small.messages.find((m) => m.kind === 'assistant')!) as AssistantMessage;
      reply.blocks = [{ type: 'text', text: answer }];
      const agent: Subagent = { prompt: 'look', messages: [reply], turns: [], stats: { toolUseCount: 1 }, source: 'file' };
      reply.toolCalls = [];
      for (const call of calls) Object.assign(call, { name: 'Task', input: { description: 'look', prompt: 'look' }, subagent: agent });
      return session;
    };
    const before = await renderSession(withAgent('the agent found one answer'), options, { salt: 's1' });
    const read: number[] = [];
    const previous = { digests: before.pageDigests!, read: async (page: number) => (read.push(page), before.pages[page - 1]) };
    const same = await renderSession(withAgent('the agent found one answer'), options, { salt: 's1', previous });
    expect(same.reused.every(Boolean)).toBe(true);
    read.length = 0;
    const changed = await renderSession(withAgent('the agent found another answer'), options, { salt: 's1', previous });
    expect(changed.reused.flatMap((r, i) => (r ? [] : [i + 1]))).toEqual([2]);
    expect(read).not.toContain(2);
    expect(changed.pages[1].value).toContain('the agent found another answer');
  }, 300_000);

  it('reuses nothing when the settings or code differ (another salt)', async () => {
    const before = await renderSession(small, options, { salt: 's1' });
    let reads = 0;
    await renderSession(small, options, { salt: 's2', previous: { digests: before.pageDigests!, read: async (p) => (reads++, before.pages[p - 1]) } });
    expect(reads).toBe(0);
    // Same salt, same session: every page.
    await renderSession(small, options, { salt: 's1', previous: { digests: before.pageDigests!, read: async (p) => (reads++, before.pages[p - 1]) } });
    expect(reads).toBe(before.pages.length);
  }, 300_000);

  it('computes no digests unless asked', async () => {
    expect((await renderSession(small, options)).pageDigests).toBeUndefined();
  }, 300_000);
});
