import type { Message, Session } from '../transcript/types.js';

/** What a note asks to embed: a whole session, one turn, a range, or one message. */
export interface EmbedRef {
  session: string;
  prompt?: number;
  message?: string;
  from?: string;
  to?: string;
}

export interface ResolvedEmbed {
  messages: Message[];
  /** uuid of the first embedded message (the link target), if any. */
  anchor?: string;
  label: string;
}

/** Thrown when a note references something that does not exist; the build fails with its message. */
export class EmbedError extends Error {}

function ids(m: Message): string[] {
  return m.kind === 'assistant' ? m.uuids : [m.uuid];
}

function findIndex(messages: Message[], prefix: string, what: string, session: Session): number {
  const hits = messages.map((m, i) => (ids(m).some((id) => id.startsWith(prefix)) ? i : -1)).filter((i) => i >= 0);
  if (hits.length === 0) throw new EmbedError(`${what}="${prefix}": no message of session ${session.sessionId} has a uuid starting with it`);
  if (hits.length > 1) throw new EmbedError(`${what}="${prefix}": ${hits.length} messages of session ${session.sessionId} match; use a longer prefix`);
  return hits[0];
}

/** Picks the messages a reference names, or throws an EmbedError saying what did not resolve. */
export function resolveEmbed(session: Session, ref: EmbedRef): ResolvedEmbed {
  const all = session.messages;
  if (ref.message) {
    const i = findIndex(all, ref.message, 'message', session);
    return { messages: [all[i]], anchor: all[i].uuid, label: `message ${all[i].uuid.slice(0, 8)}` };
  }
  if (ref.prompt !== undefined) {
    const turn = session.turns.find((t) => t.index === ref.prompt && t.prompt);
    if (!turn) throw new EmbedError(`prompt={${ref.prompt}}: session ${session.sessionId} has prompts 1 to ${session.facts.promptCount}`);
    return { messages: turn.messages, anchor: turn.prompt!.uuid, label: `prompt ${ref.prompt}` };
  }
  if (ref.from || ref.to) {
    const start = ref.from ? findIndex(all, ref.from, 'from', session) : 0;
    const end = ref.to ? findIndex(all, ref.to, 'to', session) : all.length - 1;
    if (end < start) throw new EmbedError(`from="${ref.from}" comes after to="${ref.to}" in session ${session.sessionId}`);
    const messages = all.slice(start, end + 1);
    return { messages, anchor: messages[0]?.uuid, label: `${messages.length} messages` };
  }
  return { messages: all, anchor: undefined, label: 'whole session' };
}
