/**
 * Messages between Claude Code sessions (2.1.1xx+): another session's message
 * arrives as a user line (`origin.kind: "peer"`, a `<cross-session-message>`),
 * and the session answers it through a `SendMessage` call. Pure data: links
 * each message to the call that answered it.
 */
import type { Message, ToolCall, UserMessage } from './types.js';

/** Tools a session answers another session with. */
const REPLY_TOOLS = new Set(['SendMessage']);

/**
 * Links each peer message to the `SendMessage` call that answered it: the
 * first later call whose input names the message's `msg_id`, else the first
 * later call addressed to its sender (`to` is its name or address). Each call
 * answers one message at most; a message nobody answered keeps no link.
 */
export function linkPeerReplies(messages: Message[]): void {
  const calls: Array<{ call: ToolCall; line: number }> = [];
  for (const m of messages) if (m.kind === 'assistant') for (const c of m.toolCalls) if (REPLY_TOOLS.has(c.name)) calls.push({ call: c, line: m.line });
  if (!calls.length) return;
  const used = new Set<ToolCall>();
  const peers = messages.filter((m): m is UserMessage & { peer: NonNullable<UserMessage['peer']> } => m.kind === 'user' && !!m.peer);
  const later = (m: UserMessage) => calls.filter((c) => c.line > m.line && !used.has(c.call));
  for (const m of peers) {
    const id = m.peer.msgId;
    if (!id) continue;
    const hit = later(m).find((c) => inputMentions(c.call.input, id));
    if (hit) answer(m, hit.call, used);
  }
  for (const m of peers) {
    if (m.peer.answeredBy) continue;
    const names = [m.peer.name, m.peer.from].filter((v): v is string => !!v);
    const hit = later(m).find((c) => names.includes(String(c.call.input.to ?? c.call.input.recipient ?? '')));
    if (hit) answer(m, hit.call, used);
  }
}

function answer(m: UserMessage & { peer: NonNullable<UserMessage['peer']> }, call: ToolCall, used: Set<ToolCall>): void {
  m.peer.answeredBy = call.id;
  used.add(call);
}

/** Whether any string value of a call's input (at any depth) is or holds `text`. */
function inputMentions(value: unknown, text: string, depth = 0): boolean {
  if (typeof value === 'string') return value.includes(text);
  if (depth > 4 || !value || typeof value !== 'object') return false;
  return Object.values(value as Record<string, unknown>).some((v) => inputMentions(v, text, depth + 1));
}
