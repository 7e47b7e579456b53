/**
 * The transcript writer: one JSONL file in memory, entries chained by
 * `parentUuid`, every entry stamped with the fields of the chosen Claude Code
 * version (2.0.x and 2.1.x differ in a handful of places, marked `newer`).
 *
 * Every id and every random-looking number comes from the session's seeded
 * {@link Ids} stream, so the order of the calls below is part of the output.
 */
import type { Ids } from './ids.js';
import type { Json, JsonObject } from './json.js';
import type { ToolCall } from './tool-calls.js';

/** One content block of an assistant message, before it gets its ids. */
export type Block =
  | { kind: 'thinking'; text: string }
  | { kind: 'text'; text: string }
  | { kind: 'tool'; call: ToolCall; id?: string };

/** A thinking block (it gets a signature when written). */
export const thinking = (text: string): Block => ({ kind: 'thinking', text });
/** A text block, Markdown as the model writes it. */
export const text = (body: string): Block => ({ kind: 'text', text: body });
/** A tool_use block for `call` (it gets a `toolu_` id when written). */
export const tool = (call: ToolCall): Block => ({ kind: 'tool', call });

export interface TranscriptOptions {
  ids: Ids;
  sessionId: string;
  cwd: string;
  version: string;
  gitBranch: string;
  model: string;
  start: string;
  /** Claude Code names a session with a slug once it is under way. */
  slug?: string;
  /** Set for subagent transcripts. */
  agentId?: string;
}

export interface AssistantOptions {
  /** 'split' (2.1.x and most 2.0.x): one entry per block. 'cumulative': each entry repeats the earlier blocks. */
  streaming?: 'split' | 'cumulative';
  model?: string;
  /** Seconds between the request and the first streamed entry. */
  latency?: number;
}

/** Everything the session scripts need to know about one written assistant message. */
export interface AssistantMessage {
  messageId: string;
  uuids: string[];
  /** tool_use id per tool block, in order. */
  toolIds: string[];
  last: string;
}

export interface ResultOptions {
  /** Seconds the tool took (0.4 unless told). */
  seconds?: number;
  /** Fields added to the entry after the usual ones. */
  extra?: JsonObject;
  /** Overrides the call's `content`. */
  content?: Json;
}

/** One transcript being written; `lines` are its entries so far. */
export interface Transcript {
  readonly lines: JsonObject[];
  /** The entry the next one hangs off; set it to write a new branch (a rewind). */
  head: string | null;
  /** Moves the clock forward, for the user's thinking time between turns. */
  wait(seconds: number): void;
  /** A file-history snapshot, written before every prompt. */
  snapshot(messageId: string): void;
  /** A human prompt (string or content blocks); returns its uuid. */
  prompt(content: Json, extra?: JsonObject): string;
  /** A plain user-role entry (interruptions, command echoes, compact summaries). */
  user(content: Json, extra?: JsonObject): string;
  /** One API message, streamed as one entry per block. */
  assistant(blocks: Block[], opts?: AssistantOptions): AssistantMessage;
  /**
   * The result of a tool call. It hangs off the assistant entry that holds the
   * tool_use (so results of parallel calls hang off different entries), and
   * the conversation continues from whichever result is written last.
   */
  result(toolUseId: string, opts?: ResultOptions): string;
  /** A progress entry (hook runs, long Bash output, web search steps). */
  progress(data: JsonObject, toolUseID: string, parentToolUseID: string, seconds?: number): string;
  system(subtype: string, fields: JsonObject): string;
  /** The `turn_duration` entry 2.1.x writes when a turn ends. */
  turnDone(): string;
  /** A slash command as 2.1.x records it: caveat, command, output, all user entries. */
  command(name: string, args: string, stdout: string): string;
  /** A slash command as 2.0.5x records it: two `local_command` system entries. */
  localCommand(name: string, stdout: string): string;
  /** `/compact`: a boundary that starts a new chain, the summary, then the command echo. */
  compact(summary: string, preTokens: number): { boundary: string; summary: string };
  /** A prompt typed while Claude is busy: queued, then taken off the queue when the turn ends. */
  queue(operation: 'enqueue' | 'dequeue', content?: string): void;
  /** The clock, as an ISO timestamp. */
  now(): string;
}

/** The state of one transcript being written, shared by the entry writers below. */
interface Writer {
  readonly options: TranscriptOptions;
  readonly ids: Ids;
  /** 2.1.x rather than 2.0.x. */
  readonly newer: boolean;
  readonly out: JsonObject[];
  /** The assistant entry that holds each tool_use, so its result can hang off it. */
  readonly toolEntry: Map<string, string>;
  readonly pendingTools: Map<string, ToolCall>;
  /** Files changed so far: how many versions, and whether Claude created the file (no backup then). */
  readonly touched: Map<string, { version: number; created: boolean }>;
  clock: number;
  head: string | null;
  /** Real files gain the slug once the first reply is under way. */
  slugOn: boolean;
  promptAt: number;
  /** Tokens in the prompt cache, which grows with every reply and shrinks on /compact. */
  context: number;
}

/**
 * Writes one transcript in memory. It keeps the clock, the current `head` (the
 * entry the next one hangs off) and the pending tool calls, and stamps every
 * entry with the fields of the chosen Claude Code version.
 */
export function createTranscript(options: TranscriptOptions): Transcript {
  const w: Writer = {
    options,
    ids: options.ids,
    newer: options.version.startsWith('2.1'),
    out: [],
    toolEntry: new Map(),
    pendingTools: new Map(),
    touched: new Map(),
    clock: Date.parse(options.start),
    head: null,
    slugOn: false,
    promptAt: Date.parse(options.start),
    context: options.ids.int(14_000, 19_000),
  };
  return {
    lines: w.out,
    get head(): string | null {
      return w.head;
    },
    set head(uuid: string | null) {
      w.head = uuid;
    },
    wait: (seconds) => void (w.clock += Math.round(seconds * 1000)),
    snapshot: (messageId) => writeSnapshot(w, messageId),
    prompt: (content, extra = {}) => writePrompt(w, content, extra),
    user: (content, extra = {}) => writeUser(w, content, extra),
    assistant: (blocks, opts = {}) => writeAssistant(w, blocks, opts),
    result: (toolUseId, opts = {}) => writeResult(w, toolUseId, opts),
    progress: (data, toolUseID, parentToolUseID, seconds = 1) => writeProgress(w, data, toolUseID, parentToolUseID, seconds),
    system: (subtype, fields) => writeSystem(w, subtype, fields),
    turnDone: () => writeTurnDone(w),
    command: (name, args, stdout) => writeCommand(w, name, args, stdout),
    localCommand: (name, stdout) => writeLocalCommand(w, name, stdout),
    compact: (summary, preTokens) => writeCompact(w, summary, preTokens),
    queue: (operation, content) => writeQueue(w, operation, content),
    now: () => new Date(w.clock).toISOString(),
  };
}

/** Runs one whole tool round trip: the assistant message, then each result in order. */
export function call(t: Transcript, blocks: Block[], seconds: number[] = [], opts: AssistantOptions = {}): AssistantMessage {
  const message = t.assistant(blocks, opts);
  message.toolIds.forEach((id, i) => t.result(id, { seconds: seconds[i] ?? 0.4 }));
  return message;
}

// ---------------------------------------------------------------------------
// Shared parts of every entry

/** Moves the clock forward by `ms` and returns the new time. */
function stamp(w: Writer, ms = 0): string {
  w.clock += ms;
  return new Date(w.clock).toISOString();
}

/** The fields every chained entry starts with; `parentUuid` is the current head. */
function envelope(w: Writer): JsonObject {
  const { options } = w;
  const e: JsonObject = {
    parentUuid: w.head,
    isSidechain: options.agentId !== undefined,
    userType: 'external',
    cwd: options.cwd,
    sessionId: options.sessionId,
    version: options.version,
    gitBranch: options.gitBranch,
  };
  if (options.agentId !== undefined) e.agentId = options.agentId;
  if (w.slugOn && options.slug) e.slug = options.slug;
  return e;
}

/** Appends a chained entry and makes it the head. */
function append(w: Writer, entry: JsonObject, uuid: string): string {
  w.out.push(entry);
  w.head = uuid;
  return uuid;
}

/** An API `usage` object; the prompt cache grows by what this reply wrote to it. */
function usage(w: Writer, outputTokens: number): JsonObject {
  const { ids, newer } = w;
  const created = ids.int(200, 4_000);
  const u: JsonObject = {
    input_tokens: ids.int(1, 12),
    cache_creation_input_tokens: created,
    cache_read_input_tokens: w.context,
    cache_creation: newer
      ? { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: created }
      : { ephemeral_5m_input_tokens: created, ephemeral_1h_input_tokens: 0 },
    output_tokens: outputTokens,
    service_tier: 'standard',
  };
  if (newer) u.inference_geo = 'not_available';
  w.context += created;
  return u;
}

// ---------------------------------------------------------------------------
// User-side entries

function writeSnapshot(w: Writer, messageId: string): void {
  const backups: JsonObject = {};
  for (const [rel, { version, created }] of w.touched) {
    backups[rel] = {
      backupFileName: created && version === 1 ? null : `${w.ids.hex(16)}@v${version}`,
      version,
      backupTime: stamp(w, 3),
    };
  }
  w.out.push({
    type: 'file-history-snapshot',
    messageId,
    snapshot: { messageId, trackedFileBackups: backups, timestamp: stamp(w, 1) },
    isSnapshotUpdate: false,
  });
}

function writePrompt(w: Writer, content: Json, extra: JsonObject): string {
  const uuid = w.ids.uuid();
  const main = w.options.agentId === undefined;
  if (main) writeSnapshot(w, uuid);
  const at = stamp(w, 2);
  w.promptAt = w.clock;
  const entry: JsonObject = { ...envelope(w), type: 'user', message: { role: 'user', content }, uuid, timestamp: at };
  if (main) {
    entry.thinkingMetadata = w.newer ? { maxThinkingTokens: 31999 } : { level: 'high', disabled: false, triggers: [] };
    entry.todos = [];
    if (w.newer) entry.permissionMode = 'default';
  }
  Object.assign(entry, extra);
  return append(w, entry, uuid);
}

function writeUser(w: Writer, content: Json, extra: JsonObject): string {
  const uuid = w.ids.uuid();
  const entry = { ...envelope(w), type: 'user', message: { role: 'user', content }, ...extra, uuid, timestamp: stamp(w, 5) };
  return append(w, entry, uuid);
}

// ---------------------------------------------------------------------------
// Assistant messages and tool results

/** What every streamed entry of one assistant message shares. */
interface Streamed {
  messageId: string;
  requestId: string;
  model: string;
  streaming: 'split' | 'cumulative';
  usage: JsonObject;
  outputTokens: number;
}

function writeAssistant(w: Writer, blocks: Block[], opts: AssistantOptions): AssistantMessage {
  const messageId = w.ids.messageId();
  const requestId = w.ids.requestId();
  const streaming = opts.streaming ?? 'split';
  const content = blocks.map((b) => contentBlock(w, b));
  const outputTokens = content.reduce((n, b) => n + Math.ceil(JSON.stringify(b).length / 4), 0);
  const streamed: Streamed = {
    messageId,
    requestId,
    model: opts.model ?? w.options.model,
    streaming,
    usage: usage(w, outputTokens),
    outputTokens,
  };
  w.clock += Math.round((opts.latency ?? w.ids.int(2, 6)) * 1000);
  const uuids: string[] = [];
  const toolIds: string[] = [];
  content.forEach((block, i) => {
    const uuid = writeStreamedEntry(w, streamed, content, i);
    uuids.push(uuid);
    const b = blocks[i]!;
    if (block.type === 'tool_use' && b.kind === 'tool') {
      const id = block.id as string;
      toolIds.push(id);
      w.toolEntry.set(id, uuid);
      w.pendingTools.set(id, b.call);
    }
  });
  w.slugOn = true;
  return { messageId, uuids, toolIds, last: w.head! };
}

/** A block as the API sends it, with its signature or tool_use id. */
function contentBlock(w: Writer, b: Block): JsonObject {
  if (b.kind === 'thinking') return { type: 'thinking', thinking: b.text, signature: w.ids.signature() };
  if (b.kind === 'text') return { type: 'text', text: b.text };
  const id = b.id ?? w.ids.toolUseId();
  const block: JsonObject = { type: 'tool_use', id, name: b.call.name, input: b.call.input };
  if (w.newer) block.caller = { type: 'direct' };
  return block;
}

/** The entry for block `i`: alone when split, with every earlier block when cumulative. */
function writeStreamedEntry(w: Writer, s: Streamed, content: JsonObject[], i: number): string {
  const uuid = w.ids.uuid();
  const block = content[i]!;
  const shown = s.streaming === 'split' ? [block] : content.slice(0, i + 1);
  const entry: JsonObject = {
    ...envelope(w),
    message: {
      model: s.model,
      id: s.messageId,
      type: 'message',
      role: 'assistant',
      content: shown,
      stop_reason: null,
      stop_sequence: null,
      // Only the last entry of a message carries the real output count.
      usage: { ...s.usage, output_tokens: i === content.length - 1 ? s.outputTokens : w.ids.int(1, 12) },
    },
    requestId: s.requestId,
    type: 'assistant',
    uuid,
    // Roughly the speed at which a model streams text: a few hundred characters a second.
    timestamp: stamp(w, JSON.stringify(block).length * 3 + w.ids.int(200, 900)),
  };
  return append(w, entry, uuid);
}

function writeResult(w: Writer, toolUseId: string, opts: ResultOptions): string {
  const call = w.pendingTools.get(toolUseId);
  const parent = w.toolEntry.get(toolUseId);
  if (!call || !parent) throw new Error(`no pending tool_use ${toolUseId}`);
  w.pendingTools.delete(toolUseId);
  trackFileChange(w, call);
  const uuid = w.ids.uuid();
  const block: JsonObject = { tool_use_id: toolUseId, type: 'tool_result', content: opts.content ?? call.content };
  if (call.isError !== undefined) block.is_error = call.isError;
  const entry: JsonObject = {
    ...envelope(w),
    parentUuid: parent,
    type: 'user',
    message: { role: 'user', content: [block] },
    uuid,
    timestamp: stamp(w, Math.round((opts.seconds ?? 0.4) * 1000)),
    toolUseResult: call.result,
    ...opts.extra,
  };
  if (w.newer) entry.sourceToolAssistantUUID = parent;
  return append(w, entry, uuid);
}

/** Counts a file version for the next file-history snapshot when `call` changed a file. */
function trackFileChange(w: Writer, call: ToolCall): void {
  if (call.name !== 'Edit' && call.name !== 'Write' && call.name !== 'MultiEdit') return;
  const rel = String(call.input.file_path).slice(w.options.cwd.length + 1);
  const seen = w.touched.get(rel);
  w.touched.set(rel, { version: (seen?.version ?? 0) + 1, created: seen ? seen.created : call.name === 'Write' });
}

function writeProgress(w: Writer, data: JsonObject, toolUseID: string, parentToolUseID: string, seconds: number): string {
  const uuid = w.ids.uuid();
  const entry: JsonObject = {
    ...envelope(w),
    type: 'progress',
    data,
    toolUseID,
    parentToolUseID,
    uuid,
    timestamp: stamp(w, Math.round(seconds * 1000)),
  };
  return append(w, entry, uuid);
}

// ---------------------------------------------------------------------------
// System entries, slash commands and the queue

function writeSystem(w: Writer, subtype: string, fields: JsonObject): string {
  const uuid = w.ids.uuid();
  return append(w, { ...envelope(w), type: 'system', subtype, ...fields, timestamp: stamp(w, 150), uuid }, uuid);
}

function writeTurnDone(w: Writer): string {
  const uuid = w.ids.uuid();
  const at = stamp(w, 160);
  const entry: JsonObject = {
    ...envelope(w),
    type: 'system',
    subtype: 'turn_duration',
    durationMs: w.clock - w.promptAt,
    timestamp: at,
    uuid,
    isMeta: false,
  };
  return append(w, entry, uuid);
}

function writeCommand(w: Writer, name: string, args: string, stdout: string): string {
  const caveat =
    'Caveat: The messages below were generated by the user while running local commands. DO NOT respond to these messages or otherwise consider them in your response unless the user explicitly asks you to.';
  writeUser(w, w.newer ? `<local-command-caveat>${caveat}</local-command-caveat>` : caveat, { isMeta: true });
  writeUser(
    w,
    `<command-name>/${name}</command-name>\n            <command-message>${name}</command-message>\n            <command-args>${args}</command-args>`,
    {},
  );
  return writeUser(w, `<local-command-stdout>${stdout}</local-command-stdout>`, {});
}

function writeLocalCommand(w: Writer, name: string, stdout: string): string {
  const at = stamp(w, 0);
  localCommandEntry(
    w,
    `<command-name>/${name}</command-name>\n            <command-message>${name}</command-message>\n            <command-args></command-args>`,
    at,
  );
  return localCommandEntry(w, `<local-command-stdout>${stdout}</local-command-stdout>`, at);
}

/** One of the two `local_command` entries 2.0.5x writes for a slash command, both stamped `at`. */
function localCommandEntry(w: Writer, content: string, at: string): string {
  const uuid = w.ids.uuid();
  const entry: JsonObject = {
    ...envelope(w),
    type: 'system',
    subtype: 'local_command',
    content,
    level: 'info',
    timestamp: at,
    uuid,
    isMeta: false,
  };
  return append(w, entry, uuid);
}

function writeCompact(w: Writer, summary: string, preTokens: number): { boundary: string; summary: string } {
  const logicalParent = w.head;
  const boundary = w.ids.uuid();
  // The boundary starts a new chain: its parentUuid is null, logicalParentUuid keeps the link.
  w.head = null;
  append(
    w,
    {
      ...envelope(w),
      logicalParentUuid: logicalParent,
      type: 'system',
      subtype: 'compact_boundary',
      content: 'Conversation compacted',
      isMeta: false,
      timestamp: stamp(w, 48_000),
      uuid: boundary,
      level: 'info',
      compactMetadata: { trigger: 'manual', preTokens },
    },
    boundary,
  );
  const summaryUuid = w.ids.uuid();
  append(
    w,
    {
      ...envelope(w),
      type: 'user',
      message: { role: 'user', content: summary },
      isVisibleInTranscriptOnly: true,
      isCompactSummary: true,
      uuid: summaryUuid,
      timestamp: stamp(w, 2),
    },
    summaryUuid,
  );
  writeCommand(w, 'compact', '', '\u001b[2mCompacted (ctrl+o to see full summary)\u001b[22m');
  w.context = w.ids.int(9_000, 12_000);
  return { boundary, summary: summaryUuid };
}

function writeQueue(w: Writer, operation: 'enqueue' | 'dequeue', content: string | undefined): void {
  const entry: JsonObject = { type: 'queue-operation', operation, timestamp: stamp(w, 40) };
  // 2.0.x stored the queued prompt as content blocks; 2.1.x stores the plain string.
  if (content !== undefined) entry.content = w.newer ? content : [{ type: 'text', text: content }];
  entry.sessionId = w.options.sessionId;
  w.out.push(entry);
}
