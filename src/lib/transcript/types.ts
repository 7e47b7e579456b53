/**
 * The transcript model: pure data that the renderers, the loader and the
 * scripts share. Raw entries are kept as the JSON objects read from disk
 * (`raw`), typed views are layered on top, because the vendor's format is
 * undocumented and grows new fields every release.
 */
import type { Diagnostic } from '../diagnostics.js';

/**
 * The key under which an imported copy records the size of a binary payload
 * it left out (a document's bytes), beside the emptied `data` or `base64`
 * (scripts/lib/import/import-session.ts); pages show that size.
 */
export const OMITTED_BYTES_KEY = 'sessionpressOmittedBytes';

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
  // 2.1.x metadata lines: read (some shown in the header), never warned about.
  'agent-name',
  'agent-color',
  'agent-setting',
  'pr-link',
  'frame-link',
  'worktree-state',
  'mode',
  'tag',
  'bridge-session',
  'relocated',
  'speculation-accept',
  'attribution-snapshot',
  'content-replacement',
  'fork-context-ref',
  'started',
  'result',
  // 2.1.2xx: the session's running cost as Claude Code counts it (preferred to an estimate where present).
  'cost-state',
  // Families whose members get new names every release (`atis-latch`, `marble-origami-commit`):
  // an entry whose type matches ENTRY_TYPE_FAMILIES gets the family name as its `type`.
  'latch',
  'marble-origami',
] as const;

/** Entry type families: a `type` matching the pattern is known, as the family's type. */
export const ENTRY_TYPE_FAMILIES: ReadonlyArray<{ pattern: RegExp; type: (typeof ENTRY_TYPES)[number] }> = [
  { pattern: /(^|-)latch$/, type: 'latch' },
  { pattern: /^marble-origami(-|$)/, type: 'marble-origami' },
];

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
  /** 2.1.x: the cache write split by lifetime (1h writes cost more). */
  cache_creation?: { ephemeral_5m_input_tokens?: number; ephemeral_1h_input_tokens?: number };
  /** 2.1.x: thinking tokens, already included in `output_tokens`. */
  output_tokens_details?: { thinking_tokens?: number };
  /** 2.1.x: `standard` or `fast`. */
  speed?: string;
  /** 2.1.x: per-iteration usage of a multi-iteration request. */
  iterations?: unknown[];
  /** 2.1.2xx, models reached through a gateway: the request's cost in USD, as the gateway reported it. */
  cost?: number;
  /** 2.1.2xx, gateway: billed to the user's own key. */
  is_byok?: boolean;
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
  | 'queued-prompt'
  /** A background agent's result (`<task-notification>…`) injected as a user entry: not typed by a person, no turn of its own. */
  | 'task-notification'
  /** A message from another agent: a teammate's `<teammate-message>` or another session's `<cross-session-message>`; no turn of its own. */
  | 'agent-message';

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
  /** `message.provider`: the gateway a non-Anthropic model was reached through (`openrouter`, `bedrock`). */
  provider?: string;
  timestamp?: string;
  /** Each block exactly once, in order. */
  blocks: ContentBlock[];
  /** Usage and stop reason of the final entry. */
  usage?: Usage;
  stopReason?: string | null;
  /** Tool calls started by this message, in block order. */
  toolCalls: ToolCall[];
  line: number;
  /** Set when a later `api_refusal` / `model_refusal_fallback` retracted this message (its uuid). */
  retractedBy?: string;
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
  /** For `command`: its output, and the expanded text Claude received (a custom command's or skill's prompt). */
  command?: { name: string; args: string; output?: string; expansion?: string };
  /** For a `/fork` command whose output says `⑂ forked <name>`: the agents it forked, shown where they were forked. */
  forks?: Subagent[];
  /** For a `task-notification`: the agent whose result it brings. */
  resultOf?: Subagent;
  /** For an `agent-message` from another session (`origin.kind: "peer"`): who sent it, and the call that answered it. */
  peer?: PeerMessage;
  /** How the prompt came in (`promptSource`), when not typed: `queued`, `suggestion_accepted`, `system`, `sdk`… */
  promptSource?: string;
  line: number;
  raw: Record<string, unknown>;
}

/** A message from another Claude Code session (`origin.kind: "peer"`, a `<cross-session-message>`). */
export interface PeerMessage {
  /** The sending session's name (`origin.name`, `from-name`). */
  name?: string;
  /** Its address (`origin.from`, `from`: `uds:…`). */
  from?: string;
  /** `prompting`, … (`origin.fromMode`, `from-mode`). */
  mode?: string;
  /** `origin.msg_id`: what a reply names. */
  msgId?: string;
  /** The `SendMessage` call that answered it (its tool_use id). */
  answeredBy?: string;
}

export interface SystemMessage {
  kind: 'system';
  uuid: string;
  subtype: string;
  timestamp?: string;
  text: string;
  level?: string;
  /** For a `local_command` line that says `⑂ forked <name> (<id end>)`: the agents forked there. */
  forks?: Subagent[];
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
  /** The compaction agent (`agent-acompact-*.jsonl`) that wrote the summary, if its file exists. */
  compactionAgent?: Subagent;
}

/**
 * A `type: "attachment"` entry shown where it happened (hook results, files,
 * memory, queued commands...). Kinds a reader does not need (reminders,
 * listings, budget notes) never become a message; they are counted in
 * `Session.hiddenCounts` instead.
 */
export interface AttachmentMessage {
  kind: 'attachment';
  uuid: string;
  timestamp?: string;
  /** `attachment.type` as written, e.g. `hook_success`, `file`, `queued_command`. */
  attachmentType: string;
  /** The entry's `attachment` object (after redaction). */
  raw: Record<string, unknown>;
  /** A hook's output fields (`content`, `stdout`, `stderr`) that point to whole outputs kept beside the session (`hook-<id>-stdout.txt`), resolved. */
  kept?: Partial<Record<'content' | 'stdout' | 'stderr', KeptText>>;
  line: number;
}

/** A small marker where a mode changed (mode, permission-mode, plan mode, auto mode). */
export interface MarkerMessage {
  kind: 'marker';
  /** The entry's uuid, or `marker-<line>` for a line that has none (mode lines carry no uuid). */
  uuid: string;
  timestamp?: string;
  markerType: 'mode' | 'permission-mode' | 'plan-mode' | 'auto-mode' | 'chain-jump' | 'chain-break' | 'cwd' | (string & {});
  /** The new value, e.g. `plan`, `acceptEdits`, `entered`, `exited`. */
  value: string;
  line: number;
}

export type Message =
  | AssistantMessage
  | UserMessage
  | SystemMessage
  | CompactionMessage
  | AttachmentMessage
  | MarkerMessage;

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
  /** For a `Workflow` call: the agents of its run (`subagents/workflows/<runId>/`), in start order. */
  workflowAgents?: Subagent[];
  /** For a `TeamCreate` call: the team as its config describes it, when the source tree holds the config. */
  team?: TeamInfo;
}

/** An agent team as `teams/session-<8 hex>/config.json` describes it (read only from inside the source root). */
export interface TeamInfo {
  name?: string;
  /** The lead's agent id (`team-lead@<team>`). */
  lead?: string;
  members: Array<{ name: string; agentType?: string; model?: string; color?: string; prompt?: string }>;
}

export interface ToolResult {
  uuid: string;
  timestamp?: string;
  content: string | ContentBlock[];
  isError: boolean;
  /** The entry's `toolUseResult`: structured output, e.g. `structuredPatch`, `stdout`. */
  toolUseResult?: unknown;
  /**
   * Set when the result points to a whole output kept beside the session
   * (`<session-id>/tool-results/<name>`, by a `<persisted-output>` preview or
   * `toolUseResult.persistedOutputPath`). When the file was read, `content`
   * holds the whole output (redacted) and wins over a cut `stdout`.
   */
  persistedOutput?: PersistedOutputRef;
}

/** A kept whole output a record points to: read (`chars` long), or not found beside the session. */
export type PersistedOutputRef = { file: string; chars: number; missing?: undefined } | { file: string; missing: true; /** `persistedOutputSize` as the record states it. */ bytes?: number };

/** A record's text field with its `<persisted-output>` previews replaced by the whole outputs they point to. */
export interface KeptText {
  /** The whole text (a preview whose file is missing keeps its preview text). */
  text: string;
  /** Kept files read into `text`. */
  files: string[];
  /** Kept files pointed to but not found. */
  missing: string[];
}

/** A human prompt and every message that answers it, until the next prompt. */
export interface Turn {
  /** 1-based prompt number, stable for links (`--prompt N`). */
  index: number;
  prompt?: UserMessage;
  messages: Message[];
  /** From the turn's `system` `turn_duration` entry. */
  durationMs?: number;
}

export interface Subagent {
  agentId?: string;
  /** Source file relative to the source root, or undefined for inline sidechains. */
  file?: string;
  prompt: string;
  messages: Message[];
  turns: Turn[];
  stats: { durationMs?: number; totalTokens?: number; toolUseCount: number };
  /** Where it came from (always set by the model; optional only for hand-built test values): its own file, rebuilt from `agent_progress` entries, or inline sidechain entries. */
  source?: 'file' | 'progress' | 'sidechain';
  /** From the `agent-<id>.meta.json` sidecar or the call's input (`subagent_type`). */
  agentType?: string;
  description?: string;
  /** Spawned with `run_in_background`; its result arrives as a `<task-notification>`. */
  background?: boolean;
  /** Nesting depth (`spawnDepth` of the sidecar): 1 = spawned by the session. */
  depth?: number;
  /** Set for a workflow run's agents (`subagents/workflows/<runId>/`). */
  workflowRunId?: string;
  /** The agent's file was empty (0 bytes or no entries): Claude Code kept no transcript of it. */
  noTranscript?: boolean;
  /** What the run's `journal.jsonl` says the agent returned, when its transcript does not show it. */
  journalResult?: string;
  /** A teammate's colour (`color` of its sidecar). */
  color?: string;
  /** How the subagent was linked to its call (or, for a fork, to the line that says it was forked). */
  linkedBy?: 'sidecar' | 'tool-use-result' | 'result-text' | 'prompt' | 'progress' | 'fork-line' | 'fork-context';
  /**
   * What kind of agent, when not a plain subagent: a fork (`/fork`, started by no
   * call, it shares the session's context) or an agent-team teammate (spawned by
   * an `Agent` call with `team_name`/`name`, talks through `SendMessage`).
   */
  role?: 'fork' | 'teammate';
  /** A fork's or teammate's name (`name` of the sidecar or of the spawning call). */
  name?: string;
  /** A teammate's team (`team_name` of the spawning call). */
  team?: string;
  /** A teammate's spawn summary (`summary` of the `<teammate-message>` it was spawned with). */
  summary?: string;
  /** The `tool_use` id of the call that spawned it. */
  spawnCallId?: string;
  /** For a fork: uuid of the message where it was forked. */
  forkedAt?: string;
  /** uuid of the `<task-notification>` message that brought its result back to the session. */
  resultAt?: string;
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
  /** All cache writes (5m + 1h). */
  cacheCreationTokens: number;
  cacheReadTokens: number;
  /** The part of `cacheCreationTokens` written with a 1h lifetime (priced higher). */
  cacheCreation1hTokens?: number;
  /** The part of `outputTokens` spent thinking. */
  thinkingTokens?: number;
  /** Messages answered in `fast` mode. */
  fastMessages?: number;
  /** The gateway the model was reached through (`message.provider`); usage is kept apart per provider. */
  provider?: string;
  /**
   * The cost in USD the records state (`usage.cost`, written for models
   * reached through a gateway), summed. Set only on a row whose every message
   * stated one: messages without a stated cost are counted in a row of their own.
   */
  statedCost?: number;
  /** Messages billed to the user's own key at the gateway (`usage.is_byok`). */
  byokMessages?: number;
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
  /** From `pr-link` lines: last line wins per PR, in the order first seen. */
  pullRequests: Array<{ number: number; url: string; repository?: string }>;
  /** From the last `worktree-state` line: the worktree's path, branch and name, and the folder the session entered it from. */
  worktree?: { path?: string; branch?: string; name?: string; enteredFrom?: string };
  /** From the last `agent-name` line. */
  agentName?: string;
  /** From `tag` lines, in order first seen. */
  tags: string[];
  /** `sessionKind: "bg"`: a background session (started with `--bg` or by another session), not one a person sat at. */
  background?: boolean;
  /** From the last `cost-state` line: the cost and lines changed as Claude Code counted them (preferred to an estimate). */
  recordedCost?: { totalCostUSD: number; linesAdded?: number; linesRemoved?: number; models?: string[] };
  /** Where the working directory changed (`cwd` of later entries), in order: how many times. */
  cwdChanges?: number;
  /** Set when the session was run from the Agent SDK (`entrypoint: "sdk-*"`, `promptSource: "sdk"` or `origin.kind: "sdk"`). */
  sdk?: { entrypoint?: string };
}

export interface Session {
  sessionId: string;
  /** Session file relative to the source root. */
  file: string;
  /** Encoded project folder name as on disk. */
  projectFolder: string;
  title: string;
  titleSource: 'custom-title' | 'ai-title' | 'summary' | 'first-prompt' | 'first-command' | 'first-reply' | 'fallback';
  /** The active transcript in reading order. */
  messages: Message[];
  turns: Turn[];
  abandoned: AbandonedBranch[];
  facts: SessionFacts;
  /** Tool calls that never got a result, and results without a call. */
  unpairedToolUses: string[];
  orphanToolResults: string[];
  entryCounts: Record<string, number>;
  /**
   * Known records read but deliberately not shown, by kind (e.g.
   * `hook results`, `mode changes`, `reminders`): counted for the build
   * summary, never warned about.
   */
  hiddenCounts: Record<string, number>;
  /**
   * Lines of an entry type the model does not know with neither a `message`
   * nor a `uuid`: inert metadata (Claude Code adds such kinds every month),
   * counted by their type as written for the build summary. They are not
   * problems: an unknown type that could be conversation (it has a message,
   * or is a node of the conversation's tree) is a diagnostic.
   */
  unknownMetadata: Record<string, number>;
  diagnostics: Diagnostic[];
}
