/**
 * Content blocks that are not text, thinking or client tool calls: attached
 * documents (`document`), `redacted_thinking`, and the server-side tools the
 * API runs itself (`server_tool_use` with its `web_search_tool_result`).
 */
import { formatCount, formatSize } from '../../format.js';
import { OMITTED_BYTES_KEY, type ContentBlock, type ToolCall } from '../../transcript/types.js';
import type { RenderContext } from '../context.js';
import { html, type SafeHtml } from '../sanitize.js';
import { badgeHtml, collapsible, linkHtml, noteHtml, textBlock, toolFrame } from './common.js';
import { lineCount, num, obj, str } from '../tool-data.js';

const DOC_TYPES: Record<string, string> = {
  'application/pdf': 'PDF',
  'text/plain': 'text',
  'text/markdown': 'Markdown',
  'text/csv': 'CSV',
  'text/html': 'HTML',
};

/** Bytes of base64 data, without decoding it. */
export function base64Bytes(data: string): number {
  const pad = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.replace(/\s+/g, '').length * 3) / 4) - pad);
}

/** The readable text of a document source (`text` sources, `content` sources of text blocks); never a PDF's bytes. */
function documentText(source: Record<string, unknown> | undefined): string | undefined {
  if (!source) return undefined;
  if (source.type === 'text') return str(source.data);
  if (source.type === 'content') {
    const c = source.content;
    if (typeof c === 'string') return c;
    if (Array.isArray(c)) return c.map((b) => str(obj(b)?.text) ?? '').filter(Boolean).join('\n\n');
  }
  return undefined;
}

/**
 * An attached document (a PDF or text file): its name, type and size; text
 * shown collapsed. A PDF's data is never written into the page (no `data:`
 * URL, nothing a browser could open or run); a `url` source becomes a link.
 */
export function renderDocumentBlock(block: ContentBlock): SafeHtml {
  const b = block as Record<string, unknown>;
  const source = obj(b.source);
  const media = str(source?.media_type);
  const kind = (media && DOC_TYPES[media]) ?? (source?.type === 'url' ? 'linked document' : media ? media.slice(0, 60) : 'document');
  const name = str(b.title) ?? str(b.name) ?? str(b.filename) ?? 'Untitled document';
  const text = documentText(source);
  const data = source?.type === 'base64' ? str(source.data) : undefined;
  // An imported copy keeps a document's size, not its bytes (scripts/lib/import/import-session.ts).
  const omitted = source?.type === 'base64' ? num(source[OMITTED_BYTES_KEY]) : undefined;
  const bytes = data ? base64Bytes(data) : omitted;
  const size = bytes !== undefined ? formatSize(bytes) : text !== undefined ? `${formatCount(lineCount(text))} lines` : undefined;
  const url = source?.type === 'url' ? str(source.url) : undefined;
  const head = html`<span class="doc-icon" aria-hidden="true">📄</span> <strong>${name}</strong> · ${kind}${size ? ` · ${size}` : ''}`;
  const context = str(b.context);
  if (text !== undefined && text.trim()) {
    return html`<details class="document"><summary>${head}</summary>${context ? noteHtml(context) : ''}${textBlock(text)}</details>`;
  }
  return html`<p class="document">${head}${url ? html` · ${linkHtml(url, 'open')}` : ''}${bytes !== undefined ? ' (not shown)' : ''}</p>`;
}

/** A thinking block whose content the API withheld: a quiet note, no data. */
export function renderRedactedThinking(ctx: Pick<RenderContext, 'renderThinking'>): SafeHtml {
  return ctx.renderThinking ? html`<p class="thinking redacted">Thinking withheld by the API (redacted)</p>` : html``;
}

/** The result blocks of server tools, by the id of the call they answer. */
function serverResultFor(id: string, blocks: ContentBlock[]): Record<string, unknown> | undefined {
  for (const b of blocks) {
    const o = b as Record<string, unknown>;
    if (o.type !== 'server_tool_use' && o.type !== 'tool_use' && typeof o.type === 'string' && o.type.endsWith('_tool_result') && o.tool_use_id === id) return o;
  }
  return undefined;
}

/** Whether a server tool result block will be shown with its call (so it is skipped on its own). */
export function hasServerCall(block: ContentBlock, blocks: ContentBlock[]): boolean {
  const id = str((block as Record<string, unknown>).tool_use_id);
  return !!id && blocks.some((b) => b.type === 'server_tool_use' && (b as Record<string, unknown>).id === id);
}

interface SearchHit {
  title: string;
  url: string;
  age?: string;
}

/** Links of a `web_search_tool_result` (its `content` array), or the error it carries. */
function searchResults(result: Record<string, unknown> | undefined): { hits: SearchHit[]; error?: string } {
  const c = result?.content;
  if (Array.isArray(c)) {
    const hits = c
      .map(obj)
      .filter((h): h is Record<string, unknown> => !!h && typeof h.url === 'string')
      .map((h) => ({ title: str(h.title) || (h.url as string), url: h.url as string, age: str(h.page_age) }));
    return { hits };
  }
  const err = obj(c);
  return { hits: [], error: err ? (str(err.error_code) ?? 'error').replace(/_/g, ' ') : undefined };
}

/** A result list of links, one `<li>` each. */
function hitList(hits: SearchHit[]): SafeHtml {
  if (!hits.length) return html``;
  return html`<ul class="links">${hits.map((h) => html`<li>${linkHtml(h.url, h.title)}${h.age ? html` <span class="muted">· ${h.age}</span>` : ''}</li>`)}</ul>`;
}

/**
 * A server tool call (`server_tool_use`: web search, web fetch, code
 * execution run by the API), framed like a tool call, with its result block
 * from the same message. Web search shows the query and the result links.
 */
export function renderServerToolUse(block: ContentBlock, blocks: ContentBlock[], entryUuid: string, ctx: RenderContext): SafeHtml {
  const b = block as Record<string, unknown>;
  const id = str(b.id) ?? '';
  const name = str(b.name) ?? 'server_tool';
  const input = obj(b.input) ?? {};
  const result = serverResultFor(id, blocks);
  const call: ToolCall = { id, name, input, entryUuid, result: result ? { uuid: entryUuid, content: '', isError: false } : undefined };
  const query = str(input.query);
  const url = str(input.url);
  let output: SafeHtml = html``;
  let badges: SafeHtml = html``;
  if (result && result.type === 'web_search_tool_result') {
    const { hits, error } = searchResults(result);
    output = error ? html`<div class="tool-error"><p class="error-text">Search failed: ${error}</p></div>` : hits.length ? hitList(hits) : noteHtml('No results.');
    badges = error ? badgeHtml('error', 'error') : badgeHtml(`${hits.length} result${hits.length === 1 ? '' : 's'}`);
  } else if (result) {
    output = serverResultText(result);
  }
  const code = str(input.code) ?? str(input.command);
  const summary = query ? html`<q>${query}</q>` : url ? linkHtml(url) : undefined;
  const inputHtml = code ? collapsible(textBlock(code), lineCount(code), 'Code') : undefined;
  return toolFrame(call, ctx, { summary, badges: html`${badgeHtml('server')}${badges}`, input: inputHtml, output, className: 'tool-server' });
}

/** The readable part of another server tool's result: its text fields, never a JSON dump. */
function serverResultText(result: Record<string, unknown>): SafeHtml {
  const c = obj(result.content);
  const text = str(c?.stdout) ?? str(c?.text) ?? str(obj(c?.content)?.text) ?? str(result.content);
  if (text && text.trim()) return textBlock(text);
  const error = str(c?.error_code);
  return error ? html`<div class="tool-error"><p class="error-text">${error.replace(/_/g, ' ')}</p></div>` : noteHtml(`${String(result.type).replace(/_/g, ' ')}`);
}

/** A server tool result whose call is not in the message: its links or text, on its own. */
export function renderOrphanServerResult(block: ContentBlock): SafeHtml {
  const b = block as Record<string, unknown>;
  if (b.type === 'web_search_tool_result') {
    const { hits, error } = searchResults(b);
    return html`<div class="server-result">${error ? html`<p class="error-text">Search failed: ${error}</p>` : hitList(hits)}</div>`;
  }
  return html`<div class="server-result">${serverResultText(b)}</div>`;
}
