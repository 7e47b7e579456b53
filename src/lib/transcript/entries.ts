import type { JsonlRecord } from '../jsonl/read-jsonl.js';
import { isAgentMessageText } from './prompt-tags.js';
import { ENTRY_TYPE_FAMILIES, ENTRY_TYPES, type AssistantKind, type ContentBlock, type Entry, type EntryType, type Message, type Subagent, type ToolCall, type UserKind, type UserMessage } from './types.js';

const KNOWN_TYPES: ReadonlySet<string> = new Set<string>(ENTRY_TYPES);

/** Entry types that are turns of the conversation itself. */
export const CONVERSATION_TYPES: ReadonlySet<EntryType> = new Set<EntryType>(['user', 'assistant']);

/** The model's type for a raw `type` string: itself when listed, its family's (latches, `marble-origami-*`), else `unknown`. */
export function entryTypeOf(rawType: string): EntryType {
  if (KNOWN_TYPES.has(rawType)) return rawType as EntryType;
  return ENTRY_TYPE_FAMILIES.find((f) => f.pattern.test(rawType))?.type ?? 'unknown';
}

/** Wraps a parsed JSONL record into a typed entry; unknown types are kept, never rejected. */
export function toEntry(record: JsonlRecord, index: number): Entry {
  const raw = record.value;
  const rawType = typeof raw.type === 'string' ? raw.type : '';
  const type = entryTypeOf(rawType);
  return {
    line: record.line,
    index,
    type,
    rawType,
    uuid: typeof raw.uuid === 'string' && raw.uuid ? raw.uuid : undefined,
    parentUuid: typeof raw.parentUuid === 'string' ? raw.parentUuid : raw.parentUuid === null ? null : undefined,
    logicalParentUuid: typeof raw.logicalParentUuid === 'string' ? raw.logicalParentUuid : undefined,
    timestamp: typeof raw.timestamp === 'string' ? raw.timestamp : undefined,
    isSidechain: raw.isSidechain === true,
    isMeta: raw.isMeta === true,
    subtype: typeof raw.subtype === 'string' ? raw.subtype : undefined,
    raw,
  };
}

/** The `message` object of a user or assistant entry, if it has one. */
export function messageOf(entry: Entry): Record<string, unknown> | undefined {
  const m = entry.raw.message;
  return m && typeof m === 'object' && !Array.isArray(m) ? (m as Record<string, unknown>) : undefined;
}

/** Content blocks of an entry's message; a string content becomes one text block. */
export function contentBlocks(entry: Entry): ContentBlock[] {
  const content = messageOf(entry)?.content;
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  return content.filter((b): b is ContentBlock => !!b && typeof b === 'object' && typeof (b as { type?: unknown }).type === 'string');
}

/** Text of an entry's message: the string content, or its text blocks joined. */
export function textOf(entry: Entry): string {
  const content = messageOf(entry)?.content;
  if (typeof content === 'string') return content;
  return contentBlocks(entry)
    .filter((b): b is { type: 'text'; text: string } => b.type === 'text' && typeof (b as { text?: unknown }).text === 'string')
    .map((b) => b.text)
    .join('\n\n');
}

const COMPACT_CONTINUATION = /^This session is being continued from a previous conversation/;
const INTERRUPTION = /^\[Request interrupted by user/;

/**
 * What a user entry is to a reader. Order matters: a tool result can carry an
 * interruption text block, and a compact summary is also marked meta in some versions.
 */
export function classifyUser(entry: Entry): UserKind {
  const blocks = contentBlocks(entry);
  if (blocks.some((b) => b.type === 'tool_result')) return 'tool-result';
  if (entry.raw.isCompactSummary === true) return 'compact-summary';
  const text = textOf(entry).trimStart();
  if (COMPACT_CONTINUATION.test(text)) return 'compact-summary';
  if (text.startsWith('<local-command-caveat>')) return 'meta';
  // Another session's message is written as a meta line (`isMeta`, `promptSource: "system"`), yet it is conversation.
  if (isPeerMessage(entry, text)) return 'agent-message';
  if (entry.isMeta) return 'meta';
  if (isTaskNotification(entry, text)) return 'task-notification';
  if (isAgentMessageText(text)) return 'agent-message';
  if (text.includes('<command-name>')) return 'command';
  if (text.startsWith('<local-command-stdout>') || text.startsWith('<local-command-stderr>')) return 'command-output';
  if (text.startsWith('<bash-input>')) return 'bash-input';
  if (text.startsWith('<bash-stdout>') || text.startsWith('<bash-stderr>')) return 'bash-output';
  if (INTERRUPTION.test(text)) return 'interruption';
  return 'prompt';
}

/**
 * What a prompt queued while Claude worked turns out to be: a background
 * agent's result, a message from another agent, or a prompt someone typed.
 */
export function queuedKind(text: string, origin?: unknown): UserKind {
  if (text.trimStart().startsWith('<task-notification>')) return 'task-notification';
  if (isAgentMessageText(text)) return 'agent-message';
  const kind = origin && typeof origin === 'object' ? (origin as { kind?: unknown }).kind : undefined;
  if (kind === 'peer' || PEER_INTRO.test(text.trimStart())) return 'agent-message';
  if (kind === 'task-notification') return 'task-notification';
  return 'queued-prompt';
}

/** The words Claude Code writes before another session's message (with or without a `<cross-session-message>` wrapper). */
const PEER_INTRO = /^Another Claude session sent a message:/;

/**
 * A message another Claude Code session sent (2.1.1xx+): `origin.kind` is
 * `peer`, or (lines without an origin) its text opens with the words that
 * announce one. Never a prompt: nobody typed it into this session.
 */
export function isPeerMessage(entry: Entry, text: string = textOf(entry).trimStart()): boolean {
  const origin = entry.raw.origin as { kind?: unknown } | undefined;
  if (origin && typeof origin === 'object' && origin.kind === 'peer') return true;
  return PEER_INTRO.test(text) && (isAgentMessageText(text) || entry.isMeta);
}

/** A background agent's result, injected as a user entry (2.1.x marks its origin; older ones only carry the tag). */
function isTaskNotification(entry: Entry, text: string): boolean {
  const origin = entry.raw.origin as { kind?: unknown } | undefined;
  if (origin && typeof origin === 'object' && origin.kind === 'task-notification') return true;
  return text.startsWith('<task-notification>');
}

/** Normal, `<synthetic>` filler, or an API error written as an assistant message. */
export function classifyAssistant(entry: Entry): AssistantKind {
  if (entry.raw.isApiErrorMessage === true) return 'api-error';
  if (messageOf(entry)?.model === '<synthetic>') return 'synthetic';
  return 'normal';
}

/**
 * The one rule for what a person typed: a user entry that is neither a tool
 * result, nor meta, nor a command wrapper or its output, nor an interruption
 * (see `classifyUser`). Sidechain entries are a subagent's, never the user's.
 */
export function isHumanPrompt(entry: Entry): boolean {
  return entry.type === 'user' && !entry.isSidechain && classifyUser(entry) === 'prompt';
}

/** Whether a message starts a turn: a prompt, or a prompt the user queued while Claude worked. */
export function isPromptMessage(m: Message): m is UserMessage {
  return m.kind === 'user' && (m.userKind === 'prompt' || m.userKind === 'queued-prompt');
}

/** Extracts the text between `<tag>` and `</tag>`, or undefined. */
export function tagContent(text: string, tag: string): string | undefined {
  const open = `<${tag}>`;
  const start = text.indexOf(open);
  if (start === -1) return undefined;
  const end = text.indexOf(`</${tag}>`, start + open.length);
  return text.slice(start + open.length, end === -1 ? undefined : end);
}

/** The agents a call started: a Task's or Agent's subagent, or a workflow run's agents. */
export function spawnedBy(call: ToolCall): Subagent[] {
  return [...(call.subagent ? [call.subagent] : []), ...(call.workflowAgents ?? [])];
}

/**
 * Every agent shown inside a message: those its calls started (`spawnedBy`),
 * the agents a `/fork` line forked, and a compaction's compaction agent
 * (unless `compaction` is false: it is no agent anyone asked for).
 */
export function agentsIn(m: Message, compaction = true): Subagent[] {
  if (m.kind === 'assistant') return m.toolCalls.flatMap(spawnedBy);
  if (m.kind === 'user' || m.kind === 'system') return m.forks ?? [];
  if (m.kind === 'compaction' && compaction && m.compactionAgent) return [m.compactionAgent];
  return [];
}
