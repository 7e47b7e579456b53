/**
 * Building blocks shared by the tool renderers: the frame every call sits in,
 * result text and images, collapsing long content, JSON and code blocks.
 */
import { formatCount, formatSize } from '../../format.js';
import { imageFormatOf } from '../../redact/image-metadata.js';
import type { ContentBlock, ToolCall } from '../../transcript/types.js';
import { COLLAPSE_LINES, type RenderContext, type RepeatKey } from '../context.js';
import { highlightCode, highlightTerminal, stripAnsi } from '../highlight.js';
import { markdownToUnsanitizedHtml } from '../markdown.js';
import { summarizeToolCall } from '../tool-summary.js';
import { html, joinHtml, SafeHtml, sanitized, type HtmlValue } from '../sanitize.js';
import { cleanResultText, lineCount, obj, resultText, str, structured } from '../tool-data.js';

/** Image blocks of a tool result or a message. */
export function imageBlocks(blocks: unknown): ContentBlock[] {
  if (!Array.isArray(blocks)) return [];
  return blocks.filter((b): b is ContentBlock => !!b && typeof b === 'object' && (b as { type?: unknown }).type === 'image');
}

/**
 * Wraps content in a `<details>` when it has more than `COLLAPSE_LINES` lines,
 * with a summary saying how many. Works without JavaScript. For text blocks,
 * `previewBlock` (first lines shown, the rest behind "show more") reads better.
 */
export function collapsible(content: SafeHtml, lines: number, label: string, opts: { open?: boolean; threshold?: number } = {}): SafeHtml {
  if (lines <= (opts.threshold ?? COLLAPSE_LINES)) return content;
  return html`<details class="long"${opts.open ? OPEN : ''}><summary>${label} · ${formatCount(lines)} lines</summary>${content}</details>`;
}

const OPEN = html` open`;

/** Lines of a long block shown before its "show more". */
export const PREVIEW_LINES = 10;

/** Index of the `n`-th newline of a text (0-based n), or -1. */
function nthNewline(text: string, n: number): number {
  let i = -1;
  for (let k = 0; k <= n; k++) {
    i = text.indexOf('\n', i + 1);
    if (i === -1) return -1;
  }
  return i;
}

/**
 * A long block as a preview: its first `PREVIEW_LINES` lines, faded at the
 * bottom, then the rest in a `<details class="more">` whose summary says how
 * many lines it holds. Plain HTML, so it works without JavaScript, and a search
 * landing opens it like any collapsed section. `render` draws a part of the text,
 * given the 0-based number of its first line (for line numbers). Search indexes
 * the block's first `indexedLines` (`INDEXED_LINES` unless told; never fewer
 * than the preview shows).
 */
export function previewBlock(text: string, lines: number, render: (part: string, firstLine: number) => SafeHtml, opts: { indexedLines?: number } = {}): SafeHtml {
  if (lines <= COLLAPSE_LINES) return render(text, 0);
  const cut = nthNewline(text, PREVIEW_LINES - 1);
  if (cut === -1) return render(text, 0);
  const rest = text.slice(cut + 1).replace(/\n$/, '');
  const more = lines - PREVIEW_LINES;
  // Search indexes the start of a block, not the rest of a file dump or a long log (src/integrations/pagefind.ts).
  const indexed = Math.max(PREVIEW_LINES, opts.indexedLines ?? INDEXED_LINES);
  const unindexed = (part: string) => html`<div class="unindexed" data-pagefind-ignore>${render(part, indexed)}</div>`;
  let body: SafeHtml;
  if (lines <= indexed) body = render(rest, PREVIEW_LINES);
  else if (indexed === PREVIEW_LINES) body = unindexed(rest);
  else {
    const indexCut = nthNewline(rest, indexed - PREVIEW_LINES - 1);
    body = indexCut === -1 ? render(rest, PREVIEW_LINES) : html`${render(rest.slice(0, indexCut), PREVIEW_LINES)}${unindexed(rest.slice(indexCut + 1))}`;
  }
  return html`<div class="preview">${render(text.slice(0, cut), 0)}<details class="more"><summary>Show ${formatCount(more)} more line${more === 1 ? '' : 's'}</summary>${body}</details></div>`;
}

/**
 * Lines of a long block that the search index holds: readers search for a
 * command, a path, what a tool printed first, not for line 3,000 of a file
 * dump. On the corpus, lines past the 100th of a block were 23 % of the
 * indexed text, and pagefind's time goes with the text it indexes.
 */
export const INDEXED_LINES = 100;

/**
 * Lines of a file's content that the search index holds (a file read, written
 * or attached): only what the page shows before "show more". A reader searches
 * for the file by its path, which its call's input holds, not for line 60 of
 * its content (a block short enough to show whole is indexed whole). On the generated 630 MB
 * session, a shard of 90 pages wrote its index in 4.0 s instead of 5.8 s, and
 * the index was 7.7 MB instead of 11 MB; on the corpus, files read were 39 %
 * of the tool output search held.
 */
export const FILE_INDEXED_LINES = PREVIEW_LINES;

/** Highlighted code, previewed when long. */
export function codeBlock(text: string, lang: string | undefined, opts: { startLine?: number; lineNumbers?: boolean; className?: string; indexedLines?: number } = {}): SafeHtml {
  const start = opts.startLine ?? 1;
  return previewBlock(text, lineCount(text), (part, first) => highlightCode(part, { lang, startLine: start + first, lineNumbers: opts.lineNumbers, className: opts.className }), opts);
}

/** Terminal output (ANSI colours rendered), previewed when long. */
export function terminalBlock(text: string, className = 'terminal'): SafeHtml {
  const clean = text.replace(/\n+$/, '');
  return previewBlock(clean, lineCount(stripAnsi(clean)), (part) => highlightTerminal(part, className));
}

/** Plain text output, previewed when long. */
export function textBlock(text: string): SafeHtml {
  return previewBlock(text, lineCount(text), (part) => highlightCode(part, { className: 'plain' }));
}

/** Formatted JSON, highlighted. */
export function jsonBlock(value: unknown): SafeHtml {
  let text: string;
  try {
    text = JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    text = String(value);
  }
  return codeBlock(text, 'json');
}

/**
 * Markdown as safe markup: what `marked` writes always goes through the
 * sanitiser (the only renderer output that does: the rest is `html`).
 */
export function markdownHtml(md: string): SafeHtml {
  return sanitized(markdownToUnsanitizedHtml(md));
}

/** Markdown in a `<div>`, optionally with a search weight. */
export function markdownBlock(md: string, className = 'md', weight?: string): SafeHtml {
  const w = weight ? html` data-pagefind-weight="${weight}"` : '';
  return html`<div class="${className}"${w}>${markdownHtml(md)}</div>`;
}

/** A file path shown as code. */
export function pathHtml(path: string | undefined): SafeHtml {
  if (!path) return html``;
  return html`<code class="path">${path}</code>`;
}

/**
 * The real type of image bytes, by their magic number (the same test
 * redaction reads images by). The declared media type is never trusted: it is
 * transcript text (and SVG, which can carry script when opened directly, is
 * never written as an asset).
 */
export function sniffImageType(bytes: Buffer): string | undefined {
  const format = imageFormatOf(bytes);
  return format && `image/${format}`;
}

/** Renders an image from base64 data through `ctx.emitAsset`; never inlines data. */
export function imageFromBase64(data: string | undefined, declaredType: string | undefined, ctx: RenderContext, alt = 'Image'): SafeHtml {
  if (data === undefined) return html``;
  // Emptied by redaction (an image whose metadata could not be taken out: src/lib/redact/image-metadata.ts) or by an imported copy (a format pages never show).
  if (data === '') return html`<p class="image-missing">${alt}: not shown (its data was left out: only PNG, JPEG, GIF and WebP images whose metadata can be taken out are published)</p>`;
  let bytes: Buffer;
  try {
    bytes = Buffer.from(data, 'base64');
  } catch {
    return html`<p class="image-missing">${alt}: unreadable image data</p>`;
  }
  const type = sniffImageType(bytes);
  if (!type) {
    const declared = declaredType ? ` (declared ${declaredType.slice(0, 60)})` : '';
    return html`<p class="image-missing">${alt}${declared}: not a PNG, JPEG, GIF or WebP image; not shown</p>`;
  }
  let url: string;
  try {
    url = ctx.emitAsset(bytes, type);
  } catch {
    return html`<p class="image-missing">${alt}: could not be written</p>`;
  }
  const kb = Math.max(1, Math.round(bytes.length / 1024));
  const label = `${alt} (${type.slice(6).toUpperCase()}, ${formatCount(kb)} KB)`;
  // rel as on every link that leaves the page (the sanitiser used to add it; see linkHtml).
  return html`<figure class="image"><a href="${url}" rel="nofollow noopener noreferrer"><img src="${url}" alt="${label}" loading="lazy" decoding="async"></a></figure>`;
}

/** Renders `image` content blocks (base64 sources become assets; URL sources become links). */
export function renderImages(blocks: unknown, ctx: RenderContext, alt = 'Image'): SafeHtml {
  const parts: SafeHtml[] = [];
  for (const b of imageBlocks(blocks)) {
    const source = obj((b as { source?: unknown }).source);
    if (!source) continue;
    if (source.type === 'base64') parts.push(imageFromBase64(str(source.data), str(source.media_type), ctx, alt));
    else if (typeof source.url === 'string') parts.push(html`<p class="image-link">${alt}: ${linkHtml(source.url)}</p>`);
  }
  return joinHtml(parts);
}

/** A link when the URL is http(s), else the URL as text. */
export function linkHtml(url: string, text?: string): SafeHtml {
  const u = url.trim();
  if (/^https?:\/\//i.test(u)) return html`<a href="${u}" rel="nofollow noopener noreferrer">${text ?? u}</a>`;
  return html`<span class="url">${text ?? u}</span>`;
}

export interface FrameParts {
  /** Short text shown in the expanded call when it says more than the row's key argument (a command's description). */
  summary?: HtmlValue;
  /** Input section. */
  input?: HtmlValue;
  /** Output section; when omitted, the result text is shown as plain text. */
  output?: HtmlValue;
  /** What the model wrote as the result (a subagent's answer): after the output, indexed like a message. */
  answer?: HtmlValue;
  /** Extra badges in the row. */
  badges?: HtmlValue;
  /** Extra class on the frame. */
  className?: string;
  /** Expanded when the page opens (default: edits, plans and questions, whose content is the point). */
  open?: boolean;
}

/**
 * The parts of a call's row, as selectors from the call (`[data-tool]`): one element each and no class,
 * as every call on a page has them. Tests and search find them here.
 */
export const TOOL_ROW = {
  name: ':scope > :is(summary, .tool-head) > b',
  target: ':scope > :is(summary, .tool-head) > span:not(.badge)',
  outcome: ':scope > :is(summary, .tool-head) > small',
} as const;

/** Calls shown expanded: what they did is the point of reading them. */
const OPEN_TOOLS = new Set(['Edit', 'MultiEdit', 'ExitPlanMode', 'AskUserQuestion']);

/** The text of SafeHtml markup, roughly: tags dropped, the escapes `escapeHtml` makes undone. */
function markupText(markup: string): string {
  return markup
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A text's words, bare of the brackets and punctuation around them. */
function wordsOf(text: string): string[] {
  return text.split(/\s+/).map((w) => w.replace(/^[([{'"]+|[)\]}'",.:;]+$/g, '')).filter((w) => w && w !== '·');
}

/**
 * Whether a summary only repeats its row: each of its words is a word of the
 * row's target or outcome (a Write's "path · 8 lines" under the row
 * "Write path … new file · 8 lines").
 */
function saysNothingNew(summaryText: string, row: { target?: string; outcome?: string }): boolean {
  if ((row.target ?? '').includes(summaryText)) return true;
  const rowWords = new Set(wordsOf(`${row.target ?? ''} ${row.outcome ?? ''}`));
  return wordsOf(summaryText).every((w) => rowWords.has(w));
}

/**
 * The frame of every tool call: a `<details>` whose summary is one row (tool,
 * key argument, outcome; from `summarizeToolCall`), expanding in place to the
 * input and output. Carries `data-tool-use-id` and `data-tool` (the HTML
 * contract), and the search weights: input 2, output 0.5 (or ignored unless
 * `indexToolOutput`). Labels of the row are kept out of search excerpts.
 */
export function toolFrame(call: ToolCall, ctx: RenderContext, parts: FrameParts): SafeHtml {
  const result = call.result;
  const isError = result?.isError === true;
  const row = summarizeToolCall(call);
  // Styled by `[data-tool]` where a tool needs it: a class per tool name was bytes on every call.
  const classes = ['tool', parts.className, isError ? 'is-error' : '', !result ? 'no-result' : ''].filter(Boolean).join(' ');
  const output = onceOnPage(joinHtml([parts.output !== undefined ? parts.output : defaultOutput(call, ctx)]), call, ctx, 'output');
  const input = onceOnPage(joinHtml([parts.input]), call, ctx, 'input');
  const summary = joinHtml([parts.summary]);
  const summaryText = summary.value ? markupText(summary.value) : '';
  // The renderer's summary is shown when it says more than the row: other words, or a link to follow.
  const note = summaryText && (!saysNothingNew(summaryText, row) || summary.value.includes('<a ')) ? html`<p class="tool-summary">${summary}</p>` : html``;
  const outAttrs = ctx.indexToolOutput ? html` data-pagefind-weight="0.5"` : html` data-pagefind-ignore`;
  const answer = joinHtml([parts.answer]);
  const body = html`${note}${input.value ? html`<div class="tool-input" data-pagefind-weight="2">${input}</div>` : ''}${output.value ? html`<div class="tool-output"${outAttrs}>${output}</div>` : ''}${answer.value ? html`<div class="tool-output" data-pagefind-weight="3">${answer}</div>` : ''}`;
  // The row: the tool's name in <b>, its key argument in a bare <span>, badges, the outcome in <small> (TOOL_ROW).
  const head = html`<b>${row.tool}</b>${row.target ? html` <span>${row.target}</span>` : ''}${parts.badges ?? ''}${row.outcome ? html` <small>${row.outcome}</small>` : ''}`;
  if (!body.value) return html`<div class="${classes}" id="t-${call.id}" data-tool-use-id="${call.id}" data-tool="${call.name}"><div class="tool-head">${head}</div></div>`;
  // A failed edit changed nothing: its row says why, its diff waits behind a click.
  const open = (parts.open ?? (OPEN_TOOLS.has(call.name) && !isError)) ? OPEN : '';
  // The row is the `<summary>` and the body the rest, styled as `.tool > summary` and `.tool::details-content`.
  return html`<details class="${classes}" id="t-${call.id}" data-tool-use-id="${call.id}" data-tool="${call.name}"${open}><summary>${head}</summary>${body}</details>`;
}

/**
 * What a block is drawn from: the same tool, input and result draw the same
 * block. (Its markup cannot be compared: deferred highlighting leaves numbered
 * placeholders in it until the message is finished.) The head is the tool and
 * its input; the whole adds what the block shows besides, made only when asked
 * (see `RepeatKey`).
 */
function repeatKey(call: ToolCall, what: 'input' | 'output'): RepeatKey {
  const s = structured(call);
  const whole =
    what === 'input'
      ? () => [what, call.name, call.input, s?.structuredPatch ?? null, s?.type ?? null]
      : () => [what, call.name, call.input, call.result?.content ?? null, call.result?.isError ?? null, s ?? null];
  return {
    head: serialized(call, what, [what, call.name, call.input]),
    full() {
      const key = serialized(call, what, whole());
      return key.length < REPEAT_MIN_CHARS ? undefined : key;
    },
  };
}

/** `value` as JSON, or a key of the call alone when it cannot be (a value JSON does not hold): the block is then never a repeat. */
function serialized(call: ToolCall, what: 'input' | 'output', value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    return `${what}:${call.id}`;
  }
}

/** Blocks shorter than this are repeated as they are: a link would save little. */
const REPEAT_MIN_CHARS = 1500;

/**
 * A long input or output already shown by an earlier call on this page (a file
 * read again, the same edit made by two subagents) becomes a link to it: the
 * reader sees that it repeats, and the page does not carry it twice.
 */
function onceOnPage(block: SafeHtml, call: ToolCall, ctx: RenderContext, what: 'input' | 'output'): SafeHtml {
  if (!block.value || !ctx.shownBefore) return block;
  // Measured on the data: the markup may still be short placeholders (deferred highlighting).
  const earlier = ctx.shownBefore(repeatKey(call, what), call.id);
  if (earlier === undefined || earlier === call.id) return block;
  return html`<p class="tool-message repeat">Same ${what} as <a href="#t-${earlier}">an earlier call</a>; not repeated here.</p>`;
}

/** Result text as plain text plus any images; errors get their own class. */
export function defaultOutput(call: ToolCall, ctx: RenderContext): SafeHtml {
  const result = call.result;
  if (!result) return html``;
  const text = resultText(result);
  const images = Array.isArray(result.content) ? renderImages(result.content, ctx, 'Tool result image') : html``;
  if (result.isError) return html`${errorBlock(text)}${images}`;
  if (!text.trim()) return images;
  return html`${keptMissingNote(call)}${textBlock(cleanResultText(text))}${images}`;
}

/** An error result: its text, with the `<tool_use_error>` wrapper removed. */
export function errorBlock(text: string): SafeHtml {
  const clean = text.replace(/^\s*<tool_use_error>([\s\S]*?)<\/tool_use_error>\s*$/, '$1');
  const plain = stripAnsi(clean);
  return html`<div class="tool-error">${previewBlock(plain, lineCount(plain), (part) => highlightCode(part, { className: 'plain error-text' }))}</div>`;
}

/** A definition-list row, skipped when the value is empty. */
export function field(label: string, value: HtmlValue): SafeHtml {
  if (value === undefined || value === null || value === '' || value === false) return html``;
  if (value instanceof SafeHtml && value.value === '') return html``;
  return html`<div class="field"><span class="field-label">${label}</span> <span class="field-value">${value}</span></div>`;
}

// ---------------------------------------------------------------------------
// Helpers for the newer tools (issue 11): results that arrive as tagged text or JSON text.

/** A small status badge; `tone` picks its colour class. */
export function badgeHtml(label: string | undefined, tone: 'ok' | 'warn' | 'error' | 'plain' = 'plain'): SafeHtml {
  if (!label) return html``;
  return html` <span class="badge${tone === 'plain' ? '' : ` badge-${tone}`}">${label}</span>`;
}

/** A note when the result points to a whole output that was not found beside the session (what is shown is only part of it). */
export function keptMissingNote(call: ToolCall): SafeHtml {
  const ref = call.result?.persistedOutput;
  if (!ref?.missing) return html``;
  return html`<p class="tool-message kept-missing">Only part of the output is shown: the whole output${ref.bytes !== undefined ? ` (${formatSize(ref.bytes)})` : ''} was not found beside the session.</p>`;
}

/** A one-line note in a tool's output (what happened, in words). */
export function noteHtml(text: HtmlValue): SafeHtml {
  return html`<p class="tool-message">${text}</p>`;
}

/** Text shown as markdown, collapsed when long (messages, prompts, answers). */
export function longMarkdown(text: string, label: string): SafeHtml {
  return collapsible(markdownBlock(text), lineCount(text), label);
}

/** An error result when there is one, else the given output. */
export function orError(call: ToolCall, output: () => HtmlValue): SafeHtml {
  const r = call.result;
  if (r?.isError) return errorBlock(resultText(r));
  return joinHtml([output()]);
}
