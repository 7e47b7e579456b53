/** Grep, Glob and LS. */
import { formatCount } from '../../format.js';
import type { ToolCall } from '../../transcript/types.js';
import type { RenderContext } from '../context.js';
import { html, type SafeHtml } from '../sanitize.js';
import { collapsible, errorBlock, field, pathHtml, textBlock, toolFrame } from './common.js';
import { cleanResultText, num, resultText, str, structured } from '../tool-data.js';

/** A list of file names (set as paths by the list's class), collapsed when long. */
function fileList(files: string[]): SafeHtml {
  const list = html`<ul class="file-list">${files.map((f) => html`<li>${f}</li>`)}</ul>`;
  return collapsible(list, files.length, 'Show files');
}

function filenames(call: ToolCall): string[] | undefined {
  const f = structured(call)?.filenames;
  return Array.isArray(f) ? f.filter((x): x is string => typeof x === 'string') : undefined;
}

/** Grep: the pattern and options; matching files or matching lines. */
export function renderGrep(call: ToolCall, ctx: RenderContext): SafeHtml {
  const i = call.input;
  const pattern = str(i.pattern) ?? '';
  const flags = ['-i', '-n', '-A', '-B', '-C', 'multiline']
    .filter((k) => i[k] !== undefined && i[k] !== false)
    .map((k) => (i[k] === true ? k : `${k} ${String(i[k])}`))
    .join(' ');
  const input = html`${field('Path', pathHtml(str(i.path)))}${field('Files', str(i.glob) ?? str(i.include) ?? str(i.type))}${field('Mode', str(i.output_mode))}${field('Options', flags)}${field('Limit', num(i.head_limit) !== undefined ? String(num(i.head_limit)) : undefined)}`;
  const summary = html`<code class="pattern">${pattern}</code>`;
  return toolFrame(call, ctx, { summary, input, output: searchOutput(call) });
}

function searchOutput(call: ToolCall): SafeHtml {
  const r = call.result;
  if (!r) return html``;
  if (r.isError) return errorBlock(resultText(r));
  const s = structured(call);
  const files = filenames(call);
  const content = str(s?.content);
  const count = num(s?.numFiles) ?? files?.length;
  const truncated = s?.truncated === true ? html` <span class="badge">truncated</span>` : '';
  if (content) return html`<p class="count">${formatCount(num(s?.numLines) ?? 0)} matching lines</p>${textBlock(content)}`;
  // The structured file list is only a nicer view of what the model was shown; when the
  // result text says more than the list, the text is what the reader must see.
  if (files && !listCoversText(files, cleanResultText(resultText(r)))) return textBlock(cleanResultText(resultText(r)));
  if (files) {
    if (!files.length) return html`<p class="no-output">No matches</p>`;
    return html`<p class="count">${formatCount(count ?? files.length)} file${count === 1 ? '' : 's'}${truncated}</p>${fileList(files)}`;
  }
  const text = cleanResultText(resultText(r));
  return text.trim() ? textBlock(text) : html`<p class="no-output">No matches</p>`;
}

/** Whether every line of a result text is a header line or one of the listed files. */
function listCoversText(files: string[], text: string): boolean {
  const set = new Set(files);
  return text
    .split('\n')
    .map((l) => l.trim())
    .every((l) => !l || set.has(l) || /^(Found \d+ files?|No files found|\(Results are truncated.*\))$/.test(l));
}

/** Glob: the pattern and the files that matched. */
export function renderGlob(call: ToolCall, ctx: RenderContext): SafeHtml {
  const summary = html`<code class="pattern">${str(call.input.pattern) ?? ''}</code>`;
  return toolFrame(call, ctx, { summary, input: field('Path', pathHtml(str(call.input.path))), output: searchOutput(call) });
}

/** LS: the directory and its listing. */
export function renderLs(call: ToolCall, ctx: RenderContext): SafeHtml {
  const ignore = Array.isArray(call.input.ignore) ? call.input.ignore.filter((x): x is string => typeof x === 'string').join(', ') : undefined;
  return toolFrame(call, ctx, { summary: pathHtml(str(call.input.path)), input: field('Ignore', ignore) });
}
