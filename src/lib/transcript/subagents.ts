import type { Diagnostic } from '../diagnostics.js';
import type { JsonlRecord } from '../jsonl/read-jsonl.js';
import { agentsIn, tagContent, textOf, toEntry } from './entries.js';
import { agentOpening } from './prompt-tags.js';
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
  /** A fork's or teammate's name. */
  name?: string;
  /** Set for a fork (`agentType: "fork"`); a fork's sidecar has no `toolUseId`. */
  isFork?: boolean;
  /** 2.1.26x teammates: `in_process_teammate`, with `teamName`, `color`, `customAgentType`, `planModeRequired`, `permissionMode`. */
  taskKind?: string;
  teamName?: string;
  color?: string;
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
  // Nobody rewinds an agent: a fork in its file (a message filed under a stale parent, a retry) is work it did, so every branch is shown, in file order.
  const shown = branch.abandoned.length ? [...branch.active, ...branch.abandoned.flatMap((b) => b.entries)].sort((a, b) => a.index - b.index) : branch.active;
  const built = buildMessages(shown, file, ctx.options);
  ctx.diagnostics.push(...built.diagnostics);
  for (const [k, n] of Object.entries(built.hiddenCounts)) countHidden(ctx.hidden, k, n);
  const first = shown.find((e) => e.type === 'user');
  const text = first ? textOf(first) : '';
  if (text.trim() === WARMUP) {
    countHidden(ctx.hidden, 'warmup agents');
    return undefined;
  }
  // What it was asked: a fork's directive without the boilerplate, a teammate's spawn prompt without its wrapper.
  const opening = agentOpening(text);
  const fromEntries = entries.find((e) => typeof e.raw.agentId === 'string')?.raw.agentId as string | undefined;
  let toolUseCount = 0;
  for (const m of built.messages) if (m.kind === 'assistant') toolUseCount += m.toolCalls.length;
  const times = entries.map((e) => e.timestamp).filter((t): t is string => !!t && !Number.isNaN(Date.parse(t))).sort();
  return {
    agentId: agentId ?? fromEntries,
    file: source === 'file' ? file : undefined,
    source,
    prompt: opening.prompt,
    ...(opening.fork ? { role: 'fork' as const } : opening.from ? { role: 'teammate' as const } : {}),
    ...(opening.summary ? { summary: opening.summary } : {}),
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
  // Teammates are found here: their sidecar names no call and their spawn result no agent id.
  // A name (or summary) that agrees wins first; a name that disagrees never matches.
  const samePrompt = (call: ToolCall) => {
    const prompt = typeof call.input.prompt === 'string' ? normalise(call.input.prompt) : '';
    return prompt && !call.subagent ? [...unclaimed].filter((x) => normalise(x.sub.prompt) === prompt) : [];
  };
  for (const call of taskCalls) {
    const p = samePrompt(call).find((x) => namedAs(x, call));
    if (p) claim(call, p, 'prompt');
  }
  for (const call of taskCalls) {
    const p = samePrompt(call).find((x) => !namesDisagree(x, call));
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

/** Whitespace folded: a prompt written again may wrap differently. */
function normalise(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** A name as Claude Code puts it in an agent's file name (`agent-a<name>-<hash>.jsonl`). */
function nameSlug(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

/** Whether a waiting agent is the one a call named: the sidecar's name, the file name, or the spawn summary agrees. */
function namedAs(p: PendingSubagent, call: ToolCall): boolean {
  const name = str(call.input.name);
  const known = str(p.meta?.name) ?? p.sub.name;
  if (name && known) return known === name;
  if (name && p.sub.agentId?.startsWith(`a${nameSlug(name)}-`)) return true;
  const description = str(call.input.description);
  return !!description && p.sub.summary === description;
}

/** Whether the agent's own name and the call's name are both known and differ. */
function namesDisagree(p: PendingSubagent, call: ToolCall): boolean {
  const name = str(call.input.name);
  const known = str(p.meta?.name) ?? p.sub.name;
  return !!name && !!known && known !== name;
}

/** Links a subagent to its call and takes what the call and the sidecar know about it. */
function linkSubagent(call: ToolCall, sub: Subagent, how: Subagent['linkedBy'], meta?: AgentMeta): void {
  call.subagent = sub;
  sub.linkedBy = how;
  sub.spawnCallId = call.id;
  const input = call.input;
  sub.agentType = str(meta?.customAgentType) ?? str(meta?.agentType) ?? str(input.subagent_type) ?? sub.agentType;
  sub.description = str(meta?.description) ?? str(input.description) ?? sub.description;
  sub.name = str(meta?.name) ?? str(input.name) ?? sub.name;
  sub.team = str(input.team_name) ?? str(meta?.teamName) ?? sub.team;
  const color = str(meta?.color) ?? str(input.color);
  if (color) sub.color = color;
  if (input.run_in_background === true) sub.background = true;
  // 2.1.26x: a teammate's sidecar says what it is (`taskKind: "in_process_teammate"`), with its team.
  if (meta?.taskKind === 'in_process_teammate' || str(meta?.teamName)) sub.role = 'teammate';
  if (typeof meta?.spawnDepth === 'number') sub.depth = meta.spawnDepth;
  const r = call.result?.toolUseResult as { totalDurationMs?: unknown; totalTokens?: unknown; totalToolUseCount?: unknown; status?: unknown } | undefined;
  // A teammate: spawned into a team, it answers through messages, not through its call's result.
  if (sub.team || (r && typeof r === 'object' && r.status === 'teammate_spawned')) sub.role = 'teammate';
  if (r && typeof r === 'object') {
    if (typeof r.totalDurationMs === 'number') sub.stats.durationMs = r.totalDurationMs;
    if (typeof r.totalTokens === 'number') sub.stats.totalTokens = r.totalTokens;
    if (typeof r.totalToolUseCount === 'number') sub.stats.toolUseCount = r.totalToolUseCount;
  }
}

/** A forked agent waiting for the line that says it was forked: its sidecar and its `fork-context-ref`. */
export interface PendingFork {
  sub: Subagent;
  meta?: AgentMeta;
  /** `parentLastUuid` of the file's `fork-context-ref` line: the session's last entry when it was forked. */
  parentLastUuid?: string;
}

/** Whether an agent file is a fork's: its sidecar says so, it opens with a `fork-context-ref`, or with a fork's boilerplate. */
export function isForkAgent(agent: AgentFileInput, sub: Subagent): boolean {
  return agent.meta?.isFork === true || agent.meta?.agentType === 'fork' || sub.role === 'fork' || agent.records.some((r) => r.value.type === 'fork-context-ref');
}

/** The `parentLastUuid` of an agent file's `fork-context-ref` line. */
export function forkParentUuid(agent: AgentFileInput): string | undefined {
  const ref = agent.records.find((r) => r.value.type === 'fork-context-ref')?.value;
  return ref && typeof ref.parentLastUuid === 'string' ? ref.parentLastUuid : undefined;
}

/** What a local command prints when a fork starts: `⑂ forked <name> (<last 4 characters of its id>)`. */
const FORK_LINE = /⑂\s*forked\s+(.+?)\s+\(([A-Za-z0-9]+)\)/g;

/** The text of a message that may say a fork started: a local command's output, or the command it belongs to. */
function forkLineText(m: Message): string | undefined {
  if (m.kind === 'system') return m.subtype === 'local_command' ? m.text : undefined;
  if (m.kind === 'user' && (m.userKind === 'command' || m.userKind === 'command-output')) return m.userKind === 'command' ? (m.command?.output ?? '') : m.text;
  return undefined;
}

/**
 * Shows each fork where it was forked: on the message whose `⑂ forked <name>
 * (<id end>)` line names it (the end of its agent id, and its name), else
 * where the session was when it forked: the last prompt, command or system
 * line up to the entry its `fork-context-ref` names (`lineOf` finds an entry
 * of the session file by uuid). A fork found nowhere is
 * reported, never dropped silently; a fork is never reported as a subagent
 * without a call.
 */
export function attachForks(messages: Message[], forks: PendingFork[], lineOf: (uuid: string) => number | undefined, ctx: SubagentContext): void {
  const left = new Set(forks);
  const place = (m: Extract<Message, { kind: 'user' | 'system' }>, f: PendingFork, how: Subagent['linkedBy'], name?: string) => {
    left.delete(f);
    (m.forks ??= []).push(f.sub);
    const sub = f.sub;
    sub.role = 'fork';
    sub.linkedBy = how;
    sub.forkedAt = m.uuid;
    sub.background = true;
    sub.agentType = str(f.meta?.agentType) ?? 'fork';
    sub.description = str(f.meta?.description) ?? sub.description;
    sub.name = str(f.meta?.name) ?? name ?? sub.name;
    if (typeof f.meta?.spawnDepth === 'number') sub.depth = f.meta.spawnDepth;
  };
  for (const m of messages) {
    const text = forkLineText(m);
    if (!text || (m.kind !== 'user' && m.kind !== 'system')) continue;
    for (const [, name, end] of text.matchAll(FORK_LINE)) {
      const candidates = [...left].filter((f) => f.sub.agentId?.toLowerCase().endsWith(end.toLowerCase()));
      const named = candidates.find((f) => f.meta?.name === name || f.sub.agentId?.startsWith(`a${nameSlug(name)}-`));
      const f = named ?? (candidates.length === 1 ? candidates[0] : undefined);
      if (f) place(m, f, 'fork-line', name);
    }
  }
  const placeable = messages.filter((m): m is Extract<Message, { kind: 'user' | 'system' }> => m.kind === 'system' || (m.kind === 'user' && m.userKind !== 'tool-result'));
  for (const f of [...left]) {
    const line = f.parentLastUuid ? lineOf(f.parentLastUuid) : undefined;
    if (line === undefined) continue;
    // Where the session was when it forked: the last prompt, command or system line up to that entry.
    const target = placeable.filter((m) => m.line <= line).pop() ?? placeable.find((m) => m.line > line);
    if (target) place(target, f, 'fork-context');
  }
  for (const f of left) {
    ctx.diagnostics.push({ file: f.sub.file ?? ctx.file, line: 0, code: 'unmatched-subagent', reason: `fork ${f.sub.agentId ?? '(unnamed)'} matches no "forked" line and no entry of this session; it is not shown` });
  }
}

/**
 * Links each `<task-notification>` to the agent whose result it brings (its
 * `<task-id>` is the agent's id): a fork's, or a background agent's. The
 * first notification of an agent is where its result arrived.
 */
export function linkNotifications(messages: Message[], agents: Subagent[]): void {
  const byId = new Map<string, Subagent>();
  for (const a of agents) if (a.agentId && !byId.has(a.agentId)) byId.set(a.agentId, a);
  for (const m of messages) {
    if (m.kind !== 'user' || m.userKind !== 'task-notification') continue;
    const id = tagContent(m.text, 'task-id')?.trim();
    const sub = id ? byId.get(id) : undefined;
    if (!sub || sub.resultAt) continue;
    m.resultOf = sub;
    sub.resultAt = m.uuid;
  }
}

/** Sets each linked subagent's depth from where it sits (a sidecar's `spawnDepth` wins). */
export function assignDepths(messages: Message[], depth = 1): void {
  for (const m of messages) {
    for (const sub of agentsIn(m, false)) {
      sub.depth ??= depth;
      assignDepths(sub.messages, depth + 1);
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
    // The run's folder is `wf_<id>`; a result may name it whole (`transcriptDir`) or by its id alone (`runId`).
    const bare = runId.replace(/^wf_/, '');
    const names = (c: ToolCall) => {
      const text = JSON.stringify([c.result?.toolUseResult ?? null, c.result?.content ?? '']);
      return text.includes(runId) || (bare.length >= 6 && new RegExp(`(?<![A-Za-z0-9])${bare.replace(/[^A-Za-z0-9_-]/g, '')}(?![A-Za-z0-9])`).test(text));
    };
    const call = workflowCalls.find((c) => !c.workflowAgents && names(c));
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
