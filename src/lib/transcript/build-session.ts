import type { Diagnostic } from '../diagnostics.js';
import type { JsonlRecord } from '../jsonl/read-jsonl.js';
import { splitHomeFolder } from '../redact/usernames.js';
import { agentsIn, classifyUser, isHumanPrompt, isPromptMessage, messageOf, spawnedBy, textOf, toEntry } from './entries.js';
import { readMetadata, type SessionMetadata } from './metadata.js';
import { isHtmlElement, stripMarkdown } from '../plain-text.js';
import { buildMessages, countHidden, type BuildMessagesOptions } from './messages.js';
import type { PersistedOutputs } from './persisted-output.js';
import {
  assignDepths,
  attachCompactionAgents,
  attachSubagents,
  attachForks,
  attachWorkflowRuns,
  buildSubagent,
  collectProgressAgents,
  forkParentUuid,
  isCompactionAgent,
  isForkAgent,
  linkNotifications,
  splitSidechains,
  type AgentFileInput,
  type PendingFork,
  type PendingSubagent,
  type SubagentContext,
} from './subagents.js';
import { linkPeerReplies } from './peers.js';
import { attachTeam } from './teams.js';
import { completeRun, emptyWorkflowAgent, readJournal } from './workflows.js';
import { resolveActiveBranch } from './tree.js';
import type {
  AbandonedBranch,
  AssistantMessage,
  CompactionMessage,
  Entry,
  MarkerMessage,
  Message,
  ModelUsage,
  Session,
  SessionFacts,
  Subagent,
  ToolCall,
  Turn,
  Usage,
} from './types.js';

export type { AgentFileInput, AgentMeta } from './subagents.js';

export interface SessionInput {
  sessionId: string;
  /** Session file relative to the source root. */
  file: string;
  projectFolder: string;
  /** The login name of the folder's home (`SessionSource.homeName`), for a session without a cwd. */
  homeName?: string;
  records: JsonlRecord[];
  /** Agent files that belong to this session (already filtered by owner). */
  agents: AgentFileInput[];
  /** Diagnostics from reading, carried into the session. */
  readDiagnostics?: Diagnostic[];
  /** Whole outputs of `<persisted-output>` results (`<session>/tool-results/`), redacted, by file name. */
  persistedOutputs?: PersistedOutputs;
  /** The `journal.jsonl` lines of each workflow run, by run id (redacted). */
  workflowJournals?: Map<string, JsonlRecord[]>;
  /** The session's team config, when the source tree holds one (redacted). */
  teamConfig?: Record<string, unknown>;
}

export type BuildResult =
  | { ok: true; session: Session }
  | { ok: false; reason: 'empty' | 'metadata-only'; diagnostics: Diagnostic[] };

const WARMUP = 'Warmup';

/**
 * Builds the reader-level model of one session from its parsed lines and its
 * agent files: active branch, merged messages, paired tools, turns, attached
 * subagents, title and facts. Never throws on bad input; every problem becomes
 * a diagnostic on the session, and every known record not shown is counted in
 * `hiddenCounts`.
 */
export function buildSession(input: SessionInput): BuildResult {
  const diagnostics: Diagnostic[] = [...(input.readDiagnostics ?? [])];
  const entries = input.records.map(toEntry);
  const entryCounts: Record<string, number> = {};
  for (const e of entries) entryCounts[e.rawType || '(none)'] = (entryCounts[e.rawType || '(none)'] ?? 0) + 1;

  if (entries.length === 0) {
    // A file already reported as not JSONL at all needs no second word.
    if (!diagnostics.some((d) => d.code === 'not-jsonl' && d.file === input.file)) {
      diagnostics.push({ file: input.file, line: 0, code: 'empty-file', reason: 'file holds no entries; no page is made' });
    }
    return { ok: false, reason: 'empty', diagnostics };
  }
  // Keyed by whatever a file writes as its type: no prototype, so `constructor` or `__proto__` are plain keys.
  const unknownMetadata: Record<string, number> = Object.create(null);
  reportUnknownTypes(entries, input.file, diagnostics, unknownMetadata);
  const main = entries.filter((e) => !e.isSidechain);
  if (!main.some((e) => e.type === 'user' || e.type === 'assistant')) {
    diagnostics.push({ file: input.file, line: 0, code: 'metadata-only', reason: 'file holds only metadata (no user or assistant entry); no page is made' });
    return { ok: false, reason: 'metadata-only', diagnostics };
  }

  const options: BuildMessagesOptions = { persisted: input.persistedOutputs };
  const hidden: Record<string, number> = {};
  const branch = resolveActiveBranch(main, input.file);
  diagnostics.push(...branch.diagnostics);
  const built = buildMessages(branch.active, input.file, options);
  diagnostics.push(...built.diagnostics);
  mergeHidden(hidden, built.hiddenCounts);
  const metadata = readMetadata(entries, hidden);
  const chain = chainMarkers(branch, main);
  const messages = insertMarkers(built.messages, [...metadata.markers, ...chain.markers]);
  const abandoned: AbandonedBranch[] = branch.abandoned
    .map((b) => {
      const m = buildMessages(b.entries, input.file, options);
      for (const [id, call] of m.toolCalls) built.toolCalls.set(id, call);
      return { forkParentUuid: b.forkParentUuid, firstUuid: b.firstUuid, messages: m.messages };
    })
    .sort((a, b) => (a.messages[0]?.line ?? 0) - (b.messages[0]?.line ?? 0));
  for (const id of built.unpairedToolUses) {
    const call = built.toolCalls.get(id);
    const line = entries.find((e) => e.uuid === call?.entryUuid)?.line ?? 0;
    diagnostics.push({ file: input.file, line, code: 'tool-use-without-result', reason: `tool call ${id} (${call?.name}) has no result; shown without output` });
  }

  const ctx: SubagentContext = {
    file: input.file,
    sessionUuids: new Set(entries.map((e) => e.uuid).filter((u): u is string => !!u)),
    diagnostics,
    hidden,
    options,
    toTurns,
  };
  const subagents = linkAgents(input, entries, messages, [...built.toolCalls.values()], ctx, unknownMetadata);
  linkPeerReplies(messages);
  if (input.teamConfig) attachTeam(built.toolCalls, input.teamConfig);

  const turns = toTurns(messages, built.turnDurations);
  const title = chooseTitle(entries, turns, input.sessionId, metadata);
  const facts = computeFacts(entries, messages, turns, subagents, input.projectFolder, metadata, input.homeName);
  if (chain.cwdChanges) facts.cwdChanges = chain.cwdChanges;
  const session: Session = {
    sessionId: input.sessionId,
    file: input.file,
    projectFolder: input.projectFolder,
    title: title.title,
    titleSource: title.source,
    messages,
    turns,
    abandoned,
    facts,
    unpairedToolUses: built.unpairedToolUses,
    orphanToolResults: built.orphanToolResults,
    entryCounts,
    hiddenCounts: hidden,
    unknownMetadata,
    diagnostics,
  };
  return { ok: true, session };
}

/** Distinct unknown types counted per session; a file that invents a type per line shares one count beyond that. */
const MAX_UNKNOWN_KINDS = 50;
/** Where the types beyond MAX_UNKNOWN_KINDS are counted. */
export const OTHER_UNKNOWN_KINDS = '(other types)';

/**
 * An entry type the model does not know is kept in the parent chain (it may
 * link others) but not shown. Claude Code adds new kinds of metadata lines
 * every month (`file-history-delta`, `cost-state`, `atis-latch`…): a line with
 * neither a `message` nor a `uuid` holds no conversation and is no node of
 * it, so it is counted by type in `unknownMetadata`, not reported. One with a
 * message, or a node of the conversation's tree (a new shape of turn, such as
 * a flat `tool_use` line), may be conversation the reader does not see: that
 * is a problem, reported on its line (the session page lists every one).
 */
function reportUnknownTypes(entries: Entry[], file: string, diagnostics: Diagnostic[], unknownMetadata: Record<string, number>): void {
  for (const e of entries) {
    if (e.type !== 'unknown') continue;
    const why = e.raw.message !== undefined && e.raw.message !== null ? 'it has a message' : e.uuid ? 'it is a node of the conversation' : undefined;
    if (why) {
      diagnostics.push({ file, line: e.line, code: 'unknown-type', reason: `unknown entry type ${JSON.stringify(e.rawType)} (${why}); kept in the tree, not rendered`, entryType: e.rawType });
      continue;
    }
    const kind = e.rawType || '(no type)';
    const counted = Object.hasOwn(unknownMetadata, kind) || Object.keys(unknownMetadata).length < MAX_UNKNOWN_KINDS ? kind : OTHER_UNKNOWN_KINDS;
    countHidden(unknownMetadata, counted);
  }
}

function mergeHidden(into: Record<string, number>, from: Record<string, number>): void {
  for (const [k, n] of Object.entries(from)) countHidden(into, k, n);
}

/** Mode markers have no place in the parent chain (no uuid): they go where they were written, by line (a marker about a line goes before it). */
function insertMarkers(messages: Message[], markers: Message[]): Message[] {
  if (!markers.length) return messages;
  return [...messages, ...markers].sort((a, b) => a.line - b.line || Number(b.kind === 'marker') - Number(a.kind === 'marker'));
}

/**
 * Markers a reader needs to follow the chain: where a message filed under a
 * stale parent jumps back (shown where it was written), where the chain is
 * broken (a parent not in the file), and where the working directory changed.
 */
function chainMarkers(branch: ReturnType<typeof resolveActiveBranch>, main: Entry[]): { markers: MarkerMessage[]; cwdChanges: number } {
  const markers: MarkerMessage[] = [];
  for (const j of branch.jumps) markers.push({ kind: 'marker', uuid: `jump-${j.uuid}`, markerType: 'chain-jump', value: String(j.parentLine), line: j.line });
  for (const b of branch.breaks) markers.push({ kind: 'marker', uuid: `break-${b.uuid}`, markerType: 'chain-break', value: b.first ? 'first' : 'root', line: b.line });
  let cwd: string | undefined;
  let cwdChanges = 0;
  for (const e of branch.active.length ? main : []) {
    const next = typeof e.raw.cwd === 'string' && e.raw.cwd ? e.raw.cwd : undefined;
    if (!next || (e.type !== 'user' && e.type !== 'assistant' && e.type !== 'system')) continue;
    if (cwd !== undefined && next !== cwd) {
      cwdChanges++;
      markers.push({ kind: 'marker', uuid: `cwd-${e.uuid ?? e.line}`, timestamp: e.timestamp, markerType: 'cwd', value: next, line: e.line });
    }
    cwd = next;
  }
  return { markers, cwdChanges };
}

/**
 * Builds every subagent of the session and links it where it belongs: agent
 * files (with their sidecars), inline sidechains of older versions and
 * subagents rebuilt from `agent_progress` entries to their Task/Agent calls
 * (nested agents to calls inside their parent agents; teammates by their
 * spawn prompt), workflow runs to their Workflow call, forks to the line that
 * says they were forked, compaction agents to their compaction, and each
 * background agent or fork to the notification that brought its result.
 * Returns every subagent shown, for usage.
 */
function linkAgents(input: SessionInput, entries: Entry[], messages: Message[], mainCalls: ToolCall[], ctx: SubagentContext, unknownMetadata: Record<string, number>): Subagent[] {
  const pending: PendingSubagent[] = [];
  const forks: PendingFork[] = [];
  const runs = new Map<string, Subagent[]>();
  const compactionAgents: Subagent[] = [];
  const lastTimes = new Map<Subagent, string | undefined>();
  for (const agent of input.agents) {
    const agentEntries = agent.records.map(toEntry);
    reportUnknownTypes(agentEntries, agent.file, ctx.diagnostics, unknownMetadata);
    // A workflow agent whose file is empty is shown as such (no transcript kept); any other empty agent file is counted.
    const sub = buildSubagent(agentEntries, ctx, agent.file, agent.agentId, 'file') ?? (agent.workflowRunId && !agentEntries.length ? emptyWorkflowAgent(agent.agentId, agent.workflowRunId, agent.file) : undefined);
    if (!sub) {
      if (!agentEntries.length) countHidden(ctx.hidden, 'empty agent files');
      continue;
    }
    if (agent.workflowRunId) {
      sub.workflowRunId = agent.workflowRunId;
      sub.agentType = typeof agent.meta?.agentType === 'string' ? agent.meta.agentType : sub.agentType;
      const list = runs.get(agent.workflowRunId);
      if (list) list.push(sub);
      else runs.set(agent.workflowRunId, [sub]);
    } else if (isCompactionAgent(agent.agentId)) {
      compactionAgents.push(sub);
      lastTimes.set(sub, agentEntries.map((e) => e.timestamp).filter(Boolean).sort().pop());
    } else if (isForkAgent(agent, sub)) {
      forks.push({ sub, meta: agent.meta, parentLastUuid: forkParentUuid(agent) });
    } else {
      pending.push({ sub, meta: agent.meta });
    }
  }
  const sidechains = entries.filter((e) => e.isSidechain);
  for (const group of sidechains.length ? splitSidechains(sidechains) : []) {
    const sub = buildSubagent(group, ctx, input.file, undefined, 'sidechain');
    if (sub) pending.push({ sub });
  }
  const progress = collectProgressAgents(entries);
  const rebuilt = new Map<(typeof progress)[number], Subagent>();
  for (const group of progress) {
    const sub = buildSubagent(group.entries, ctx, input.file, group.agentId, 'progress');
    if (sub) rebuilt.set(group, sub);
  }
  for (const runId of input.workflowJournals?.keys() ?? []) if (!runs.has(runId)) runs.set(runId, []);
  for (const [runId, agents] of runs) {
    const journal = input.workflowJournals?.get(runId);
    runs.set(runId, completeRun(runId, agents, journal ? readJournal(journal) : undefined));
  }
  const shown = [...pending.map((p) => p.sub), ...forks.map((f) => f.sub), ...rebuilt.values(), ...[...runs.values()].flat()];
  const allCalls = [...mainCalls];
  for (const sub of shown) for (const m of sub.messages) if (m.kind === 'assistant') allCalls.push(...m.toolCalls);
  attachSubagents(allCalls, pending, progress, rebuilt, ctx);
  attachWorkflowRuns(allCalls, runs, ctx);
  // Forks start from the session itself (`/fork`), never from a call.
  const lines = new Map(entries.filter((e) => e.uuid).map((e) => [e.uuid!, e.line]));
  attachForks(messages, forks, (uuid) => lines.get(uuid), ctx);
  const compactions = messages.filter((m): m is CompactionMessage => m.kind === 'compaction');
  attachCompactionAgents(compactions, compactionAgents, lastTimes, ctx);
  assignDepths(messages);
  const linked = new Set<Subagent>();
  for (const call of allCalls) for (const sub of spawnedBy(call)) linked.add(sub);
  for (const m of messages) for (const sub of agentsIn(m, false)) linked.add(sub);
  // A result that arrived later as a notification, in the session or in the agent that started it.
  for (const transcript of [messages, ...[...linked].map((sub) => sub.messages)]) linkNotifications(transcript, [...linked]);
  return [...linked, ...compactionAgents];
}

/**
 * Groups human prompts with the work that answers them; prompts are numbered
 * from 1. A `turn_duration` (by line) goes on the turn it ends.
 */
export function toTurns(messages: Message[], durations: Array<{ line: number; durationMs: number }> = []): Turn[] {
  const turns: Turn[] = [];
  let current: Turn | undefined;
  let n = 0;
  for (const m of messages) {
    if (isPromptMessage(m)) {
      current = { index: ++n, prompt: m, messages: [m] };
      turns.push(current);
      continue;
    }
    if (!current) {
      current = { index: 0, messages: [] };
      turns.push(current);
    }
    current.messages.push(m);
  }
  for (const d of durations) {
    const turn = [...turns].reverse().find((t) => (t.messages[0]?.line ?? 0) <= d.line);
    if (turn) turn.durationMs = d.durationMs;
  }
  return turns;
}

const TITLE_MAX = 80;

/**
 * Picks the title: the last `custom-title`, else the last `ai-title`, else a
 * summary whose `leafUuid` lies in this file (summaries pointing into other
 * sessions are a known contamination), else what started the session: the
 * first human prompt, or the first slash command that drove it
 * (`/orchestrator create TODO app`) when it came first. An excerpt with
 * neither is named after its first reply or tool call, never its file name.
 */
export function chooseTitle(entries: Entry[], turns: Turn[], sessionId: string, metadata?: Pick<SessionMetadata, 'customTitle' | 'aiTitle'>): { title: string; source: Session['titleSource'] } {
  const meta = metadata ?? readMetadata(entries, {});
  // Named titles may carry markdown too (an ai-title with `code`); each reads as plain words.
  const custom = meta.customTitle && plainLine(meta.customTitle);
  if (custom) return { title: shortenTitle(custom), source: 'custom-title' };
  const ai = meta.aiTitle && plainLine(meta.aiTitle);
  if (ai) return { title: shortenTitle(ai), source: 'ai-title' };
  const summary = plainLine(summaryTitle(entries) ?? '');
  if (summary) return { title: shortenTitle(summary), source: 'summary' };
  const messages = turns.flatMap((t) => t.messages);
  for (const m of messages) {
    if (m.kind !== 'user') continue;
    if (m.userKind === 'prompt' || m.userKind === 'queued-prompt') {
      const text = promptTitleText(m.text);
      if (text) return { title: shortenTitle(text), source: 'first-prompt' };
    } else if (m.userKind === 'command' && m.command?.name && !UI_COMMANDS.has(m.command.name)) {
      return { title: shortenTitle(plainLine(`${m.command.name} ${m.command.args}`)), source: 'first-command' };
    }
  }
  // Sessions that only ran built-in commands (`/init`, `/model`) are named after the first one.
  const command = messages.find((m) => m.kind === 'user' && m.command?.name);
  if (command?.kind === 'user' && command.command) return { title: shortenTitle(plainLine(`${command.command.name} ${command.command.args}`)), source: 'first-command' };
  const reply = firstReplyTitle(messages);
  if (reply) return { title: shortenTitle(reply), source: 'first-reply' };
  return { title: `Session ${sessionId.slice(0, 8)}`, source: 'fallback' };
}

/** Built-in commands that set the session up rather than ask for work: a title only when nothing else is there. */
const UI_COMMANDS = new Set(['/init', '/model', '/clear', '/compact', '/config', '/resume', '/login', '/logout', '/cost', '/help', '/status', '/exit', '/context', '/permissions', '/memory', '/doctor', '/usage', '/theme', '/mcp', '/ide', '/vim']);

/** The newest summary whose leaf lies in this file. */
function summaryTitle(entries: Entry[]): string | undefined {
  const indexOf = new Map<string, number>();
  for (const e of entries) if (e.uuid) indexOf.set(e.uuid, e.index);
  let best: { summary: string; at: number } | undefined;
  for (const e of entries) {
    if (e.type !== 'summary' || typeof e.raw.summary !== 'string' || typeof e.raw.leafUuid !== 'string') continue;
    const at = indexOf.get(e.raw.leafUuid);
    if (at === undefined) continue;
    if (!best || at >= best.at) best = { summary: e.raw.summary, at };
  }
  return best?.summary.trim() ? best.summary : undefined;
}

/** For an excerpt without a prompt: the first assistant text, or the first tool call and what it worked on. */
function firstReplyTitle(messages: Message[]): string | undefined {
  for (const m of messages) {
    if (m.kind !== 'assistant' || m.assistantKind !== 'normal') continue;
    const text = m.blocks.find((b) => b.type === 'text' && typeof (b as { text?: unknown }).text === 'string' && (b as { text: string }).text.trim());
    if (text) return promptTitleText((text as { text: string }).text);
    const call = m.toolCalls[0];
    if (call) {
      const i = call.input;
      const file = [i.file_path, i.path].find((v): v is string => typeof v === 'string' && v.trim() !== '');
      const what = str(i.description) ?? (file ? file.split(/[\\/]/).pop() : undefined) ?? [i.pattern, i.command, i.url, i.query].map(str).find(Boolean);
      return what ? `${call.name} ${what}` : call.name;
    }
  }
  return undefined;
}

/**
 * A prompt as one line of plain words: generated tag blocks (`<ide_opened_file>…`,
 * with or without attributes) removed, a `<teammate-message>` unwrapped,
 * markdown and HTML syntax taken off the words (`**`, `` ` ``, `[text](url)`,
 * `# `, `- `, `> `, `<b>`), whitespace folded. Titles, table-of-contents
 * lines and the overview's prompt lines are made from it.
 */
export function promptTitleText(text: string): string {
  const unwrapped = text
    // A teammate's message is the prompt itself: keep its words, drop the wrapper.
    .replace(/<teammate-message\b[^>]*>([\s\S]*?)<\/teammate-message>/gi, ' $1 ')
    // HTML elements someone typed keep their words (below); any other tag block was generated.
    .replace(/<([a-z][a-z0-9_-]*)(?:\s[^>]*)?>[\s\S]*?<\/\1>/gi, (block, name: string) => (isHtmlElement(name) ? block : ' '));
  return plainLine(unwrapped);
}

/** Characters of a text read for its one line: a title or TOC line needs far fewer, and a pasted log could be megabytes. */
const PLAIN_LINE_SOURCE = 2000;

/** Text as one line of plain words: markdown and HTML syntax removed, whitespace folded. */
function plainLine(text: string): string {
  return stripMarkdown(text.slice(0, PLAIN_LINE_SOURCE), { html: true }).replace(/\s+/g, ' ').trim();
}

/** A title or prompt on one line, cut at a word near `max` characters with an ellipsis: the one shortener of the site. */
export function shortenTitle(text: string, max = TITLE_MAX): string {
  const t = text.replace(/\s+/g, ' ').trim();
  if (t.length <= max) return t;
  const cut = t.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** Decodes an encoded project folder (`-home-ada-work-api`) into a path; lossy, since `-` was `/`. */
export function decodeProjectFolder(folder: string, homeName?: string): string {
  if (folder === '.' || !folder) return '';
  if (!folder.startsWith('-')) return folder;
  // The home's name as a cwd gave it (`ada.lovelace`): the folder alone reads its dot as a slash.
  const home = homeName === undefined ? undefined : splitHomeFolder(folder, [homeName]);
  if (home) return `${home.prefix.replace(/-/g, '/')}${home.name}${home.rest.replace(/-/g, '/')}`;
  return folder.replace(/-/g, '/');
}

/** The last parts of a project path, for display. */
export function projectNameFromPath(path: string, parts = 2): string {
  const segs = path.split(/[\\/]+/).filter(Boolean);
  return segs.slice(-parts).join('/') || path || 'sessions';
}

function computeFacts(entries: Entry[], messages: Message[], turns: Turn[], subagents: Subagent[], projectFolder: string, metadata: SessionMetadata, homeName?: string): SessionFacts {
  const main = entries.filter((e) => !e.isSidechain);
  const cwd = main.find((e) => typeof e.raw.cwd === 'string' && e.raw.cwd)?.raw.cwd as string | undefined;
  const projectPath = cwd ?? decodeProjectFolder(projectFolder, homeName);
  const times = main
    .filter((e) => e.type === 'user' || e.type === 'assistant' || e.type === 'system')
    .map((e) => e.timestamp)
    .filter((t): t is string => !!t && !Number.isNaN(Date.parse(t)))
    .sort();
  const versions = [...new Set(main.map((e) => e.raw.version).filter((v): v is string => typeof v === 'string'))].sort(compareVersions);
  const gitBranches = [...new Set(main.map((e) => e.raw.gitBranch).filter((b): b is string => typeof b === 'string' && b !== ''))];

  const assistants = messages.filter((m): m is AssistantMessage => m.kind === 'assistant');
  const models = [...new Set(assistants.filter((m) => m.assistantKind === 'normal' && m.model).map((m) => m.model!))].sort();
  const toolCounts: Record<string, number> = {};
  let toolCallCount = 0;
  for (const m of assistants) {
    for (const c of m.toolCalls) {
      toolCallCount++;
      toolCounts[c.name] = (toolCounts[c.name] ?? 0) + 1;
    }
  }
  const usage = sumUsage(entries);
  for (const sub of subagents) {
    for (const m of sub.messages) if (m.kind === 'assistant') addUsage(usage, m, m.usage, m.messageId ? `${m.messageId}@${m.uuid}` : m.uuid);
  }
  return {
    projectPath,
    projectName: projectNameFromPath(projectPath),
    firstTimestamp: times[0],
    lastTimestamp: times[times.length - 1],
    durationMs: times.length > 1 ? Date.parse(times[times.length - 1]) - Date.parse(times[0]) : undefined,
    versions,
    models,
    gitBranches,
    promptCount: turns.filter((t) => t.prompt).length,
    messageCount: messages.filter((m) => m.kind === 'assistant' || isPromptMessage(m)).length,
    toolCallCount,
    toolCounts,
    usage: [...usage.values()].map(({ seen: _seen, ...u }) => u).sort((a, b) => a.model.localeCompare(b.model) || (a.provider ?? '').localeCompare(b.provider ?? '') || Number(a.statedCost !== undefined) - Number(b.statedCost !== undefined)),
    pullRequests: metadata.pullRequests,
    ...(metadata.worktree ? { worktree: metadata.worktree } : {}),
    ...(metadata.agentName ? { agentName: metadata.agentName } : {}),
    tags: metadata.tags,
    ...(metadata.recordedCost ? { recordedCost: metadata.recordedCost } : {}),
    ...(main.some((e) => e.raw.sessionKind === 'bg') ? { background: true } : {}),
    ...sdkFact(main),
  };
}

/** `entrypoint` values of a session run from the Agent SDK (`sdk-cli`, `sdk-ts`, `sdk-py`). */
const SDK_ENTRYPOINT = /^sdk(-|$)/;

/**
 * Whether the session was run from the Agent SDK, from what its entries say:
 * an `sdk-*` entrypoint, prompts with `promptSource: "sdk"`, or an
 * `origin.kind` of `sdk`. Such prompts are prompts like any other; this only
 * says where they came from.
 */
function sdkFact(main: Entry[]): Pick<SessionFacts, 'sdk'> {
  const entrypoint = main.map((e) => str(e.raw.entrypoint)).find((v) => v !== undefined && SDK_ENTRYPOINT.test(v));
  const fromSdk = (e: Entry) => e.raw.promptSource === 'sdk' || (e.raw.origin as { kind?: unknown } | undefined)?.kind === 'sdk';
  if (!entrypoint && !main.some(fromSdk)) return {};
  return { sdk: entrypoint ? { entrypoint } : {} };
}

type UsageAcc = ModelUsage & { seen: Set<string> };

/**
 * Token usage per model over every assistant message of the file (all branches:
 * abandoned work was paid for too), counting each streamed `message.id` once
 * with the usage of its final entry.
 */
function sumUsage(entries: Entry[]): Map<string, UsageAcc> {
  const finalById = new Map<string, Entry>();
  // A gateway that reuses one `message.id` for every turn: an entry parented on a user entry written after the id's last entry is a new turn.
  const userAt = new Map<string, number>();
  const turnOf = new Map<string, { n: number; last: number; blocks: Set<string> }>();
  for (const e of entries) {
    if (e.isSidechain) continue;
    if (e.type === 'user' && e.uuid) userAt.set(e.uuid, e.index);
    if (e.type !== 'assistant') continue;
    const id = messageOf(e)?.id;
    if (typeof id !== 'string') {
      finalById.set(`uuid:${e.uuid ?? e.line}`, e);
      continue;
    }
    const t = turnOf.get(id) ?? { n: 0, last: e.index, blocks: new Set<string>() };
    const parentAt = e.parentUuid ? userAt.get(e.parentUuid) : undefined;
    const keys = blockKeys(e);
    // A copy of blocks already seen (a resumed session writes earlier turns again) is the same message.
    if (parentAt !== undefined && parentAt > t.last && !keys.some((k) => t.blocks.has(k))) t.n++;
    for (const k of keys) t.blocks.add(k);
    t.last = e.index;
    turnOf.set(id, t);
    finalById.set(t.n ? `${id}#turn${t.n}` : id, e);
  }
  const acc = new Map<string, UsageAcc>();
  for (const [id, e] of finalById) {
    const m = messageOf(e);
    addUsage(acc, { model: typeof m?.model === 'string' ? m.model : undefined, provider: str(m?.provider) }, m?.usage as Usage | undefined, id);
  }
  return acc;
}

/** What identifies an entry's blocks: tool_use ids and texts. */
function blockKeys(e: Entry): string[] {
  const content = messageOf(e)?.content;
  if (!Array.isArray(content)) return typeof content === 'string' ? [`text:${content}`] : [];
  return content.flatMap((b) => {
    const o = b as { type?: unknown; id?: unknown; text?: unknown; thinking?: unknown };
    if (o?.type === 'tool_use' && typeof o.id === 'string') return [`tool:${o.id}`];
    if (o?.type === 'text' && typeof o.text === 'string' && o.text) return [`text:${o.text}`];
    if (o?.type === 'thinking' && typeof o.thinking === 'string' && o.thinking) return [`thinking:${o.thinking}`];
    return [];
  });
}

/** The cost a message's usage states (gateways write one), in USD; undefined when it states none. */
function statedCost(usage: Usage): number | undefined {
  return typeof usage.cost === 'number' && Number.isFinite(usage.cost) && usage.cost >= 0 ? usage.cost : undefined;
}

/**
 * Adds one message's usage to its model (and gateway). A request that fell
 * back to another model mid-way lists each model's part in `iterations`: then
 * each part counts for its own model, unless the record states the request's
 * cost (that figure belongs to the request as a whole). Messages with a stated
 * cost and messages without one go to separate rows, so that a row is either
 * wholly stated or wholly left to the price table. Thinking tokens are part of
 * the output tokens already.
 */
function addUsage(acc: Map<string, UsageAcc>, by: { model?: string; provider?: string }, usage: Usage | undefined, id: string): void {
  const { model, provider } = by;
  if (!model || model === '<synthetic>' || !usage) return;
  const cost = statedCost(usage);
  const parts = Array.isArray(usage.iterations) ? (usage.iterations as Array<Usage & { model?: unknown }>) : [];
  if (cost === undefined && parts.some((p) => p && typeof p.model === 'string' && p.model !== model)) {
    parts.forEach((p, i) => p && addUsage(acc, { model: typeof p.model === 'string' ? p.model : model, provider }, { ...p, iterations: undefined, speed: usage.speed }, `${id}#${i}`));
    return;
  }
  const key = JSON.stringify([model, provider ?? '', cost !== undefined]);
  let u = acc.get(key);
  if (!u) {
    u = { model, messages: 0, inputTokens: 0, outputTokens: 0, cacheCreationTokens: 0, cacheReadTokens: 0, cacheCreation1hTokens: 0, thinkingTokens: 0, fastMessages: 0, seen: new Set() };
    if (provider) u.provider = provider;
    if (cost !== undefined) u.statedCost = 0;
    acc.set(key, u);
  }
  if (u.seen.has(id)) return;
  u.seen.add(id);
  u.messages++;
  u.inputTokens += num(usage.input_tokens);
  u.outputTokens += num(usage.output_tokens);
  u.cacheCreationTokens += num(usage.cache_creation_input_tokens);
  u.cacheReadTokens += num(usage.cache_read_input_tokens);
  u.cacheCreation1hTokens = (u.cacheCreation1hTokens ?? 0) + num(usage.cache_creation?.ephemeral_1h_input_tokens);
  u.thinkingTokens = (u.thinkingTokens ?? 0) + num(usage.output_tokens_details?.thinking_tokens);
  if (usage.speed === 'fast') u.fastMessages = (u.fastMessages ?? 0) + 1;
  if (cost !== undefined) u.statedCost = (u.statedCost ?? 0) + cost;
  if (usage.is_byok === true) u.byokMessages = (u.byokMessages ?? 0) + 1;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() ? v : undefined;
}

function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map((x) => parseInt(x, 10) || 0);
  const pb = b.split('.').map((x) => parseInt(x, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d) return d;
  }
  return 0;
}

/** Whether a file's first user entry is a warmup prompt (such agent files are dropped). */
export function isWarmupTranscript(records: JsonlRecord[]): boolean {
  const first = records.map(toEntry).find((e) => e.type === 'user');
  return !!first && classifyUser(first) === 'prompt' && textOf(first).trim() === WARMUP;
}

export { isHumanPrompt };
