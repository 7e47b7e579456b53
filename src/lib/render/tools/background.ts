/**
 * Background work: polling and stopping background tasks (TaskOutput, TaskStop),
 * watching a command (Monitor), and scheduling Claude to come back later
 * (ScheduleWakeup, CronCreate, CronList, CronDelete).
 */
import { formatDuration } from '../../format.js';
import type { ToolCall } from '../../transcript/types.js';
import type { RenderContext } from '../context.js';
import { highlightCode } from '../highlight.js';
import { html, type SafeHtml } from '../sanitize.js';
import { badgeHtml, field, longMarkdown, noteHtml, orError, terminalBlock, toolFrame } from './common.js';
import { num, obj, resultText, str, structured, structuredList, taggedValue } from '../tool-data.js';

/** Status words of background tasks, as a badge tone. */
function statusTone(status: string | undefined): 'ok' | 'warn' | 'error' | 'plain' {
  if (!status) return 'plain';
  if (/^(completed|success|done)$/i.test(status)) return 'ok';
  if (/^(failed|error|killed)$/i.test(status)) return 'error';
  if (/^(running|pending|timeout|in_progress)$/i.test(status)) return 'warn';
  return 'plain';
}

interface PolledTask {
  id?: string;
  type?: string;
  status?: string;
  description?: string;
  output?: string;
  exitCode?: number;
  retrieval?: string;
}

/** A polled task from the structured result, else from the tagged result text (`<task_id>…`). */
function polledTask(call: ToolCall): PolledTask {
  const s = structured(call);
  const t = obj(s?.task);
  if (t) {
    return { id: str(t.task_id) ?? str(t.id), type: str(t.task_type), status: str(t.status), description: str(t.description), output: str(t.output) ?? str(t.result), exitCode: num(t.exitCode), retrieval: str(s?.retrieval_status) };
  }
  const text = call.result ? resultText(call.result) : '';
  const exit = taggedValue(text, 'exit_code');
  return {
    id: taggedValue(text, 'task_id'),
    type: taggedValue(text, 'task_type'),
    status: taggedValue(text, 'status'),
    description: taggedValue(text, 'description'),
    output: taggedValue(text, 'output') ?? taggedValue(text, 'result'),
    exitCode: exit !== undefined && /^-?\d+$/.test(exit) ? Number(exit) : undefined,
    retrieval: taggedValue(text, 'retrieval_status'),
  };
}

const TASK_TYPES: Record<string, string> = { local_bash: 'shell command', local_agent: 'agent', remote_agent: 'remote agent', monitor: 'monitor' };

/** TaskOutput: which background task was read, its state, and what it printed so far. */
export function renderTaskOutput(call: ToolCall, ctx: RenderContext): SafeHtml {
  const id = str(call.input.task_id) ?? str(call.input.bash_id) ?? str(call.input.shell_id);
  const output = orError(call, () => {
    if (!call.result) return '';
    const t = polledTask(call);
    const text = resultText(call.result);
    const recognised = t.status !== undefined || t.retrieval !== undefined || t.output !== undefined;
    const waited = t.retrieval === 'timeout' ? noteHtml('Still running when the wait timed out.') : '';
    const exit = t.exitCode !== undefined ? field('Exit code', String(t.exitCode)) : '';
    const body = t.output?.trim() ? terminalBlock(t.output) : recognised ? '' : text.trim() ? terminalBlock(text) : '';
    return html`${field('Task', t.description)}${field('Kind', t.type ? (TASK_TYPES[t.type] ?? t.type) : undefined)}${waited}${exit}${body}`;
  });
  const t = call.result && !call.result.isError ? polledTask(call) : undefined;
  const wait = call.input.block === false ? 'no wait' : num(call.input.timeout) !== undefined ? `wait up to ${formatDuration(num(call.input.timeout))}` : undefined;
  return toolFrame(call, ctx, {
    summary: html`${id ? html`<code>${id}</code>` : ''}${wait ? html` · ${wait}` : ''}`,
    badges: badgeHtml(t?.status, statusTone(t?.status)),
    output,
  });
}

/** TaskStop (and the older KillShell shape): which task was stopped, and the answer. */
export function renderTaskStop(call: ToolCall, ctx: RenderContext): SafeHtml {
  const id = str(call.input.task_id) ?? str(call.input.shell_id);
  const s = structured(call);
  const output = orError(call, () => {
    if (!call.result) return '';
    const message = str(s?.message) ?? resultText(call.result);
    return message.trim() ? noteHtml(message.trim()) : '';
  });
  const description = str(s?.command) ?? str(s?.description);
  return toolFrame(call, ctx, { summary: html`${id ? html`<code>${id}</code>` : ''}${description ? html` · ${description}` : ''}`, output });
}

/** Monitor: the command being watched, for how long, and the task that carries its events. */
export function renderMonitor(call: ToolCall, ctx: RenderContext): SafeHtml {
  const i = call.input;
  const command = str(i.command);
  const timeout = num(i.timeout_ms) ?? num(i.timeout);
  const s = structured(call);
  const output = orError(call, () => {
    if (!call.result) return '';
    const text = resultText(call.result);
    const taskId = str(s?.taskId) ?? str(s?.task_id) ?? /\btask ([\w-]+)/.exec(text)?.[1];
    return taskId ? noteHtml(html`Watching as task <code>${taskId}</code>; each new line arrives as a notification.`) : text.trim() ? noteHtml(firstSentence(text)) : '';
  });
  const input = html`${command ? highlightCode(command, { lang: 'shellscript', className: 'command' }) : ''}${field('Timeout', timeout !== undefined ? formatDuration(timeout) : undefined)}`;
  return toolFrame(call, ctx, { summary: str(i.description), badges: i.persistent === true ? badgeHtml('persistent') : undefined, input, output });
}

/** The first sentence of a confirmation (the rest is advice to the model). */
function firstSentence(text: string): string {
  const t = text.trim();
  const m = /^[\s\S]*?[.!](?=\s|$)/.exec(t);
  return (m ? m[0] : t).slice(0, 300);
}

/** ScheduleWakeup: when Claude will come back, why, and with which prompt. */
export function renderScheduleWakeup(call: ToolCall, ctx: RenderContext): SafeHtml {
  const i = call.input;
  const seconds = num(i.delaySeconds) ?? num(i.delay_seconds);
  const prompt = str(i.prompt);
  const output = orError(call, () => (call.result && resultText(call.result).trim() ? noteHtml(firstSentence(resultText(call.result))) : ''));
  const input = html`${field('Reason', str(i.reason))}${prompt ? html`<div class="field"><span class="field-label">Prompt then</span>${longMarkdown(prompt, 'Prompt')}</div>` : ''}`;
  return toolFrame(call, ctx, { summary: seconds !== undefined ? `in ${formatDuration(seconds * 1000)}` : undefined, input, output });
}

/** CronCreate: the schedule, whether it repeats or survives a restart, the prompt, and the job id. */
export function renderCronCreate(call: ToolCall, ctx: RenderContext): SafeHtml {
  const i = call.input;
  const s = structured(call);
  const prompt = str(i.prompt);
  const output = orError(call, () => {
    if (!call.result) return '';
    const text = resultText(call.result);
    const id = str(s?.id) ?? str(s?.jobId) ?? /\bjob ([\w-]+)/i.exec(text)?.[1];
    const human = str(s?.humanSchedule) ?? str(s?.schedule);
    return id ? noteHtml(html`Scheduled as job <code>${id}</code>${human ? ` (${human})` : ''}.`) : text.trim() ? noteHtml(firstSentence(text)) : '';
  });
  const badges = html`${badgeHtml(i.recurring === false ? 'once' : 'recurring')}${i.durable === true ? badgeHtml('durable') : ''}`;
  const input = prompt ? longMarkdown(prompt, 'Prompt') : undefined;
  return toolFrame(call, ctx, { summary: html`<code>${str(i.cron) ?? ''}</code>`, badges, input, output });
}

interface CronJob {
  id: string;
  text: string;
}

/** Jobs of a CronList result: structured `jobs`, else one job per `<id> — …` line. */
function cronJobs(call: ToolCall): CronJob[] | undefined {
  const jobs = structuredList(call, 'jobs');
  if (jobs) {
    return jobs.map((j) => ({ id: str(j.id) ?? '?', text: [str(j.humanSchedule) ?? str(j.cron), str(j.prompt)].filter(Boolean).join(': ') }));
  }
  const text = call.result ? resultText(call.result).trim() : '';
  if (!text) return [];
  const lines = text.split('\n').filter((l) => l.trim());
  const parsed = lines.map((l) => /^\s*([\w-]+)\s+[—-]\s+(.*)$/.exec(l));
  if (parsed.every(Boolean)) return parsed.map((m) => ({ id: m![1], text: m![2] }));
  return undefined;
}

/** CronList: the scheduled jobs, one per line. */
export function renderCronList(call: ToolCall, ctx: RenderContext): SafeHtml {
  const output = orError(call, () => {
    if (!call.result) return '';
    const jobs = cronJobs(call);
    if (!jobs) return terminalBlock(resultText(call.result));
    if (!jobs.length || /^no (scheduled )?(cron )?jobs/i.test(resultText(call.result).trim())) return noteHtml('No scheduled jobs.');
    return html`<ul class="job-list">${jobs.map((j) => html`<li><code>${j.id}</code> ${j.text}</li>`)}</ul>`;
  });
  return toolFrame(call, ctx, { output });
}

/** CronDelete: which job was cancelled. */
export function renderCronDelete(call: ToolCall, ctx: RenderContext): SafeHtml {
  const output = orError(call, () => (call.result && resultText(call.result).trim() ? noteHtml(firstSentence(resultText(call.result))) : ''));
  return toolFrame(call, ctx, { summary: html`<code>${str(call.input.id) ?? ''}</code>`, output });
}
