import type { Diagnostic } from '../diagnostics.js';
import type { JsonlRecord } from '../jsonl/read-jsonl.js';
import { classifyUser, isHumanPrompt, isPromptMessage, messageOf, textOf, toEntry } from './entries.js';
import { buildMessages } from './messages.js';
import { resolveActiveBranch } from './tree.js';
import type {
  AbandonedBranch,
  AssistantMessage,
  Entry,
  Message,
  ModelUsage,
  Session,
  SessionFacts,
  Subagent,
  ToolCall,
  Turn,
} from './types.js';

/** An agent transcript file read from disk. */
export interface AgentFileInput {
  /** Path relative to the source root. */
  file: string;
  /** Agent id from the file name (`agent-<id>.jsonl`). */
  agentId: string;
  records: JsonlRecord[];
}

export interface SessionInput {
  sessionId: string;
  /** Session file relative to the source root. */
  file: string;
  projectFolder: string;
  records: JsonlRecord[];
  /** Agent files that belong to this session (already filtered by owner). */
  agents: AgentFileInput[];
  /** Diagnostics from reading, carried into the session. */
  readDiagnostics?: Diagnostic[];
}

export type BuildResult =
  | { ok: true; session: Session }
  | { ok: false; reason: 'empty' | 'metadata-only'; diagnostics: Diagnostic[] };

const TASK_TOOLS = new Set(['Task', 'Agent']);
const WARMUP = 'Warmup';

/**
 * Builds the reader-level model of one session from its parsed lines and its
 * agent files: active branch, merged messages, paired tools, turns, attached
 * subagents, title and facts. Never throws on bad input; every problem becomes
 * a diagnostic on the session.
 */
export function buildSession(input: SessionInput): BuildResult {
  const diagnostics: Diagnostic[] = [...(input.readDiagnostics ?? [])];
  const entries = input.records.map(toEntry);
  const entryCounts: Record<string, number> = {};
  for (const e of entries) entryCounts[e.rawType || '(none)'] = (entryCounts[e.rawType || '(none)'] ?? 0) + 1;

  if (entries.length === 0) {
    diagnostics.push({ file: input.file, line: 0, code: 'empty-file', reason: 'file holds no entries; no page is made' });
    return { ok: false, reason: 'empty', diagnostics };
  }
  for (const e of entries) {
    if (e.type === 'unknown') {
      diagnostics.push({ file: input.file, line: e.line, code: 'unknown-type', reason: `unknown entry type ${JSON.stringify(e.rawType)}; kept in the tree, not rendered` });
    }
  }
  const main = entries.filter((e) => !e.isSidechain);
  if (!main.some((e) => e.type === 'user' || e.type === 'assistant')) {
    diagnostics.push({ file: input.file, line: 0, code: 'metadata-only', reason: 'file holds only metadata (no user or assistant entry); no page is made' });
    return { ok: false, reason: 'metadata-only', diagnostics };
  }

  const branch = resolveActiveBranch(main, input.file);
  diagnostics.push(...branch.diagnostics);
  const built = buildMessages(branch.active, input.file);
  diagnostics.push(...built.diagnostics);
  const abandoned: AbandonedBranch[] = branch.abandoned
    .map((b) => {
      const m = buildMessages(b.entries, input.file);
      for (const [id, call] of m.toolCalls) built.toolCalls.set(id, call);
      return { forkParentUuid: b.forkParentUuid, firstUuid: b.firstUuid, messages: m.messages };
    })
    .sort((a, b) => (a.messages[0]?.line ?? 0) - (b.messages[0]?.line ?? 0));
  for (const id of built.unpairedToolUses) {
    const call = built.toolCalls.get(id);
    const line = entries.find((e) => e.uuid === call?.entryUuid)?.line ?? 0;
    diagnostics.push({ file: input.file, line, code: 'tool-use-without-result', reason: `tool call ${id} (${call?.name}) has no result; shown without output` });
  }

  // Subagents: agent files, then inline sidechains of older versions.
  const subagents: Subagent[] = [];
  for (const agent of input.agents) {
    const sub = buildSubagent(agent.records.map(toEntry), agent.file, agent.agentId, diagnostics);
    if (sub) subagents.push(sub);
  }
  const sidechains = entries.filter((e) => e.isSidechain);
  if (sidechains.length) {
    for (const group of splitSidechains(sidechains)) {
      const sub = buildSubagent(group, input.file, undefined, diagnostics);
      if (sub) subagents.push(sub);
    }
  }
  const allCalls = [...built.toolCalls.values()];
  for (const sub of subagents) for (const m of sub.messages) if (m.kind === 'assistant') allCalls.push(...m.toolCalls);
  attachSubagents(allCalls, subagents, input.file, diagnostics);

  const turns = toTurns(built.messages);
  const title = chooseTitle(entries, turns, input.sessionId);
  const facts = computeFacts(entries, built.messages, turns, subagents, input.projectFolder);
  const session: Session = {
    sessionId: input.sessionId,
    file: input.file,
    projectFolder: input.projectFolder,
    title: title.title,
    titleSource: title.source,
    messages: built.messages,
    turns,
    abandoned,
    facts,
    unpairedToolUses: built.unpairedToolUses,
    orphanToolResults: built.orphanToolResults,
    entryCounts,
    diagnostics,
  };
  return { ok: true, session };
}

/** Groups human prompts with the work that answers them; prompts are numbered from 1. */
export function toTurns(messages: Message[]): Turn[] {
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
  return turns;
}

function buildSubagent(entries: Entry[], file: string, agentId: string | undefined, diagnostics: Diagnostic[]): Subagent | undefined {
  if (!entries.length) return undefined;
  const branch = resolveActiveBranch(entries.map((e) => ({ ...e, isSidechain: false })), file);
  diagnostics.push(...branch.diagnostics);
  const built = buildMessages(branch.active, file);
  diagnostics.push(...built.diagnostics);
  const first = branch.active.find((e) => e.type === 'user');
  const prompt = first ? textOf(first) : '';
  // Warmup agents are Claude Code priming its cache, not work anyone asked for.
  if (prompt.trim() === WARMUP) return undefined;
  const fromEntries = entries.find((e) => typeof e.raw.agentId === 'string')?.raw.agentId as string | undefined;
  let toolUseCount = 0;
  for (const m of built.messages) if (m.kind === 'assistant') toolUseCount += m.toolCalls.length;
  const times = entries.map((e) => e.timestamp).filter((t): t is string => !!t).sort();
  return {
    agentId: agentId ?? fromEntries,
    file: agentId ? file : undefined,
    prompt,
    messages: built.messages,
    turns: toTurns(built.messages),
    stats: {
      durationMs: times.length > 1 ? Date.parse(times[times.length - 1]) - Date.parse(times[0]) : undefined,
      toolUseCount,
    },
  };
}

/** Inline sidechains (1.0.x): one subagent per root of the sidechain forest. */
function splitSidechains(entries: Entry[]): Entry[][] {
  const rootOf = new Map<string, string>();
  const groups = new Map<string, Entry[]>();
  for (const e of entries) {
    const parentRoot = e.parentUuid ? rootOf.get(e.parentUuid) : undefined;
    const root = parentRoot ?? e.uuid ?? `line-${e.line}`;
    if (e.uuid) rootOf.set(e.uuid, root);
    const g = groups.get(root);
    if (g) g.push(e);
    else groups.set(root, [e]);
  }
  return [...groups.values()];
}

function resultAgentId(call: ToolCall): string | undefined {
  const r = call.result?.toolUseResult;
  if (r && typeof r === 'object' && typeof (r as { agentId?: unknown }).agentId === 'string') return (r as { agentId: string }).agentId;
  return undefined;
}

/**
 * Attaches each subagent to the Task/Agent call that spawned it: by the agent id
 * in the call's structured result, else by an identical prompt. A subagent that
 * matches no call is reported, never silently dropped.
 */
function attachSubagents(calls: ToolCall[], subagents: Subagent[], file: string, diagnostics: Diagnostic[]): void {
  const taskCalls = calls.filter((c) => TASK_TOOLS.has(c.name));
  const unclaimed = new Set(subagents);
  for (const call of taskCalls) {
    const id = resultAgentId(call);
    const sub = id ? [...unclaimed].find((s) => s.agentId === id) : undefined;
    if (sub) {
      claim(call, sub);
    }
  }
  for (const call of taskCalls) {
    if (call.subagent) continue;
    const prompt = typeof call.input.prompt === 'string' ? call.input.prompt.trim() : undefined;
    if (!prompt) continue;
    const sub = [...unclaimed].find((s) => s.prompt.trim() === prompt);
    if (sub) claim(call, sub);
  }
  for (const sub of unclaimed) {
    diagnostics.push({ file: sub.file ?? file, line: 0, code: 'unmatched-subagent', reason: `subagent ${sub.agentId ?? '(inline)'} matches no Task call of this session; it is not shown` });
  }

  function claim(call: ToolCall, sub: Subagent): void {
    unclaimed.delete(sub);
    call.subagent = sub;
    const r = call.result?.toolUseResult as { totalDurationMs?: unknown; totalTokens?: unknown; totalToolUseCount?: unknown } | undefined;
    if (r && typeof r === 'object') {
      if (typeof r.totalDurationMs === 'number') sub.stats.durationMs = r.totalDurationMs;
      if (typeof r.totalTokens === 'number') sub.stats.totalTokens = r.totalTokens;
      if (typeof r.totalToolUseCount === 'number') sub.stats.toolUseCount = r.totalToolUseCount;
    }
  }
}

const TITLE_MAX = 80;

/**
 * Picks the title: a custom or AI title, else a summary whose `leafUuid` lies in
 * this file (summaries pointing into other sessions are a known contamination),
 * else the first human prompt, shortened.
 */
export function chooseTitle(entries: Entry[], turns: Turn[], sessionId: string): { title: string; source: Session['titleSource'] } {
  const custom = [...entries].reverse().find((e) => e.type === 'custom-title' && typeof e.raw.customTitle === 'string');
  if (custom) return { title: shortenTitle(custom.raw.customTitle as string), source: 'custom-title' };
  const ai = [...entries].reverse().find((e) => e.type === 'ai-title' && typeof (e.raw.aiTitle ?? e.raw.title) === 'string');
  if (ai) return { title: shortenTitle((ai.raw.aiTitle ?? ai.raw.title) as string), source: 'ai-title' };
  const indexOf = new Map<string, number>();
  for (const e of entries) if (e.uuid) indexOf.set(e.uuid, e.index);
  let best: { summary: string; at: number } | undefined;
  for (const e of entries) {
    if (e.type !== 'summary' || typeof e.raw.summary !== 'string' || typeof e.raw.leafUuid !== 'string') continue;
    const at = indexOf.get(e.raw.leafUuid);
    if (at === undefined) continue;
    if (!best || at >= best.at) best = { summary: e.raw.summary, at };
  }
  if (best && best.summary.trim()) return { title: shortenTitle(best.summary), source: 'summary' };
  const prompt = turns.find((t) => t.prompt)?.prompt;
  const text = prompt ? promptTitleText(prompt.text) : '';
  if (text) return { title: shortenTitle(text), source: 'first-prompt' };
  // Sessions that only ran slash commands (`/init`, `/model`) are named after the first one.
  for (const t of turns) {
    for (const m of t.messages) {
      if (m.kind === 'user' && m.command?.name) return { title: shortenTitle(`${m.command.name} ${m.command.args}`), source: 'first-prompt' };
    }
  }
  return { title: `Session ${sessionId.slice(0, 8)}`, source: 'fallback' };
}

/** A prompt as one line of plain words: generated tag blocks (`<ide_opened_file>…`) removed, whitespace folded. */
export function promptTitleText(text: string): string {
  return text
    .replace(/<([a-z][a-z0-9_-]*)>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/\s+/g, ' ')
    .trim();
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
export function decodeProjectFolder(folder: string): string {
  if (folder === '.' || !folder) return '';
  return folder.startsWith('-') ? folder.replace(/-/g, '/') : folder;
}

/** The last parts of a project path, for display. */
export function projectNameFromPath(path: string, parts = 2): string {
  const segs = path.split(/[\\/]+/).filter(Boolean);
  return segs.slice(-parts).join('/') || path || 'sessions';
}

function computeFacts(entries: Entry[], messages: Message[], turns: Turn[], subagents: Subagent[], projectFolder: string): SessionFacts {
  const main = entries.filter((e) => !e.isSidechain);
  const cwd = main.find((e) => typeof e.raw.cwd === 'string' && e.raw.cwd)?.raw.cwd as string | undefined;
  const projectPath = cwd ?? decodeProjectFolder(projectFolder);
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
    for (const m of sub.messages) if (m.kind === 'assistant') addUsage(usage, m.model, m.usage, m.messageId ?? m.uuid);
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
    usage: [...usage.values()].map(({ seen: _seen, ...u }) => u).sort((a, b) => a.model.localeCompare(b.model)),
  };
}

type UsageAcc = ModelUsage & { seen: Set<string> };

/**
 * Token usage per model over every assistant message of the file (all branches:
 * abandoned work was paid for too), counting each streamed `message.id` once
 * with the usage of its final entry.
 */
function sumUsage(entries: Entry[]): Map<string, UsageAcc> {
  const finalById = new Map<string, Entry>();
  for (const e of entries) {
    if (e.type !== 'assistant' || e.isSidechain) continue;
    const id = messageOf(e)?.id;
    finalById.set(typeof id === 'string' ? id : `uuid:${e.uuid ?? e.line}`, e);
  }
  const acc = new Map<string, UsageAcc>();
  for (const [id, e] of finalById) {
    const m = messageOf(e);
    addUsage(acc, typeof m?.model === 'string' ? m.model : undefined, m?.usage as AssistantMessage['usage'], id);
  }
  return acc;
}

function addUsage(acc: Map<string, UsageAcc>, model: string | undefined, usage: AssistantMessage['usage'], id: string): void {
  if (!model || model === '<synthetic>' || !usage) return;
  let u = acc.get(model);
  if (!u) {
    u = { model, messages: 0, inputTokens: 0, outputTokens: 0, cacheCreationTokens: 0, cacheReadTokens: 0, seen: new Set() };
    acc.set(model, u);
  }
  if (u.seen.has(id)) return;
  u.seen.add(id);
  u.messages++;
  u.inputTokens += num(usage.input_tokens);
  u.outputTokens += num(usage.output_tokens);
  u.cacheCreationTokens += num(usage.cache_creation_input_tokens);
  u.cacheReadTokens += num(usage.cache_read_input_tokens);
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
