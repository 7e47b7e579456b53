/**
 * Writes the bundled sample sessions in `content/sessions/`.
 *
 * The samples are what a newcomer sees after `npm install && npm run build`, so
 * they are small, readable and made up for this project, but written in the
 * exact shape of real Claude Code 2.0.x and 2.1.x transcripts: split or
 * cumulative streaming, parallel tool calls, rewinds, compaction, subagents in
 * both layouts, a warmup agent, slash commands, queued prompts and so on.
 * `content/sessions/README.md` says which sample shows what.
 *
 * Every id comes from a seeded generator (one seed per session), so running the
 * script again gives byte-identical files and a change to one session leaves
 * the others alone. The script checks its own output before writing it.
 *
 * Usage: npm exec -- tsx scripts/make-samples.ts [output-root]
 */
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import { structuredPatch } from 'diff';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

// ---------------------------------------------------------------------------
// Deterministic ids

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

interface Ids {
  uuid(): string;
  /** `msg_01…`, 28 characters like the API's. */
  messageId(): string;
  /** `toolu_01…`, 30 characters. */
  toolUseId(): string;
  /** `srvtoolu_01…`: server-side tool calls such as web search. */
  serverToolUseId(): string;
  /** `req_011C…`, 28 characters. */
  requestId(): string;
  /** An opaque thinking signature (base64, as the API sends it). */
  signature(): string;
  hex(length: number): string;
  int(min: number, max: number): number;
}

/** Ids from a mulberry32 stream: random-looking, but the same on every run. */
function createIds(seed: number): Ids {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = (alphabet: string, length: number): string =>
    Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
  const hex = (length: number): string => pick('0123456789abcdef', length);
  return {
    uuid: () => {
      // RFC 4122 version 4: the version nibble is 4 and the variant is 8, 9, a or b.
      const variant = '89ab'[Math.floor(next() * 4)];
      return `${hex(8)}-${hex(4)}-4${hex(3)}-${variant}${hex(3)}-${hex(12)}`;
    },
    messageId: () => `msg_01${pick(BASE62, 22)}`,
    toolUseId: () => `toolu_01${pick(BASE62, 22)}`,
    serverToolUseId: () => `srvtoolu_01${pick(BASE62, 22)}`,
    requestId: () => `req_011C${pick(BASE62, 20)}`,
    signature: () => `Eq${pick(BASE64, 4 * (60 + Math.floor(next() * 40)))}`,
    hex,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
  };
}

// ---------------------------------------------------------------------------
// A tiny in-memory project, so Read, Edit and Write results agree with each other

interface Project {
  readonly cwd: string;
  abs(rel: string): string;
  read(rel: string): string;
  write(rel: string, content: string): void;
  has(rel: string): boolean;
}

function createProject(cwd: string, files: Record<string, string>): Project {
  const store = new Map(Object.entries(files));
  return {
    cwd,
    abs: (rel) => `${cwd}/${rel}`,
    read: (rel) => {
      const text = store.get(rel);
      if (text === undefined) throw new Error(`sample project has no ${rel}`);
      return text;
    },
    write: (rel, content) => void store.set(rel, content),
    has: (rel) => store.has(rel),
  };
}

/** 1-based number of the first line of `text` that contains `needle`. */
function lineOf(text: string, needle: string): number {
  const index = text.split('\n').findIndex((line) => line.includes(needle));
  if (index < 0) throw new Error(`no line contains ${JSON.stringify(needle)}`);
  return index + 1;
}

/** `grep -n`-style lines (`path:line:text`) for every line matching `pattern`. */
function grepLines(project: Project, rels: string[], pattern: RegExp): string[] {
  const out: string[] = [];
  for (const rel of rels) {
    project
      .read(rel)
      .split('\n')
      .forEach((line, i) => {
        if (pattern.test(line)) out.push(`${rel}:${i + 1}:${line}`);
      });
  }
  return out;
}

// ---------------------------------------------------------------------------
// Tool calls: the input the model sends and the result Claude Code records

interface ToolCall {
  name: string;
  input: JsonObject;
  /** `tool_result.content` as the model sees it. */
  content: Json;
  /** The entry's `toolUseResult`, as Claude Code stores it for its own UI. */
  result: Json;
  isError?: boolean;
}

/** The Read tool's `cat -n`-like view: line numbers right-aligned to 6, then an arrow. */
function numbered(text: string, startLine = 1): string {
  const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
  return lines.map((line, i) => `${String(startLine + i).padStart(6)}→${line}`).join('\n');
}

function readTool(project: Project, rel: string): ToolCall {
  const content = project.read(rel);
  const lineCount = content.endsWith('\n') ? content.split('\n').length - 1 : content.split('\n').length;
  return {
    name: 'Read',
    input: { file_path: project.abs(rel) },
    content: numbered(content),
    result: {
      type: 'text',
      file: { filePath: project.abs(rel), content, numLines: lineCount, startLine: 1, totalLines: lineCount },
    },
  };
}

function writeTool(project: Project, rel: string, content: string): ToolCall {
  if (project.has(rel)) throw new Error(`${rel} exists; the samples only create new files with Write`);
  project.write(rel, content);
  return {
    name: 'Write',
    input: { file_path: project.abs(rel), content },
    content: `File created successfully at: ${project.abs(rel)}`,
    result: { type: 'create', filePath: project.abs(rel), content, structuredPatch: [], originalFile: null },
  };
}

function hunks(before: string, after: string): Json {
  return structuredPatch('a', 'b', before, after, '', '', { context: 3 }).hunks.map((h) => ({
    oldStart: h.oldStart,
    oldLines: h.oldLines,
    newStart: h.newStart,
    newLines: h.newLines,
    lines: h.lines,
  }));
}

function applyOnce(text: string, oldString: string, newString: string, rel: string): string {
  const at = text.indexOf(oldString);
  if (at < 0 || text.indexOf(oldString, at + 1) >= 0) {
    throw new Error(`old_string must occur exactly once in ${rel}: ${JSON.stringify(oldString.slice(0, 60))}`);
  }
  return text.slice(0, at) + newString + text.slice(at + oldString.length);
}

function editTool(project: Project, rel: string, oldString: string, newString: string): ToolCall {
  const originalFile = project.read(rel);
  const updated = applyOnce(originalFile, oldString, newString, rel);
  project.write(rel, updated);
  return {
    name: 'Edit',
    input: { file_path: project.abs(rel), old_string: oldString, new_string: newString, replace_all: false },
    content: `The file ${project.abs(rel)} has been updated successfully.`,
    result: {
      filePath: project.abs(rel),
      oldString,
      newString,
      originalFile,
      structuredPatch: hunks(originalFile, updated),
      userModified: false,
      replaceAll: false,
    },
  };
}

function multiEditTool(project: Project, rel: string, edits: Array<[string, string]>): ToolCall {
  const originalFileContents = project.read(rel);
  let updated = originalFileContents;
  for (const [oldString, newString] of edits) updated = applyOnce(updated, oldString, newString, rel);
  project.write(rel, updated);
  const clip = (s: string) => (s.length > 50 ? `${s.slice(0, 50)}...` : s);
  const list = edits.map(([o, n], i) => `${i + 1}. Replaced "${clip(o)}" with "${clip(n)}"`).join('\n');
  const editsJson = edits.map(([o, n]) => ({ old_string: o, new_string: n, replace_all: false }));
  return {
    name: 'MultiEdit',
    input: { file_path: project.abs(rel), edits: editsJson },
    content: `Applied ${edits.length} edits to ${project.abs(rel)}:\n${list}`,
    result: {
      filePath: project.abs(rel),
      edits: editsJson,
      originalFileContents,
      structuredPatch: hunks(originalFileContents, updated),
      userModified: false,
    },
  };
}

interface BashOptions {
  description: string;
  stderr?: string;
  /** Non-zero makes the call fail the way Claude Code records failures. */
  exitCode?: number;
  newer?: boolean;
}

function bashTool(command: string, stdout: string, options: BashOptions): ToolCall {
  const input = { command, description: options.description };
  if (options.exitCode) {
    const text = `Exit code ${options.exitCode}\n${[stdout, options.stderr ?? ''].filter(Boolean).join('\n')}`;
    return { name: 'Bash', input, content: text, result: `Error: ${text}`, isError: true };
  }
  const result: JsonObject = { stdout, stderr: options.stderr ?? '', interrupted: false, isImage: false };
  if (options.newer) result.noOutputExpected = false;
  return { name: 'Bash', input, content: stdout, result, isError: false };
}

function grepTool(pattern: string, path: string, lines: string[]): ToolCall {
  return {
    name: 'Grep',
    input: { pattern, path, output_mode: 'content', '-n': true },
    content: lines.length > 0 ? lines.join('\n') : 'No matches found',
    result: { mode: 'content', numFiles: 0, filenames: [], content: lines.join('\n'), numLines: lines.length },
  };
}

interface Todo {
  content: string;
  activeForm: string;
  status: 'pending' | 'in_progress' | 'completed';
}

function todoTool(oldTodos: Todo[], newTodos: Todo[]): ToolCall {
  const asJson = (todos: Todo[]): Json => todos.map((t) => ({ ...t }));
  return {
    name: 'TodoWrite',
    input: { todos: asJson(newTodos) },
    content:
      'Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable',
    result: { oldTodos: asJson(oldTodos), newTodos: asJson(newTodos) },
  };
}

/** A todo list whose items move through their states as the work goes on. */
function createTodos(items: Array<[content: string, activeForm: string]>) {
  let current: Todo[] = items.map(([content, activeForm]) => ({ content, activeForm, status: 'pending' }));
  return {
    /** Marks the first `done` items completed and the next one in progress. */
    step(done: number): ToolCall {
      const next: Todo[] = current.map((t, i) => ({
        ...t,
        status: i < done ? 'completed' : i === done ? 'in_progress' : 'pending',
      }));
      const call = todoTool(current, next);
      current = next;
      return call;
    },
    start(): ToolCall {
      const call = todoTool([], current.map((t, i) => ({ ...t, status: i === 0 ? 'in_progress' : 'pending' })));
      current = current.map((t, i) => ({ ...t, status: i === 0 ? 'in_progress' : 'pending' }));
      return call;
    },
  };
}

// ---------------------------------------------------------------------------
// Transcript writer: one JSONL file, entries chained by parentUuid

type Block =
  | { kind: 'thinking'; text: string }
  | { kind: 'text'; text: string }
  | { kind: 'tool'; call: ToolCall; id?: string };

const thinking = (text: string): Block => ({ kind: 'thinking', text });
const text = (body: string): Block => ({ kind: 'text', text: body });
const tool = (call: ToolCall): Block => ({ kind: 'tool', call });

interface TranscriptOptions {
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

interface AssistantOptions {
  /** 'split' (2.1.x and most 2.0.x): one entry per block. 'cumulative': each entry repeats the earlier blocks. */
  streaming?: 'split' | 'cumulative';
  model?: string;
  /** Seconds between the request and the first streamed entry. */
  latency?: number;
}

/** Everything the session scripts need to know about one written assistant message. */
interface AssistantMessage {
  messageId: string;
  uuids: string[];
  /** tool_use id per tool block, in order. */
  toolIds: string[];
  last: string;
}

/**
 * Writes one transcript in memory. It keeps the clock, the current `head` (the
 * entry the next one hangs off) and the pending tool calls, and stamps every
 * entry with the fields of the chosen Claude Code version.
 */
function createTranscript(options: TranscriptOptions) {
  const { ids } = options;
  const out: JsonObject[] = [];
  const toolEntry = new Map<string, string>();
  const pendingTools = new Map<string, ToolCall>();
  /** Files changed so far: how many versions, and whether Claude created the file (no backup then). */
  const touched = new Map<string, { version: number; created: boolean }>();
  let clock = Date.parse(options.start);
  let head: string | null = null;
  // Real files gain the slug once the first reply is under way.
  let slugOn = false;
  let promptAt = clock;
  let context = ids.int(14_000, 19_000);

  const stamp = (ms = 0): string => {
    clock += ms;
    return new Date(clock).toISOString();
  };
  const envelope = (): JsonObject => {
    const e: JsonObject = {
      parentUuid: head,
      isSidechain: options.agentId !== undefined,
      userType: 'external',
      cwd: options.cwd,
      sessionId: options.sessionId,
      version: options.version,
      gitBranch: options.gitBranch,
    };
    if (options.agentId !== undefined) e.agentId = options.agentId;
    if (slugOn && options.slug) e.slug = options.slug;
    return e;
  };
  const newer = options.version.startsWith('2.1');

  const usage = (outputTokens: number): JsonObject => {
    const created = ids.int(200, 4_000);
    const u: JsonObject = {
      input_tokens: ids.int(1, 12),
      cache_creation_input_tokens: created,
      cache_read_input_tokens: context,
      cache_creation: newer
        ? { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: created }
        : { ephemeral_5m_input_tokens: created, ephemeral_1h_input_tokens: 0 },
      output_tokens: outputTokens,
      service_tier: 'standard',
    };
    if (newer) u.inference_geo = 'not_available';
    context += created;
    return u;
  };

  const api = {
    lines: out,
    get head(): string | null {
      return head;
    },
    set head(uuid: string | null) {
      head = uuid;
    },
    /** Moves the clock forward, for the user's thinking time between turns. */
    wait(seconds: number): void {
      clock += Math.round(seconds * 1000);
    },
    /** A file-history snapshot, written before every prompt. */
    snapshot(messageId: string): void {
      const backups: JsonObject = {};
      for (const [rel, { version, created }] of touched) {
        backups[rel] = {
          backupFileName: created && version === 1 ? null : `${ids.hex(16)}@v${version}`,
          version,
          backupTime: stamp(3),
        };
      }
      out.push({
        type: 'file-history-snapshot',
        messageId,
        snapshot: { messageId, trackedFileBackups: backups, timestamp: stamp(1) },
        isSnapshotUpdate: false,
      });
    },
    /** A human prompt (string or content blocks); returns its uuid. */
    prompt(content: Json, extra: JsonObject = {}): string {
      const uuid = ids.uuid();
      if (options.agentId === undefined) api.snapshot(uuid);
      const at = stamp(2);
      promptAt = clock;
      const entry: JsonObject = { ...envelope(), type: 'user', message: { role: 'user', content }, uuid, timestamp: at };
      if (options.agentId === undefined) {
        entry.thinkingMetadata = newer ? { maxThinkingTokens: 31999 } : { level: 'high', disabled: false, triggers: [] };
        entry.todos = [];
        if (newer) entry.permissionMode = 'default';
      }
      Object.assign(entry, extra);
      out.push(entry);
      head = uuid;
      return uuid;
    },
    /** A plain user-role entry (interruptions, command echoes, compact summaries). */
    user(content: Json, extra: JsonObject = {}): string {
      const uuid = ids.uuid();
      out.push({ ...envelope(), type: 'user', message: { role: 'user', content }, ...extra, uuid, timestamp: stamp(5) });
      head = uuid;
      return uuid;
    },
    assistant(blocks: Block[], opts: AssistantOptions = {}): AssistantMessage {
      const messageId = ids.messageId();
      const requestId = ids.requestId();
      const streaming = opts.streaming ?? 'split';
      const content: JsonObject[] = blocks.map((b) => {
        if (b.kind === 'thinking') return { type: 'thinking', thinking: b.text, signature: ids.signature() };
        if (b.kind === 'text') return { type: 'text', text: b.text };
        const id = b.id ?? ids.toolUseId();
        const block: JsonObject = { type: 'tool_use', id, name: b.call.name, input: b.call.input };
        if (newer) block.caller = { type: 'direct' };
        return block;
      });
      const outputTokens = content.reduce((n, b) => n + Math.ceil(JSON.stringify(b).length / 4), 0);
      const u = usage(outputTokens);
      clock += Math.round((opts.latency ?? ids.int(2, 6)) * 1000);
      const uuids: string[] = [];
      const toolIds: string[] = [];
      content.forEach((block, i) => {
        const uuid = ids.uuid();
        const shown = streaming === 'split' ? [block] : content.slice(0, i + 1);
        out.push({
          ...envelope(),
          message: {
            model: opts.model ?? options.model,
            id: messageId,
            type: 'message',
            role: 'assistant',
            content: shown,
            stop_reason: null,
            stop_sequence: null,
            usage: { ...u, output_tokens: i === content.length - 1 ? outputTokens : ids.int(1, 12) },
          },
          requestId,
          type: 'assistant',
          uuid,
          // Roughly the speed at which a model streams text: a few hundred characters a second.
          timestamp: stamp(JSON.stringify(block).length * 3 + ids.int(200, 900)),
        });
        uuids.push(uuid);
        head = uuid;
        const b = blocks[i]!;
        if (block.type === 'tool_use' && b.kind === 'tool') {
          const id = block.id as string;
          toolIds.push(id);
          toolEntry.set(id, uuid);
          pendingTools.set(id, b.call);
        }
      });
      slugOn = true;
      return { messageId, uuids, toolIds, last: head! };
    },
    /**
     * The result of a tool call. It hangs off the assistant entry that holds the
     * tool_use (so results of parallel calls hang off different entries), and
     * the conversation continues from whichever result is written last.
     */
    result(toolUseId: string, opts: { seconds?: number; extra?: JsonObject; content?: Json } = {}): string {
      const call = pendingTools.get(toolUseId);
      const parent = toolEntry.get(toolUseId);
      if (!call || !parent) throw new Error(`no pending tool_use ${toolUseId}`);
      pendingTools.delete(toolUseId);
      if (call.name === 'Edit' || call.name === 'Write' || call.name === 'MultiEdit') {
        const rel = String(call.input.file_path).slice(options.cwd.length + 1);
        const seen = touched.get(rel);
        touched.set(rel, { version: (seen?.version ?? 0) + 1, created: seen ? seen.created : call.name === 'Write' });
      }
      const uuid = ids.uuid();
      const block: JsonObject = { tool_use_id: toolUseId, type: 'tool_result', content: opts.content ?? call.content };
      if (call.isError !== undefined) block.is_error = call.isError;
      const entry: JsonObject = {
        ...envelope(),
        parentUuid: parent,
        type: 'user',
        message: { role: 'user', content: [block] },
        uuid,
        timestamp: stamp(Math.round((opts.seconds ?? 0.4) * 1000)),
        toolUseResult: call.result,
        ...opts.extra,
      };
      if (newer) entry.sourceToolAssistantUUID = parent;
      out.push(entry);
      head = uuid;
      return uuid;
    },
    /** A progress entry (hook runs, long Bash output, web search steps). */
    progress(data: JsonObject, toolUseID: string, parentToolUseID: string, seconds = 1): string {
      const uuid = ids.uuid();
      out.push({
        ...envelope(),
        type: 'progress',
        data,
        toolUseID,
        parentToolUseID,
        uuid,
        timestamp: stamp(Math.round(seconds * 1000)),
      });
      head = uuid;
      return uuid;
    },
    system(subtype: string, fields: JsonObject): string {
      const uuid = ids.uuid();
      out.push({ ...envelope(), type: 'system', subtype, ...fields, timestamp: stamp(150), uuid });
      head = uuid;
      return uuid;
    },
    /** The `turn_duration` entry 2.1.x writes when a turn ends. */
    turnDone(): string {
      const uuid = ids.uuid();
      const at = stamp(160);
      out.push({
        ...envelope(),
        type: 'system',
        subtype: 'turn_duration',
        durationMs: clock - promptAt,
        timestamp: at,
        uuid,
        isMeta: false,
      });
      head = uuid;
      return uuid;
    },
    /** A slash command as 2.1.x records it: caveat, command, output, all user entries. */
    command(name: string, args: string, stdout: string): string {
      const caveat =
        'Caveat: The messages below were generated by the user while running local commands. DO NOT respond to these messages or otherwise consider them in your response unless the user explicitly asks you to.';
      api.user(newer ? `<local-command-caveat>${caveat}</local-command-caveat>` : caveat, { isMeta: true });
      api.user(
        `<command-name>/${name}</command-name>\n            <command-message>${name}</command-message>\n            <command-args>${args}</command-args>`,
      );
      return api.user(`<local-command-stdout>${stdout}</local-command-stdout>`);
    },
    /** A slash command as 2.0.5x records it: two `local_command` system entries. */
    localCommand(name: string, stdout: string): string {
      const fields = (content: string): JsonObject => ({ content, level: 'info' });
      const uuid1 = ids.uuid();
      const at = stamp(0);
      out.push({
        ...envelope(),
        type: 'system',
        subtype: 'local_command',
        ...fields(
          `<command-name>/${name}</command-name>\n            <command-message>${name}</command-message>\n            <command-args></command-args>`,
        ),
        timestamp: at,
        uuid: uuid1,
        isMeta: false,
      });
      head = uuid1;
      const uuid2 = ids.uuid();
      out.push({
        ...envelope(),
        type: 'system',
        subtype: 'local_command',
        ...fields(`<local-command-stdout>${stdout}</local-command-stdout>`),
        timestamp: at,
        uuid: uuid2,
        isMeta: false,
      });
      head = uuid2;
      return uuid2;
    },
    /** `/compact`: a boundary that starts a new chain, the summary, then the command echo. */
    compact(summary: string, preTokens: number): { boundary: string; summary: string } {
      const logicalParent = head;
      const boundary = ids.uuid();
      head = null;
      out.push({
        ...envelope(),
        logicalParentUuid: logicalParent,
        type: 'system',
        subtype: 'compact_boundary',
        content: 'Conversation compacted',
        isMeta: false,
        timestamp: stamp(48_000),
        uuid: boundary,
        level: 'info',
        compactMetadata: { trigger: 'manual', preTokens },
      });
      head = boundary;
      const summaryUuid = ids.uuid();
      out.push({
        ...envelope(),
        type: 'user',
        message: { role: 'user', content: summary },
        isVisibleInTranscriptOnly: true,
        isCompactSummary: true,
        uuid: summaryUuid,
        timestamp: stamp(2),
      });
      head = summaryUuid;
      api.command('compact', '', '\u001b[2mCompacted (ctrl+o to see full summary)\u001b[22m');
      context = ids.int(9_000, 12_000);
      return { boundary, summary: summaryUuid };
    },
    /** A prompt typed while Claude is busy: queued, then taken off the queue when the turn ends. */
    queue(operation: 'enqueue' | 'dequeue', content?: string): void {
      const entry: JsonObject = { type: 'queue-operation', operation, timestamp: stamp(40) };
      // 2.0.x stored the queued prompt as content blocks; 2.1.x stores the plain string.
      if (content !== undefined) entry.content = newer ? content : [{ type: 'text', text: content }];
      entry.sessionId = options.sessionId;
      out.push(entry);
    },
    now(): string {
      return new Date(clock).toISOString();
    },
  };
  return api;
}

type Transcript = ReturnType<typeof createTranscript>;

/** Runs one whole tool round trip: the assistant message, then each result in order. */
function call(t: Transcript, blocks: Block[], seconds: number[] = [], opts: AssistantOptions = {}): AssistantMessage {
  const message = t.assistant(blocks, opts);
  message.toolIds.forEach((id, i) => t.result(id, { seconds: seconds[i] ?? 0.4 }));
  return message;
}

// ---------------------------------------------------------------------------
// A pasted image: a 32×32 PNG sketch of a balance bar chart

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Uint8Array): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const out = Buffer.alloc(body.length + 8);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), body.length + 4);
  return out;
}

/** Four rows, one per person: a grey name stub, then a green (owed) or red (owes) bar. */
function balanceSketchPng(): string {
  const size = 32;
  const pixels = Buffer.alloc(size * (1 + size * 3), 0xff);
  const paint = (x0: number, y0: number, w: number, h: number, rgb: [number, number, number]) => {
    for (let y = y0; y < y0 + h; y++) {
      for (let x = x0; x < x0 + w; x++) pixels.set(rgb, y * (1 + size * 3) + 1 + x * 3);
    }
  };
  for (let y = 0; y < size; y++) pixels[y * (1 + size * 3)] = 0; // filter type: none
  const rows: Array<[number, [number, number, number]]> = [
    [24, [46, 160, 67]],
    [3, [46, 160, 67]],
    [18, [207, 34, 46]],
    [8, [207, 34, 46]],
  ];
  rows.forEach(([length, colour], i) => {
    const top = 4 + i * 7;
    paint(1, top + 1, 3, 2, [150, 150, 150]);
    paint(6, top, length, 4, colour);
  });
  paint(5, 2, 1, 28, [90, 90, 90]); // the axis
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(pixels, { level: 9 })),
    pngChunk('IEND', new Uint8Array()),
  ]);
  return png.toString('base64');
}

// ---------------------------------------------------------------------------
// The sample projects' files (fair-share is TypeScript, garden-log is Python)

const LEDGER_TS = `import { readFile } from 'node:fs/promises';

/** One shared expense: who paid, how much (in cents), and who it was for. */
export interface Expense {
  paidBy: string;
  amountCents: number;
  splitAmong: string[];
  note?: string;
}

/**
 * Parses a ledger file. Each non-empty line looks like
 *   ana 42.50 ana,ben,chen   # groceries
 */
export function parseLedger(text: string): Expense[] {
  const expenses: Expense[] = [];
  for (const [index, raw] of text.split('\\n').entries()) {
    const [body = '', note] = raw.split('#', 2);
    const line = body.trim();
    if (line === '') continue;
    const [paidBy, amount, people] = line.split(/\\s+/);
    if (!paidBy || !amount || !people) {
      throw new Error(\`line \${index + 1}: expected "<payer> <amount> <people>"\`);
    }
    expenses.push({
      paidBy,
      amountCents: toCents(amount),
      splitAmong: people.split(','),
      note: note?.trim(),
    });
  }
  return expenses;
}

/** "42.5" → 4250. Reads the decimal string directly, so no float ever touches the money. */
export function toCents(amount: string): number {
  const match = /^(\\d+)(?:\\.(\\d{1,2}))?$/.exec(amount);
  if (!match) throw new Error(\`not an amount: \${amount}\`);
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

export async function loadLedger(path: string): Promise<Expense[]> {
  return parseLedger(await readFile(path, 'utf8'));
}
`;

const BALANCES_TS = `import type { Expense } from './ledger.js';

/** Net balance per person in cents: positive means the group owes them money. */
export function balances(expenses: Expense[]): Map<string, number> {
  const net = new Map<string, number>();
  const add = (who: string, cents: number) => net.set(who, (net.get(who) ?? 0) + cents);
  for (const e of expenses) {
    add(e.paidBy, e.amountCents);
    const share = Math.floor(e.amountCents / e.splitAmong.length);
    let leftover = e.amountCents - share * e.splitAmong.length;
    for (const person of e.splitAmong) {
      // The first people in the list absorb the leftover cents, so shares add up exactly.
      add(person, -(share + (leftover-- > 0 ? 1 : 0)));
    }
  }
  return net;
}
`;

const FORMAT_TS = `/** 4250 → "42.50", -5 → "-0.05" */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return \`\${sign}\${Math.floor(abs / 100)}.\${String(abs % 100).padStart(2, '0')}\`;
}
`;

const CLI_TS = `#!/usr/bin/env node
import { balances } from './balances.js';
import { formatCents } from './format.js';
import { loadLedger } from './ledger.js';

const USAGE = 'usage: fair-share balances <ledger-file>';

async function main(argv: string[]): Promise<number> {
  const [command, file] = argv;
  if (!command || !file) {
    console.error(USAGE);
    return 2;
  }
  const expenses = await loadLedger(file);
  switch (command) {
    case 'balances': {
      for (const [person, cents] of balances(expenses)) {
        console.log(\`\${person.padEnd(8)} \${formatCents(cents).padStart(8)}\`);
      }
      return 0;
    }
    default:
      console.error(\`unknown command: \${command}\\n\${USAGE}\`);
      return 2;
  }
}

process.exitCode = await main(process.argv.slice(2));
`;

const LEDGER_TEST_TS = `import { describe, expect, it } from 'vitest';
import { balances } from '../src/balances.js';
import { parseLedger, toCents } from '../src/ledger.js';

describe('ledger', () => {
  it('reads amounts as integer cents', () => {
    expect(toCents('42')).toBe(4200);
    expect(toCents('42.5')).toBe(4250);
    expect(toCents('0.07')).toBe(7);
  });

  it('rejects amounts with more than two decimals', () => {
    expect(() => toCents('1.005')).toThrow(/not an amount/);
  });

  it('keeps the note after #', () => {
    const [expense] = parseLedger('ana 12.00 ana,ben  # bakery\\n');
    expect(expense).toEqual({ paidBy: 'ana', amountCents: 1200, splitAmong: ['ana', 'ben'], note: 'bakery' });
  });

  it('balances always sum to zero', () => {
    const net = balances(parseLedger('ana 10.00 ana,ben,chen\\nben 3.01 ana,chen\\n'));
    expect([...net.values()].reduce((a, b) => a + b, 0)).toBe(0);
  });
});
`;

const TRIP_LEDGER = `# A weekend in the mountains
ana   126.40  ana,ben,chen,dee   # cabin groceries
ben    84.00  ana,ben,chen,dee   # fuel
chen   31.75  chen,dee           # trail snacks
dee    60.00  ana,ben,chen,dee   # firewood and matches
ana    18.20  ana,ben            # coffee stop
`;

const FAIR_SHARE_PACKAGE_JSON = `{
  "name": "fair-share",
  "version": "0.3.0",
  "description": "Split shared expenses without rounding drift",
  "type": "module",
  "bin": { "fair-share": "dist/cli.js" },
  "scripts": {
    "build": "tsc -p tsconfig.build.json",
    "test": "vitest run"
  },
  "devDependencies": {
    "@types/node": "^22.10.0",
    "tsx": "^4.19.2",
    "typescript": "^5.7.2",
    "vitest": "^4.0.18"
  }
}
`;

const SETTLE_TS = `/** One transfer from someone who owes money to someone who is owed. */
export interface Payment {
  from: string;
  to: string;
  amountCents: number;
}

interface Party {
  name: string;
  cents: number;
}

/**
 * Turns net balances into a list of payments that evens everyone out.
 *
 * Greedy: the largest debtor pays the largest creditor until one of them is
 * square. That needs at most n - 1 payments, which is what people expect
 * after a trip; the true minimum is NP-hard and not worth the wait.
 * Everything stays in integer cents, so the payments add up exactly.
 */
export function settle(net: Map<string, number>): Payment[] {
  const debtors: Party[] = [];
  const creditors: Party[] = [];
  for (const [name, cents] of net) {
    if (cents < 0) debtors.push({ name, cents: -cents });
    if (cents > 0) creditors.push({ name, cents });
  }
  // Ties broken by name so the output is stable from run to run.
  const largestFirst = (a: Party, b: Party) => b.cents - a.cents || a.name.localeCompare(b.name);

  const payments: Payment[] = [];
  while (debtors.length > 0 && creditors.length > 0) {
    debtors.sort(largestFirst);
    creditors.sort(largestFirst);
    const debtor = debtors[0]!;
    const creditor = creditors[0]!;
    const amountCents = Math.min(debtor.cents, creditor.cents);
    payments.push({ from: debtor.name, to: creditor.name, amountCents });
    debtor.cents -= amountCents;
    creditor.cents -= amountCents;
    if (debtor.cents === 0) debtors.shift();
    if (creditor.cents === 0) creditors.shift();
  }
  return payments;
}
`;

const SETTLE_TEST_TS = `import { describe, expect, it } from 'vitest';
import { balances } from '../src/balances.js';
import { parseLedger } from '../src/ledger.js';
import { settle } from '../src/settle.js';

const paidIn = (ledger: string) => settle(balances(parseLedger(ledger)));

describe('settle', () => {
  it('returns no payments when everyone is square', () => {
    expect(paidIn('ana 10.00 ana\\n')).toEqual([]);
  });

  it('lets the largest debtor pay the largest creditor first', () => {
    const net = new Map([['ana', 3000], ['ben', -1000], ['chen', -2000]]);
    expect(settle(net)).toEqual([
      { from: 'chen', to: 'ana', amountCents: 2000 },
      { from: 'ben', to: 'ana', amountCents: 1000 },
    ]);
  });

  it('adds 0.10 and 0.20 up to exactly 0.30', () => {
    expect(paidIn('ana 0.10 ben\\nana 0.20 ben\\n')).toEqual([{ from: 'ben', to: 'ana', amountCents: 30 }]);
  });

  it('keeps every cent when an amount does not split evenly', () => {
    const payments = paidIn('ana 10.00 ana,ben,chen\\n');
    expect(payments.reduce((sum, p) => sum + p.amountCents, 0)).toBe(666);
  });

  it('needs at most n - 1 payments', () => {
    const ledger = 'ana 50 ana,ben,chen,dee,eli\\nben 20 ben,chen\\ndee 7.35 ana,eli\\n';
    expect(paidIn(ledger).length).toBeLessThanOrEqual(4);
  });
});
`;

const BARS_TS = `// Eighth-width blocks let a bar end partway through a cell, so small amounts still show.
const PARTIAL = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];

/** A horizontal bar for \`value\`, scaled so that \`max\` fills \`width\` terminal cells. */
export function bar(value: number, max: number, width = 24): string {
  if (max <= 0) return '';
  const eighths = Math.round((Math.min(Math.abs(value), max) / max) * width * 8);
  return '█'.repeat(Math.floor(eighths / 8)) + PARTIAL[eighths % 8];
}

/** Wraps text in a foreground colour; plain text when colour is off. */
export function paint(text: string, colour: 'green' | 'red', enabled: boolean): string {
  if (!enabled) return text;
  return \`\\u001b[\${colour === 'green' ? 32 : 31}m\${text}\\u001b[39m\`;
}
`;

const SCHEDULER_PY = `"""Decides which plants need a watering reminder today."""
from datetime import date, timedelta

from .models import Plant, Zone


def due_today(plants: list[Plant], zones: list[Zone], today: date) -> list[Plant]:
    """Plants whose watering interval has run out, zone by zone."""
    due: list[Plant] = []
    for zone in zones:
        for plant in plants:
            if not zone.contains(plant):
                continue
            if today - plant.last_watered >= timedelta(days=plant.every_days):
                due.append(plant)
    return due
`;

const MODELS_PY = `"""Plants, zones and how they fit inside each other."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date


@dataclass(frozen=True)
class Plant:
    id: int
    name: str
    zone_id: int
    every_days: int
    last_watered: date


@dataclass
class Zone:
    id: int
    name: str
    children: list[Zone] = field(default_factory=list)

    def contains(self, plant: Plant) -> bool:
        """True for plants in this zone or in any zone nested inside it."""
        if plant.zone_id == self.id:
            return True
        return any(child.contains(plant) for child in self.children)
`;

const NESTED_ZONES_TEST_PY = `from datetime import date

from garden_log.models import Plant, Zone
from garden_log.scheduler import due_today

GREENHOUSE = Zone(3, "Greenhouse")
BACKYARD = Zone(1, "Backyard", children=[GREENHOUSE])


def test_plant_in_nested_zone_is_due_once():
    basil = Plant(7, "Basil", GREENHOUSE.id, every_days=2, last_watered=date(2026, 1, 30))
    assert due_today([basil], [BACKYARD, GREENHOUSE], date(2026, 2, 2)) == [basil]


def test_order_follows_first_zone_that_contains_the_plant():
    fern = Plant(4, "Fern", BACKYARD.id, every_days=1, last_watered=date(2026, 2, 1))
    basil = Plant(7, "Basil", GREENHOUSE.id, every_days=1, last_watered=date(2026, 2, 1))
    assert due_today([basil, fern], [BACKYARD, GREENHOUSE], date(2026, 2, 2)) == [basil, fern]
`;

// ---------------------------------------------------------------------------
// Edits shared between sessions (the second fair-share session starts where the first ended)

const lines = (...parts: string[]): string => parts.join('\n');

const CLI_IMPORT_SETTLE: [string, string] = [
  lines("import { loadLedger } from './ledger.js';", '', "const USAGE = 'usage: fair-share balances <ledger-file>';"),
  lines(
    "import { loadLedger } from './ledger.js';",
    "import { settle } from './settle.js';",
    '',
    "const USAGE = 'usage: fair-share <balances|settle> <ledger-file>';",
  ),
];

const CLI_SETTLE_CASE: [string, string] = [
  lines('      return 0;', '    }', '    default:'),
  lines(
    '      return 0;',
    '    }',
    "    case 'settle': {",
    '      for (const p of settle(balances(expenses))) {',
    '        console.log(`${p.from} → ${p.to}: ${formatCents(p.amount)}`);',
    '      }',
    '      return 0;',
    '    }',
    '    default:',
  ),
];

const CLI_SETTLE_FIX: [string, string] = ['formatCents(p.amount)', 'formatCents(p.amountCents)'];

const CLI_SETTLE_JSON: [string, string] = [
  lines(
    "    case 'settle': {",
    '      for (const p of settle(balances(expenses))) {',
    '        console.log(`${p.from} → ${p.to}: ${formatCents(p.amountCents)}`);',
    '      }',
    '      return 0;',
    '    }',
  ),
  lines(
    "    case 'settle': {",
    '      const payments = settle(balances(expenses));',
    "      if (argv.includes('--json')) {",
    '        console.log(JSON.stringify(payments, null, 2));',
    '        return 0;',
    '      }',
    '      for (const p of payments) {',
    '        console.log(`${p.from} → ${p.to}: ${formatCents(p.amountCents)}`);',
    '      }',
    '      return 0;',
    '    }',
  ),
];

const FAIR_SHARE_CWD = '/home/demo/projects/fair-share';

function fairShareProject(): Project {
  return createProject(FAIR_SHARE_CWD, {
    'package.json': FAIR_SHARE_PACKAGE_JSON,
    'src/cli.ts': CLI_TS,
    'src/ledger.ts': LEDGER_TS,
    'src/balances.ts': BALANCES_TS,
    'src/format.ts': FORMAT_TS,
    'test/ledger.test.ts': LEDGER_TEST_TS,
    'examples/trip.ledger': TRIP_LEDGER,
  });
}

const FAIR_SHARE_SOURCES = ['src/cli.ts', 'src/ledger.ts', 'src/balances.ts', 'src/format.ts'];

/** Vitest's coloured summary, as it prints when FORCE_COLOR is set. */
function vitestOutput(startedAt: string): string {
  const esc = '\u001b';
  const ok = (file: string, tests: number, ms: number) =>
    ` ${esc}[32m✓${esc}[39m ${file} ${esc}[2m(${esc}[22m${esc}[2m${tests} tests${esc}[22m${esc}[2m)${esc}[22m${esc}[32m ${ms}${esc}[2mms${esc}[22m${esc}[39m`;
  return lines(
    '',
    `${esc}[1m${esc}[30m${esc}[46m RUN ${esc}[49m${esc}[39m${esc}[22m ${esc}[36mv4.0.18 ${esc}[39m${esc}[90m${FAIR_SHARE_CWD}${esc}[39m`,
    '',
    ok('test/settle.test.ts', 5, 9),
    ok('test/ledger.test.ts', 4, 4),
    '',
    `${esc}[2m Test Files ${esc}[22m ${esc}[1m${esc}[32m2 passed${esc}[39m${esc}[22m${esc}[90m (2)${esc}[39m`,
    `${esc}[2m      Tests ${esc}[22m ${esc}[1m${esc}[32m9 passed${esc}[39m${esc}[22m${esc}[90m (9)${esc}[39m`,
    `${esc}[2m   Start at ${esc}[22m ${startedAt}`,
    `${esc}[2m   Duration ${esc}[22m 236ms${esc}[2m (transform 51%, import 23%, tests 19%, worker 7%)${esc}[22m`,
  );
}

/** Local wall-clock time (the demo user lives in UTC+1), as test runners print it. */
function localClock(iso: string): string {
  return new Date(Date.parse(iso) + 3_600_000).toISOString().slice(11, 19);
}

interface SessionFile {
  /** Path relative to the output root. */
  path: string;
  lines: JsonObject[];
}

interface BuiltSession {
  title: string;
  files: SessionFile[];
  /** Ids worth knowing in tests and reviews (prompts, tool calls, agents). */
  landmarks: Record<string, string>;
}

// ---------------------------------------------------------------------------
// Session 1 — fair-share, 2.1.x: a feature with a rewind and a /compact

function sessionSettle(): BuiltSession {
  const ids = createIds(0x5e771e);
  const sessionId = ids.uuid();
  const project = fairShareProject();
  const t = createTranscript({
    ids,
    sessionId,
    cwd: FAIR_SHARE_CWD,
    version: '2.1.42',
    gitBranch: 'main',
    model: 'claude-opus-4-6',
    start: '2026-02-03T08:12:40.118Z',
    slug: 'steady-counting-heron',
  });

  // Turn 1: a tour of the code, with two tool calls in parallel.
  t.prompt(
    "I'm picking fair-share up again after a few months. Can you give me a quick tour: where do the CLI commands live, and how does a ledger file get parsed?",
  );
  const tour = t.assistant([
    thinking(
      'A tour of a small TypeScript CLI. The entry point is probably src/cli.ts. I can read it and list the exported functions across src/ at the same time, then read whichever file does the parsing.',
    ),
    text("I'll read the CLI entry point and list the exported functions at the same time."),
    tool(grepTool('^export (async )?function', 'src', grepLines(project, FAIR_SHARE_SOURCES, /^export (async )?function/))),
    tool(readTool(project, 'src/cli.ts')),
  ]);
  // Results land out of order, each under its own tool_use entry; the reply follows the last one.
  t.result(tour.toolIds[1]!, { seconds: 0.6 });
  t.result(tour.toolIds[0]!, { seconds: 0.3 });
  call(t, [text('The parsing is all in `src/ledger.ts`:'), tool(readTool(project, 'src/ledger.ts'))]);
  t.assistant([
    text(
      lines(
        "Here's the lay of the land.",
        '',
        "**Commands** live in `src/cli.ts`: one `main(argv)` with a `switch` on the command name. Today there's a single command, `balances`, which prints each person's net balance.",
        '',
        '**Parsing** happens in `src/ledger.ts`:',
        '',
        '1. `loadLedger(path)` reads the file and hands the text to `parseLedger`.',
        '2. `parseLedger` goes line by line, keeps anything after `#` as the expense\'s `note`, and splits the rest on whitespace into payer, amount and a comma-separated list of people. A malformed line throws with its line number.',
        '3. `toCents` turns the amount into integer cents with a regex, so `42.5` becomes `4250` without ever passing through a float.',
        '',
        "**Money maths** is in `src/balances.ts`: each expense credits the payer and debits everyone in the split. When an amount doesn't divide evenly, the first people in the list absorb the leftover cents, so balances always add up to exactly zero (`test/ledger.test.ts` checks that).",
        '',
        '| File | Role |',
        '|------|------|',
        '| `src/cli.ts` | arguments, one `case` per command |',
        '| `src/ledger.ts` | ledger text → `Expense[]` |',
        '| `src/balances.ts` | `Expense[]` → net cents per person |',
        '| `src/format.ts` | cents → `"42.50"` |',
      ),
    ),
  ]);
  const forkPoint = t.turnDone();

  // Turn 2, first try: a terse prompt the user later rewinds and rewrites.
  t.wait(74);
  const abandonedPrompt = t.prompt('Add a settle command.');
  t.assistant([
    thinking(
      'Settle means: who pays whom. I could turn the balances into dollars, pair debtors with creditors and round each payment to two decimals.',
    ),
    text(
      "Sure! I'll add a `settle` command that converts each balance to dollars, pairs the people who owe with the people who are owed, and rounds every payment to two decimals. Shall I go ahead?",
    ),
  ]);
  t.turnDone();

  // Turn 2 again, after the user went back and edited the prompt: same parent, new branch.
  t.wait(41);
  t.head = forkPoint;
  const activePrompt = t.prompt(
    'Add a `settle` command that prints the payments needed to even everyone out: who pays whom, and how much. Keep everything in integer cents end to end (I got bitten by 0.1 + 0.2 after the last trip). Tests please.',
  );
  const todos = createTodos([
    ['Write settle() in src/settle.ts', 'Writing settle()'],
    ['Add a settle command to the CLI', 'Adding the settle command'],
    ['Test settle(), including uneven splits', 'Testing settle()'],
    ['Typecheck and run the test suite', 'Typechecking and running the tests'],
  ]);
  call(t, [
    thinking(
      'Balances are already integer cents that sum to zero, so settling is a matching problem on top of them. Greedy works well: the largest debtor pays the largest creditor until one of them is square. That needs at most n - 1 payments. The true minimum is a subset-sum style problem and not worth it for a trip ledger. Ties should be broken by name so the output is stable.',
    ),
    text(
      "Balances are already integer cents and always sum to zero, so settling is just a matching step on top of them. Here's the plan:",
    ),
    tool(todos.start()),
  ]);
  call(t, [
    text(
      'Greedy matching: the largest debtor pays the largest creditor until one of them is square. That needs at most n − 1 payments and never leaves integers.',
    ),
    tool(writeTool(project, 'src/settle.ts', SETTLE_TS)),
  ]);
  call(t, [tool(todos.step(1))]);
  call(t, [text('Now the CLI: an import and a usage line first, then the new `case`.'), tool(editTool(project, 'src/cli.ts', ...CLI_IMPORT_SETTLE))]);
  call(t, [tool(editTool(project, 'src/cli.ts', ...CLI_SETTLE_CASE))]);
  const cli = project.read('src/cli.ts');
  const errorLine = lineOf(cli, 'formatCents(p.amount)');
  const errorColumn = cli.split('\n')[errorLine - 1]!.indexOf('p.amount)') + 3;
  call(t, [
    text('Typechecking before I write the tests:'),
    tool(
      bashTool(
        'npx tsc --noEmit',
        `src/cli.ts(${errorLine},${errorColumn}): error TS2339: Property 'amount' does not exist on type 'Payment'.`,
        { description: 'Typecheck the project', exitCode: 2, newer: true },
      ),
    ),
  ], [4.1]);
  call(t, [
    text("My slip: the field is called `amountCents`, to match the rest of the code."),
    tool(editTool(project, 'src/cli.ts', ...CLI_SETTLE_FIX)),
  ]);
  call(t, [tool(todos.step(2))]);
  call(t, [
    text(
      'Tests next. Besides the basics, they pin down the two things you care about: `0.10 + 0.20` must come out as exactly `0.30`, and an amount split three ways must not lose a cent.',
    ),
    tool(writeTool(project, 'test/settle.test.ts', SETTLE_TEST_TS)),
  ]);
  call(t, [tool(todos.step(3))]);
  const testRun = t.assistant([
    tool(
      bashTool('npx tsc --noEmit && FORCE_COLOR=1 npx vitest run', vitestOutput(localClock(t.now())), {
        description: 'Typecheck, then run the test suite',
        newer: true,
      }),
    ),
  ]);
  const testId = testRun.toolIds[0]!;
  t.progress(
    { type: 'bash_progress', output: ' ✓ test/settle.test.ts (5 tests) 9ms', fullOutput: ' ✓ test/settle.test.ts (5 tests) 9ms', elapsedTimeSeconds: 3, totalLines: 1 },
    'bash-progress-0',
    testId,
    3,
  );
  t.result(testId, { seconds: 1.2 });
  call(t, [
    text('All 9 tests pass. A last check on the example ledger:'),
    tool(
      bashTool(
        'npx tsx src/cli.ts settle examples/trip.ledger',
        lines('chen → ana: 51.73', 'dee → ana: 16.17', 'dee → ben: 7.30'),
        { description: 'Settle the example trip', newer: true },
      ),
    ),
  ], [1.4]);
  call(t, [tool(todos.step(4))]);
  t.assistant([
    text(
      lines(
        '`fair-share settle` is in. On the example trip it prints:',
        '',
        '```console',
        '$ npx tsx src/cli.ts settle examples/trip.ledger',
        'chen → ana: 51.73',
        'dee → ana: 16.17',
        'dee → ben: 7.30',
        '```',
        '',
        'What changed:',
        '',
        '- **`src/settle.ts`** (new): `settle(net)` lets the largest debtor pay the largest creditor until everyone is square. At most n − 1 payments, ties broken by name so the output is stable.',
        '- **`src/cli.ts`**: a `settle` case next to `balances`; the usage line mentions both.',
        '- **`test/settle.test.ts`** (new): five tests, including `0.10 + 0.20` settling as exactly `0.30` and a 10.00 bill split three ways that keeps every cent.',
        '',
        'Nothing leaves integer cents: amounts are parsed straight into cents, and `formatCents` only turns them into text at the very end.',
      ),
    ),
  ]);
  t.turnDone();

  // The user compacts the conversation before asking for more.
  t.wait(312);
  t.compact(
    lines(
      'This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.',
      '',
      'Summary:',
      '1. Primary Request and Intent:',
      '   The user came back to fair-share, a small TypeScript CLI that splits shared expenses, and asked for a tour of the code. They then asked for a `settle` command that prints the payments needed to even everyone out, computed in integer cents end to end, with tests.',
      '',
      '2. Key Technical Concepts:',
      '   - Ledger lines look like `<payer> <amount> <people>  # note`; `toCents` parses amounts straight into integer cents',
      '   - `balances()` returns net cents per person; leftover cents go to the first people in a split, so balances sum to zero',
      '   - Greedy settlement: the largest debtor pays the largest creditor, at most n − 1 payments, ties broken by name',
      '',
      '3. Files and Code Sections:',
      '   - src/settle.ts (new): `Payment { from, to, amountCents }` and `settle(net: Map<string, number>): Payment[]`',
      '   - src/cli.ts: new `settle` case; usage is now `fair-share <balances|settle> <ledger-file>`',
      '   - test/settle.test.ts (new): five tests; the suite passes 9 of 9',
      '',
      '4. Errors and fixes:',
      "   - `tsc` reported TS2339 because the CLI used `p.amount`; fixed to `p.amountCents`.",
      '',
      '5. Pending Tasks:',
      '   - None.',
      '',
      '6. Current Work:',
      '   `settle` is finished and was checked on examples/trip.ledger (chen → ana 51.73, dee → ana 16.17, dee → ben 7.30).',
    ),
    41_862,
  );

  // Turn 3, after compaction.
  t.wait(25);
  t.prompt('Could `settle` also print JSON with a `--json` flag? I want to pipe it into a spreadsheet script.');
  call(t, [
    thinking('Small change. The settle case can branch on argv.includes("--json") and print the payments array as is.'),
    text("I'll branch on `--json` inside the `settle` case, so the plain output stays exactly as it is."),
    tool(readTool(project, 'src/cli.ts')),
  ]);
  call(t, [tool(editTool(project, 'src/cli.ts', ...CLI_SETTLE_JSON))]);
  call(t, [
    tool(
      bashTool(
        'npx tsx src/cli.ts settle examples/trip.ledger --json',
        JSON.stringify(
          [
            { from: 'chen', to: 'ana', amountCents: 5173 },
            { from: 'dee', to: 'ana', amountCents: 1617 },
            { from: 'dee', to: 'ben', amountCents: 730 },
          ],
          null,
          2,
        ),
        { description: 'Try the JSON output', newer: true },
      ),
    ),
  ], [1.3]);
  const final = t.assistant([
    text(
      'Done: `fair-share settle <file> --json` prints the payments as a JSON array. Amounts stay in cents (`amountCents`), so divide by 100 on the spreadsheet side rather than trusting a float in between. Without the flag the output is unchanged.',
    ),
  ]);
  t.turnDone();

  const title = 'Add a settle command that works in integer cents';
  t.lines.unshift({ type: 'summary', summary: title, leafUuid: final.last });
  return {
    title,
    files: [{ path: `-home-demo-projects-fair-share/${sessionId}.jsonl`, lines: t.lines }],
    landmarks: { sessionId, abandonedPrompt, activePrompt, summaryLeaf: final.last },
  };
}

// ---------------------------------------------------------------------------
// Session 2 — fair-share, 2.1.x: a pasted sketch, a subagent, web search, a queued prompt

const CLI_IMPORT_BARS: [string, string] = [
  "import { balances } from './balances.js';\n",
  "import { balances } from './balances.js';\nimport { bar, paint } from './bars.js';\n",
];

const CLI_BALANCE_BARS: [string, string] = [
  lines(
    "    case 'balances': {",
    '      for (const [person, cents] of balances(expenses)) {',
    '        console.log(`${person.padEnd(8)} ${formatCents(cents).padStart(8)}`);',
    '      }',
    '      return 0;',
    '    }',
  ),
  lines(
    "    case 'balances': {",
    '      const net = balances(expenses);',
    '      const largest = Math.max(...[...net.values()].map(Math.abs));',
    '      const useColour = process.env.FORCE_COLOR !== undefined || process.stdout.isTTY === true;',
    '      for (const [person, cents] of net) {',
    "        const drawn = paint(bar(cents, largest), cents < 0 ? 'red' : 'green', useColour);",
    '        console.log(`${person.padEnd(8)} ${formatCents(cents).padStart(8)}  ${drawn}`);',
    '      }',
    '      return 0;',
    '    }',
  ),
];

const CLI_NO_COLOR: [string, string] = [
  '      const useColour = process.env.FORCE_COLOR !== undefined || process.stdout.isTTY === true;',
  '      const useColour = !process.env.NO_COLOR && (process.env.FORCE_COLOR !== undefined || process.stdout.isTTY === true);',
];

/** `fair-share balances` on the example trip; the bars match the pasted sketch. */
function balanceBars(colour: boolean): string {
  const rows: Array<[string, string, string, 32 | 31]> = [
    ['ana     ', '   67.90', '████████████████████████', 32],
    ['ben     ', '    7.30', '██▋', 32],
    ['chen    ', '  -51.73', '██████████████████▎', 31],
    ['dee     ', '  -23.47', '████████▎', 31],
  ];
  return rows
    .map(([name, amount, drawn, code]) => `${name} ${amount}  ${colour ? `\u001b[${code}m${drawn}\u001b[39m` : drawn}`)
    .join('\n');
}

function sessionBars(): BuiltSession {
  const ids = createIds(0xba125);
  const sessionId = ids.uuid();
  const project = fairShareProject();
  for (const [o, n] of [CLI_IMPORT_SETTLE, CLI_SETTLE_CASE, CLI_SETTLE_FIX, CLI_SETTLE_JSON]) {
    project.write('src/cli.ts', applyOnce(project.read('src/cli.ts'), o!, n!, 'src/cli.ts'));
  }
  project.write('src/settle.ts', SETTLE_TS);
  project.write('test/settle.test.ts', SETTLE_TEST_TS);
  const base = {
    ids,
    sessionId,
    cwd: FAIR_SHARE_CWD,
    version: '2.1.42',
    gitBranch: 'feature/balance-bars',
  };
  const subagentDir = `-home-demo-projects-fair-share/${sessionId}/subagents`;
  const start = '2026-02-04T09:05:12.604Z';

  // Claude Code warms up its Explore agent at startup; the file is noise, not a transcript.
  const warmupId = `a${ids.hex(6)}`;
  const warmup = createTranscript({ ...base, agentId: warmupId, model: 'claude-haiku-4-5-20251001', start });
  warmup.prompt('Warmup');
  warmup.assistant([
    text(
      "I'm ready to help you explore this codebase. I can search files, read code and trace how things fit together. What would you like me to look into?",
    ),
  ]);

  const t = createTranscript({ ...base, model: 'claude-opus-4-6', start, slug: 'bright-sketching-otter' });
  t.wait(38);
  const sketchPrompt = t.prompt([
    { type: 'image', source: { type: 'base64', media_type: 'image/png', data: balanceSketchPng() } },
    {
      type: 'text',
      text: "Here's a quick sketch of what I'd like `fair-share balances` to show: one bar per person, green for people who are owed money and red for people who owe.\n\n[Image #1]\n\nWhat's the nicest way to draw bars like that in a terminal? Then go ahead and build it.",
    },
  ]);

  // The main agent hands the code survey to an Explore subagent.
  const surveyPrompt =
    'In /home/demo/projects/fair-share, find every place that prints balances or amounts to the terminal. For each, give file:line, what it prints, and whether colour or terminal width is handled anywhere. Also list the runtime dependencies in package.json. Report only; do not change any files.';
  const taskCall: ToolCall = {
    name: 'Task',
    input: { description: 'Map how balances are printed', prompt: surveyPrompt, subagent_type: 'Explore' },
    content: '',
    result: null,
  };
  const delegate = t.assistant([
    thinking(
      'The sketch shows horizontal bars, one row per person, left-aligned, green and red. Two questions: how output is produced today (an Explore agent can map that) and which characters give smooth bars. Unicode has eighth-width block elements; worth confirming the exact code points.',
    ),
    text(
      "Nice sketch! I'll have an Explore agent map how balances are printed today, then look up which block characters give bars with smooth ends.",
    ),
    tool(taskCall),
  ]);
  const taskId = delegate.toolIds[0]!;

  const agentId = `a${ids.hex(6)}`;
  const agent = createTranscript({ ...base, agentId, model: 'claude-haiku-4-5-20251001', start: t.now() });
  agent.wait(0.1);
  agent.prompt(surveyPrompt);
  const outputPattern = /console\.(log|error)|process\.stdout/;
  call(agent, [
    text("I'll start by finding every output call in src/."),
    tool(grepTool('console\\.(log|error)|process\\.stdout', 'src', grepLines(project, FAIR_SHARE_SOURCES, outputPattern))),
  ]);
  call(agent, [tool(readTool(project, 'src/format.ts'))]);
  call(agent, [tool(readTool(project, 'package.json'))]);
  const cli = project.read('src/cli.ts');
  const report = lines(
    '## Where amounts reach the terminal',
    '',
    `- \`src/cli.ts:${lineOf(cli, 'person.padEnd(8)')}\`: the \`balances\` case prints one line per person: the name padded to 8 characters, then \`formatCents(cents)\` right-aligned in 8.`,
    `- \`src/cli.ts:${lineOf(cli, 'JSON.stringify(payments')}\` and \`:${lineOf(cli, '${p.from} → ${p.to}')}\`: the \`settle\` case prints JSON with \`--json\`, otherwise one \`from → to: amount\` line per payment.`,
    `- \`src/cli.ts:${lineOf(cli, 'console.error(USAGE)')}\` and \`:${lineOf(cli, 'unknown command')}\`: usage errors, to stderr.`,
    '- `src/format.ts:2`: `formatCents` is the only formatting helper.',
    '',
    '**Colour and width:** not handled anywhere. There is no colour code, no `isTTY` check and no terminal-width lookup.',
    '',
    '**Dependencies:** none at runtime. Dev only: `typescript`, `tsx`, `vitest`, `@types/node`. Colour support would have to be hand-rolled or become the first runtime dependency.',
  );
  agent.assistant([text(report)]);
  const agentStart = Date.parse(String(agent.lines[0]!.timestamp));
  const agentMs = Date.parse(agent.now()) - agentStart;
  const agentUsage: JsonObject = {
    input_tokens: 6,
    cache_creation_input_tokens: 1184,
    cache_read_input_tokens: 17_950,
    cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 1184 },
    output_tokens: 412,
    service_tier: 'standard',
  };
  taskCall.content = [
    { type: 'text', text: report },
    { type: 'text', text: `agentId: ${agentId} (for resuming to continue this agent's work if needed)` },
  ];
  taskCall.result = {
    status: 'completed',
    prompt: surveyPrompt,
    agentId,
    content: [{ type: 'text', text: report }],
    totalDurationMs: agentMs,
    totalTokens: 19_552,
    totalToolUseCount: 3,
    usage: agentUsage,
  };
  t.wait(agentMs / 1000);
  t.result(taskId, { seconds: 0.3 });

  // Web search, then a fetch of the page that lists the block characters.
  const query = 'unicode block elements eighth blocks horizontal bar chart terminal';
  const links = [
    { title: 'Block Elements - Wikipedia', url: 'https://en.wikipedia.org/wiki/Block_Elements' },
    { title: 'Block Elements, Range: 2580–259F (Unicode code chart)', url: 'https://www.unicode.org/charts/PDF/U2580.pdf' },
    { title: 'NO_COLOR: disabling ANSI color output by default', url: 'https://no-color.org/' },
  ];
  const searchSummary =
    'The Block Elements range (U+2580–U+259F) has left-aligned blocks in eighths, from U+258F (one eighth) to U+2588 (full block). Terminal bar charts use full blocks for whole cells and one partial block for the remainder, which gives eight steps of resolution per character cell.';
  const serverId = ids.serverToolUseId();
  const search = t.assistant([
    text('No runtime dependencies and no colour handling yet, so I\'ll hand-roll it. First, which characters give the smoothest bars:'),
    tool({
      name: 'WebSearch',
      input: { query },
      content: `Web search results for query: "${query}"\n\nLinks: ${JSON.stringify(links)}\n\n${searchSummary}`,
      result: { query, results: [{ tool_use_id: serverId, content: links }, searchSummary], durationSeconds: 6.412 },
    }),
  ]);
  const searchId = search.toolIds[0]!;
  t.progress({ type: 'query_update', query }, 'search-progress-1', searchId, 1.2);
  t.progress({ type: 'search_results_received', resultCount: links.length, query }, serverId, searchId, 2.6);
  t.result(searchId, { seconds: 2.7 });
  const fetched = lines(
    'The left-aligned partial blocks, thinnest first:',
    '',
    '| Character | Code point | Name |',
    '|---|---|---|',
    '| ▏ | U+258F | Left one eighth block |',
    '| ▎ | U+258E | Left one quarter block |',
    '| ▍ | U+258D | Left three eighths block |',
    '| ▌ | U+258C | Left half block |',
    '| ▋ | U+258B | Left five eighths block |',
    '| ▊ | U+258A | Left three quarters block |',
    '| ▉ | U+2589 | Left seven eighths block |',
    '| █ | U+2588 | Full block |',
    '',
    'All of them are in the Block Elements block (U+2580–U+259F), which common monospace terminal fonts cover.',
  );
  call(t, [
    tool({
      name: 'WebFetch',
      input: {
        url: 'https://en.wikipedia.org/wiki/Block_Elements',
        prompt: 'List the left-aligned partial block characters with their code points, from one eighth up to the full block.',
      },
      content: fetched,
      result: { bytes: 84_213, code: 200, codeText: 'OK', result: fetched, durationMs: 3_904, url: 'https://en.wikipedia.org/wiki/Block_Elements' },
    }),
  ], [4.3]);

  call(t, [
    text(
      'Eighth blocks it is: a full block per whole cell plus one partial block for the rest, so the bar for 7.30 still looks different from the bar for 6.90. Colour goes in a separate helper so it can be switched off.',
    ),
    tool(writeTool(project, 'src/bars.ts', BARS_TS)),
  ]);
  call(t, [tool(editTool(project, 'src/cli.ts', ...CLI_IMPORT_BARS))]);
  call(t, [
    text('The largest balance fills the full width; everything else is scaled against it.'),
    tool(editTool(project, 'src/cli.ts', ...CLI_BALANCE_BARS)),
  ]);
  // The user types a follow-up while Claude is still working; it waits in the queue.
  const followUp = "Also, please respect NO_COLOR. I set it in CI and the logs fill up with escape codes otherwise.";
  const run = t.assistant([
    tool(
      bashTool('FORCE_COLOR=1 npx tsx src/cli.ts balances examples/trip.ledger', balanceBars(true), {
        description: 'Show the new balance bars',
        newer: true,
      }),
    ),
  ]);
  t.queue('enqueue', followUp);
  t.result(run.toolIds[0]!, { seconds: 1.5 });
  t.assistant([
    text(
      lines(
        'Here it is on the example trip (green: owed money, red: owes money):',
        '',
        '```console',
        '$ npx tsx src/cli.ts balances examples/trip.ledger',
        'ana         67.90  ████████████████████████',
        'ben          7.30  ██▋',
        'chen       -51.73  ██████████████████▎',
        'dee        -23.47  ████████▎',
        '```',
        '',
        '- **`src/bars.ts`** (new): `bar(value, max, width = 24)` draws full blocks plus one eighth-width block for the remainder; `paint()` adds the colour.',
        "- **`src/cli.ts`**: `balances` scales every bar against the largest balance. Colour is on for a real terminal, or when `FORCE_COLOR` is set, which is how I ran it above since my shell isn't a TTY.",
      ),
    ),
  ]);
  t.turnDone();

  t.queue('dequeue');
  const queuedPrompt = t.prompt(followUp);
  call(t, [
    text(
      'Good call. The convention at no-color.org is that a non-empty `NO_COLOR` turns colour off, whatever else is set, so it goes first in the check:',
    ),
    tool(editTool(project, 'src/cli.ts', ...CLI_NO_COLOR)),
  ]);
  call(t, [
    tool(
      bashTool('NO_COLOR=1 npx tsx src/cli.ts balances examples/trip.ledger', balanceBars(false), {
        description: 'Check the output with NO_COLOR set',
        newer: true,
      }),
    ),
  ], [1.4]);
  t.assistant([
    text(
      "`NO_COLOR` now wins over `FORCE_COLOR` and over the TTY check, so your CI logs get plain text. The bars themselves stay: they're ordinary characters, not escape codes, so they read fine in a log too.",
    ),
  ]);
  t.turnDone();

  return {
    title: 'Balance bars',
    files: [
      { path: `-home-demo-projects-fair-share/${sessionId}.jsonl`, lines: t.lines },
      { path: `${subagentDir}/agent-${agentId}.jsonl`, lines: agent.lines },
      { path: `${subagentDir}/agent-${warmupId}.jsonl`, lines: warmup.lines },
    ],
    landmarks: { sessionId, sketchPrompt, taskToolUseId: taskId, agentId, warmupAgentId: warmupId, queuedPrompt },
  };
}

// ---------------------------------------------------------------------------
// Session 3 — garden-log, 2.0.x: plan mode, a subagent beside the session, MCP, MultiEdit

const GARDEN_CWD = '/home/demo/projects/garden-log';

function sessionGreenhouse(): BuiltSession {
  const ids = createIds(0x9a2de);
  const sessionId = ids.uuid();
  const project = createProject(GARDEN_CWD, {
    'garden_log/scheduler.py': SCHEDULER_PY,
    'garden_log/models.py': MODELS_PY,
  });
  const base = { ids, sessionId, cwd: GARDEN_CWD, version: '2.0.55', gitBranch: 'main' };
  const t = createTranscript({
    ...base,
    model: 'claude-sonnet-4-5-20250929',
    start: '2026-02-02T17:41:03.950Z',
    slug: 'quiet-watering-fern',
  });

  t.prompt(
    'Since yesterday the greenhouse plants get two watering reminders every morning, everything else gets one. Can you find out why? Plan first, please: no changes yet.',
  );
  const explorePrompt =
    'Trace how watering reminders are produced in this repo: which function decides that a plant is due, how plants are matched to zones, and where reminders are sent. Give file:line for each step. Read only.';
  const taskCall: ToolCall = {
    name: 'Task',
    input: { description: 'Trace the reminder path', prompt: explorePrompt, subagent_type: 'Explore' },
    content: '',
    result: null,
  };
  // 2.0.x wrote some replies cumulatively: each entry repeats the blocks before it.
  const delegate = t.assistant(
    [
      thinking(
        'Duplicates for one zone only. Either the morning job runs twice for that zone, or the greenhouse plants are matched twice. An Explore agent can trace the path while I look at what was actually sent.',
      ),
      text("I'll have an Explore agent trace how reminders are produced, and meanwhile check what was actually sent."),
      tool(taskCall),
    ],
    { streaming: 'cumulative' },
  );
  const taskId = delegate.toolIds[0]!;

  const agentId = ids.hex(8);
  const agent = createTranscript({ ...base, agentId, model: 'claude-haiku-4-5-20251001', start: t.now() });
  agent.prompt(explorePrompt);
  const scheduler = project.read('garden_log/scheduler.py');
  const models = project.read('garden_log/models.py');
  call(agent, [
    text("I'll find where reminders are decided and sent."),
    tool(
      grepTool('due_today|send_reminder', '.', [
        'garden_log/cli.py:18:    for plant in due_today(plants, zones, date.today()):',
        'garden_log/cli.py:19:        send_reminder(plant)',
        'garden_log/notify.py:12:def send_reminder(plant: Plant) -> None:',
        `garden_log/scheduler.py:${lineOf(scheduler, 'def due_today')}:def due_today(plants: list[Plant], zones: list[Zone], today: date) -> list[Plant]:`,
        'tests/test_scheduler.py:4:from garden_log.scheduler import due_today',
      ]),
    ),
  ]);
  call(agent, [tool(readTool(project, 'garden_log/scheduler.py'))]);
  call(agent, [text('`due_today` relies on `Zone.contains`; reading the models.'), tool(readTool(project, 'garden_log/models.py'))]);
  const report = lines(
    '## How a reminder is produced',
    '',
    '1. `garden_log/cli.py:18`: the morning command calls `due_today(plants, zones, date.today())` once and sends one reminder per plant in the result (`cli.py:19`).',
    `2. \`garden_log/scheduler.py:${lineOf(scheduler, 'for zone in zones')}\`: \`due_today\` loops over **every zone**, and for each zone over every plant that \`zone.contains(plant)\`, appending each due plant to a list.`,
    `3. \`garden_log/models.py:${lineOf(models, 'def contains')}\`: \`Zone.contains\` is true for plants in the zone **or in any zone nested inside it**.`,
    '4. `garden_log/notify.py:12`: `send_reminder` stores a row in `reminders` and sends one message.',
    '',
    'So a plant in a nested zone is appended once for its own zone and once more for each zone around it. If the greenhouse was recently nested inside another zone, that would explain the duplicates.',
  );
  agent.assistant([text(report)]);
  const agentMs = Date.parse(agent.now()) - Date.parse(String(agent.lines[0]!.timestamp));
  taskCall.content = [{ type: 'text', text: report }];
  taskCall.result = {
    status: 'completed',
    prompt: explorePrompt,
    agentId,
    content: [{ type: 'text', text: report }],
    totalDurationMs: agentMs,
    totalTokens: 15_307,
    totalToolUseCount: 3,
    usage: {
      input_tokens: 5,
      cache_creation_input_tokens: 2_231,
      cache_read_input_tokens: 12_684,
      cache_creation: { ephemeral_5m_input_tokens: 2_231, ephemeral_1h_input_tokens: 0 },
      output_tokens: 387,
      service_tier: 'standard',
    },
  };
  t.wait(agentMs / 1000);
  t.result(taskId, { seconds: 0.2 });

  const rows = [
    { plant_id: 7, name: 'Basil', zone: 'Greenhouse', sent: 2 },
    { plant_id: 9, name: 'Chillies', zone: 'Greenhouse', sent: 2 },
    { plant_id: 12, name: 'Tomatoes', zone: 'Greenhouse', sent: 2 },
  ];
  const rowsText: Json = [{ type: 'text', text: JSON.stringify(rows) }];
  call(t, [
    text(
      "The agent's trace points at nested zones. Let me confirm with yesterday's reminders in the database:",
    ),
    tool({
      name: 'mcp__sqlite__read_query',
      input: {
        query:
          "SELECT r.plant_id, p.name, z.name AS zone, COUNT(*) AS sent\nFROM reminders r\nJOIN plants p ON p.id = r.plant_id\nJOIN zones z ON z.id = p.zone_id\nWHERE r.sent_on = '2026-02-02'\nGROUP BY r.plant_id\nHAVING COUNT(*) > 1",
      },
      content: rowsText,
      result: rowsText,
    }),
  ], [0.9]);
  const plan = lines(
    '## Fix duplicate greenhouse reminders',
    '',
    '**Cause:** `due_today` walks every zone, and `Zone.contains` also matches plants in nested zones. The greenhouse sits inside the backyard, so every greenhouse plant is appended twice. The database agrees: basil, chillies and tomatoes each got two reminders on 2 February, and nothing else did.',
    '',
    '**Change** (`garden_log/scheduler.py`):',
    '1. Collect due plants in a dict keyed by plant id instead of a list, so a plant counts once however many zones contain it.',
    '2. Return the dict\'s values, which keeps the order in which plants were first found.',
    '',
    '**Test:** new `tests/test_nested_zones.py`: a plant in a nested zone is due exactly once, and the order is stable.',
    '',
    '`Zone.contains` stays as it is: nested matching is what you want for per-zone totals.',
  );
  call(t, [
    tool({
      name: 'ExitPlanMode',
      input: { plan },
      content: 'User has approved your plan. You can now start coding. Start with updating your todo list if applicable',
      result: { plan, isAgent: false },
    }),
  ], [21.5]);
  const multiEdit = multiEditTool(project, 'garden_log/scheduler.py', [
    [
      '    due: list[Plant] = []\n',
      '    # A plant is inside its own zone and every zone around it (the greenhouse sits\n    # in the backyard), so collect by id to remind about each plant once.\n    due: dict[int, Plant] = {}\n',
    ],
    ['                due.append(plant)\n    return due\n', '                due[plant.id] = plant\n    return list(due.values())\n'],
  ]);
  call(t, [text('Plan approved. Both changes are in the same function, so one MultiEdit:'), tool(multiEdit)]);
  call(t, [tool(writeTool(project, 'tests/test_nested_zones.py', NESTED_ZONES_TEST_PY))]);
  call(t, [
    tool(
      bashTool(
        'python -m pytest -q',
        '......                                                                   [100%]\n6 passed in 0.57s',
        { description: 'Run the test suite' },
      ),
    ),
  ], [2.1]);
  t.assistant([
    text(
      lines(
        'Fixed. `due_today` now collects plants by id, so a greenhouse plant is reminded about once even though both the backyard and the greenhouse contain it. The new tests cover the nested case and the order; all 6 tests pass.',
        '',
        "Tomorrow's run should send basil, chillies and tomatoes one reminder each.",
      ),
    ),
  ]);

  // The user asks for more, interrupts the reply, and changes their mind.
  t.wait(95);
  t.prompt('Nice. While you are in there, can you add a `--dry-run` flag to the morning command so I can see what would be sent?');
  t.assistant([text("Sure. I'll add the flag in `garden_log/cli.py` and pass it down so that")]);
  const interrupted = t.user([{ type: 'text', text: '[Request interrupted by user]' }]);
  t.wait(12);
  t.prompt("Sorry, let's leave that for another day. Can you commit the fix instead?");
  const testLines = NESTED_ZONES_TEST_PY.split('\n').length - 1;
  const added = 3 + 2 + testLines;
  call(t, [
    tool(
      bashTool(
        'git add garden_log/scheduler.py tests/test_nested_zones.py && git commit -m "Remind about each plant once, even in nested zones"',
        `[main 4c1d2e7] Remind about each plant once, even in nested zones\n 2 files changed, ${added} insertions(+), 3 deletions(-)\n create mode 100644 tests/test_nested_zones.py`,
        { description: 'Commit the fix and its tests' },
      ),
    ),
  ], [0.8]);
  t.assistant([
    text('Committed as `4c1d2e7` on `main`. The `--dry-run` idea is noted whenever you want to pick it up.'),
  ]);
  t.wait(30);
  t.localCommand(
    'cost',
    lines(
      'Total cost:            $0.3184',
      'Total duration (API):  1m 52s',
      'Total duration (wall): 11m 37s',
      `Total code changes:    ${added} lines added, 3 lines removed`,
      'Usage by model:',
      '       claude-haiku:  18.2k input, 1.1k output, 0 cache read, 0 cache write ($0.0237)',
      '      claude-sonnet:  1.9k input, 3.4k output, 412.6k cache read, 38.5k cache write ($0.2947)',
    ),
  );

  return {
    title: 'Duplicate greenhouse reminders',
    files: [
      { path: `-home-demo-projects-garden-log/${sessionId}.jsonl`, lines: t.lines },
      { path: `-home-demo-projects-garden-log/agent-${agentId}.jsonl`, lines: agent.lines },
    ],
    landmarks: { sessionId, taskToolUseId: taskId, agentId, interrupted },
  };
}

// ---------------------------------------------------------------------------
// Session 4 — playground, 2.1.x: one friendly question

/** Occurs in exactly one message of all the samples, for search tests. */
const SEARCH_WORD = 'kerfuffle';

function sessionCopying(): BuiltSession {
  const ids = createIds(0xc0b1e5);
  const sessionId = ids.uuid();
  const t = createTranscript({
    ids,
    sessionId,
    cwd: '/home/demo/projects/playground',
    version: '2.1.39',
    gitBranch: 'main',
    model: 'claude-opus-4-6',
    start: '2026-02-05T15:20:09.331Z',
    slug: 'curious-copying-finch',
  });
  t.prompt(
    "Quick one: in TypeScript, what's the difference between spreading an object, `structuredClone`, and `JSON.parse(JSON.stringify(x))`? And what are the Python equivalents?",
  );
  t.assistant(
    [
      thinking(
        'Compare shallow spread, structuredClone and the JSON round trip on depth, Date, Map/Set, functions and cycles. Then Python: copy.copy, copy.deepcopy and json. Keep it short, one table and two small examples.',
      ),
      text(
        lines(
          'They differ in **how deep** they copy and **which types survive**:',
          '',
          '| Approach | Depth | `Date` | `Map` / `Set` | Functions | Cycles |',
          '|---|---|---|---|---|---|',
          '| `{ ...obj }` | shallow | same object | same object | kept (shared) | fine (shared) |',
          '| `structuredClone(obj)` | deep | copied as a `Date` | copied | **throws** | preserved |',
          '| `JSON.parse(JSON.stringify(obj))` | deep | becomes a string | becomes `{}` | dropped | **throws** |',
          '',
          'Rule of thumb: spread when you only change top-level fields, `structuredClone` for a real deep copy, and the JSON round trip only when plain JSON data is what you want.',
          '',
          '```ts',
          "const trip = { name: 'Alps', start: new Date('2026-03-01'), people: new Set(['ana', 'ben']) };",
          '',
          'const shallow = { ...trip };        // shallow.people === trip.people',
          'const deep = structuredClone(trip); // a new Set, and deep.start is still a Date',
          'const viaJson = JSON.parse(JSON.stringify(trip));',
          "// viaJson.start is '2026-03-01T00:00:00.000Z' and viaJson.people is {}",
          '```',
          '',
          "Python's `copy` module covers the first two, and `json` behaves much like JavaScript's:",
          '',
          '```python',
          'import copy',
          'import json',
          'from datetime import date',
          '',
          'trip = {"name": "Alps", "start": date(2026, 3, 1), "people": {"ana", "ben"}}',
          '',
          'shallow = copy.copy(trip)   # shallow["people"] is trip["people"]',
          'deep = copy.deepcopy(trip)  # a new set; the date is kept as a date',
          'via_json = json.loads(json.dumps(trip, default=str))',
          '# via_json["start"] == "2026-03-01", and the set became a string too',
          '```',
          '',
          '`copy.deepcopy` also copes with cycles (it remembers what it has already copied), so it is the closest match to `structuredClone`.',
        ),
      ),
    ],
    { latency: 4 },
  );
  t.turnDone();
  t.wait(48);
  const thanks = t.prompt(`Perfect, that clears up the whole ${SEARCH_WORD} I had with dates turning into strings. Thanks!`);
  t.assistant([
    text(
      "Glad it helped! If you ever need the dates back after a JSON round trip, a reviver does it: `JSON.parse(text, (key, value) => key === 'start' ? new Date(value) : value)`.",
    ),
  ]);
  t.turnDone();
  return {
    title: 'Copying objects',
    files: [{ path: `-home-demo-projects-playground/${sessionId}.jsonl`, lines: t.lines }],
    landmarks: { sessionId, searchWordMessage: thanks },
  };
}

// ---------------------------------------------------------------------------
// Checks: the samples must be as well-formed as a real transcript

/** Throws when a file breaks a structural rule the site relies on. */
function validate(file: SessionFile): void {
  const fail = (why: string) => {
    throw new Error(`${file.path}: ${why}`);
  };
  const byUuid = new Map<string, JsonObject>();
  for (const entry of file.lines) {
    const uuid = entry.uuid;
    if (typeof uuid !== 'string') continue;
    if (byUuid.has(uuid)) fail(`duplicate uuid ${uuid}`);
    byUuid.set(uuid, entry);
  }
  let roots = 0;
  const toolUses = new Map<string, number>();
  const toolResults = new Map<string, number>();
  const lastOfMessage = new Map<string, string>();
  for (const entry of file.lines) {
    if (typeof entry.uuid !== 'string') continue;
    const parent = entry.parentUuid;
    if (parent === null) {
      if (entry.subtype !== 'compact_boundary') roots++;
    } else if (typeof parent !== 'string' || !byUuid.has(parent)) {
      fail(`parentUuid ${String(parent)} of ${entry.uuid} does not resolve`);
    }
    const message = entry.message as JsonObject | undefined;
    const content = message?.content;
    if (Array.isArray(content)) {
      for (const block of content as JsonObject[]) {
        if (block.type === 'tool_use') toolUses.set(String(block.id), 0);
        if (block.type === 'tool_result') {
          const id = String(block.tool_use_id);
          toolResults.set(id, (toolResults.get(id) ?? 0) + 1);
        }
      }
    }
    if (entry.type === 'assistant' && message) {
      const id = String(message.id);
      const previous = lastOfMessage.get(id);
      if (previous !== undefined && previous !== parent) fail(`entries of ${id} are not contiguous in the chain`);
      lastOfMessage.set(id, entry.uuid);
    }
  }
  if (roots !== 1) fail(`expected one root entry, found ${roots}`);
  for (const id of toolUses.keys()) {
    if (toolResults.get(id) !== 1) fail(`tool_use ${id} has ${toolResults.get(id) ?? 0} results`);
  }
  for (const id of toolResults.keys()) if (!toolUses.has(id)) fail(`tool_result for unknown ${id}`);
}

// ---------------------------------------------------------------------------

async function main(): Promise<void> {
  const here = dirname(fileURLToPath(import.meta.url));
  const root = resolve(process.argv[2] ?? join(here, '..', 'content', 'sessions'));
  const sessions = [sessionSettle(), sessionBars(), sessionGreenhouse(), sessionCopying()];
  for (const session of sessions) session.files.forEach(validate);

  // Replace the generated project folders wholesale; README.md and anything else stays.
  await mkdir(root, { recursive: true });
  for (const entry of await readdir(root, { withFileTypes: true })) {
    if (entry.isDirectory() && entry.name.startsWith('-home-demo-projects-')) {
      await rm(join(root, entry.name), { recursive: true });
    }
  }
  let total = 0;
  for (const session of sessions) {
    for (const file of session.files) {
      const body = file.lines.map((line) => JSON.stringify(line)).join('\n') + '\n';
      const path = join(root, file.path);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, body);
      total += Buffer.byteLength(body);
      console.log(`${file.path}  ${file.lines.length} lines, ${(Buffer.byteLength(body) / 1024).toFixed(1)} KiB`);
    }
    console.log(`  ${session.title}: ${JSON.stringify(session.landmarks)}`);
  }
  console.log(`total ${(total / 1024).toFixed(1)} KiB; search word "${SEARCH_WORD}"`);
}

await main();
