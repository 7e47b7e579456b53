/** Task / Agent: a subagent's brief, its whole transcript nested, and its answer. */
import { countOf, formatCount, formatDuration } from '../../format.js';
import type { Subagent, ToolCall } from '../../transcript/types.js';
import type { RenderContext } from '../context.js';
import { html, joinHtml, type HtmlValue, type SafeHtml } from '../sanitize.js';
import { badgeHtml, errorBlock, field, markdownBlock, noteHtml, pathHtml, toolFrame } from './common.js';
import { num, resultText, str, structured } from '../tool-data.js';

/** How deep subagent transcripts nest before we stop (guards against cycles in bad data). */
const MAX_DEPTH = 4;

/** Duration, tokens and tool calls of an agent, from its transcript or (for a call's agent) the structured result or the result's footer. */
export function agentStats(sub: Subagent | undefined, call?: ToolCall): string[] {
  const s = call ? structured(call) : undefined;
  const footer = agentFooter(call?.result ? resultText(call.result) : '');
  const durationMs = sub?.stats.durationMs ?? num(s?.totalDurationMs) ?? footer.durationMs;
  const totalTokens = sub?.stats.totalTokens ?? num(s?.totalTokens) ?? footer.totalTokens;
  const toolUseCount = sub?.stats.toolUseCount ?? num(s?.totalToolUseCount) ?? footer.toolUses;
  return [
    formatDuration(durationMs),
    totalTokens !== undefined ? `${formatCount(totalTokens)} tokens` : undefined,
    toolUseCount !== undefined ? `${formatCount(toolUseCount)} tool call${toolUseCount === 1 ? '' : 's'}` : undefined,
  ].filter((x): x is string => !!x);
}

interface NestedAgentParts {
  /** `data-subagent`: the agent's id, or what stands for it. */
  key: string;
  /** What the closed element says about the agent. */
  summary: HtmlValue;
  /** The label that stays in view while reading inside it. */
  label?: HtmlValue;
  /** The agent's answer, shown by its spawning call: its transcript says so instead of repeating it. */
  answer?: string;
  extraClass?: string;
}

/**
 * The one way an agent's transcript is nested in the page: a closed
 * `<details data-subagent>` with its messages rendered one level deeper (a
 * call's subagent, a workflow run's agent, a compaction agent, a fork), and, when its result came
 * back later as a notification, a link to it.
 */
export function nestedAgentHtml(sub: Subagent, ctx: RenderContext, parts: NestedAgentParts): SafeHtml {
  const body = ctx.depth >= MAX_DEPTH ? html`<p class="no-output">(nested too deep to show)</p>` : ctx.renderMessages(sub.messages, { answer: parts.answer });
  const label = parts.label ? html`<div class="subagent-label">${parts.label}</div>` : '';
  const result = sub.resultAt ? html`<p class="agent-link"><a href="#m-${sub.resultAt}">Its result arrived later, as a notification ↓</a></p>` : '';
  return html`<details class="subagent${parts.extraClass ? ` ${parts.extraClass}` : ''}" data-subagent="${parts.key}"><summary>${parts.summary}</summary><div class="subagent-body">${label}${body}</div></details>${result}`;
}

/** Who an agent is to a reader: a teammate by name, a fork by name, else its type and description. */
function agentLabel(sub: Subagent, call?: ToolCall): string {
  const what = [sub.agentType ?? (call ? str(call.input.subagent_type) : undefined), sub.description ?? (call ? str(call.input.description) : undefined)].filter(Boolean).join(': ');
  if (sub.role === 'teammate') return `Teammate · ${[sub.name, sub.summary ?? what].filter(Boolean).join(' · ') || 'unnamed'}`;
  if (sub.role === 'fork') return `Fork · ${[sub.name, sub.description].filter(Boolean).join(' · ') || 'unnamed'}`;
  return `Subagent · ${what || 'Subagent'}`;
}

/**
 * The nested transcript of the subagent a call spawned (`data-subagent`), or
 * its stats alone when no transcript was found. Shared by Task/Agent and Workflow.
 */
export function subagentTranscript(call: ToolCall, ctx: RenderContext, answer?: string): SafeHtml {
  const sub = call.subagent;
  const statParts = agentStats(sub, call);
  if (sub && sub.messages.length) {
    const rebuilt = sub.source === 'progress' ? ' · rebuilt from progress entries' : '';
    const summary = `Transcript · ${countOf(sub.messages.length, 'message')}${statParts.length ? ` · ${statParts.join(' · ')}` : ''}${rebuilt}`;
    return nestedAgentHtml(sub, ctx, { key: sub.agentId ?? call.id, summary, label: agentLabel(sub, call), answer });
  }
  return statParts.length ? html`<p class="agent-stats">${statParts.join(' · ')}</p>` : html``;
}

/**
 * The compaction agent that wrote a compaction's summary (`agent-acompact-*.jsonl`),
 * nested and collapsed under the compaction divider; empty when there is none.
 */
export function compactionAgentHtml(sub: Subagent | undefined, ctx: RenderContext): SafeHtml {
  if (!sub || !sub.messages.length) return html``;
  return nestedAgentHtml(sub, ctx, { key: sub.agentId ?? 'compaction', summary: `Compaction agent · ${countOf(sub.messages.length, 'message')}`, extraClass: 'compaction-agent' });
}

/**
 * The agents a `/fork` started, nested where they were forked: each its own
 * transcript (its directive first, the fork's boilerplate collapsed), and a
 * link to the notification that brought its result back.
 */
export function forkedAgentsHtml(forks: Subagent[] | undefined, ctx: RenderContext): SafeHtml {
  if (!forks?.length) return html``;
  return joinHtml(
    forks.map((sub) => {
      const stats = agentStats(sub);
      const summary = html`Forked agent <strong>${sub.name ?? sub.agentId ?? ''}</strong> · ${countOf(sub.messages.length, 'message')}${stats.length ? ` · ${stats.join(' · ')}` : ''}`;
      return nestedAgentHtml(sub, ctx, { key: sub.agentId ?? `fork-${sub.forkedAt ?? ''}`, summary, label: agentLabel(sub), extraClass: 'fork' });
    }),
  );
}

/**
 * Where the agent whose result a notification brings was started: the line
 * that forked it, or the call that spawned it. Empty when the notification
 * names no agent of this session.
 */
export function agentOriginLink(sub: Subagent | undefined): SafeHtml {
  if (sub?.forkedAt) return html`<p class="agent-link"><a href="#m-${sub.forkedAt}">↑ Forked here: ${sub.name ?? sub.agentId ?? 'the fork'}</a></p>`;
  if (sub?.spawnCallId) return html`<p class="agent-link"><a href="#t-${sub.spawnCallId}">↑ Started by this call: ${sub.name ?? sub.description ?? sub.agentId ?? 'the agent'}</a></p>`;
  return html``;
}

/** Task / Agent: description, type, team and isolation, prompt (collapsible markdown), nested transcript, stats, result. */
export function renderAgent(call: ToolCall, ctx: RenderContext): SafeHtml {
  const i = call.input;
  const s = structured(call);
  const sub = call.subagent;
  // The label a reader knows the agent by: its type and what it was asked to do.
  const description = sub?.description ?? str(i.description);
  const type = sub?.agentType ?? str(i.subagent_type) ?? str(s?.agentType);
  const prompt = str(i.prompt) ?? sub?.prompt ?? '';
  const background = i.run_in_background === true || sub?.background === true;
  // A teammate is spawned into a team and answers through messages: its call's result only says it started.
  const teammate = sub?.role === 'teammate' || s?.status === 'teammate_spawned';
  const badges = html`${type ? html` <span class="badge badge-agent">${type}</span>` : ''}${teammate ? badgeHtml('teammate') : ''}${background ? badgeHtml('background') : ''}${sub?.workflowRunId ? badgeHtml('workflow') : ''}`;

  const footer = agentFooter(call.result ? resultText(call.result) : '');
  // A transcript shown below that opens with this very prompt says it already: not shown twice.
  const promptHtml = prompt && !opensWithPrompt(call, ctx, prompt)
    ? html`<details class="agent-prompt"><summary>Prompt · ${formatCount(prompt.length)} chars</summary>${markdownBlock(prompt)}</details>`
    : html``;
  const worktree = str(s?.worktreePath) ?? footer.worktreePath;
  const branch = str(s?.worktreeBranch) ?? footer.worktreeBranch;
  const input = html`${field('Name', str(i.name) ?? sub?.name)}${field('Team', str(i.team_name))}${field('Summary', sub?.summary)}${field('Mode', str(i.mode))}${field('Model', str(i.model))}${field('Isolation', str(i.isolation))}${field('Worktree', worktree ? html`${pathHtml(worktree)}${branch ? html` on <code>${branch}</code>` : ''}` : undefined)}${field('Resumes', str(i.resume))}${promptHtml}`;

  const r = call.result;
  const text = r && !r.isError ? stripAgentFooter(resultText(r)).trim() : '';
  const answer = teammate ? '' : text;
  // The answer is the agent's own words: indexed like a message, and not repeated as its transcript's last message.
  const answerHtml = answer ? html`<div class="agent-result"><div class="agent-result-label">Result</div>${markdownBlock(answer)}</div>` : undefined;
  const output = r?.isError ? errorBlock(resultText(r)) : teammate && text ? noteHtml(firstLine(text)) : html``;
  return toolFrame(call, ctx, { summary: description, badges, input: html`${input}${subagentTranscript(call, ctx, answer || undefined)}`, output, answer: answerHtml });
}

/**
 * Whether the subagent transcript shown for this call opens with `prompt`: its
 * first message is the prompt as written, or a teammate's spawn message
 * holding it (the model reads the words out of the wrapper).
 */
function opensWithPrompt(call: ToolCall, ctx: RenderContext, prompt: string): boolean {
  const sub = call.subagent;
  if (!sub || ctx.depth >= MAX_DEPTH) return false;
  const first = sub.messages.find((m) => m.kind === 'user' && m.userKind !== 'meta');
  if (first?.kind !== 'user' || (first.userKind !== 'prompt' && first.userKind !== 'agent-message')) return false;
  return first.text.trim() === prompt.trim() || sub.prompt.trim() === prompt.trim();
}

/** The first line of a text (a spawn confirmation's own words, without the advice to the model after them). */
function firstLine(text: string): string {
  return text.split('\n').find((l) => l.trim())?.trim() ?? '';
}

interface AgentFooter {
  worktreePath?: string;
  worktreeBranch?: string;
  totalTokens?: number;
  toolUses?: number;
  durationMs?: number;
}

// Two wordings seen: "(use SendMessage with to: '…' to continue this agent)" and, older, "(for resuming to continue this agent's work if needed)".
const FOOTER_START = /(?:^|\n+)agentId: [\w-]+ \((?:use SendMessage|for resuming)[\s\S]*$/;

/** The facts newer versions append to the result text (`agentId:`, `worktreePath:`, `<usage>`). */
function agentFooter(text: string): AgentFooter {
  const tail = FOOTER_START.exec(text)?.[0] ?? /<usage>[\s\S]*<\/usage>\s*$/.exec(text)?.[0] ?? '';
  if (!tail) return {};
  const n = (key: string) => {
    const m = new RegExp(`\\b${key}:\\s*(\\d+)`).exec(tail);
    return m ? Number(m[1]) : undefined;
  };
  return {
    worktreePath: /\bworktreePath:\s*(\S+)/.exec(tail)?.[1],
    worktreeBranch: /\bworktreeBranch:\s*(\S+)/.exec(tail)?.[1],
    totalTokens: n('total_tokens'),
    toolUses: n('tool_uses'),
    durationMs: n('duration_ms'),
  };
}

/** Newer versions append the agent id, worktree and usage to the result text; the stats already say it. */
function stripAgentFooter(text: string): string {
  return text.replace(FOOTER_START, '').replace(/\n*<usage>[\s\S]*<\/usage>\s*$/, '').trimEnd();
}
