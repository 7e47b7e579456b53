import type { Diagnostic } from '../diagnostics.js';
import { attachmentDisposition, isHookAttachment } from './attachments.js';
import { classifyAssistant, classifyUser, contentBlocks, messageOf, queuedKind, tagContent, textOf } from './entries.js';
import { previewText, resolveKeptText, resolvePersistedOutput, type PersistedOutputs } from './persisted-output.js';
import { copyDerivedText } from '../derived-text.js';
import type {
  AssistantMessage,
  AttachmentMessage,
  CompactionMessage,
  ContentBlock,
  Entry,
  Message,
  PeerMessage,
  SystemMessage,
  ToolCall,
  ToolResult,
  Usage,
  UserMessage,
} from './types.js';

export interface MessagesResult {
  messages: Message[];
  /** Every tool call by id, paired or not. */
  toolCalls: Map<string, ToolCall>;
  unpairedToolUses: string[];
  orphanToolResults: string[];
  diagnostics: Diagnostic[];
  /** Known records read but not shown, by kind (see `Session.hiddenCounts`). */
  hiddenCounts: Record<string, number>;
  /** `turn_duration` entries: the duration of the turn that holds `line`. */
  turnDurations: Array<{ line: number; durationMs: number }>;
}

/** What a branch's messages may draw on beyond its entries. */
export interface BuildMessagesOptions {
  /**
   * Whole outputs kept beside the session, by file name (already redacted).
   * When given, a record that points to a file not in it is reported.
   */
  persisted?: PersistedOutputs;
}

type ToolResultBlock = Extract<ContentBlock, { type: 'tool_result' }>;
type ToolUseBlock = Extract<ContentBlock, { type: 'tool_use' }>;

/** What one pass over a branch's entries gathers; later steps read it. */
interface Collected {
  messages: Message[];
  /** Assistant messages by `message.id`, so that later streaming entries join them. */
  byMessageId: Map<string, AssistantMessage>;
  /** Where each assistant message stands: its last entry's index and request id (see `assistantFor`). */
  streams: Map<AssistantMessage, { lastIndex: number; requestId?: string }>;
  /** File index of the last user entry collected (a prompt, a tool result…). */
  lastUserIndex: number;
  /** File index of each user entry collected, by uuid. */
  userIndex: Map<string, number>;
  toolCalls: Map<string, ToolCall>;
  /** User entries holding tool results: paired only after the walk, once every call is known. */
  resultEntries: Entry[];
  /** A compaction boundary still waiting for the summary that follows it. */
  pendingCompaction?: CompactionMessage;
  /** The last command, while its output may still arrive in a later entry. */
  lastCommand?: UserMessage;
  hidden: Record<string, number>;
  turnDurations: Array<{ line: number; durationMs: number }>;
  /** uuid of a retracted message → uuid of the entry that retracted it. */
  retracted: Map<string, string>;
  options: BuildMessagesOptions;
  /** The file the entries come from, for diagnostics. */
  file: string;
  diagnostics: Diagnostic[];
}

/**
 * Turns the entries of one branch (in file order) into reader-level messages:
 * streaming entries that share `message.id` become one assistant message, tool
 * results are paired with their calls, a command and its output become one
 * message, and a compaction boundary absorbs the summary that follows it.
 */
export function buildMessages(entries: Entry[], file: string, options: BuildMessagesOptions = {}): MessagesResult {
  const collected: Collected = {
    messages: [],
    byMessageId: new Map(),
    streams: new Map(),
    lastUserIndex: -1,
    userIndex: new Map(),
    toolCalls: new Map(),
    resultEntries: [],
    hidden: {},
    turnDurations: [],
    retracted: new Map(),
    options,
    file,
    diagnostics: [],
  };
  for (const entry of entries) collectEntry(collected, entry);
  const { diagnostics } = collected;
  const orphanToolResults = pairToolResults(collected);
  const { messages, toolCalls } = collected;
  const unpairedToolUses = [...toolCalls.values()].filter((call) => !call.result).map((call) => call.id);
  markRetracted(collected);
  messages.sort((a, b) => a.line - b.line);
  return { messages, toolCalls, unpairedToolUses, orphanToolResults, diagnostics, hiddenCounts: collected.hidden, turnDurations: collected.turnDurations };
}

/** Counts a known record that is deliberately not shown. */
export function countHidden(hidden: Record<string, number>, kind: string, n = 1): void {
  hidden[kind] = (hidden[kind] ?? 0) + n;
}

/** Flags the assistant messages an `api_refusal` or `model_refusal_fallback` took back. */
function markRetracted(c: Collected): void {
  if (!c.retracted.size) return;
  for (const m of c.messages) {
    if (m.kind !== 'assistant') continue;
    const by = m.uuids.map((u) => c.retracted.get(u)).find((x) => x);
    if (by) m.retractedBy = by;
  }
}

function entryUuid(entry: Entry): string {
  return entry.uuid ?? `line-${entry.line}`;
}

/** Dispatches one entry by type. Progress, snapshots, queue operations and other metadata are not messages. */
function collectEntry(c: Collected, entry: Entry): void {
  if (entry.type === 'assistant') {
    c.lastCommand = undefined;
    collectAssistant(c, entry);
  } else if (entry.type === 'user') {
    c.lastUserIndex = entry.index;
    if (entry.uuid) c.userIndex.set(entry.uuid, entry.index);
    collectUser(c, entry);
  } else if (entry.type === 'system') {
    collectSystem(c, entry);
  } else if (entry.type === 'attachment') {
    collectAttachment(c, entry);
  } else if (entry.type === 'progress') {
    const data = entry.raw.data as { type?: unknown } | undefined;
    // agent_progress entries are rebuilt into subagents by build-session; the rest are live updates.
    if (data?.type !== 'agent_progress') countHidden(c.hidden, 'progress updates');
  } else if (entry.type === 'file-history-snapshot') {
    countHidden(c.hidden, 'file snapshots');
  }
}

/** Adds a streaming entry to the assistant message of its `message.id` (a new one for a new id). */
function collectAssistant(c: Collected, entry: Entry): void {
  const message = messageOf(entry) ?? {};
  const id = typeof message.id === 'string' ? message.id : undefined;
  const blocks = contentBlocks(entry);
  const target = assistantFor(c, entry, message, id);
  c.streams.set(target, { lastIndex: entry.index, requestId: str(entry.raw.requestId) ?? c.streams.get(target)?.requestId });
  if (entry.uuid) target.uuids.push(entry.uuid);
  target.blocks = mergeBlocks(target.blocks, blocks);
  if (message.usage && typeof message.usage === 'object') target.usage = message.usage as Usage;
  if ('stop_reason' in message) target.stopReason = (message.stop_reason as string | null) ?? target.stopReason ?? null;
  collectToolCalls(c, entry, target, blocks);
}

/**
 * The message a streaming entry belongs to: the one already seen with its id,
 * or a new one. Some gateways (models reached through OpenRouter, Bedrock)
 * answer every turn of a session with one `message.id`: an entry parented on
 * a user entry (a tool result, a prompt) written after the message, or one
 * from another request, or one after such a user entry when the message had
 * already ended (a final `stop_reason`), is a new turn, not more of the old
 * message. Entries
 * of one request stay together even when a tool result was written between
 * them (2.1.x writes each block as its own entry while tools already run).
 */
function assistantFor(c: Collected, entry: Entry, message: Record<string, unknown>, id: string | undefined): AssistantMessage {
  const existing = id ? c.byMessageId.get(id) : undefined;
  if (existing && !startsNewTurn(c, existing, entry)) return existing;
  const target: AssistantMessage = {
    kind: 'assistant',
    assistantKind: classifyAssistant(entry),
    uuid: entryUuid(entry),
    uuids: [],
    messageId: id,
    model: typeof message.model === 'string' ? message.model : undefined,
    ...(typeof message.provider === 'string' && message.provider.trim() ? { provider: message.provider } : {}),
    timestamp: entry.timestamp,
    blocks: [],
    toolCalls: [],
    line: entry.line,
  };
  c.messages.push(target);
  if (id) c.byMessageId.set(id, target);
  return target;
}

/** Whether an entry that shares an earlier message's id is a later turn (see `assistantFor`). */
function startsNewTurn(c: Collected, existing: AssistantMessage, entry: Entry): boolean {
  const stream = c.streams.get(existing);
  if (!stream || c.lastUserIndex < stream.lastIndex) return false;
  // A copy of what the message already holds (a resumed session writes earlier turns again) is the same message.
  if (contentBlocks(entry).some((b) => existing.blocks.some((x) => sameBlock(x, b)))) return false;
  // Parented on a user entry written after the message: the model answered it, so this is a new turn.
  const parentAt = entry.parentUuid ? c.userIndex.get(entry.parentUuid) : undefined;
  if (parentAt !== undefined && parentAt > stream.lastIndex) return true;
  const requestId = str(entry.raw.requestId);
  if (requestId && stream.requestId) return requestId !== stream.requestId;
  return typeof existing.stopReason === 'string' && existing.stopReason !== '';
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v ? v : undefined;
}

/** Records each tool call of an entry once (cumulative streaming repeats them). */
function collectToolCalls(c: Collected, entry: Entry, target: AssistantMessage, blocks: ContentBlock[]): void {
  for (const block of blocks) {
    if (block.type !== 'tool_use') continue;
    const b = block as ToolUseBlock;
    if (typeof b.id !== 'string' || c.toolCalls.has(b.id)) continue;
    const call: ToolCall = {
      id: b.id,
      name: typeof b.name === 'string' ? b.name : 'unknown',
      input: b.input && typeof b.input === 'object' ? b.input : {},
      entryUuid: entry.uuid ?? target.uuid,
    };
    c.toolCalls.set(b.id, call);
    target.toolCalls.push(call);
  }
}

function collectUser(c: Collected, entry: Entry): void {
  const kind = classifyUser(entry);
  if (kind === 'tool-result') {
    collectToolResultEntry(c, entry);
    return;
  }
  if (kind === 'compact-summary') {
    collectCompactSummary(c, entry);
    return;
  }
  const text = textOf(entry);
  if (kind === 'command-output' && attachCommandOutput(c, text)) return;
  if (kind === 'meta') attachCommandExpansion(c, entry, text);
  const msg = userMessage(entry, kind, text);
  c.messages.push(msg);
  c.lastCommand = kind === 'command' ? msg : undefined;
}

/** Keeps a tool result entry for pairing; an interruption written beside the result is a message of its own. */
function collectToolResultEntry(c: Collected, entry: Entry): void {
  c.resultEntries.push(entry);
  const extra = textOf(entry).trim();
  if (/^\[Request interrupted by user/.test(extra)) c.messages.push(userMessage(entry, 'interruption', extra));
}

/** A summary fills the boundary before it; without one waiting, it stands as a compaction of its own. */
function collectCompactSummary(c: Collected, entry: Entry): void {
  const summary = textOf(entry);
  if (c.pendingCompaction && !c.pendingCompaction.summary) {
    c.pendingCompaction.summary = summary;
  } else {
    c.messages.push({ kind: 'compaction', uuid: entryUuid(entry), timestamp: entry.timestamp, summary, line: entry.line });
  }
  c.pendingCompaction = undefined;
}

/**
 * A slash command's expanded text (what Claude received) is a meta entry whose
 * parent is the command: it becomes the command's `expansion`. Caveats are not.
 */
function attachCommandExpansion(c: Collected, entry: Entry, text: string): void {
  const command = c.lastCommand?.command;
  if (!command || command.expansion !== undefined || entry.parentUuid !== c.lastCommand!.uuid) return;
  const trimmed = text.trim();
  if (!trimmed || trimmed.startsWith('<local-command-caveat>') || trimmed.startsWith('Caveat:')) return;
  command.expansion = text;
}

/** Gives the last command its output, if it still has none; false when there is no such command. */
function attachCommandOutput(c: Collected, text: string): boolean {
  if (!c.lastCommand?.command || c.lastCommand.command.output !== undefined) return false;
  c.lastCommand.command.output = commandOutput(text);
  return true;
}

function collectSystem(c: Collected, entry: Entry): void {
  const subtype = entry.subtype ?? 'info';
  if (subtype === 'turn_duration') {
    // The turn's duration belongs on the turn, not in the transcript.
    if (typeof entry.raw.durationMs === 'number') c.turnDurations.push({ line: entry.line, durationMs: entry.raw.durationMs });
    return;
  }
  if (Array.isArray(entry.raw.retractedMessageUuids)) {
    for (const u of entry.raw.retractedMessageUuids) if (typeof u === 'string') c.retracted.set(u, entryUuid(entry));
  }
  if (subtype === 'compact_boundary') {
    c.pendingCompaction = compactionBoundary(entry);
    c.messages.push(c.pendingCompaction);
    return;
  }
  const content = typeof entry.raw.content === 'string' ? entry.raw.content : '';
  // Some versions write local commands and their output as system entries.
  if (subtype === 'local_command' && content.includes('<command-name>')) {
    const msg = userMessage(entry, 'command', content);
    c.messages.push(msg);
    c.lastCommand = msg;
    return;
  }
  if (subtype === 'local_command' && attachCommandOutput(c, content)) return;
  c.messages.push(systemMessage(entry, subtype, content));
}

function compactionBoundary(entry: Entry): CompactionMessage {
  const meta = (entry.raw.compactMetadata ?? {}) as { trigger?: string; preTokens?: number };
  return {
    kind: 'compaction',
    uuid: entryUuid(entry),
    timestamp: entry.timestamp,
    trigger: typeof meta.trigger === 'string' ? meta.trigger : undefined,
    preTokens: typeof meta.preTokens === 'number' ? meta.preTokens : undefined,
    summary: '',
    line: entry.line,
  };
}

/**
 * An attachment: shown where it happened, as a marker, as a queued prompt,
 * or counted as hidden (see `attachmentDisposition`).
 */
function collectAttachment(c: Collected, entry: Entry): void {
  const raw = entry.raw.attachment;
  const att = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : { type: '' };
  const d = attachmentDisposition(att);
  if (d.show === 'hidden') {
    countHidden(c.hidden, d.hidden);
  } else if (d.show === 'marker') {
    c.messages.push({ kind: 'marker', uuid: entryUuid(entry), timestamp: entry.timestamp, markerType: d.markerType, value: d.value, line: entry.line });
  } else if (d.show === 'queued-prompt') {
    collectQueuedPrompt(c, entry, att);
  } else {
    const kept = isHookAttachment(att) ? keptHookOutputs(c, entry, att) : undefined;
    c.messages.push({ kind: 'attachment', uuid: entryUuid(entry), timestamp: entry.timestamp, attachmentType: String(att.type), raw: att, ...(kept ? { kept } : {}), line: entry.line });
  }
}

const HOOK_OUTPUT_FIELDS = ['content', 'stdout', 'stderr'] as const;

/**
 * A hook's output fields that are `<persisted-output>` previews (output over
 * 10,000 characters), with the whole outputs kept beside the session put in
 * their place. A file that is not there is reported on the entry's line.
 */
function keptHookOutputs(c: Collected, entry: Entry, att: Record<string, unknown>): AttachmentMessage['kept'] {
  if (!c.options.persisted) return undefined;
  let kept: AttachmentMessage['kept'];
  for (const field of HOOK_OUTPUT_FIELDS) {
    const k = resolveKeptText(att[field], c.options.persisted);
    if (!k) continue;
    (kept ??= {})[field] = k;
    for (const file of k.missing) reportMissingOutput(c, entry, file, 'hook output');
  }
  return kept;
}

/** A record points to a whole output that is not beside the session: what the record holds is shown instead. */
function reportMissingOutput(c: Collected, entry: Entry, file: string, what: string): void {
  c.diagnostics.push({ file: c.file, line: entry.line, code: 'kept-output-missing', reason: `the whole ${what} (tool-results/${file}) was not found beside the session; only the part the record holds is shown` });
}

/** A prompt typed while the model was busy, queued for after it: text, or blocks (a pasted image and its text). */
function collectQueuedPrompt(c: Collected, entry: Entry, att: Record<string, unknown>): void {
  const prompt = att.prompt;
  const blocks = Array.isArray(prompt) ? prompt.filter((b): b is ContentBlock => !!b && typeof b === 'object' && typeof (b as { type?: unknown }).type === 'string') : [];
  const text =
    typeof prompt === 'string'
      ? prompt
      : blocks
          .filter((b) => b.type === 'text')
          .map((b) => String((b as { text?: unknown }).text ?? ''))
          .join('\n\n');
  if (!text.trim() && !blocks.length) return;
  const kind = queuedKind(text, att.origin);
  const msg = userMessage(entry, kind, text, att.origin);
  msg.blocks = blocks.filter((b) => b.type !== 'text');
  c.messages.push(msg);
}

/**
 * Pairs every tool result with its call. A result whose call is not on this
 * branch is shown on its own and reported. Returns the ids of those orphans.
 */
function pairToolResults(c: Collected): string[] {
  const { file, diagnostics } = c;
  const orphanToolResults: string[] = [];
  for (const entry of c.resultEntries) {
    const results = contentBlocks(entry).filter((b) => b.type === 'tool_result') as ToolResultBlock[];
    for (const block of results) {
      const call = c.toolCalls.get(block.tool_use_id);
      if (call) {
        if (!call.result) call.result = toolResult(c, entry, block, results.length);
        continue;
      }
      orphanToolResults.push(block.tool_use_id);
      diagnostics.push({ file, line: entry.line, code: 'tool-result-without-tool-use', reason: `tool result ${typeof block.tool_use_id === 'string' && block.tool_use_id ? `for ${block.tool_use_id} ` : 'with no tool_use_id '}has no matching tool call; shown on its own` });
      c.messages.push(userMessage(entry, 'tool-result', stringifyResult(block.content)));
    }
  }
  return orphanToolResults;
}

function toolResult(c: Collected, entry: Entry, block: ToolResultBlock, resultsInEntry: number): ToolResult {
  const result: ToolResult = {
    uuid: entryUuid(entry),
    timestamp: entry.timestamp,
    content: '',
    isError: block.is_error === true,
    // One entry holds one result in every version seen; with several, the structured
    // result cannot be told apart, so only a lone result gets it.
    toolUseResult: resultsInEntry === 1 ? entry.raw.toolUseResult : undefined,
  };
  // A Read's numbered text is derived from the file's each time it is read: it stays so (shared-result-text.ts).
  if (block.content != null) copyDerivedText(block, 'content', result, 'content');
  const persisted = c.options.persisted;
  const kept = persisted ? resolvePersistedOutput(result.content, result.toolUseResult, persisted) : undefined;
  if (kept) {
    result.persistedOutput = kept.ref;
    if (kept.content !== undefined) {
      result.content = kept.content;
    } else {
      // What the record holds: the preview's text, without its wrapper and the path it names.
      if (typeof result.content === 'string') result.content = previewText(result.content);
      else if (Array.isArray(result.content)) result.content = result.content.map((b) => (b.type === 'text' && typeof (b as { text?: unknown }).text === 'string' ? { ...b, text: previewText((b as { text: string }).text) } : b));
      reportMissingOutput(c, entry, kept.ref.file, 'tool output');
    }
  }
  return result;
}

/**
 * Merges the blocks of a new streaming entry into a message. Split style adds
 * new blocks; cumulative style repeats (and may extend) the earlier ones, so the
 * later entry replaces them. Each block ends up exactly once, in order.
 */
export function mergeBlocks(previous: ContentBlock[], next: ContentBlock[]): ContentBlock[] {
  if (previous.length === 0) return [...next];
  if (next.length >= previous.length && previous.every((b, i) => extendsBlock(b, next[i]))) return [...next];
  const merged = [...previous];
  for (const block of next) {
    const at = merged.findIndex((b) => sameBlock(b, block));
    if (at === -1) merged.push(block);
    else if (extendsBlock(merged[at], block)) merged[at] = block;
  }
  return merged;
}

function blockText(b: ContentBlock): string | undefined {
  if (b.type === 'text') return (b as { text?: string }).text ?? '';
  if (b.type === 'thinking') return (b as { thinking?: string }).thinking ?? '';
  return undefined;
}

function sameBlock(a: ContentBlock, b: ContentBlock): boolean {
  if (a.type !== b.type) return false;
  if (a.type === 'tool_use') return (a as { id?: string }).id === (b as { id?: string }).id;
  const ta = blockText(a);
  if (ta !== undefined) return ta === blockText(b);
  return JSON.stringify(a) === JSON.stringify(b);
}

/** `b` is `a`, or a later, longer state of the same streamed block. */
function extendsBlock(a: ContentBlock, b: ContentBlock | undefined): boolean {
  if (!b || a.type !== b.type) return false;
  const ta = blockText(a);
  if (ta !== undefined) return (blockText(b) ?? '').startsWith(ta);
  return sameBlock(a, b);
}

function userMessage(entry: Entry, userKind: UserMessage['userKind'], text: string, origin: unknown = entry.raw.origin): UserMessage {
  const blocks = contentBlocks(entry).filter((b) => b.type !== 'text' && b.type !== 'tool_result');
  const msg: UserMessage = {
    kind: 'user',
    userKind,
    uuid: entryUuid(entry),
    timestamp: entry.timestamp,
    text,
    blocks,
    line: entry.line,
    raw: entry.raw,
  };
  if (userKind === 'agent-message') {
    const peer = peerOf(origin, text);
    if (peer) msg.peer = peer;
  }
  const source = entry.raw.promptSource;
  if (typeof source === 'string' && source && source !== 'typed') msg.promptSource = source;
  if (userKind === 'command') {
    const name = (tagContent(text, 'command-name') ?? '').trim();
    const args = (tagContent(text, 'command-args') ?? '').trim();
    const inlineOut = tagContent(text, 'local-command-stdout');
    msg.command = { name: name.startsWith('/') || !name ? name : `/${name}`, args, output: inlineOut };
  }
  return msg;
}

const CROSS_SESSION_OPEN = /<cross-session-message\b([^>]*)>/;

/**
 * Who sent another session's message: `origin` (`name`, `from`, `fromMode`,
 * `msg_id`) first, else the attributes of its `<cross-session-message>`
 * wrapper. Undefined for a teammate's message (no origin, no such wrapper).
 */
function peerOf(origin: unknown, text: string): PeerMessage | undefined {
  const o = origin && typeof origin === 'object' ? (origin as Record<string, unknown>) : {};
  const attrs: Record<string, string> = {};
  const open = CROSS_SESSION_OPEN.exec(text);
  if (open) for (const a of open[1].matchAll(/([\w-]+)\s*=\s*"([^"]*)"/g)) attrs[a[1]] = a[2];
  if (o.kind !== 'peer' && !open && !/^\s*Another Claude session sent a message:/.test(text)) return undefined;
  const s = (v: unknown) => (typeof v === 'string' && v.trim() ? v : undefined);
  const peer: PeerMessage = {};
  const name = s(o.name) ?? s(attrs['from-name']);
  const from = s(o.from) ?? s(attrs.from);
  const mode = s(o.fromMode) ?? s(attrs['from-mode']);
  const msgId = s(o.msg_id) ?? s(o.msgId);
  if (name) peer.name = name;
  if (from) peer.from = from;
  if (mode) peer.mode = mode;
  if (msgId) peer.msgId = msgId;
  return peer;
}

function systemMessage(entry: Entry, subtype: string, content: string): SystemMessage {
  return {
    kind: 'system',
    uuid: entryUuid(entry),
    subtype,
    timestamp: entry.timestamp,
    text: content,
    level: typeof entry.raw.level === 'string' ? entry.raw.level : undefined,
    line: entry.line,
    raw: entry.raw,
  };
}

function commandOutput(text: string): string {
  return tagContent(text, 'local-command-stdout') ?? tagContent(text, 'local-command-stderr') ?? text;
}

function stringifyResult(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((b) => (b && typeof b === 'object' && typeof (b as { text?: unknown }).text === 'string' ? (b as { text: string }).text : ''))
      .join('\n');
  }
  return '';
}
