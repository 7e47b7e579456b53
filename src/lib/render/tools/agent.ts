/** Task / Agent: a subagent's brief, its whole transcript nested, and its answer. */
import { countOf, formatCount, formatDuration } from '../../format.js';
import type { Subagent, ToolCall } from '../../transcript/types.js';
import type { RenderContext } from '../context.js';
import { html, type SafeHtml } from '../sanitize.js';
import { badgeHtml, errorBlock, field, markdownBlock, pathHtml, toolFrame } from './common.js';
import { num, resultText, str, structured } from '../tool-data.js';

/** How deep subagent transcripts nest before we stop (guards against cycles in bad data). */
const MAX_DEPTH = 4;

/** Duration, tokens and tool calls of a subagent, from its transcript or the structured result. */
function agentStats(call: ToolCall): string[] {
  const s = structured(call);
  const sub = call.subagent;
  const footer = agentFooter(call.result ? resultText(call.result) : '');
  const durationMs = sub?.stats.durationMs ?? num(s?.totalDurationMs) ?? footer.durationMs;
  const totalTokens = sub?.stats.totalTokens ?? num(s?.totalTokens) ?? footer.totalTokens;
  const toolUseCount = sub?.stats.toolUseCount ?? num(s?.totalToolUseCount) ?? footer.toolUses;
  return [
    formatDuration(durationMs),
    totalTokens !== undefined ? `${formatCount(totalTokens)} tokens` : undefined,
    toolUseCount !== undefined ? `${formatCount(toolUseCount)} tool call${toolUseCount === 1 ? '' : 's'}` : undefined,
  ].filter((x): x is string => !!x);
}

/**
 * The nested transcript of the subagent a call spawned (`data-subagent`), or
 * its stats alone when no transcript was found. Shared by Task/Agent and Workflow.
 */
export function subagentTranscript(call: ToolCall, ctx: RenderContext, answer?: string): SafeHtml {
  const sub = call.subagent;
  const statParts = agentStats(call);
  if (sub && sub.messages.length) {
    const key = sub.agentId ?? call.id;
    const body = ctx.depth >= MAX_DEPTH ? html`<p class="no-output">(nested too deep to show)</p>` : ctx.renderMessages(sub.messages, { answer });
    const rebuilt = sub.source === 'progress' ? ' · rebuilt from progress entries' : '';
    // Named by its agent, in the summary and in a label that stays in view while reading inside it.
    const name = [sub.agentType ?? str(call.input.subagent_type), sub.description ?? str(call.input.description)].filter(Boolean).join(': ') || 'Subagent';
    const count = countOf(sub.messages.length, 'message');
    return html`<details class="subagent" data-subagent="${key}"><summary>Transcript · ${count}${statParts.length ? ` · ${statParts.join(' · ')}` : ''}${rebuilt}</summary><div class="subagent-body"><div class="subagent-label">Subagent · ${name}</div>${body}</div></details>`;
  }
  return statParts.length ? html`<p class="agent-stats">${statParts.join(' · ')}</p>` : html``;
}

/**
 * The compaction agent that wrote a compaction's summary (`agent-acompact-*.jsonl`),
 * nested and collapsed under the compaction divider; empty when there is none.
 */
export function compactionAgentHtml(sub: Subagent | undefined, ctx: RenderContext): SafeHtml {
  if (!sub || !sub.messages.length) return html``;
  const body = ctx.depth >= MAX_DEPTH ? html`<p class="no-output">(nested too deep to show)</p>` : ctx.renderMessages(sub.messages);
  return html`<details class="subagent compaction-agent" data-subagent="${sub.agentId ?? 'compaction'}"><summary>Compaction agent · ${countOf(sub.messages.length, 'message')}</summary><div class="subagent-body">${body}</div></details>`;
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
  const badges = html`${type ? html` <span class="badge badge-agent">${type}</span>` : ''}${background ? badgeHtml('background') : ''}${sub?.workflowRunId ? badgeHtml('workflow') : ''}`;

  const footer = agentFooter(call.result ? resultText(call.result) : '');
  // A transcript shown below that opens with this very prompt says it already: not shown twice.
  const promptHtml = prompt && !opensWithPrompt(call, ctx, prompt)
    ? html`<details class="agent-prompt"><summary>Prompt · ${formatCount(prompt.length)} chars</summary>${markdownBlock(prompt, ctx)}</details>`
    : html``;
  const worktree = str(s?.worktreePath) ?? footer.worktreePath;
  const branch = str(s?.worktreeBranch) ?? footer.worktreeBranch;
  const input = html`${field('Name', str(i.name))}${field('Team', str(i.team_name))}${field('Mode', str(i.mode))}${field('Model', str(i.model))}${field('Isolation', str(i.isolation))}${field('Worktree', worktree ? html`${pathHtml(worktree)}${branch ? html` on <code>${branch}</code>` : ''}` : undefined)}${field('Resumes', str(i.resume))}${promptHtml}`;

  const r = call.result;
  const answer = r && !r.isError ? stripAgentFooter(resultText(r)).trim() : '';
  // The answer is the agent's own words: indexed like a message, and not repeated as its transcript's last message.
  const answerHtml = answer ? html`<div class="agent-result"><div class="agent-result-label">Result</div>${markdownBlock(answer, ctx)}</div>` : undefined;
  const output = r?.isError ? errorBlock(resultText(r)) : html``;
  return toolFrame(call, ctx, { summary: description, badges, input: html`${input}${subagentTranscript(call, ctx, answer || undefined)}`, output, answer: answerHtml });
}

/** Whether the subagent transcript shown for this call starts with `prompt` as its first prompt message. */
function opensWithPrompt(call: ToolCall, ctx: RenderContext, prompt: string): boolean {
  const messages = call.subagent?.messages ?? [];
  if (ctx.depth >= MAX_DEPTH) return false;
  const first = messages.find((m) => m.kind === 'user' && m.userKind !== 'meta');
  return first?.kind === 'user' && first.userKind === 'prompt' && first.text.trim() === prompt.trim();
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
