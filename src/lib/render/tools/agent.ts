/** Task / Agent: a subagent's brief, its whole transcript nested, and its answer. */
import { formatCount, formatDuration } from '../../format.js';
import type { ToolCall } from '../../transcript/types.js';
import type { RenderContext } from '../context.js';
import { html, type SafeHtml } from '../sanitize.js';
import { errorBlock, field, markdownBlock, num, resultText, str, structured, toolFrame } from './common.js';

/** How deep subagent transcripts nest before we stop (guards against cycles in bad data). */
const MAX_DEPTH = 4;

/** Task / Agent: description, type, prompt (collapsible markdown), nested transcript, stats, result. */
export function renderAgent(call: ToolCall, ctx: RenderContext): SafeHtml {
  const i = call.input;
  const s = structured(call);
  const sub = call.subagent;
  const description = str(i.description);
  const type = str(i.subagent_type) ?? str(s?.agentType);
  const prompt = str(i.prompt) ?? sub?.prompt ?? '';
  const badges = html`${type ? html` <span class="badge badge-agent">${type}</span>` : ''}${i.run_in_background === true ? html` <span class="badge">background</span>` : ''}`;

  const stats = {
    durationMs: sub?.stats.durationMs ?? num(s?.totalDurationMs),
    totalTokens: sub?.stats.totalTokens ?? num(s?.totalTokens),
    toolUseCount: sub?.stats.toolUseCount ?? num(s?.totalToolUseCount),
  };
  const statParts = [
    formatDuration(stats.durationMs),
    stats.totalTokens !== undefined ? `${formatCount(stats.totalTokens)} tokens` : undefined,
    stats.toolUseCount !== undefined ? `${formatCount(stats.toolUseCount)} tool call${stats.toolUseCount === 1 ? '' : 's'}` : undefined,
  ].filter((x): x is string => !!x);

  const promptHtml = prompt
    ? html`<details class="agent-prompt"><summary>Prompt · ${formatCount(prompt.length)} chars</summary>${markdownBlock(prompt, ctx)}</details>`
    : html``;
  const input = html`${field('Name', str(i.name))}${field('Model', str(i.model))}${field('Isolation', str(i.isolation))}${promptHtml}`;

  let transcript = html``;
  if (sub && sub.messages.length) {
    const key = sub.agentId ?? call.id;
    const body = ctx.depth >= MAX_DEPTH ? html`<p class="no-output">(nested too deep to show)</p>` : ctx.renderMessages(sub.messages);
    transcript = html`<details class="subagent" data-subagent="${key}"><summary>Subagent transcript · ${formatCount(sub.messages.length)} messages${statParts.length ? ` · ${statParts.join(' · ')}` : ''}</summary><div class="subagent-body">${body}</div></details>`;
  } else if (statParts.length) {
    transcript = html`<p class="agent-stats">${statParts.join(' · ')}</p>`;
  }

  const r = call.result;
  let output = html``;
  if (r) {
    const text = resultText(r);
    output = r.isError ? errorBlock(text) : text.trim() ? html`<div class="agent-result"><div class="agent-result-label">Result</div>${markdownBlock(stripAgentFooter(text), ctx)}</div>` : html``;
  }
  return toolFrame(call, ctx, { summary: description, badges, input: html`${input}${transcript}`, output });
}

/** Newer versions append the agent id and usage to the result text; the stats already say it. */
function stripAgentFooter(text: string): string {
  return text.replace(/(?:^|\n+)agentId: [\w-]+ \(use SendMessage[\s\S]*$/, '').trimEnd();
}
