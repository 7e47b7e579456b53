/**
 * The transcript model: pure data that the renderers, the loader and the
 * scripts share. Raw entries are kept as the JSON objects read from disk
 * (`raw`), typed views are layered on top, because the vendor's format is
 * undocumented and grows new fields every release.
 */
import type { Diagnostic } from '../diagnostics.js';

/**
 * Every entry `type` the model knows, in one list: the `EntryType` union is
 * derived from it, and the reader recognises exactly these. Anything else is
 * kept as `unknown` and reported.
 */
export const ENTRY_TYPES = [
  'user',
  'assistant',
  'system',
  'summary',
  'file-history-snapshot',
  'queue-operation',
  'progress',
  'attachment',
  'permission-mode',
  'last-prompt',
  'custom-title',
  'ai-title',
] as const;

/** A known entry type, or `unknown` for one the model has not seen yet. */
export type EntryType = (typeof ENTRY_TYPES)[number] | 'unknown';

/** A content block of a message, as the Anthropic API defines it. */
export type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature?: string }
  | { type: 'redacted_thinking'; data?: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'tool_result'; tool_use_id: string; content: string | ContentBlock[]; is_error?: boolean }
  | { type: 'image'; source: ImageSource }
  | { type: 'document'; source?: unknown; title?: string }
  | { type: string; [key: string]: unknown };

export interface ImageSource {
  type: 'base64' | 'url' | string;
  media_type?: string;
  data?: string;
  url?: string;
}

export interface Usage {
  input_tokens?: number;
  output_tokens?: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
}

/** One line of a session file that yielded a JSON object. */
export interface Entry {
  /** Position in the file: 1-based line number. */
  line: number;
  /** Index in file order among the entries of its file (0-based). */
  index: number;
  type: EntryType;
  /** The `type` string as written, kept for unknown types. */
  rawType: string;
  uuid?: string;
  parentUuid?: string | null;
  logicalParentUuid?: string;
  timestamp?: string;
  isSidechain: boolean;
  isMeta: boolean;
  subtype?: string;
  /** The whole object as read (after redaction). */
  raw: Record<string, unknown>;
}

/** What a user entry is, as a reader would see it. */
export type UserKind =
  | 'prompt'
  | 'tool-result'
  | 'meta'
  | 'command'
  | 'command-output'
  | 'bash-input'
  | 'bash-output'
  | 'compact-summary'
  | 'interruption'
  | 'queued-prompt';

export type AssistantKind = 'normal' | 'synthetic' | 'api-error';

/** An assistant message merged from every streaming entry sharing its `message.id`. */
export interface AssistantMessage {
  kind: 'assistant';
  assistantKind: AssistantKind;
  /** uuid of the first source entry: the message's permalink. */
  uuid: string;
  /** uuids of every source entry, in file order. */
  uuids: string[];
  messageId?: string;
  model?: string;
  timestamp?: string;
  /** Each block exactly once, in order. */
  blocks: ContentBlock[];
  /** Usage and stop reason of the final entry. */
  usage?: Usage;
  stopReason?: string | null;
  /** Tool calls started by this message, in block order. */
  toolCalls: ToolCall[];
  line: number;
}

export interface UserMessage {
  kind: 'user';
  userKind: UserKind;
  uuid: string;
  timestamp?: string;
  /** Text of the message (string content, or text blocks joined). */
  text: string;
  /** Non-text, non-tool-result blocks (images, documents). */
  blocks: ContentBlock[];
  /** For `command`: name and args parsed from the command tags. */
  command?: { name: string; args: string; output?: string };
  line: number;
  raw: Record<string, unknown>;
}

export interface SystemMessage {
  kind: 'system';
  uuid: string;
  subtype: string;
  timestamp?: string;
  text: string;
  level?: string;
  line: number;
  raw: Record<string, unknown>;
}

/** A `compact_boundary`, or a 1.0.x summary that starts a new root. */
export interface CompactionMessage {
  kind: 'compaction';
  uuid: string;
  timestamp?: string;
  trigger?: string;
  preTokens?: number;
  /** The summary the model continued from. */
  summary: string;
  line: number;
}

export type Message = AssistantMessage | UserMessage | SystemMessage | CompactionMessage;

/** A `tool_use` block paired with its result. */
export interface ToolCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
  /** uuid of the assistant entry that holds the tool_use block. */
  entryUuid: string;
  result?: ToolResult;
  /** The subagent transcript this call spawned (Task / Agent). */
  subagent?: Subagent;
}

export interface ToolResult {
  uuid: string;
  timestamp?: string;
  content: string | ContentBlock[];
  isError: boolean;
  /** The entry's `toolUseResult`: structured output, e.g. `structuredPatch`, `stdout`. */
  toolUseResult?: unknown;
}

/** A human prompt and every message that answers it, until the next prompt. */
export interface Turn {
  /** 1-based prompt number, stable for links (`--prompt N`). */
  index: number;
  prompt?: UserMessage;
  messages: Message[];
}

export interface Subagent {
  agentId?: string;
  /** Source file relative to the source root, or undefined for inline sidechains. */
  file?: string;
  prompt: string;
  messages: Message[];
  turns: Turn[];
  stats: { durationMs?: number; totalTokens?: number; toolUseCount: number };
}

/** A branch the user rewound away from; shown apart, never in the active transcript. */
export interface AbandonedBranch {
  /** The entry both branches grew from. */
  forkParentUuid: string;
  /** uuid of the branch's first entry. */
  firstUuid: string;
  messages: Message[];
}

export interface ModelUsage {
  model: string;
  messages: number;
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
}

export interface SessionFacts {
  /** Decoded project path as found in `cwd` or the folder name. */
  projectPath: string;
  /** The last parts of the project path, for display. */
  projectName: string;
  firstTimestamp?: string;
  lastTimestamp?: string;
  durationMs?: number;
  versions: string[];
  models: string[];
  gitBranches: string[];
  promptCount: number;
  messageCount: number;
  toolCallCount: number;
  toolCounts: Record<string, number>;
  usage: ModelUsage[];
}

export interface Session {
  sessionId: string;
  /** Session file relative to the source root. */
  file: string;
  /** Encoded project folder name as on disk. */
  projectFolder: string;
  title: string;
  titleSource: 'custom-title' | 'ai-title' | 'summary' | 'first-prompt' | 'fallback';
  /** The active transcript in reading order. */
  messages: Message[];
  turns: Turn[];
  abandoned: AbandonedBranch[];
  facts: SessionFacts;
  /** Tool calls that never got a result, and results without a call. */
  unpairedToolUses: string[];
  orphanToolResults: string[];
  entryCounts: Record<string, number>;
  diagnostics: Diagnostic[];
}
