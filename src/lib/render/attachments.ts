/**
 * Attachment entries (`type: "attachment"`) and mode markers, as a reader
 * would want them: hook results as one line where they happened (errors
 * visible), files, edits and memory the model was given as collapsible
 * context, mode changes as a small marker. Which kinds are shown at all is the
 * model's decision (src/lib/transcript/attachments.ts); a kind this module does
 * not know still renders, as a small collapsed "attachment: <type>" block with
 * its text fields, never as a JSON dump.
 */
import { formatCount, formatDuration, formatSize } from '../format.js';
import type { AttachmentMessage, MarkerMessage } from '../transcript/types.js';
import type { RenderContext } from './context.js';
import { highlightCode, languageForPath } from './highlight.js';
import { html, joinHtml, type HtmlValue, type SafeHtml } from './sanitize.js';
import type { MessageView } from './system.js';
import { codeBlock, field, FILE_INDEXED_LINES, imageFromBase64, markdownBlock, pathHtml, textBlock } from './tools/common.js';
import { jsonObjectOf, lineCount, num, obj, str } from './tool-data.js';

type AttachmentRenderer = (a: Record<string, unknown>, ctx: RenderContext, m: AttachmentMessage) => MessageView | undefined;

const RENDERERS: Record<string, AttachmentRenderer> = {
  hook_success: hookResult,
  hook_non_blocking_error: hookResult,
  hook_blocking_error: hookResult,
  hook_error_during_execution: hookResult,
  hook_cancelled: hookResult,
  hook_stopped_continuation: hookResult,
  hook_additional_context: hookResult,
  hook_permission_decision: hookResult,
  hook_system_message: hookResult,
  async_hook_response: hookResult,
  file: fileAttachment,
  edited_text_file: editedFile,
  edited_image_file: editedFile,
  nested_memory: memory,
  compact_file_reference: (a) => contextLine(html`File kept in context after compaction: ${pathHtml(displayPath(a))}`),
  directory: directory,
  pdf_reference: pdfReference,
  selected_lines_in_ide: ideSelection,
  opened_file_in_ide: (a) => contextLine(html`Opened ${pathHtml(displayPath(a))} in the IDE`),
  invoked_skills: invokedSkills,
  task_status: taskStatus,
  diagnostics: diagnostics,
  queued_command: queuedCommand,
};

/** The view of an attachment message, or undefined when it has nothing to show. */
export function attachmentView(m: AttachmentMessage, ctx: RenderContext): MessageView | undefined {
  const a = m.raw ?? {};
  const type = m.attachmentType || str(a.type) || '';
  const render = Object.prototype.hasOwnProperty.call(RENDERERS, type) ? RENDERERS[type] : unknownAttachment(type);
  return render(a, ctx, m);
}

/** The attachment kinds this module renders by meaning. */
export const KNOWN_ATTACHMENT_TYPES: readonly string[] = Object.keys(RENDERERS);

/** Grammars an attachment's file needs (call from `prepareMessages`). */
export function collectAttachmentLanguages(m: AttachmentMessage, langs: Set<string>): void {
  const p = str(m.raw?.filename) ?? str(obj(obj(m.raw?.content)?.file)?.filePath);
  if (!p) return;
  const l = languageForPath(p);
  if (l !== 'text') langs.add(l);
}

/** `1 line`, `12 lines`. */
function linesLabel(n: number): string {
  return `${formatCount(n)} line${n === 1 ? '' : 's'}`;
}

function displayPath(a: Record<string, unknown>): string {
  return str(a.displayPath) ?? str(a.filename) ?? str(a.path) ?? '';
}

function contextView(body: SafeHtml, extra = ''): MessageView {
  return { kind: 'attachment', body, extraClass: `compact context${extra}` };
}

function contextLine(text: HtmlValue): MessageView {
  return contextView(html`<p class="context-line">${text}</p>`);
}

/** Collapsible context: a one-line summary, the content inside. */
function contextDetails(summary: HtmlValue, content: HtmlValue): MessageView {
  return contextView(html`<details class="context"><summary>${summary}</summary>${content}</details>`);
}

// ---------------------------------------------------------------------------
// Hooks

const HOOK_OUTCOMES: Record<string, [string, string]> = {
  hook_success: ['ran', ''],
  hook_non_blocking_error: ['failed (did not block)', ' hook-warning'],
  hook_blocking_error: ['blocked', ' hook-error'],
  hook_error_during_execution: ['errored', ' hook-warning'],
  hook_cancelled: ['was cancelled', ' hook-warning'],
  hook_stopped_continuation: ['stopped Claude', ' hook-error'],
  hook_additional_context: ['added context', ''],
  hook_permission_decision: ['decided a permission', ''],
  hook_system_message: ['said', ''],
  async_hook_response: ['answered later', ''],
};

/** Text worth showing from a hook (an empty object on stdout is the usual nothing); JSON hook output in words. */
function said(v: unknown): string | undefined {
  if (Array.isArray(v)) v = v.filter((x) => typeof x === 'string').join('\n');
  if (typeof v !== 'string' || !v.trim() || v.trim() === '{}') return undefined;
  const json = jsonObjectOf(v);
  return json ? hookJsonInWords(json) : v.trim();
}

const HOOK_JSON_LABELS: Record<string, string> = {
  additionalContext: 'Added context',
  systemMessage: 'Message',
  reason: 'Reason',
  stopReason: 'Stop reason',
  decision: 'Decision',
  permissionDecision: 'Permission',
  permissionDecisionReason: 'Because',
  continue: 'Continue',
  suppressOutput: 'Output suppressed',
};

/**
 * Hooks answer Claude Code in JSON (`{"hookSpecificOutput": {"additionalContext": …}}`):
 * each field as `Label: value` on its own line, nested objects flattened, the event name left out.
 */
function hookJsonInWords(o: Record<string, unknown>, out: string[] = []): string | undefined {
  for (const [k, v] of Object.entries(o)) {
    if (k === 'hookEventName') continue;
    const nested = obj(v);
    if (nested) hookJsonInWords(nested, out);
    else if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out.push(`${HOOK_JSON_LABELS[k] ?? k}: ${String(v)}`);
    else if (Array.isArray(v)) out.push(`${HOOK_JSON_LABELS[k] ?? k}: ${v.map((x) => (typeof x === 'string' ? x : '…')).join(', ')}`);
  }
  return out.length ? out.join('\n') : undefined;
}

/** A hook's output field, with its kept whole output when it had one (see `AttachmentMessage.kept`). */
interface HookOutput {
  label: string;
  text: string;
  /** Read from files kept beside the session (`hook-<id>-stdout.txt`). */
  kept: boolean;
  /** Kept files pointed to but not found: `text` is the preview the record holds. */
  missing: boolean;
}

/** Characters of a kept output's first line shown in its summary. */
const KEPT_PREVIEW_CHARS = 120;

/**
 * A hook result as one line (event, outcome, command, time), with anything it
 * printed collapsed below. A whole output kept beside the session (hooks'
 * output over 10,000 characters) stays closed too, its first line in the
 * summary and all of it one click away, in the page.
 */
function hookResult(a: Record<string, unknown>, _ctx: RenderContext, m: AttachmentMessage): MessageView {
  const type = str(a.type) ?? '';
  const [outcome, tone] = HOOK_OUTCOMES[type] ?? ['ran', ''];
  const blocking = obj(a.blockingError);
  const name = str(a.hookName) ?? str(a.hookEvent) ?? 'hook';
  const command = str(a.command) ?? str(blocking?.command);
  const d = formatDuration(num(a.durationMs));
  const exit = num(a.exitCode);
  const decision = str(a.decision) ?? str(a.permissionDecision);
  const message = str(blocking?.blockingError) ?? (typeof a.blockingError === 'string' ? a.blockingError : undefined) ?? said(a.message) ?? said(a.reason);
  const output = (field: 'content' | 'stdout' | 'stderr', label: string): HookOutput | undefined => {
    const k = m.kept?.[field];
    const text = said(k ? k.text : a[field]);
    return text ? { label, text, kept: !!k?.files.length, missing: !!k?.missing.length } : undefined;
  };
  // `content` often repeats stdout: show each distinct text once.
  const outputs = [output('content', 'Output'), output('stdout', 'stdout'), output('stderr', 'stderr')].filter((x, i, all): x is HookOutput => !!x && all.findIndex((y) => y?.text === x.text) === i);
  // One short line of output fits on the hook's line; anything longer (or kept whole) is collapsed below it.
  const inline = outputs.length === 1 && !outputs[0].kept && !outputs[0].missing && lineCount(outputs[0].text) === 1 && outputs[0].text.length <= 240 ? outputs[0] : undefined;
  const line = html`<p class="hook-line">Hook <strong>${name}</strong> ${outcome}${decision ? html`: <code>${decision}</code>` : ''}${command ? html` · <code>${command}</code>` : ''}${d ? ` · ${d}` : ''}${exit !== undefined && exit !== 0 ? ` · exit ${exit}` : ''}${inline ? html` — <span class="hook-said${inline.label === 'stderr' ? ' stderr' : ''}">${inline.text}</span>` : ''}</p>`;
  const error = message ? html`<div class="tool-error"><p class="error-text">${message}</p></div>` : '';
  const loose = outputs.filter((o) => !o.kept);
  const out =
    loose.length && !inline
      ? html`<details class="hook-output"><summary>${loose.map((o) => o.label).join(', ')} · ${linesLabel(loose.reduce((n, o) => n + lineCount(o.text), 0))}</summary>${loose.map((o) => html`${loose.length > 1 ? html`<p class="stream-label">${o.label}</p>` : ''}${textBlock(o.text)}`)}${loose.some((o) => o.missing) ? html`<p class="tool-message kept-missing">Only a preview is shown: the whole output was not found beside the session.</p>` : ''}</details>`
      : '';
  return { kind: 'attachment', body: html`${line}${error}${out}${outputs.filter((o) => o.kept).map(keptHookOutput)}`, extraClass: `compact hook${tone}` };
}

/** A hook's whole output kept beside the session: closed, its first line in the summary, the whole text inside (no second "show more"). */
function keptHookOutput(o: HookOutput): SafeHtml {
  const first = o.text.trimStart().split('\n', 1)[0];
  const preview = first.length > KEPT_PREVIEW_CHARS ? `${first.slice(0, KEPT_PREVIEW_CHARS)}…` : first;
  return html`<details class="hook-output kept"><summary>${o.label} · ${linesLabel(lineCount(o.text))} · ${formatSize(Buffer.byteLength(o.text))}, whole output${preview ? html` — <span class="hook-said">${preview}</span>` : ''}</summary>${highlightCode(o.text, { className: 'plain' })}</details>`;
}

// ---------------------------------------------------------------------------
// Files, edits, memory

/** A file the model was given: path and size in the summary, its text (or image) inside. */
function fileAttachment(a: Record<string, unknown>, ctx: RenderContext): MessageView {
  const content = obj(a.content);
  const file = obj(content?.file);
  const path = displayPath(a) || str(file?.filePath) || 'file';
  if (content?.type === 'image') {
    const img = imageFromBase64(str(file?.base64), str(file?.type), ctx, `Attached image ${path}`);
    return contextDetails(html`Image attached: ${pathHtml(path)}`, img);
  }
  const text = str(file?.content) ?? (typeof a.content === 'string' ? a.content : undefined);
  if (text === undefined) return contextLine(html`File attached: ${pathHtml(path)}${content?.type ? ` (${String(content.type)})` : ''}`);
  const lines = num(file?.numLines) ?? lineCount(text);
  const total = num(file?.totalLines);
  const start = num(file?.startLine);
  const range = total !== undefined && total > lines ? ` of ${formatCount(total)}` : '';
  const code = highlightFile(text, path, start);
  return contextDetails(html`File attached: ${pathHtml(path)} · ${formatCount(lines)}${range} line${lines === 1 && !range ? '' : 's'}`, code);
}

/** File text highlighted by its path's language (plain text when the grammar is not loaded); search holds what shows before "show more", as of a file read. */
function highlightFile(text: string, path: string, startLine?: number): SafeHtml {
  return codeBlock(text, languageForPath(path), {
    startLine: startLine && startLine > 0 ? startLine : undefined,
    lineNumbers: startLine !== undefined && startLine > 0,
    indexedLines: FILE_INDEXED_LINES,
  });
}

/** A file changed outside Claude (by the user or a tool) since it was read: the changed part. */
function editedFile(a: Record<string, unknown>, ctx: RenderContext): MessageView {
  const path = displayPath(a);
  const snippet = str(a.snippet) ?? str(a.diff);
  if (str(a.type) === 'edited_image_file') {
    const img = obj(a.content);
    return contextDetails(html`Image changed: ${pathHtml(path)}`, imageFromBase64(str(obj(img?.file)?.base64) ?? str(img?.data), str(obj(img?.file)?.type), ctx, `Changed image ${path}`));
  }
  if (!snippet) return contextLine(html`File changed outside Claude: ${pathHtml(path)}`);
  return contextDetails(html`File changed outside Claude: ${pathHtml(path)} · ${linesLabel(lineCount(snippet))}`, highlightFile(snippet, path));
}

/** A memory file (CLAUDE.md) loaded into context: its path, its text as markdown. */
function memory(a: Record<string, unknown>, ctx: RenderContext): MessageView {
  const c = obj(a.content);
  const path = displayPath(a) || str(c?.path) || 'memory';
  const text = str(c?.content) ?? (typeof a.content === 'string' ? a.content : '');
  if (!text.trim()) return contextLine(html`Memory loaded: ${pathHtml(path)}`);
  return contextDetails(html`Memory loaded: ${pathHtml(path)} · ${linesLabel(lineCount(text))}`, markdownBlock(text));
}

/** A directory listing the model was given. */
function directory(a: Record<string, unknown>): MessageView {
  const path = displayPath(a);
  const text = str(a.content) ?? '';
  if (!text.trim()) return contextLine(html`Directory attached: ${pathHtml(path)}`);
  return contextDetails(html`Directory attached: ${pathHtml(path)} · ${linesLabel(lineCount(text))}`, textBlock(text));
}

/** A PDF the model was pointed at (too large to attach whole). */
function pdfReference(a: Record<string, unknown>): MessageView {
  const pages = num(a.pageCount);
  const bytes = num(a.fileSize);
  const facts = [pages !== undefined ? `${formatCount(pages)} pages` : '', bytes !== undefined ? `${formatCount(Math.max(1, Math.round(bytes / 1024)))} KB` : ''].filter(Boolean).join(', ');
  return contextLine(html`PDF referenced: ${pathHtml(displayPath(a))}${facts ? ` (${facts})` : ''}`);
}

/** Lines selected in the IDE when the prompt was sent. */
function ideSelection(a: Record<string, unknown>): MessageView {
  const path = displayPath(a);
  const from = num(a.lineStart);
  const to = num(a.lineEnd);
  const lines = from !== undefined ? (to !== undefined && to !== from ? `lines ${from}–${to}` : `line ${from}`) : 'lines';
  const text = str(a.content) ?? '';
  const summary = html`Selected ${lines} of ${pathHtml(path)}${str(a.ideName) ? ` in ${str(a.ideName)}` : ''}`;
  return text.trim() ? contextDetails(summary, highlightFile(text, path, from)) : contextLine(summary);
}

/** Skills loaded for the model: their names, each skill's text inside. */
function invokedSkills(a: Record<string, unknown>, ctx: RenderContext): MessageView {
  const skills = (Array.isArray(a.skills) ? a.skills : []).map(obj).filter((s): s is Record<string, unknown> => !!s);
  const names = skills.map((s) => str(s.name) ?? '?');
  const bodies = skills.filter((s) => str(s.content)?.trim()).map((s) => html`${skills.length > 1 ? html`<p class="field-label">${str(s.name) ?? ''}</p>` : ''}${markdownBlock(str(s.content) as string)}`);
  const summary = html`Skill${names.length === 1 ? '' : 's'} loaded: ${names.map((n, i) => html`${i ? ', ' : ''}<code>${n}</code>`)}`;
  return bodies.length ? contextDetails(summary, joinHtml(bodies)) : contextLine(summary);
}

/** A background task's state, told to the model. */
function taskStatus(a: Record<string, unknown>): MessageView {
  const status = str(a.status);
  const what = str(a.description) ?? str(a.taskId) ?? 'task';
  const delta = str(a.deltaSummary);
  return contextLine(html`Background ${str(a.taskType)?.replace(/_/g, ' ') ?? 'task'} <strong>${what}</strong>${status ? `: ${status.replace(/_/g, ' ')}` : ''}${delta ? html` — ${delta}` : ''}`);
}

/** New diagnostics (errors, warnings) an IDE or LSP reported: one line per problem, collapsed. */
function diagnostics(a: Record<string, unknown>): MessageView {
  const files = (Array.isArray(a.files) ? a.files : []).map(obj).filter((f): f is Record<string, unknown> => !!f);
  const rows: string[] = [];
  for (const f of files) {
    const uri = (str(f.uri) ?? str(f.path) ?? '').replace(/^file:\/\//, '');
    for (const d of (Array.isArray(f.diagnostics) ? f.diagnostics : []).map(obj)) {
      if (!d) continue;
      const start = obj(obj(d.range)?.start);
      const line = num(start?.line);
      rows.push(`${uri}${line !== undefined ? `:${line + 1}` : ''} ${str(d.severity) ?? ''} ${str(d.message) ?? ''}${str(d.source) ? ` [${str(d.source)}]` : ''}`.replace(/\s+/g, ' ').trim());
    }
  }
  if (!rows.length) return contextLine('Diagnostics: none');
  return contextDetails(html`Diagnostics: ${formatCount(rows.length)} problem${rows.length === 1 ? '' : 's'} in ${formatCount(files.length)} file${files.length === 1 ? '' : 's'}`, textBlock(rows.join('\n')));
}

/** A queued prompt that reached the renderer as an attachment (the model normally makes it a prompt). */
function queuedCommand(a: Record<string, unknown>, ctx: RenderContext): MessageView | undefined {
  const p = a.prompt;
  const text = typeof p === 'string' ? p : Array.isArray(p) ? p.map((b) => str(obj(b)?.text) ?? '').filter(Boolean).join('\n\n') : '';
  if (!text.trim()) return undefined;
  return { kind: 'prompt', label: 'queued', extraClass: 'queued', body: html`<div class="msg-body">${markdownBlock(text, 'md', '5')}</div>` };
}

/** An attachment kind not known here: collapsed, its type named, its short text fields listed. */
function unknownAttachment(type: string): AttachmentRenderer {
  return (a) => {
    const fields = Object.entries(a)
      .filter(([k, v]) => k !== 'type' && (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') && String(v).trim() !== '')
      .slice(0, 12)
      .map(([k, v]) => field(k, String(v).length > 500 ? `${String(v).slice(0, 500)}…` : String(v)));
    return { kind: 'attachment', extraClass: 'compact unknown', body: html`<details class="attachment-unknown"><summary>attachment: ${type || '(no type)'}</summary>${fields}</details>` };
  };
}

// ---------------------------------------------------------------------------
// Markers

const PERMISSION_MODES: Record<string, string> = {
  default: 'Default (ask before acting)',
  acceptEdits: 'Accept edits',
  bypassPermissions: 'Bypass permissions',
  plan: 'Plan',
  dontAsk: "Don't ask",
  auto: 'Auto',
};

/** A mode change as one quiet line where it happened. */
export function markerView(m: MarkerMessage): MessageView {
  const value = m.value ?? '';
  let text: HtmlValue;
  switch (m.markerType) {
    case 'plan-mode':
      text = value === 'exited' ? 'Left plan mode' : value === 're-entered' ? 'Back in plan mode' : 'Entered plan mode';
      break;
    case 'auto-mode':
      text = value === 'off' ? 'Auto mode off' : 'Auto mode on';
      break;
    case 'permission-mode':
      text = html`Permission mode: <strong>${PERMISSION_MODES[value] ?? value}</strong>`;
      break;
    case 'effort':
      text = html`Effort: <strong>${value}</strong>`;
      break;
    case 'mode':
      text = html`Mode: <strong>${value}</strong>`;
      break;
    case 'chain-jump':
      // A message Claude Code filed under an entry written long before it arrived (another session's message, often).
      text = html`The chain jumps back here: this was filed under line ${value} of the file, written earlier; it is shown where it was written`;
      break;
    case 'chain-break':
      text = value === 'first' ? html`The record starts mid-chain: its first entry names a parent that is not in the file` : html`The chain is broken here: this entry names a parent that is not in the file; what follows is shown in file order`;
      break;
    case 'remote-session':
      text = html`Remote session: <strong>${value}</strong>`;
      break;
    case 'cwd':
      text = html`Working directory: <code>${value}</code>`;
      break;
    default:
      text = html`${String(m.markerType).replace(/[-_]/g, ' ')}: <strong>${value}</strong>`;
  }
  return { kind: 'marker', body: html`<p class="marker-text">${text}</p>`, extraClass: `compact marker-${String(m.markerType).replace(/[^a-z0-9-]/gi, '')}` };
}
