/** Workflow: a dynamic workflow run (a JavaScript orchestrator that fans out into agents). */
import { countOf, formatCount } from '../../format.js';
import { stripMarkdown } from '../../plain-text.js';
import { shortenTitle } from '../../transcript/build-session.js';
import type { Subagent, ToolCall } from '../../transcript/types.js';
import type { RenderContext } from '../context.js';
import { html, type SafeHtml } from '../sanitize.js';
import { agentStats, nestedAgentHtml, subagentTranscript } from './agent.js';
import { codeBlock, field, markdownBlock, noteHtml, orError, pathHtml, toolFrame } from './common.js';
import { obj, resultText, str, structured } from '../tool-data.js';

/** `name` and `description` from the script's `export const meta = {…}` block, when written plainly. */
export function workflowMeta(script: string): { name?: string; description?: string } {
  const meta = /export\s+const\s+meta\s*=\s*\{([\s\S]*?)\n\}/.exec(script)?.[1] ?? '';
  const pick = (key: string) => new RegExp(`\\b${key}\\s*:\\s*(['"\`])((?:\\\\.|(?!\\1).)*)\\1`).exec(meta)?.[2];
  return { name: pick('name'), description: pick('description') };
}

/** Arguments as fields when they are a flat object; otherwise as one line of code. */
function argsHtml(args: unknown): SafeHtml {
  if (args === undefined || args === null) return html``;
  if (typeof args === 'string') return field('Arguments', args);
  const o = obj(args);
  if (o && Object.values(o).every((v) => ['string', 'number', 'boolean'].includes(typeof v))) {
    return html`${Object.entries(o).map(([k, v]) => field(k, String(v)))}`;
  }
  let text: string;
  try {
    text = JSON.stringify(args);
  } catch {
    text = String(args);
  }
  return field('Arguments', html`<code>${text.length > 400 ? `${text.slice(0, 400)}…` : text}</code>`);
}

/** Agent types that say nothing about an agent: every agent of a run has one of them. */
const GENERIC_TYPES = new Set(['workflow-subagent', 'subagent', 'general-purpose']);

/** What a run's agent was asked to do, in a line: its description, else the first line of its prompt. */
function askedOf(a: Subagent): string | undefined {
  const first = a.prompt.split('\n').find((l) => l.trim())?.trim();
  const asked = a.description ?? (first ? stripMarkdown(first) : undefined);
  return asked ? shortenTitle(asked, 90) : undefined;
}

/**
 * Each agent of the run, nested and collapsed, named by what it was asked to
 * do (its type only when that says more than "workflow-subagent"), with its
 * stats and transcript (`data-subagent`). An agent whose file was empty says
 * that no transcript was kept; the journal's result stands in for a reply
 * the transcript does not hold.
 */
function workflowAgentsHtml(call: ToolCall, ctx: RenderContext): SafeHtml {
  const agents = call.workflowAgents ?? [];
  if (!agents.length) return html``;
  const kept = agents.filter((a) => !a.noTranscript).length;
  const items = agents.map((a, i) => {
    const type = a.agentType && !GENERIC_TYPES.has(a.agentType) ? a.agentType : undefined;
    const label = [type, askedOf(a)].filter(Boolean).join(': ') || `Agent ${i + 1}`;
    const journal = a.journalResult ? html`<div class="agent-result"><div class="agent-result-label">Result (from the run's journal)</div>${markdownBlock(a.journalResult)}</div>` : '';
    if (a.noTranscript) {
      return html`<div class="workflow-agent no-transcript" data-workflow-agent="${a.agentId ?? ''}"><p class="agent-stats">${label} · no transcript kept</p>${journal}</div>`;
    }
    const stats = agentStats(a);
    return html`${nestedAgentHtml(a, ctx, { key: a.agentId ?? `${call.id}-${i}`, summary: `${label} · ${countOf(a.messages.length, 'message')}${stats.length ? ` · ${stats.join(' · ')}` : ''}`, extraClass: 'workflow-agent' })}${journal}`;
  });
  const empty = agents.length - kept;
  return html`<div class="workflow-agents"><p class="count">${formatCount(agents.length)} agent${agents.length === 1 ? '' : 's'} in this run${empty ? ` · ${formatCount(empty)} without a transcript` : ''}</p>${items}</div>`;
}

/** Workflow: its name and purpose, the script (collapsed), the run's task id, and its agents when linked. */
export function renderWorkflow(call: ToolCall, ctx: RenderContext): SafeHtml {
  const i = call.input;
  const script = str(i.script);
  const meta = script ? workflowMeta(script) : {};
  const name = str(i.name) ?? meta.name ?? str(structured(call)?.workflowName);
  const scriptHtml = script ? html`<details class="workflow-script"><summary>Orchestrator script</summary>${codeBlock(script, 'javascript')}</details>` : '';
  const input = html`${field('Purpose', meta.description)}${field('Script', pathHtml(str(i.scriptPath)))}${field('Resumes run', str(i.resumeFromRunId))}${argsHtml(i.args)}${scriptHtml}${subagentTranscript(call, ctx)}${workflowAgentsHtml(call, ctx)}`;
  const output = orError(call, () => {
    if (!call.result) return '';
    const s = structured(call);
    const text = resultText(call.result);
    const taskId = str(s?.taskId) ?? /Task ID:\s*([\w-]+)/i.exec(text)?.[1];
    const runId = str(s?.runId);
    const status = str(s?.status);
    if (taskId || runId) return noteHtml(html`${status ? `${status} · ` : 'Launched · '}task <code>${taskId ?? ''}</code>${runId ? html` · run <code>${runId}</code>` : ''}`);
    return text.trim() ? noteHtml(text.trim().split('\n')[0]) : '';
  });
  return toolFrame(call, ctx, { summary: name, input, output });
}
