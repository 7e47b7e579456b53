import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLargeSession } from '../../../scripts/lib/bench/large-session.js';
import { countElements, PAGE_LIMITS } from '../../../scripts/lib/bench/page-weight.js';
import { renderSession } from '../../../src/lib/build/render-session.js';
import { loadHighlighter } from '../../../src/lib/render/highlight.js';
import { messageWeight } from '../../../src/lib/site/page-weight.js';
import { isContinuation, PAGE_BUDGET, pageOfMessage, pageOfPrompt, paginateTurns } from '../../../src/lib/site/pages.js';
import type { Session, Turn } from '../../../src/lib/transcript/types.js';
import { loadSessionFile } from '../../helpers/sessions.js';

/**
 * Pages cut by weight as well as by turns, on a generated long session (the
 * bench's generator: ordinary prompts, answers and Read/Bash/Grep/Edit calls
 * with outputs of a few kB). The generator is deterministic, so the 4 MB
 * session is the first part of the 6 MB one: the same session, grown.
 */
const work = mkdtempSync(join(tmpdir(), 'sp-pages-'));
let small: Session;
let grown: Session;

beforeAll(async () => {
  const a = await makeLargeSession(join(work, 'a'), 4e6);
  const b = await makeLargeSession(join(work, 'b'), 6e6);
  small = await loadSessionFile(join(work, 'a'), relative(join(work, 'a'), a.file));
  grown = await loadSessionFile(join(work, 'b'), relative(join(work, 'b'), b.file));
}, 120_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

const uuidsOf = (pages: Turn[][]) => pages.map((p) => p.flatMap((t) => t.messages.map((m) => m.uuid)));
const pageWeight = (page: Turn[]) => {
  const seen = new Set<object>();
  return page.flatMap((t) => t.messages).reduce((w, m) => {
    const x = messageWeight(m, seen);
    return { bytes: w.bytes + x.bytes, elements: w.elements + x.elements };
  }, { bytes: 0, elements: 0 });
};

describe('paginateTurns, by turns and by weight', () => {
  it('keeps every message once, in reading order, with no page over its budget or its turns', () => {
    const pages = paginateTurns(small.turns, 40);
    // 40 turns of this session weigh far more than a page may: the weight cuts, not the turn count.
    expect(pages.length).toBeGreaterThan(Math.ceil(small.turns.length / 40));
    expect(uuidsOf(pages).flat()).toEqual(small.turns.flatMap((t) => t.messages.map((m) => m.uuid)));
    for (const page of pages) {
      const w = pageWeight(page);
      if (page.flatMap((t) => t.messages).length > 1) {
        expect(w.bytes).toBeLessThanOrEqual(PAGE_BUDGET.bytes);
        expect(w.elements).toBeLessThanOrEqual(PAGE_BUDGET.elements);
      }
      expect(new Set(page.map((t) => t.index)).size).toBeLessThanOrEqual(40);
    }
    // Few turns: the turn count cuts.
    expect(paginateTurns(small.turns.slice(0, 6), 5)).toHaveLength(2);
  });

  it('never moves a cut when the session grows: every message but the last keeps its page', () => {
    const before = uuidsOf(paginateTurns(small.turns, 40));
    const after = uuidsOf(paginateTurns(grown.turns, 40));
    expect(after.length).toBeGreaterThan(before.length);
    const pageIn = (pages: string[][]) => new Map(pages.flatMap((p, i) => p.map((u) => [u, i] as const)));
    const then = pageIn(before);
    const now = pageIn(after);
    const all = before.flat();
    // The last message may still gain a tool result in the grown session, and with it weight.
    for (const uuid of all.slice(0, -1)) expect(now.get(uuid), uuid).toBe(then.get(uuid));
  });

  it('splits a turn too heavy for a page between messages; its first piece keeps the prompt', () => {
    const budget = { bytes: 20_000, elements: 1e9 };
    const pages = paginateTurns(small.turns, 40, budget);
    const pieces = pages.flat();
    const continued = pieces.filter(isContinuation);
    expect(continued.length).toBeGreaterThan(0);
    for (const piece of continued) {
      expect(piece.prompt).toBeUndefined();
      const first = pieces.find((p) => p.index === piece.index)!;
      expect(first.prompt).toBeDefined();
      expect(isContinuation(first)).toBe(false);
    }
    // Finding a prompt or a message goes through the same cut.
    const turn = continued[0];
    const page = pages.findIndex((p) => p.includes(turn)) + 1;
    const firstPage = pages.findIndex((p) => p.some((t) => t.index === turn.index)) + 1;
    expect(page).toBeGreaterThan(firstPage);
    // With the default budget every message's page is the one paginateTurns gives it.
    const real = paginateTurns(small.turns, 40);
    for (const [i, p] of real.entries()) {
      for (const t of p) {
        const m = t.messages[t.messages.length - 1];
        if (m) expect(pageOfMessage(small, m.uuid, 40)?.page).toBe(i + 1);
        if (t.prompt) expect(pageOfPrompt(small, t.index, 40)?.page).toBe(i + 1);
      }
    }
  });
});

describe('renderSession on the pages so cut', () => {
  it('renders every page under 400 KB and 8,000 elements, and every anchor names its page', async () => {
    await loadHighlighter();
    const r = await renderSession(small, { pageSize: 40, assetBase: '/a/', indexToolOutput: true, indexThinking: false });
    expect(r.pages.length).toBe(paginateTurns(small.turns, 40).length);
    for (const page of r.pages) {
      const text = String(page);
      // The transcript leaves room for the page's frame (header, overview, navigation).
      expect(Buffer.byteLength(text)).toBeLessThan(PAGE_LIMITS.bytes - 50 * 1024);
      expect(countElements(text)).toBeLessThan(PAGE_LIMITS.elements - 1000);
    }
    for (const [uuid, page] of Object.entries(r.anchors)) expect(String(r.pages[page - 1]), uuid).toContain(`data-uuid="${uuid}"`);
    for (const item of r.toc) expect(String(r.pages[item.page - 1])).toContain(`id="m-${item.uuid}"`);
    for (const [id, page] of Object.entries(r.toolAnchors)) expect(String(r.pages[page - 1])).toContain(`t-${id}`);
  }, 120_000);

  it('says where a turn split by weight goes on, and lists its prompt once, on the page of its start', async () => {
    await loadHighlighter();
    // One prompt answered by the messages of the session's first 40 turns: far heavier than a page.
    const [first, ...rest] = small.turns.filter((t) => t.prompt).slice(0, 40);
    const turn: Turn = { ...first, messages: [first, ...rest].flatMap((t) => t.messages) };
    const r = await renderSession({ ...small, turns: [turn] }, { pageSize: 40, assetBase: '/a/', indexToolOutput: true, indexThinking: false });
    expect(r.pages.length).toBeGreaterThan(2);
    expect(String(r.pages[0])).not.toContain('turn-continued');
    for (const page of r.pages.slice(1)) expect(String(page)).toContain(`Prompt ${turn.index}, continued from the previous page`);
    expect(r.toc).toHaveLength(1);
    expect(r.toc[0].page).toBe(1);
  }, 120_000);
});
