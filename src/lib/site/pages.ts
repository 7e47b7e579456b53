import type { Session, Turn } from '../transcript/types.js';

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
