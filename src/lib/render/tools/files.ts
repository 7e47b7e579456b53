/** Read, Write, Edit, MultiEdit and NotebookEdit. */
import { formatCount } from '../../format.js';
import { structuredPatch } from 'diff';
import type { ToolCall } from '../../transcript/types.js';
import type { RenderContext } from '../context.js';
import { highlightCode, languageForPath } from '../highlight.js';
import { html, joinHtml, type SafeHtml } from '../sanitize.js';
import { cleanResultText, collapsible, codeBlock, errorBlock, field, imageFromBase64, lineCount, num, obj, pathHtml, renderImages, resultText, str, structured, toolFrame } from './common.js';

/** A file path from the input or the structured result. */
function filePath(call: ToolCall): string | undefined {
  const s = structured(call);
  return str(call.input.file_path) ?? str(call.input.notebook_path) ?? str(call.input.path) ?? str(s?.filePath) ?? str(obj(s?.file)?.filePath);
}

// `     1→text` (current) or `1\ttext` (older versions): cat -n style.
const NUMBERED_LINE = /^\s*(\d+)(?:→|\t)(.*)$/;

/**
 * Parses `cat -n` style Read output into text and line numbers. Lines without a
 * number (wrapped or truncated output) keep the text and get no number.
 */
export function parseNumberedLines(text: string): { code: string; numbers: Array<number | undefined> } | undefined {
  const body = text.replace(/\n*<system-reminder>[\s\S]*$/, '');
  const lines = body.split('\n');
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  const out: string[] = [];
  const numbers: Array<number | undefined> = [];
  let matched = 0;
  for (const line of lines) {
    const m = NUMBERED_LINE.exec(line);
    if (m) {
      matched++;
      numbers.push(Number(m[1]));
      out.push(m[2]);
    } else {
      numbers.push(undefined);
      out.push(line);
    }
  }
  if (matched === 0 || matched < lines.length / 2) return undefined;
  return { code: out.join('\n'), numbers };
}

/** Read: the path, the range read, and the content highlighted with its real line numbers. */
export function renderRead(call: ToolCall, ctx: RenderContext): SafeHtml {
  const path = filePath(call);
  const offset = num(call.input.offset);
  const limit = num(call.input.limit);
  const range = offset !== undefined || limit !== undefined ? `lines ${offset ?? 1}${limit !== undefined ? `–${(offset ?? 1) + limit - 1}` : '+'}` : undefined;
  const summary = html`${pathHtml(path)}${range ? html` <span class="muted">${range}</span>` : ''}`;
  const result = call.result;
  let output: SafeHtml | undefined;
  if (result && !result.isError) {
    const s = structured(call);
    const file = obj(s?.file);
    const lang = languageForPath(path);
    const images = Array.isArray(result.content) ? renderImages(result.content, ctx, 'Image read from file') : html``;
    if (images.value) {
      output = images;
    } else if (s?.type === 'image' && file && typeof file.base64 === 'string') {
      output = imageFromBase64(file.base64, str(file.type), ctx, 'Image read from file');
    } else if (file && typeof file.content === 'string') {
      const start = num(file.startLine) ?? 1;
      output = codeBlock(file.content, lang, { startLine: start, lineNumbers: true, label: 'Show file' });
    } else {
      const text = resultText(result);
      const parsed = parseNumberedLines(text);
      if (parsed) {
        const block = highlightCode(parsed.code, { lang, lineLabel: (i) => parsed.numbers[i] });
        output = collapsible(block, parsed.numbers.length, 'Show file');
      }
      // else: the default output (plain text) is right, e.g. "File does not exist."
    }
  }
  return toolFrame(call, ctx, { summary, output });
}

/** Write: the path and the content written, or a diff when it replaced a file. */
export function renderWrite(call: ToolCall, ctx: RenderContext): SafeHtml {
  const path = filePath(call);
  const content = str(call.input.content) ?? str(structured(call)?.content) ?? '';
  const s = structured(call);
  const lang = languageForPath(path);
  const hunks = patchHunks(s?.structuredPatch);
  const replaced = s?.type === 'update' && hunks.length > 0;
  const input = replaced ? renderHunks(hunks, lang) : codeBlock(content, lang, { lineNumbers: true, label: 'Show file' });
  const badges = replaced ? html`<span class="badge">overwrite</span>` : s?.type === 'create' ? html`<span class="badge">new file</span>` : html``;
  const summary = html`${pathHtml(path)} <span class="muted">${formatCount(lineCount(content))} lines</span>`;
  return toolFrame(call, ctx, { summary, input, badges, output: resultOutput(call) });
}

/** Only errors and unusual results are worth showing for edits; success messages repeat the input. */
function resultOutput(call: ToolCall): SafeHtml {
  const r = call.result;
  if (!r) return html``;
  const text = cleanResultText(resultText(r));
  if (r.isError) return errorBlock(text);
  if (/has been (?:updated|created)|created successfully|^Applied \d+ edits?|^Updated cell|^Inserted cell|^Deleted cell/i.test(text)) return html``;
  return text.trim() ? html`<p class="tool-message">${text.slice(0, 2000)}</p>` : html``;
}

export interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

/** Hunks of a `structuredPatch` value, validated (it is transcript data). */
export function patchHunks(value: unknown): Hunk[] {
  if (!Array.isArray(value)) return [];
  const out: Hunk[] = [];
  for (const h of value) {
    const o = obj(h);
    if (!o || !Array.isArray(o.lines)) continue;
    out.push({
      oldStart: num(o.oldStart) ?? 1,
      oldLines: num(o.oldLines) ?? 0,
      newStart: num(o.newStart) ?? 1,
      newLines: num(o.newLines) ?? 0,
      lines: o.lines.filter((l): l is string => typeof l === 'string'),
    });
  }
  return out;
}

/** Computes hunks from old and new text (line numbers relative to the snippet). */
export function computeHunks(oldText: string, newText: string): Hunk[] {
  try {
    const patch = structuredPatch('a', 'b', oldText, newText, '', '', { context: 3 });
    return patch.hunks.map((h) => ({ oldStart: h.oldStart, oldLines: h.oldLines, newStart: h.newStart, newLines: h.newLines, lines: h.lines }));
  } catch {
    return [];
  }
}

/**
 * Renders hunks as a diff: each hunk highlighted in the file's language (so code
 * tokens keep their colours), each line classed add/del/ctx with its line number.
 */
export function renderHunks(hunks: Hunk[], lang: string): SafeHtml {
  const blocks: SafeHtml[] = [];
  let total = 0;
  for (const h of hunks) {
    const kinds: string[] = [];
    const labels: Array<number | undefined> = [];
    const code: string[] = [];
    let o = h.oldStart;
    let n = h.newStart;
    for (const line of h.lines) {
      const sign = line[0];
      if (sign === '\\') continue; // "\ No newline at end of file"
      if (sign === '+') {
        kinds.push('add');
        labels.push(n++);
      } else if (sign === '-') {
        kinds.push('del');
        labels.push(o++);
      } else {
        kinds.push('ctx');
        labels.push(n++);
        o++;
      }
      code.push(sign === '+' || sign === '-' || sign === ' ' ? line.slice(1) : line);
    }
    total += code.length;
    const header = `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`;
    blocks.push(
      html`<div class="hunk"><div class="hunk-head">${header}</div>${highlightCode(code.join('\n'), { lang, className: 'diff', lineClass: (i) => kinds[i], lineLabel: (i) => labels[i] })}</div>`,
    );
  }
  if (!blocks.length) return html`<p class="no-output">(no changes)</p>`;
  return collapsible(html`<div class="diff-view">${blocks}</div>`, total, 'Show diff');
}

/** Edit: a diff from `structuredPatch` when recorded, else computed from old/new strings. */
export function renderEdit(call: ToolCall, ctx: RenderContext): SafeHtml {
  const path = filePath(call);
  const lang = languageForPath(path);
  const s = structured(call);
  let hunks = patchHunks(s?.structuredPatch);
  if (!hunks.length) hunks = computeHunks(str(call.input.old_string) ?? str(s?.oldString) ?? '', str(call.input.new_string) ?? str(s?.newString) ?? '');
  const badges = call.input.replace_all === true ? html`<span class="badge">replace all</span>` : html``;
  return toolFrame(call, ctx, { summary: pathHtml(path), input: renderHunks(hunks, lang), badges, output: resultOutput(call) });
}

/** MultiEdit: one diff for the whole file when recorded, else one per edit. */
export function renderMultiEdit(call: ToolCall, ctx: RenderContext): SafeHtml {
  const path = filePath(call);
  const lang = languageForPath(path);
  const s = structured(call);
  const edits = Array.isArray(call.input.edits) ? call.input.edits.map(obj).filter((e): e is Record<string, unknown> => !!e) : [];
  const recorded = patchHunks(s?.structuredPatch);
  let input: SafeHtml;
  if (recorded.length) {
    input = renderHunks(recorded, lang);
  } else {
    input = joinHtml(
      edits.map((e, i) => html`<div class="edit-item"><div class="edit-label">Edit ${i + 1} of ${edits.length}${e.replace_all === true ? ' · replace all' : ''}</div>${renderHunks(computeHunks(str(e.old_string) ?? '', str(e.new_string) ?? ''), lang)}</div>`),
    );
  }
  const summary = html`${pathHtml(path)} <span class="muted">${edits.length} edit${edits.length === 1 ? '' : 's'}</span>`;
  return toolFrame(call, ctx, { summary, input, output: resultOutput(call) });
}

/** NotebookEdit: which cell, how, and the new source in the cell's language. */
export function renderNotebookEdit(call: ToolCall, ctx: RenderContext): SafeHtml {
  const path = filePath(call);
  const s = structured(call);
  const mode = str(call.input.edit_mode) ?? str(s?.edit_mode) ?? 'replace';
  const cellType = str(call.input.cell_type) ?? str(s?.cell_type);
  const cell = num(call.input.cell_number) ?? str(call.input.cell_id);
  const lang = cellType === 'markdown' ? 'markdown' : (str(s?.language) ?? 'python');
  const source = str(call.input.new_source) ?? '';
  const summary = html`${pathHtml(path)}${cell !== undefined ? html` <span class="muted">cell ${String(cell)}</span>` : ''}`;
  const input = html`${field('Mode', mode)}${field('Cell type', cellType)}${mode === 'delete' ? '' : codeBlock(source, lang, { lineNumbers: true, label: 'Show cell' })}`;
  return toolFrame(call, ctx, { summary, input, output: resultOutput(call) });
}
