/** Bash, BashOutput and KillShell/KillBash. */
import { formatDuration } from '../../format.js';
import type { ToolCall } from '../../transcript/types.js';
import type { RenderContext } from '../context.js';
import { highlightCode } from '../highlight.js';
import { html, joinHtml, type SafeHtml } from '../sanitize.js';
import { errorBlock, field, keptMissingNote, renderImages, terminalBlock, toolFrame } from './common.js';
import { cleanResultText, keptOutput, num, obj, resultText, str, structured } from '../tool-data.js';

/** Bash: the command as shell, its description, stdout/stderr with ANSI colours, and how it ended. */
export function renderBash(call: ToolCall, ctx: RenderContext): SafeHtml {
  const command = str(call.input.command) ?? '';
  const description = str(call.input.description);
  const background = call.input.run_in_background === true;
  const timeout = num(call.input.timeout);
  const input = html`${highlightCode(command, { lang: 'shellscript', className: 'command' })}${field('Timeout', timeout !== undefined ? formatDuration(timeout) : undefined)}`;
  const badges = joinHtml([background ? html`<span class="badge">background</span>` : '']);
  return toolFrame(call, ctx, { summary: description, input, output: bashOutput(call, ctx), badges });
}

function bashOutput(call: ToolCall, ctx: RenderContext): SafeHtml {
  const result = call.result;
  if (!result) return html``;
  const s = structured(call);
  // A large output's `stdout` is cut at 30,000 characters; the whole output kept beside the session wins.
  const stdout = keptOutput(call) ?? str(s?.stdout);
  const stderr = str(s?.stderr);
  const parts: SafeHtml[] = [];
  if (s && (stdout !== undefined || stderr !== undefined)) {
    // stdout needs no wrapper: only stderr is labelled.
    if (stdout) parts.push(terminalBlock(stdout));
    if (stderr) parts.push(html`<div class="stream stderr"><span class="stream-label">stderr</span>${terminalBlock(stderr)}</div>`);
    // An error result's text says what went wrong (exit code, rejection); show it when stdout/stderr do not.
    if (result.isError && !stdout && !stderr) parts.push(errorBlock(resultText(result)));
    if (s.isImage === true && Array.isArray(result.content)) parts.push(renderImages(result.content, ctx, 'Command output image'));
  } else {
    const text = cleanResultText(resultText(result));
    if (result.isError) parts.push(errorBlock(text));
    else if (text.trim()) parts.push(terminalBlock(text));
    if (Array.isArray(result.content)) parts.push(renderImages(result.content, ctx, 'Command output image'));
  }
  const status: SafeHtml[] = [];
  if (s?.interrupted === true) status.push(html`<span class="badge badge-warn">Interrupted</span>`);
  const interpretation = str(s?.returnCodeInterpretation);
  if (interpretation) status.push(html`<span class="exit-note">${interpretation}</span>`);
  const exit = /exit code (\d+)/i.exec(result.isError ? resultText(result) : '')?.[1];
  if (exit) status.push(html`<span class="badge badge-error">exit ${exit}</span>`);
  else if (result.isError) status.push(html`<span class="badge badge-error">failed</span>`);
  const bg = str(s?.backgroundTaskId);
  if (bg) status.push(html`<span class="exit-note">background task ${bg}</span>`);
  if (!parts.length && !status.length) parts.push(html`<p class="no-output">(no output)</p>`);
  return html`${keptMissingNote(call)}${parts}${status.length ? html`<div class="exit-status">${status}</div>` : ''}`;
}

/** BashOutput: a background shell's status and new output. */
export function renderBashOutput(call: ToolCall, ctx: RenderContext): SafeHtml {
  const s = structured(call);
  const id = str(call.input.bash_id) ?? str(call.input.shell_id) ?? str(s?.shellId);
  const summary = html`${id ? html`shell <code>${id}</code>` : ''}${str(s?.command) ? html` · <code>${str(s?.command)}</code>` : ''}`;
  let output: SafeHtml | undefined;
  if (s && (typeof s.stdout === 'string' || typeof s.stderr === 'string')) {
    const exitCode = num(s.exitCode);
    output = html`${field('Status', str(s.status))}${field('Exit code', exitCode !== undefined ? String(exitCode) : undefined)}${str(s.stdout) ? terminalBlock(str(s.stdout) ?? '') : ''}${str(s.stderr) ? html`<div class="stream stderr"><span class="stream-label">stderr</span>${terminalBlock(str(s.stderr) ?? '')}</div>` : ''}`;
  } else if (call.result && !call.result.isError) {
    output = terminalBlock(cleanResultText(resultText(call.result)));
  }
  return toolFrame(call, ctx, { summary, input: filterField(call), output });
}

function filterField(call: ToolCall): SafeHtml {
  return field('Filter', str(call.input.filter));
}

/** KillShell / KillBash: which shell, and the message back. */
export function renderKillShell(call: ToolCall, ctx: RenderContext): SafeHtml {
  const s = structured(call);
  const id = str(call.input.shell_id) ?? str(call.input.bash_id) ?? str(s?.shell_id);
  let output: SafeHtml | undefined;
  const message = str(s?.message) ?? str(obj(safeJson(resultText(call.result)))?.message);
  if (message && call.result && !call.result.isError) output = html`<p class="tool-message">${message}</p>`;
  return toolFrame(call, ctx, { summary: id ? html`shell <code>${id}</code>` : undefined, output });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
