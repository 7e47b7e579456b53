/**
 * System entries (`type: "system"`) by subtype: what each means to a reader.
 * Returns the parts of a message (its kind, label and body); the message frame
 * is the message renderer's. Unknown subtypes show their text, labelled with
 * the subtype, never a JSON dump.
 */
import { formatCount, formatDuration } from '../format.js';
import type { SystemMessage } from '../transcript/types.js';
import type { RenderContext } from './context.js';
import { highlightCode, highlightTerminal, stripAnsi } from './highlight.js';
import { html, type HtmlValue, type SafeHtml } from './sanitize.js';
import { badgeHtml, collapsible, markdownBlock, terminalBlock } from './tools/common.js';
import { lineCount, num, obj, str, taggedValue } from './tool-data.js';

/** What the message frame needs to show one message. */
export interface MessageView {
  /** `data-kind` of the message. */
  kind: string;
  body: SafeHtml;
  label?: HtmlValue;
  extraClass?: string;
}

type SystemRenderer = (m: SystemMessage, raw: Record<string, unknown>, ctx: RenderContext) => MessageView | undefined;

const RENDERERS: Record<string, SystemRenderer> = {
  api_error: apiError,
  // 2.1.2xx writes some API failures as `error` with the same `error` object.
  error: apiError,
  api_refusal: (m, raw) => refusal(m, raw, 'API refusal'),
  model_refusal_fallback: (m, raw) => refusal(m, raw, 'Model fallback'),
  turn_duration: (_m, raw) => ({ kind: 'system', body: turnDurationHtml(num(raw.durationMs)), extraClass: 'compact' }),
  away_summary: awaySummary,
  microcompact_boundary: (m, raw) => boundary(m, raw, 'Older tool results cleared to save context'),
  snip_boundary: (m, raw) => boundary(m, raw, 'Part of the conversation snipped to save context'),
  stop_hook_summary: stopHookSummary,
  session_start: sessionStart,
  informational: (m) => notice(m, undefined),
  memory_saved: (m, raw) => notice(m, 'Memory saved', str(raw.path) ?? str(raw.memoryPath) ?? str(raw.filePath)),
  agents_killed: (m, raw) => notice(m, 'Background agents stopped', num(raw.count) !== undefined ? `${num(raw.count)} stopped` : undefined),
  scheduled_task_fire: (m, raw) => notice(m, 'Scheduled task fired', str(raw.cron) ?? str(raw.taskId) ?? str(raw.jobId)),
  permission_retry: (m, raw) => notice(m, 'Permission retried', str(raw.toolName) ?? str(raw.tool)),
  local_command: localCommand,
  // 2.1.2xx: `/remote-control` connected the session to claude.ai. Its link (`url`) is never shown: whoever holds it reaches the live session.
  bridge_status: (m) => ({ kind: 'system', label: 'Remote control', body: html`<p class="system-text">${textOf(m).replace(/https?:\/\/\S+/g, '').trim() || 'Remote control is active'}</p>`, extraClass: 'notice compact' }),
};

/** The view of a system message, or undefined when it has nothing for a reader. */
export function systemView(m: SystemMessage, ctx: RenderContext): MessageView | undefined {
  const raw = m.raw ?? {};
  const render = Object.prototype.hasOwnProperty.call(RENDERERS, m.subtype) ? RENDERERS[m.subtype] : undefined;
  return render ? render(m, raw, ctx) : generic(m);
}

/** The subtypes this module renders by meaning (others fall back to their text). */
export const KNOWN_SYSTEM_SUBTYPES: readonly string[] = Object.keys(RENDERERS);

/**
 * A turn's duration as a quiet line (`Turn took 4 min 7 s`), for the turn's
 * footer or the `turn_duration` entry; empty for a missing value.
 */
export function turnDurationHtml(ms: number | undefined): SafeHtml {
  const d = formatDuration(ms);
  return d ? html`<p class="turn-duration">Turn took ${d}</p>` : html``;
}

function textOf(m: SystemMessage): string {
  return stripAnsi(m.text ?? str(m.raw?.content) ?? '').trim();
}

/** An API error: HTTP status and cause in words, and the retry it led to. */
function apiError(m: SystemMessage, raw: Record<string, unknown>): MessageView {
  const error = obj(raw.error);
  const inner = obj(obj(error?.error)?.error);
  const cause = obj(raw.cause) ?? obj(error?.cause) ?? obj(error?.connection);
  const status = num(error?.status);
  const what = [
    status ? `HTTP ${status}` : undefined,
    (str(inner?.type) ?? str(error?.type))?.replace(/_/g, ' '),
    str(cause?.code),
    str(inner?.message) ?? str(error?.message) ?? str(cause?.message),
  ].filter((x, i, all) => !!x && all.indexOf(x) === i);
  const attempt = num(raw.retryAttempt);
  const max = num(raw.maxRetries);
  const retryIn = formatDuration(num(raw.retryInMs));
  const retry = attempt ? `retry ${attempt}${max ? ` of ${max}` : ''}${retryIn ? ` in ${retryIn}` : ''}` : undefined;
  const text = [...what, retry].filter(Boolean).join(' · ');
  return { kind: 'api-error', label: 'API error', body: html`<p class="api-error-text">${text || textOf(m) || 'API error'}</p>` };
}

/** Links to the messages a refusal withdrew (they keep their anchors on the page when shown). */
function retracted(raw: Record<string, unknown>): SafeHtml {
  const ids = Array.isArray(raw.retractedMessageUuids) ? raw.retractedMessageUuids.filter((x): x is string => typeof x === 'string') : [];
  if (!ids.length) return html``;
  return html`<p class="retracted">${formatCount(ids.length)} message${ids.length === 1 ? ' was' : 's were'} withdrawn: ${ids.map((id, i) => html`${i ? ', ' : ''}<a href="#m-${id}">${id.slice(0, 8)}</a>`)}</p>`;
}

/** A refusal (api_refusal) or a fallback to another model after one (model_refusal_fallback). */
function refusal(m: SystemMessage, raw: Record<string, unknown>, label: string): MessageView {
  const category = str(raw.apiRefusalCategory);
  const explanation = str(raw.apiRefusalExplanation);
  const from = str(raw.originalModel);
  const to = str(raw.fallbackModel);
  const fallback = m.subtype === 'model_refusal_fallback' && (from || to);
  const line = fallback
    ? html`<code>${from ?? 'the model'}</code> declined; answered by <code>${to ?? 'another model'}</code> instead`
    : html`The API refused to answer${category ? html` (${category.replace(/_/g, ' ')})` : ''}`;
  return {
    kind: 'api-error',
    label,
    extraClass: 'refusal',
    body: html`<p class="api-error-text">${line}${explanation ? html`: ${explanation}` : '.'}</p>${retracted(raw)}`,
  };
}

/** The recap Claude Code writes when the user comes back: a card, without the settings hint. */
function awaySummary(m: SystemMessage, _raw: Record<string, unknown>, ctx: RenderContext): MessageView | undefined {
  const text = textOf(m).replace(/\s*\(disable recaps in \/config\)\s*$/i, '');
  if (!text) return undefined;
  return { kind: 'system', label: 'Recap', extraClass: 'recap', body: html`<aside class="recap-card"><p class="recap-label">While you were away</p>${markdownBlock(text, 'md', '1')}</aside>` };
}

/** A context boundary other than a full compaction: a divider with what was dropped. */
function boundary(m: SystemMessage, raw: Record<string, unknown>, what: string): MessageView {
  const meta = obj(raw.microcompactMetadata) ?? obj(raw.snipMetadata) ?? obj(raw.compactMetadata) ?? raw;
  const saved = num(meta.tokensSaved) ?? num(meta.tokensFreed);
  const pre = num(meta.preTokens);
  const trigger = str(meta.trigger);
  const facts = [trigger, saved !== undefined ? `${formatCount(saved)} tokens freed` : undefined, pre !== undefined ? `${formatCount(pre)} tokens before` : undefined].filter(Boolean).join(' · ');
  return { kind: 'compaction', body: html`<div class="divider" role="separator"></div><p class="compaction-summary">${what}${facts ? ` · ${facts}` : ''}</p>`, extraClass: 'boundary' };
}

/** Stop hooks that ran when Claude stopped, their errors, and whether they kept it going. */
function stopHookSummary(_m: SystemMessage, raw: Record<string, unknown>): MessageView {
  const infos = Array.isArray(raw.hookInfos) ? raw.hookInfos.map(obj).filter((x): x is Record<string, unknown> => !!x) : [];
  const errors = Array.isArray(raw.hookErrors) ? raw.hookErrors.map((e) => (typeof e === 'string' ? e : (str(obj(e)?.message) ?? str(obj(e)?.error) ?? ''))).filter(Boolean) : [];
  const hooks = infos.map((h, i) => {
    const d = formatDuration(num(h.durationMs));
    return html`${i ? ', ' : ''}<code>${str(h.command) ?? '?'}</code>${d ? ` (${d})` : ''}`;
  });
  const prevented = raw.preventedContinuation === true;
  const reason = str(raw.stopReason);
  const body = html`<p class="system-text">Stop hook${infos.length === 1 ? '' : 's'}: ${hooks.length ? hooks : 'none'}${prevented ? badgeHtml('kept Claude going', 'warn') : ''}${reason ? html` — ${reason}` : ''}</p>${errors.length ? html`<div class="tool-error">${highlightCode(errors.join('\n'), { className: 'plain error-text' })}</div>` : ''}`;
  return { kind: 'system', body, extraClass: errors.length ? 'compact level-warning' : 'compact' };
}

const SESSION_SOURCES: Record<string, string> = { resume: 'Session resumed', clear: 'Context cleared', compact: 'Session continued after compaction', startup: '' };

/** A session start says nothing unless it was a resume or a clear. */
function sessionStart(m: SystemMessage, raw: Record<string, unknown>): MessageView | undefined {
  const source = str(raw.source) ?? str(raw.trigger);
  const label = source ? SESSION_SOURCES[source] : undefined;
  const text = textOf(m);
  if (!label && !text) return undefined;
  return { kind: 'system', extraClass: 'compact', body: html`<p class="system-text">${label || text}</p>` };
}

/** A notice: a label in words and its text. */
function notice(m: SystemMessage, label: string | undefined, detail?: string): MessageView | undefined {
  const text = textOf(m);
  if (!text && !label) return undefined;
  const level = m.level === 'error' || m.level === 'warning' ? ` level-${m.level}` : '';
  const body = lineCount(text) > 1 ? collapsible(highlightTerminal(text), lineCount(text), 'Show', { threshold: 3 }) : html`<p class="system-text">${text}</p>`;
  return { kind: 'system', label: label ? html`${label}${detail ? html` · <code>${detail}</code>` : ''}` : undefined, body: text ? body : html``, extraClass: `notice${level}` };
}

/** Output of a local command (`/cost`, `/mcp`) written as a system entry. */
function localCommand(m: SystemMessage): MessageView | undefined {
  const raw = m.text ?? '';
  const out = taggedValue(raw, 'local-command-stdout') ?? taggedValue(raw, 'local-command-stderr') ?? raw;
  if (!out.trim()) return undefined;
  return { kind: 'command', body: html`<div class="command-output">${terminalBlock(out)}</div>` };
}

/** Any other subtype: its text, labelled with the subtype in words. */
function generic(m: SystemMessage): MessageView {
  const text = m.text ?? '';
  const label = m.subtype && m.subtype !== 'info' ? m.subtype.replace(/_/g, ' ') : undefined;
  const body = lineCount(text) > 1 ? collapsible(highlightTerminal(text), lineCount(text), 'Show') : html`<p class="system-text">${stripAnsi(text)}</p>`;
  const level = m.level === 'error' || m.level === 'warning' ? `level-${m.level}` : undefined;
  return { kind: 'system', body, label, extraClass: level };
}
