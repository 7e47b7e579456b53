import { agentsIn, spawnedBy } from '../transcript/entries.js';
import type { Message, Session, Subagent, ToolCall, Turn } from '../transcript/types.js';
import { messageWeight, type Weight } from './page-weight.js';

/**
 * Most a page's transcript may weigh, as `messageWeight` estimates it. The
 * limits a built session page is held to are 400 KB and 8,000 elements; the
 * rest is left for the page's frame (header, overview, navigation) and for the
 * estimate's error (it errs heavy on the corpus: rendered ÷ estimated is 0.8
 * for bytes and 0.7 for elements overall).
 */
export const PAGE_BUDGET: Weight = { bytes: 300 * 1024, elements: 5000 };

/** A new turn starts a new page once the page is this full, so that fewer turns are split across pages. */
const TURN_START_FILL = 0.75;

/**
 * Splits turns into pages: at most `pageSize` turns a page, and at most
 * `budget` of estimated weight (`messageWeight`). A turn too heavy for what is
 * left of a page is split between messages: its first piece keeps the prompt,
 * the next ones (same `index`, no `prompt`) continue it on the following
 * pages. A single message heavier than the budget gets a page to itself.
 *
 * The cut is made reading forward and depends only on what comes before it
 * and on the next message, so appending lines to a session never moves a cut
 * already made, and a message keeps its page (only the last message, while a
 * tool result it waits for is still to come, may grow and move on to the
 * next page). The build, `link`, `export`, the Markdown twins and pull-request
 * comments all cut through this function, so they agree on every page.
 */
export function paginateTurns(turns: Turn[], pageSize: number, budget: Weight = PAGE_BUDGET): Turn[][] {
  const size = Math.max(1, pageSize);
  const pages: Turn[][] = [];
  let page: Turn[] = [];
  let bytes = 0;
  let elements = 0;
  let started = 0;
  const close = () => {
    if (page.length) pages.push(page);
    page = [];
    bytes = elements = started = 0;
  };
  for (const turn of turns) {
    if (page.length && (started >= size || bytes >= budget.bytes * TURN_START_FILL || elements >= budget.elements * TURN_START_FILL)) close();
    started++;
    if (!turn.messages.length) {
      page.push(turn);
      continue;
    }
    const seen = new Set<object>();
    let piece: Message[] = [];
    let first = true;
    const flush = () => {
      page.push(first && piece.length === turn.messages.length ? turn : pieceOf(turn, piece, first));
      first = false;
      piece = [];
    };
    for (const m of turn.messages) {
      const w = messageWeight(m, seen);
      if ((page.length || piece.length) && (bytes + w.bytes > budget.bytes || elements + w.elements > budget.elements)) {
        if (piece.length) flush();
        close();
        // The continuation counts as a turn of its page.
        started = 1;
      }
      piece.push(m);
      bytes += w.bytes;
      elements += w.elements;
    }
    flush();
  }
  close();
  return pages.length ? pages : [[]];
}

/** Part of a turn: the first part keeps the prompt, a later one continues the turn without it. */
function pieceOf(turn: Turn, messages: Message[], first: boolean): Turn {
  const piece: Turn = { ...turn, messages };
  if (!first || !turn.prompt || !messages.includes(turn.prompt)) delete piece.prompt;
  // The turn's duration belongs to its prompt's piece.
  if (!first) {
    delete piece.durationMs;
    continued.add(piece);
  }
  return piece;
}

const continued = new WeakSet<Turn>();

/** Whether a turn of a page continues a turn begun on an earlier page (it was split by weight). */
export function isContinuation(piece: Turn): boolean {
  return continued.has(piece);
}

/** The 1-based page holding a message (by any of its source entry uuids), or undefined. */
export function pageOfMessage(session: Session, uuidPrefix: string, pageSize: number): { page: number; uuid: string } | undefined {
  const pages = paginateTurns(session.turns, pageSize);
  for (const [i, turns] of pages.entries()) {
    for (const t of turns) {
      for (const m of t.messages) {
        const ids = m.kind === 'assistant' ? m.uuids : [m.uuid];
        if (ids.some((id) => id.startsWith(uuidPrefix))) return { page: i + 1, uuid: m.uuid };
      }
    }
  }
  return undefined;
}

/** The 1-based page holding prompt number `n`, with the prompt's uuid. */
export function pageOfPrompt(session: Session, n: number, pageSize: number): { page: number; uuid: string } | undefined {
  const pages = paginateTurns(session.turns, pageSize);
  for (const [i, turns] of pages.entries()) {
    const t = turns.find((x) => x.index === n && x.prompt);
    if (t) return { page: i + 1, uuid: t.prompt!.uuid };
  }
  return undefined;
}

/**
 * Every tool call a transcript shows, each with its `#t-` anchor: the calls of
 * its replies, and of the subagents, workflow agents, forks and compaction
 * agents shown inside them, at any depth. An agent reached twice is walked once.
 */
export function shownCalls(messages: Message[], seen = new Set<Subagent>()): ToolCall[] {
  const inside = (agents: Subagent[]) =>
    agents.flatMap((a) => {
      if (seen.has(a)) return [];
      seen.add(a);
      return shownCalls(a.messages, seen);
    });
  return messages.flatMap((m) => {
    if (m.kind === 'assistant') return m.toolCalls.flatMap((call) => [call, ...inside(spawnedBy(call))]);
    return inside(agentsIn(m));
  });
}

/** The 1-based page showing the tool call whose `tool_use` id starts with `idPrefix`, with its full id. */
export function pageOfToolCall(session: Session, idPrefix: string, pageSize: number): { page: number; id: string } | undefined {
  const pages = paginateTurns(session.turns, pageSize);
  for (const [i, turns] of pages.entries()) {
    const call = turns.flatMap((t) => shownCalls(t.messages)).find((c) => c.id.startsWith(idPrefix));
    if (call) return { page: i + 1, id: call.id };
  }
  return undefined;
}

/**
 * The pages a session page lists in its overview: all of them for a short
 * session; for a long one the first, the last and those around the current
 * page, with `undefined` where pages are left out. At most `2 × around + 5`
 * items, whatever the session's length, so no page grows with the session.
 */
export function pageWindow(page: number, pageCount: number, around = 10): Array<number | undefined> {
  if (pageCount <= 2 * around + 3) return Array.from({ length: pageCount }, (_, i) => i + 1);
  const from = Math.max(2, Math.min(page - around, pageCount - 1 - 2 * around));
  const to = Math.min(pageCount - 1, from + 2 * around);
  const out: Array<number | undefined> = [1];
  if (from > 2) out.push(undefined);
  for (let n = from; n <= to; n++) out.push(n);
  if (to < pageCount - 1) out.push(undefined);
  out.push(pageCount);
  return out;
}
