/** Read, Write, Edit, MultiEdit and NotebookEdit. */
import { formatCount } from '../../format.js';
import { diffWordsWithSpace, wordsWithSpaceDiff, type Change } from 'diff';
import type { ToolCall } from '../../transcript/types.js';
import type { RenderContext } from '../context.js';
import { highlightCode, highlightLines, highlightWhenShown, languageForPath, LAZY_ATTR_HTML } from '../highlight.js';
import { html, joinHtml, type HtmlValue, type SafeHtml } from '../sanitize.js';
import { codeBlock, previewBlock, errorBlock, FILE_INDEXED_LINES, field, imageFromBase64, pathHtml, renderImages, toolFrame } from './common.js';
import { cleanResultText, computeHunks, lineCount, num, obj, patchHunks, resultText, str, structured, type Hunk } from '../tool-data.js';

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
      output = codeBlock(file.content, lang, { startLine: start, lineNumbers: true, indexedLines: FILE_INDEXED_LINES });
    } else {
      const text = resultText(result);
      const parsed = parseNumberedLines(text);
      if (parsed) {
        output = previewBlock(parsed.code, parsed.numbers.length, (part, first) => highlightCode(part, { lang, lineLabel: (i) => parsed.numbers[first + i] }), { indexedLines: FILE_INDEXED_LINES });
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
  const input = replaced ? renderHunks(hunks, lang) : codeBlock(content, lang, { lineNumbers: true, indexedLines: FILE_INDEXED_LINES });
  // A new file says so in the row's outcome ("new file · 8 lines"): no badge repeats it.
  const badges = replaced ? html`<span class="badge">overwrite</span>` : html``;
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

interface DiffRow {
  kind: 'add' | 'del' | 'ctx';
  /** Old and new line numbers before this row: where a block starting here starts its counters. */
  before: { o: number; n: number };
  text: string;
  /** Line markup: syntax tokens, or the text with the changed words in `<mark>`. */
  markup: SafeHtml;
  /** Whether `markup` marks changed words (such lines keep them rather than syntax colours). */
  marked?: boolean;
}

/** Diff rows above which the rest of a diff waits behind "show more". */
const DIFF_COLLAPSE_ROWS = 60;
/** Rows shown of a longer diff. */
const DIFF_PREVIEW_ROWS = 40;
/**
 * Word-diffing is quadratic in the worst case: runs longer than this are only marked by line.
 * On the corpus's 171 edits, the 3 between 4,000 and 6,000 characters took 63 % of all word-diff time.
 */
const WORD_DIFF_MAX_CHARS = 4000;

/**
 * Diffs longer than this (rewrites, mostly) are shown without syntax colours: on
 * the largest sessions their token spans were a fifth of the page, and a long
 * diff is read by its added and removed lines, not its keywords. The same bound
 * as collapsing: a diff long enough to wait behind "show more" is shown plain.
 */
const DIFF_HIGHLIGHT_MAX_ROWS = DIFF_COLLAPSE_ROWS;

/** The rows of one hunk, numbered, with their markup: escaped text, the changed words of changed lines marked. */
function hunkRows(h: Hunk): DiffRow[] {
  const rows: DiffRow[] = [];
  let o = h.oldStart;
  let n = h.newStart;
  for (const line of h.lines) {
    const sign = line[0];
    if (sign === '\\') continue; // "\ No newline at end of file"
    const body = sign === '+' || sign === '-' || sign === ' ' ? line.slice(1) : line;
    // A recorded line holding newlines (odd data) becomes several rows, so every row is one line.
    for (const text of body.split(/\r\n?|\n/)) {
      const kind = sign === '+' ? 'add' : sign === '-' ? 'del' : 'ctx';
      rows.push({ kind, before: { o: o - 1, n: n - 1 }, text, markup: html`${text}` });
      // Removed lines count in the old file, added ones in the new, context in both.
      if (kind !== 'add') o++;
      if (kind !== 'del') n++;
    }
  }
  markChangedWords(rows);
  return rows;
}

/** The same rows in the file's syntax colours, except lines with marked words (they stay plain text with `<mark>`s). */
function withSyntax(rows: DiffRow[], lang: string): DiffRow[] {
  const lines = highlightLines(rows.map((r) => r.text).join('\n'), { lang });
  return rows.map((r, i) => (r.marked ? r : { ...r, markup: lines[i] ?? r.markup }));
}

/**
 * Marks the words that changed between each run of removed lines and the run of
 * added lines right after it, so the reader sees the change inside a line. Runs
 * that share too little are left as whole-line changes: marking everything says
 * nothing. Marked lines are shown as plain text with `<mark>`s (no syntax colours).
 */
export function markChangedWords(rows: DiffRow[]): void {
  for (let i = 0; i < rows.length; ) {
    if (rows[i].kind !== 'del') {
      i++;
      continue;
    }
    let j = i;
    while (j < rows.length && rows[j].kind === 'del') j++;
    let k = j;
    while (k < rows.length && rows[k].kind === 'add') k++;
    if (k > j) markRunPair(rows.slice(i, j), rows.slice(j, k));
    i = k;
  }
}

function markRunPair(dels: DiffRow[], adds: DiffRow[]): void {
  const oldText = dels.map((r) => r.text).join('\n');
  const newText = adds.map((r) => r.text).join('\n');
  if (oldText.length > WORD_DIFF_MAX_CHARS || newText.length > WORD_DIFF_MAX_CHARS) return;
  const longest = Math.max(oldText.replace(/\s/g, '').length, newText.replace(/\s/g, '').length);
  // Most pairs that share too little are known without diffing: on the corpus, 58 % of word-diff time went to pairs then left unmarked.
  if (!longest || commonCharsBound(oldText, newText) / longest < WORD_DIFF_MIN_SHARED) return;
  let parts: Change[];
  try {
    parts = diffWordsWithSpace(oldText, newText);
  } catch {
    return;
  }
  const same = parts.filter((p) => !p.added && !p.removed).reduce((a, p) => a + p.value.replace(/\s/g, '').length, 0);
  if (same / longest < WORD_DIFF_MIN_SHARED) return;
  applyMarks(dels, parts.filter((p) => !p.added));
  applyMarks(adds, parts.filter((p) => !p.removed));
}

/** The share of non-space characters two runs must keep in common for their changed words to be marked. */
const WORD_DIFF_MIN_SHARED = 0.4;

/**
 * An upper bound of the non-space characters the word diff of two texts keeps
 * in common: its common parts are tokens (the diff's own tokeniser, compared
 * with `===`) found in both, in order, so at most the tokens both texts hold,
 * each counted as often as the rarer side holds it. A pair under the bound is
 * left unmarked without diffing it, as the diff would have decided.
 */
function commonCharsBound(oldText: string, newText: string): number {
  const counts = new Map<string, number>();
  for (const t of wordsWithSpaceDiff.tokenize(oldText)) counts.set(t, (counts.get(t) ?? 0) + 1);
  let bound = 0;
  for (const t of wordsWithSpaceDiff.tokenize(newText)) {
    const c = counts.get(t);
    if (!c) continue;
    counts.set(t, c - 1);
    bound += t.replace(/\s/g, '').length;
  }
  return bound;
}

/** Writes the markup of a run of lines from diff parts: changed parts in `<mark>`, split at newlines. */
function applyMarks(rows: DiffRow[], parts: Change[]): void {
  const lines: HtmlValue[][] = [[]];
  const marked: boolean[] = [false];
  for (const p of parts) {
    const changed = p.added || p.removed;
    p.value.split('\n').forEach((piece, idx) => {
      if (idx > 0) {
        lines.push([]);
        marked.push(false);
      }
      if (!piece) return;
      const mark = changed && !!piece.trim();
      lines[lines.length - 1].push(mark ? html`<mark>${piece}</mark>` : piece);
      if (mark) marked[marked.length - 1] = true;
    });
  }
  rows.forEach((r, i) => {
    r.markup = lines[i] ? html`${lines[i]}` : html`${r.text}`;
    r.marked = marked[i] ?? false;
  });
}

/** The element of each kind of row: removed and added lines are `<del>` and `<ins>`, context a bare `<span>`. */
const ROW: Record<DiffRow['kind'], (markup: SafeHtml) => SafeHtml> = {
  del: (m) => html`<del>${m}</del>`,
  add: (m) => html`<ins>${m}</ins>`,
  ctx: (m) => html`<span>${m}</span>`,
};

function rowsHtml(rows: DiffRow[]): SafeHtml {
  // No class and no number per line: on long diffs every byte per line counts. CSS counters number them.
  return joinHtml(rows.map((r) => ROW[r.kind](r.markup)), html`\n`);
}

/**
 * A block of diff rows. Its lines are numbered by two CSS counters, `o` (old
 * file: removed lines) and `n` (new file: added and context lines), that start
 * at `data-o` and `data-n`: the numbers of the lines before the block's first row.
 */
function diffPre(rows: DiffRow[], lang: string, lazy = false): SafeHtml {
  const start = rows[0]?.before ?? { o: 0, n: 0 };
  // No tabindex: diff lines wrap, so the block never scrolls sideways.
  return html`<pre class="code diff" data-lang="${lang}"${lazy ? LAZY_ATTR_HTML : ''} data-o="${start.o}" data-n="${start.n}"><code>${rowsHtml(rows)}</code></pre>`;
}

/**
 * A diff block in syntax colours where it is shown at once; where a closed
 * `<details>` hides it (a subagent's edit, a failed one), plain and marked for
 * the browser to colour when opened (src/scripts/lazy-highlight.ts): colouring
 * diffs nobody opens was a tenth of a cold build's render time.
 */
function diffBlock(rows: DiffRow[], lang: string, highlight: boolean): SafeHtml {
  if (!highlight) return diffPre(rows, lang);
  return highlightWhenShown(rows.map((r) => r.text).join('\n'), lang, () => diffPre(withSyntax(rows, lang), lang), () => diffPre(rows, lang, true));
}

/**
 * Renders hunks as a diff: removed lines in `<del>`, added ones in `<ins>`,
 * numbered by CSS counters (see `diffPre`), context in the file's syntax
 * colours, and the changed words of a changed line marked. A long diff shows its first rows and the rest behind "show more".
 */
export function renderHunks(hunks: Hunk[], lang: string): SafeHtml {
  const size = hunks.reduce((a, h) => a + h.lines.length, 0);
  const highlight = size <= DIFF_HIGHLIGHT_MAX_ROWS;
  const all = hunks.map((h) => ({ h, rows: hunkRows(h) }));
  const total = all.reduce((a, x) => a + x.rows.length, 0);
  if (!all.length) return html`<p class="no-output">(no changes)</p>`;
  const budget = total > DIFF_COLLAPSE_ROWS ? DIFF_PREVIEW_ROWS : Infinity;
  const shown: SafeHtml[] = [];
  const hidden: SafeHtml[] = [];
  let used = 0;
  for (const { h, rows } of all) {
    const header = html`<div class="hunk-head">@@ -${String(h.oldStart)},${String(h.oldLines)} +${String(h.newStart)},${String(h.newLines)} @@</div>`;
    const room = Math.max(0, budget - used);
    if (room >= rows.length) shown.push(html`<div class="hunk">${header}${diffBlock(rows, lang, highlight)}</div>`);
    else if (room > 0) {
      shown.push(html`<div class="hunk">${header}${diffBlock(rows.slice(0, room), lang, highlight)}</div>`);
      hidden.push(html`<div class="hunk">${diffBlock(rows.slice(room), lang, highlight)}</div>`);
    } else hidden.push(html`<div class="hunk">${header}${diffBlock(rows, lang, highlight)}</div>`);
    used += rows.length;
  }
  if (!hidden.length) return html`<div class="diff-view">${shown}</div>`;
  const more = total - DIFF_PREVIEW_ROWS;
  return html`<div class="diff-view preview">${shown}<details class="more"><summary>Show ${formatCount(more)} more line${more === 1 ? '' : 's'}</summary>${hidden}</details></div>`;
}

/** Edit: a diff from `structuredPatch` when recorded, else computed from old/new strings. */
export function renderEdit(call: ToolCall, ctx: RenderContext): SafeHtml {
  const path = filePath(call);
  const lang = languageForPath(path);
  const s = structured(call);
  let hunks = patchHunks(s?.structuredPatch);
  if (!hunks.length) hunks = computeHunks(str(call.input.old_string) ?? str(s?.oldString) ?? '', str(call.input.new_string) ?? str(s?.newString) ?? '', call);
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
      edits.map((e, i) => html`<div class="edit-item"><div class="edit-label">Edit ${i + 1} of ${edits.length}${e.replace_all === true ? ' · replace all' : ''}</div>${renderHunks(computeHunks(str(e.old_string) ?? '', str(e.new_string) ?? '', e), lang)}</div>`),
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
  const input = html`${field('Mode', mode)}${field('Cell type', cellType)}${mode === 'delete' ? '' : codeBlock(source, lang, { lineNumbers: true })}`;
  return toolFrame(call, ctx, { summary, input, output: resultOutput(call) });
}
