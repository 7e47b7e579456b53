import { agentsIn } from '../transcript/entries.js';
import type { Message, Session } from '../transcript/types.js';

/** What a note asks to embed: a whole session, one turn, a range, or one message. */
export interface EmbedRef {
  /** The session's id, or a prefix of it. */
  id: string;
  prompt?: number;
  message?: string;
  from?: string;
  to?: string;
}

export type EmbedKind = 'session' | 'prompt' | 'range' | 'message';

export interface ResolvedEmbed {
  kind: EmbedKind;
  messages: Message[];
  /** uuid of the first embedded message (the link target); undefined for a whole session, which links to the page top. */
  anchor?: string;
  label: string;
}

/** Thrown when a note references something that does not exist; the build fails with its message. */
export class EmbedError extends Error {}

function ids(m: Message): string[] {
  return m.kind === 'assistant' ? m.uuids : [m.uuid];
}

/**
 * Where a uuid prefix that is not in the active transcript lives, to tell the
 * note's author why it cannot be embedded rather than just "not found".
 */
function whereElse(session: Session, prefix: string): string | undefined {
  for (const b of session.abandoned) {
    if (b.messages.some((m) => ids(m).some((id) => id.startsWith(prefix)))) {
      return `it is in an abandoned branch (rewound by the user), which is not part of the transcript and cannot be embedded`;
    }
  }
  const inAgents = (messages: Message[], depth: number): Message | undefined => {
    for (const m of messages) {
      for (const agent of agentsIn(m)) {
        const sub = agent.messages;
        if (sub.some((s) => ids(s).some((id) => id.startsWith(prefix))) || (depth < 8 && inAgents(sub, depth + 1))) return m;
      }
    }
    return undefined;
  };
  const parent = inAgents(session.messages, 0);
  if (parent) return `it is in a subagent transcript; embed the message that started the agent instead (message="${parent.uuid.slice(0, 8)}")`;
  return undefined;
}

function findIndex(messages: Message[], prefix: string, what: string, session: Session): number {
  const hits = messages.map((m, i) => (ids(m).some((id) => id.startsWith(prefix)) ? i : -1)).filter((i) => i >= 0);
  if (hits.length === 0) {
    const why = whereElse(session, prefix);
    throw new EmbedError(`${what}="${prefix}": ${why ?? `no message of session ${session.sessionId} has a uuid starting with it`}`);
  }
  if (hits.length > 1) throw new EmbedError(`${what}="${prefix}": ${hits.length} messages of session ${session.sessionId} match; use a longer prefix`);
  return hits[0];
}

/**
 * Picks the messages a reference names, or throws an EmbedError saying what
 * did not resolve. `message`, `prompt` and `from`/`to` are exclusive: a note
 * that mixes them would silently show less than its author meant.
 */
export function resolveEmbed(session: Session, ref: EmbedRef): ResolvedEmbed {
  const all = session.messages;
  for (const key of ['message', 'from', 'to'] as const) {
    const v = ref[key];
    if (v !== undefined && (typeof v !== 'string' || v.trim() === '')) throw new EmbedError(`${key} must be a non-empty uuid prefix`);
  }
  const modes = [ref.message !== undefined && 'message', ref.prompt !== undefined && 'prompt', (ref.from !== undefined || ref.to !== undefined) && 'from/to'].filter(Boolean);
  if (modes.length > 1) throw new EmbedError(`use one of message, prompt or from/to, not ${modes.join(' and ')}`);

  if (ref.message !== undefined) {
    const i = findIndex(all, ref.message, 'message', session);
    return { kind: 'message', messages: [all[i]], anchor: all[i].uuid, label: `message ${all[i].uuid.slice(0, 8)}` };
  }
  if (ref.prompt !== undefined) {
    if (typeof ref.prompt !== 'number') throw new EmbedError(`prompt must be a number: write prompt={${JSON.stringify(ref.prompt).replace(/"/g, '')}}, not prompt=${JSON.stringify(ref.prompt)}`);
    const turn = Number.isInteger(ref.prompt) ? session.turns.find((t) => t.index === ref.prompt && t.prompt) : undefined;
    if (!turn) {
      const count = session.facts.promptCount;
      throw new EmbedError(`prompt={${ref.prompt}}: session ${session.sessionId} ${count ? `has prompts 1 to ${count}` : 'has no prompts'}`);
    }
    return { kind: 'prompt', messages: turn.messages, anchor: turn.prompt!.uuid, label: `prompt ${ref.prompt}` };
  }
  if (ref.from !== undefined || ref.to !== undefined) {
    const start = ref.from !== undefined ? findIndex(all, ref.from, 'from', session) : 0;
    const end = ref.to !== undefined ? findIndex(all, ref.to, 'to', session) : all.length - 1;
    if (end < start) throw new EmbedError(`from="${ref.from}" comes after to="${ref.to}" in session ${session.sessionId}`);
    const messages = all.slice(start, end + 1);
    return { kind: 'range', messages, anchor: messages[0]?.uuid, label: `${messages.length} message${messages.length === 1 ? '' : 's'}` };
  }
  return { kind: 'session', messages: all, anchor: undefined, label: 'whole session' };
}
