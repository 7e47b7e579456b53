import type { Diagnostic } from '../diagnostics.js';
import type { JsonlRecord } from '../jsonl/read-jsonl.js';
import { spawnedBy, textOf, toEntry } from './entries.js';
import { buildMessages, countHidden, type BuildMessagesOptions } from './messages.js';
import { resolveActiveBranch } from './tree.js';
import type { CompactionMessage, Entry, Message, Subagent, ToolCall, Turn } from './types.js';

/** The `agent-<id>.meta.json` sidecar of 2.1.x, as read (after redaction). */
export interface AgentMeta {
  /** The tool_use id of the call that spawned the agent: the surest link. */
  toolUseId?: string;
  agentType?: string;
  description?: string;
  /** 1 = spawned by the session, 2 = by one of its agents, ... */
  spawnDepth?: number;
  [key: string]: unknown;
}

/** An agent transcript file read from disk. */
export interface AgentFileInput {
  /** Path relative to the source root. */
  file: string;
  /** Agent id from the file name (`agent-<id>.jsonl`). */
  agentId: string;
  records: JsonlRecord[];
  /** Its sidecar, when one exists. */
  meta?: AgentMeta;
  /** For an agent of a workflow run (`subagents/workflows/<runId>/`). */
  workflowRunId?: string;
}

/** What building the subagents of a session needs from the session. */
export interface SubagentContext {
  file: string;
  /** uuids of the session file: parents there are not missing in an agent file. */
  sessionUuids: ReadonlySet<string>;
  diagnostics: Diagnostic[];
  hidden: Record<string, number>;
  options: BuildMessagesOptions;
  toTurns: (messages: Message[]) => Turn[];
}

export const TASK_TOOLS = new Set(['Task', 'Agent']);
const WARMUP = 'Warmup';
/** Compaction agents write the summary a compaction continues from (`agent-acompact-<id>.jsonl`). */
const COMPACTION_AGENT = /^acompact/;
/** The `agentId: <id>` line Claude Code appends to an agent's result text (2.1.x, every depth). */
const AGENT_ID_LINE = /(?:^|\n)\s*agentId:\s*([A-Za-z0-9_-]+)/;

/** Whether an agent file is a compaction agent's. */
export function isCompactionAgent(agentId: string): boolean {
  return COMPACTION_AGENT.test(agentId);
}

/**
 * Builds one subagent from its entries. Returns undefined for nothing, and
 * for a warmup agent (Claude Code priming its cache, not work anyone asked
 * for), which is counted as hidden.
 */
export function buildSubagent(entries: Entry[], ctx: SubagentContext, file: string, agentId: string | undefined, source: Subagent['source']): Subagent | undefined {
  if (!entries.length) return undefined;
  const branch = resolveActiveBranch(entries.map((e) => ({ ...e, isSidechain: false })), file, ctx.sessionUuids);
  ctx.diagnostics.push(...branch.diagnostics);
  const built = buildMessages(branch.active, file, ctx.options);
  ctx.diagnostics.push(...built.diagnostics);
  for (const [k, n] of Object.entries(built.hiddenCounts)) countHidden(ctx.hidden, k, n);
  const first = branch.active.find((e) => e.type === 'user');
  const prompt = first ? textOf(first) : '';
  if (prompt.trim() === WARMUP) {
    countHidden(ctx.hidden, 'warmup agents');
    return undefined;
  }
  const fromEntries = entries.find((e) => typeof e.raw.agentId === 'string')?.raw.agentId as string | undefined;
  let toolUseCount = 0;
  for (const m of built.messages) if (m.kind === 'assistant') toolUseCount += m.toolCalls.length;
  const times = entries.map((e) => e.timestamp).filter((t): t is string => !!t && !Number.isNaN(Date.parse(t))).sort();
  return {
    agentId: agentId ?? fromEntries,
    file: source === 'file' ? file : undefined,
    source,
    prompt,
    messages: built.messages,
    turns: ctx.toTurns(built.messages),
    stats: {
      durationMs: times.length > 1 ? Date.parse(times[times.length - 1]) - Date.parse(times[0]) : undefined,
      toolUseCount,
    },
  };
}

/** Inline sidechains (1.0.x): one subagent per root of the sidechain forest. */
export function splitSidechains(entries: Entry[]): Entry[][] {
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

/** A subagent that survives only as `agent_progress` entries of the session, grouped by its spawning call. */
export interface ProgressAgent {
  toolUseId: string;
  agentId?: string;
  entries: Entry[];
}

/**
 * Groups the `progress` entries with `data.type: "agent_progress"` by the
 * call that spawned them (`parentToolUseID`). Each holds one message of the
 * subagent (`data.message`); they become entries of their own, chained in
 * file order, each message once (streaming repeats them).
 */
export function collectProgressAgents(entries: Entry[]): ProgressAgent[] {
  const byCall = new Map<string, ProgressAgent & { seen: Set<string> }>();
  for (const e of entries) {
    if (e.type !== 'progress') continue;
    const data = e.raw.data as Record<string, unknown> | undefined;
    if (!data || data.type !== 'agent_progress') continue;
    const toolUseId = typeof e.raw.parentToolUseID === 'string' ? e.raw.parentToolUseID : undefined;
    const msg = data.message as Record<string, unknown> | undefined;
    if (!toolUseId || !msg || typeof msg !== 'object' || (msg.type !== 'user' && msg.type !== 'assistant')) continue;
    let group = byCall.get(toolUseId);
    if (!group) byCall.set(toolUseId, (group = { toolUseId, agentId: typeof data.agentId === 'string' ? data.agentId : undefined, entries: [], seen: new Set() }));
    const uuid = typeof msg.uuid === 'string' ? msg.uuid : `progress-${e.line}`;
    if (group.seen.has(uuid)) continue;
    group.seen.add(uuid);
    const previous = group.entries[group.entries.length - 1];
    const record = { ...msg, uuid, parentUuid: previous?.uuid ?? null, timestamp: msg.timestamp ?? e.timestamp, isSidechain: false, agentId: group.agentId };
    group.entries.push(toEntry({ line: e.line, value: record }, group.entries.length));
  }
  return [...byCall.values()].map(({ seen: _seen, ...g }) => g);
}

/** The agent id a call's result names: the structured `toolUseResult.agentId`, or the `agentId:` line of its text. */
function resultAgentIds(call: ToolCall): { structured?: string; text?: string } {
  const r = call.result?.toolUseResult;
  const structured = r && typeof r === 'object' && typeof (r as { agentId?: unknown }).agentId === 'string' ? (r as { agentId: string }).agentId : undefined;
  const content = call.result?.content;
  const text = typeof content === 'string' ? content : Array.isArray(content) ? content.map((b) => String((b as { text?: unknown }).text ?? '')).join('\n') : '';
  return { structured, text: AGENT_ID_LINE.exec(text)?.[1] };
}

/** A file subagent waiting for its call, with its sidecar. */
export interface PendingSubagent {
  sub: Subagent;
  meta?: AgentMeta;
}

/**
 * Attaches each subagent to the Task/Agent call that spawned it, surest link
 * first: the sidecar's `toolUseId`, the progress entries' `parentToolUseID`,
 * the result's `toolUseResult.agentId`, the `agentId:` line of the result
 * text, and last an identical prompt. Then a subagent rebuilt from progress
 * entries fills a call still without one (an agent with a file is shown once,
 * from its file). A subagent that matches no call is reported, never dropped
 * silently.
 */
export function attachSubagents(calls: ToolCall[], pending: PendingSubagent[], progress: ProgressAgent[], rebuilt: Map<ProgressAgent, Subagent>, ctx: SubagentContext): void {
  const byId = new Map(calls.map((c) => [c.id, c]));
  const taskCalls = calls.filter((c) => TASK_TOOLS.has(c.name));
  const unclaimed = new Set(pending);
  const claim = (call: ToolCall | undefined, p: PendingSubagent, how: Subagent['linkedBy']): boolean => {
    if (!call || call.subagent || !unclaimed.has(p)) return false;
    unclaimed.delete(p);
    linkSubagent(call, p.sub, how, p.meta);
    return true;
  };
  const progressCallOf = new Map(progress.filter((g) => g.agentId).map((g) => [g.agentId!, g.toolUseId]));
  for (const p of pending) if (p.meta?.toolUseId) claim(byId.get(p.meta.toolUseId), p, 'sidecar');
  for (const p of [...unclaimed]) if (p.sub.agentId && progressCallOf.has(p.sub.agentId)) claim(byId.get(progressCallOf.get(p.sub.agentId)!), p, 'progress');
  const byAgentId = (id: string | undefined) => (id ? [...unclaimed].find((p) => p.sub.agentId === id) : undefined);
  for (const call of taskCalls) {
    const ids = resultAgentIds(call);
    const viaStructured = byAgentId(ids.structured);
    if (viaStructured && claim(call, viaStructured, 'tool-use-result')) continue;
    const viaText = byAgentId(ids.text);
    if (viaText) claim(call, viaText, 'result-text');
  }
  for (const call of taskCalls) {
    const prompt = typeof call.input.prompt === 'string' ? call.input.prompt.trim() : undefined;
    if (call.subagent || !prompt) continue;
    const p = [...unclaimed].find((x) => x.sub.prompt.trim() === prompt);
    if (p) claim(call, p, 'prompt');
  }
  attachRebuilt(byId, pending, progress, rebuilt, ctx);
  for (const p of unclaimed) {
    ctx.diagnostics.push({ file: p.sub.file ?? ctx.file, line: 0, code: 'unmatched-subagent', reason: `subagent ${p.sub.agentId ?? '(inline)'} matches no Task or Agent call of this session; it is not shown` });
  }
}

/** Subagents rebuilt from progress entries: only for a call that has none, and only for an agent without a file. */
function attachRebuilt(byId: Map<string, ToolCall>, pending: PendingSubagent[], progress: ProgressAgent[], rebuilt: Map<ProgressAgent, Subagent>, ctx: SubagentContext): void {
  const withFile = new Set(pending.map((p) => p.sub.agentId).filter(Boolean));
  for (const group of progress) {
    const sub = rebuilt.get(group);
    if (!sub) continue;
    const call = byId.get(group.toolUseId);
    if (group.agentId && withFile.has(group.agentId)) {
      countHidden(ctx.hidden, 'agent progress copies of agent files');
      continue;
    }
    if (!call || call.subagent) {
      if (!call) ctx.diagnostics.push({ file: ctx.file, line: group.entries[0]?.line ?? 0, code: 'unmatched-subagent', reason: `agent progress for ${group.toolUseId} matches no Task or Agent call of this session; it is not shown` });
      continue;
    }
    linkSubagent(call, sub, 'progress');
  }
}

/** Links a subagent to its call and takes what the call and the sidecar know about it. */
function linkSubagent(call: ToolCall, sub: Subagent, how: Subagent['linkedBy'], meta?: AgentMeta): void {
  call.subagent = sub;
  sub.linkedBy = how;
  const input = call.input;
  sub.agentType = str(meta?.agentType) ?? str(input.subagent_type) ?? sub.agentType;
  sub.description = str(meta?.description) ?? str(input.description) ?? sub.description;
  if (input.run_in_background === true) sub.background = true;
  if (typeof meta?.spawnDepth === 'number') sub.depth = meta.spawnDepth;
  const r = call.result?.toolUseResult as { totalDurationMs?: unknown; totalTokens?: unknown; totalToolUseCount?: unknown } | undefined;
  if (r && typeof r === 'object') {
    if (typeof r.totalDurationMs === 'number') sub.stats.durationMs = r.totalDurationMs;
    if (typeof r.totalTokens === 'number') sub.stats.totalTokens = r.totalTokens;
    if (typeof r.totalToolUseCount === 'number') sub.stats.toolUseCount = r.totalToolUseCount;
  }
}

/** Sets each linked subagent's depth from where it sits (a sidecar's `spawnDepth` wins). */
export function assignDepths(messages: Message[], depth = 1): void {
  for (const m of messages) {
    if (m.kind !== 'assistant') continue;
    for (const call of m.toolCalls) {
      for (const sub of spawnedBy(call)) {
        sub.depth ??= depth;
        assignDepths(sub.messages, depth + 1);
      }
    }
  }
}

/**
 * Attaches the agents of each workflow run to the `Workflow` call that
 * started it: the call whose result names the run id, else the calls and
 * runs in order. A run no call claims is reported.
 */
export function attachWorkflowRuns(calls: ToolCall[], runs: Map<string, Subagent[]>, ctx: SubagentContext): void {
  const workflowCalls = calls.filter((c) => c.name === 'Workflow');
  const left = new Map(runs);
  for (const [runId, agents] of runs) {
    const call = workflowCalls.find((c) => !c.workflowAgents && JSON.stringify([c.result?.toolUseResult ?? null, c.result?.content ?? '']).includes(runId));
    if (call) {
      call.workflowAgents = agents;
      left.delete(runId);
    }
  }
  for (const [runId, agents] of left) {
    const call = workflowCalls.find((c) => !c.workflowAgents);
    if (call) call.workflowAgents = agents;
    else ctx.diagnostics.push({ file: agents[0]?.file ?? ctx.file, line: 0, code: 'unmatched-subagent', reason: `workflow run ${runId} matches no Workflow call of this session; it is not shown` });
  }
}

/**
 * Gives each compaction its compaction agent (the agent that wrote the
 * summary): the first compaction at or after the agent's last entry, else the
 * last one. Never a warning: an agent with no compaction to go to is counted.
 */
export function attachCompactionAgents(compactions: CompactionMessage[], agents: Subagent[], lastTimes: Map<Subagent, string | undefined>, ctx: SubagentContext): void {
  const sorted = [...compactions].sort((a, b) => (a.timestamp ?? '').localeCompare(b.timestamp ?? ''));
  for (const agent of agents) {
    const end = lastTimes.get(agent) ?? '';
    const free = sorted.filter((c) => !c.compactionAgent);
    const target = free.find((c) => (c.timestamp ?? '') >= end) ?? free[free.length - 1];
    if (target) target.compactionAgent = agent;
    else countHidden(ctx.hidden, 'compaction agents without a compaction');
  }
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() ? v : undefined;
}
