import { agentsIn, spawnedBy } from '../transcript/entries.js';
import type { Message, Session, Subagent, ToolCall, Turn } from '../transcript/types.js';

/**
 * Splits turns into pages of a fixed number of turns. Appending turns to a
 * session never moves an earlier turn to another page, so links keep working.
 */
export function paginateTurns(turns: Turn[], pageSize: number): Turn[][] {
  const size = Math.max(1, pageSize);
  const out: Turn[][] = [];
  for (let i = 0; i < turns.length; i += size) out.push(turns.slice(i, i + size));
  return out.length ? out : [[]];
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
