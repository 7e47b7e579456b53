/**
 * Building blocks shared by the tool renderers: the frame every call sits in,
 * result text and images, collapsing long content, JSON and code blocks.
 */
import { formatCount } from '../../format.js';
import type { ContentBlock, ToolCall, ToolResult } from '../../transcript/types.js';
import { COLLAPSE_LINES, type RenderContext } from '../context.js';
import { highlightCode, highlightTerminal, stripAnsi } from '../highlight.js';
import { markdownToUnsanitizedHtml } from '../markdown.js';
import { escapeHtml, html, joinHtml, SafeHtml, sanitized, trustedHtml, type HtmlValue } from '../sanitize.js';

/** A string field of a loosely typed object, or undefined. */
export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** A number field, or undefined. */
export function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** A plain object, or undefined. */
export function obj(v: unknown): Record<string, unknown> | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** The structured `toolUseResult` when it is an object. */
export function structured(call: ToolCall): Record<string, unknown> | undefined {
  return obj(call.result?.toolUseResult);
}

/** Text of a tool result: the string content, or its text blocks joined. */
export function resultText(result: ToolResult | undefined): string {
  if (!result) return '';
  const c = result.content;
  if (typeof c === 'string') return c;
  if (!Array.isArray(c)) return '';
  return c
    .map((b) => (b && b.type === 'text' && typeof (b as { text?: unknown }).text === 'string' ? (b as { text: string }).text : ''))
    .filter(Boolean)
    .join('\n\n');
}

/** Image blocks of a tool result or a message. */
export function imageBlocks(blocks: unknown): ContentBlock[] {
  if (!Array.isArray(blocks)) return [];
  return blocks.filter((b): b is ContentBlock => !!b && typeof b === 'object' && (b as { type?: unknown }).type === 'image');
}

/** Counts lines the way a reader would (a trailing newline adds none). */
export function lineCount(text: string): number {
  if (!text) return 0;
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') ? n - 1 : n;
}

/**
 * Wraps content in a `<details>` when it has more than `COLLAPSE_LINES` lines,
 * with a summary saying how many. Works without JavaScript.
 */
export function collapsible(content: SafeHtml, lines: number, label: string, opts: { open?: boolean; threshold?: number } = {}): SafeHtml {
  if (lines <= (opts.threshold ?? COLLAPSE_LINES)) return content;
  return html`<details class="long"${opts.open ? trustedHtml(' open') : ''}><summary>${label} · ${formatCount(lines)} lines</summary>${content}</details>`;
}

/** Highlighted code, collapsed when long. */
export function codeBlock(text: string, lang: string | undefined, opts: { label?: string; startLine?: number; lineNumbers?: boolean; className?: string } = {}): SafeHtml {
  const block = highlightCode(text, { lang, startLine: opts.startLine, lineNumbers: opts.lineNumbers, className: opts.className });
  return collapsible(block, lineCount(text), opts.label ?? 'Show all');
}

/** Terminal output (ANSI colours rendered), collapsed when long. */
export function terminalBlock(text: string, label = 'Output', className = 'terminal'): SafeHtml {
  return collapsible(highlightTerminal(text, className), lineCount(stripAnsi(text)), label);
}

/** Plain text output, collapsed when long. */
export function textBlock(text: string, label = 'Output'): SafeHtml {
  return collapsible(highlightCode(text, { className: 'plain' }), lineCount(text), label);
}

/** Formatted JSON, highlighted. */
export function jsonBlock(value: unknown, label = 'Input'): SafeHtml {
  let text: string;
  try {
    text = JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    text = String(value);
  }
  return codeBlock(text, 'json', { label });
}

/**
 * Markdown as trusted markup: sanitised here unless the whole message will be
 * sanitised at the end (`ctx.finalSanitize`), so it is never sanitised twice.
 */
export function markdownHtml(md: string, ctx: Pick<RenderContext, 'finalSanitize'>): SafeHtml {
  const out = markdownToUnsanitizedHtml(md);
  return ctx.finalSanitize ? trustedHtml(out) : sanitized(out);
}

/** Markdown in a `<div>`, optionally with a search weight. */
export function markdownBlock(md: string, ctx: Pick<RenderContext, 'finalSanitize'>, className = 'md', weight?: string): SafeHtml {
  const w = weight ? trustedHtml(` data-pagefind-weight="${escapeHtml(weight)}"`) : '';
  return html`<div class="${className}"${w}>${markdownHtml(md, ctx)}</div>`;
}

/** A file path shown as code. */
export function pathHtml(path: string | undefined): SafeHtml {
  if (!path) return html``;
  return html`<code class="path">${path}</code>`;
}

const IMAGE_MAGIC: Array<{ type: string; test: (b: Buffer) => boolean }> = [
  { type: 'image/png', test: (b) => b.length > 8 && b[0] === 0x89 && b.toString('latin1', 1, 4) === 'PNG' },
  { type: 'image/jpeg', test: (b) => b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { type: 'image/gif', test: (b) => b.length > 6 && b.toString('latin1', 0, 4) === 'GIF8' },
  { type: 'image/webp', test: (b) => b.length > 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP' },
];

/**
 * The real type of image bytes, by their magic number. The declared media type
 * is never trusted: it is transcript text (and SVG, which can carry script when
 * opened directly, is never written as an asset).
 */
export function sniffImageType(bytes: Buffer): string | undefined {
  return IMAGE_MAGIC.find((m) => m.test(bytes))?.type;
}

/** Renders an image from base64 data through `ctx.emitAsset`; never inlines data. */
export function imageFromBase64(data: string | undefined, declaredType: string | undefined, ctx: RenderContext, alt = 'Image'): SafeHtml {
  if (!data) return html``;
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
  return html`<figure class="image"><a href="${url}"><img src="${url}" alt="${label}" loading="lazy" decoding="async"></a></figure>`;
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
  /** Short text after the tool name (a path, a command description). */
  summary?: HtmlValue;
  /** Input section. */
  input?: HtmlValue;
  /** Output section; when omitted, the result text is shown as plain text. */
  output?: HtmlValue;
  /** Extra badges in the header. */
  badges?: HtmlValue;
  /** Extra class on the frame. */
  className?: string;
}

/** Tool names made into class-safe slugs. */
export function toolSlug(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'tool';
}

/**
 * The frame of every tool call: header with name, summary and status; input;
 * output. Carries `data-tool-use-id` and `data-tool` (the HTML contract), and
 * the search weights: input 2, output 0.5 (or ignored unless `indexToolOutput`).
 */
export function toolFrame(call: ToolCall, ctx: RenderContext, parts: FrameParts): SafeHtml {
  const result = call.result;
  const isError = result?.isError === true;
  const classes = ['tool', `tool-${toolSlug(call.name)}`, parts.className, isError ? 'is-error' : '', !result ? 'no-result' : ''].filter(Boolean).join(' ');
  const status = isError
    ? html`<span class="badge badge-error">Error</span>`
    : !result
      ? html`<span class="badge badge-pending" title="No result was recorded for this call">No result</span>`
      : html``;
  const output = joinHtml([parts.output !== undefined ? parts.output : defaultOutput(call, ctx)]);
  const input = joinHtml([parts.input]);
  const summary = joinHtml([parts.summary]);
  const outAttrs = ctx.indexToolOutput ? trustedHtml(' data-pagefind-weight="0.5"') : trustedHtml(' data-pagefind-ignore');
  return html`<section class="${classes}" data-tool-use-id="${call.id}" data-tool="${call.name}"><header class="tool-head"><span class="tool-name">${call.name}</span>${summary.value ? html` <span class="tool-summary">${summary}</span>` : ''}${parts.badges ?? ''}${status}</header>${input.value ? html`<div class="tool-input" data-pagefind-weight="2">${input}</div>` : ''}${output.value ? html`<div class="tool-output"${outAttrs}>${output}</div>` : ''}</section>`;
}

/** Result text as plain text plus any images; errors get their own class. */
export function defaultOutput(call: ToolCall, ctx: RenderContext): SafeHtml {
  const result = call.result;
  if (!result) return html``;
  const text = resultText(result);
  const images = Array.isArray(result.content) ? renderImages(result.content, ctx, 'Tool result image') : html``;
  if (result.isError) return html`${errorBlock(text)}${images}`;
  if (!text.trim()) return images;
  return html`${textBlock(cleanResultText(text))}${images}`;
}

/** An error result: its text, with the `<tool_use_error>` wrapper removed. */
export function errorBlock(text: string): SafeHtml {
  const clean = text.replace(/^\s*<tool_use_error>([\s\S]*?)<\/tool_use_error>\s*$/, '$1');
  return html`<div class="tool-error">${collapsible(highlightCode(stripAnsi(clean), { className: 'plain error-text' }), lineCount(clean), 'Error')}</div>`;
}

/** Drops the `<system-reminder>` blocks Claude Code appends to results: they are not output. */
export function cleanResultText(text: string): string {
  return text.replace(/\n*<system-reminder>[\s\S]*?<\/system-reminder>\n*/g, '\n').replace(/\n+$/, '');
}

/** A definition-list row, skipped when the value is empty. */
export function field(label: string, value: HtmlValue): SafeHtml {
  if (value === undefined || value === null || value === '' || value === false) return html``;
  if (value instanceof SafeHtml && value.value === '') return html``;
  return html`<div class="field"><span class="field-label">${label}</span> <span class="field-value">${value}</span></div>`;
}
