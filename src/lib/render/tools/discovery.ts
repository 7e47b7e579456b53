/**
 * Tools that look things up: ToolSearch (loading deferred tools), LSP (code
 * intelligence), and the MCP resource tools (ListMcpResourcesTool, ReadMcpResourceTool).
 */
import { formatCount } from '../../format.js';
import type { ToolCall } from '../../transcript/types.js';
import type { RenderContext } from '../context.js';
import { languageForPath } from '../highlight.js';
import { html, type SafeHtml } from '../sanitize.js';
import { codeBlock, field, linkHtml, noteHtml, orError, pathHtml, textBlock, toolFrame } from './common.js';
import { jsonObjectOf, num, obj, resultText, str, structured } from '../tool-data.js';

/** Tool names a ToolSearch found: structured `matches`, else `tool_reference` blocks. */
function toolMatches(call: ToolCall): string[] {
  const m = structured(call)?.matches;
  if (Array.isArray(m)) return m.filter((x): x is string => typeof x === 'string');
  const c = call.result?.content;
  if (!Array.isArray(c)) return [];
  return c.map((b) => str((b as { tool_name?: unknown }).tool_name)).filter((x): x is string => !!x);
}

/** ToolSearch: which tools were asked for (or the search words) and which were loaded. */
export function renderToolSearch(call: ToolCall, ctx: RenderContext): SafeHtml {
  const query = str(call.input.query) ?? '';
  const select = /^select:(.*)$/.exec(query);
  const output = orError(call, () => {
    if (!call.result) return '';
    const names = toolMatches(call);
    if (!names.length) {
      const text = resultText(call.result).trim();
      return noteHtml(text || 'No matching tools.');
    }
    const total = num(structured(call)?.total_deferred_tools);
    return html`<p class="tool-message">Loaded ${names.map((n, i) => html`${i ? ', ' : ''}<code>${n}</code>`)}${total !== undefined ? ` (of ${formatCount(total)} deferred tools)` : ''}</p>`;
  });
  const summary = select ? html`load ${select[1].split(',').filter(Boolean).join(', ')}` : html`<q>${query}</q>`;
  return toolFrame(call, ctx, { summary, output });
}

const LSP_OPERATIONS: Record<string, string> = {
  goToDefinition: 'Go to definition',
  findReferences: 'Find references',
  hover: 'Hover',
  documentSymbol: 'Symbols in file',
  workspaceSymbol: 'Symbols in workspace',
  goToImplementation: 'Go to implementation',
  prepareCallHierarchy: 'Call hierarchy',
  incomingCalls: 'Incoming calls',
  outgoingCalls: 'Outgoing calls',
};

/** LSP: the operation in words, the position asked about, and the answer as text. */
export function renderLsp(call: ToolCall, ctx: RenderContext): SafeHtml {
  const i = call.input;
  const op = str(i.operation) ?? '';
  const path = str(i.filePath) ?? str(i.file_path);
  const line = num(i.line);
  const character = num(i.character);
  const where = path ? `${path}${line !== undefined ? `:${line}${character !== undefined ? `:${character}` : ''}` : ''}` : undefined;
  const output = orError(call, () => {
    if (!call.result) return '';
    const text = resultText(call.result);
    return text.trim() ? textBlock(text) : noteHtml('No result.');
  });
  return toolFrame(call, ctx, { summary: html`${LSP_OPERATIONS[op] ?? op}${where ? html` ${pathHtml(where)}` : ''}${str(i.query) ? html` <q>${str(i.query)}</q>` : ''}`, output });
}

interface McpResource {
  uri: string;
  name?: string;
  server?: string;
  mimeType?: string;
  description?: string;
}

/** Resources of a ListMcpResourcesTool result: the structured array, else the JSON text. */
function resourcesOf(call: ToolCall): McpResource[] | undefined {
  let list: unknown = call.result?.toolUseResult;
  if (!Array.isArray(list) && call.result) {
    try {
      list = JSON.parse(resultText(call.result));
    } catch {
      return undefined;
    }
  }
  if (!Array.isArray(list)) return undefined;
  return list
    .map(obj)
    .filter((r): r is Record<string, unknown> => !!r && typeof r.uri === 'string')
    .map((r) => ({ uri: r.uri as string, name: str(r.name), server: str(r.server), mimeType: str(r.mimeType), description: str(r.description) }));
}

/** ListMcpResourcesTool: the resources MCP servers offer, one per line. */
export function renderListMcpResources(call: ToolCall, ctx: RenderContext): SafeHtml {
  const server = str(call.input.server);
  const output = orError(call, () => {
    if (!call.result) return '';
    const resources = resourcesOf(call);
    if (!resources) return textBlock(resultText(call.result));
    if (!resources.length) return noteHtml('No resources.');
    return html`<p class="count">${formatCount(resources.length)} resource${resources.length === 1 ? '' : 's'}</p><ul class="resource-list">${resources.map(
      (r) => html`<li>${r.name ? html`<strong>${r.name}</strong> ` : ''}<code>${r.uri}</code>${r.server && !server ? ` · ${r.server}` : ''}${r.description ? html` — ${r.description}` : ''}</li>`,
    )}</ul>`;
  });
  return toolFrame(call, ctx, { summary: server ? `server ${server}` : 'all servers', output });
}

/** Contents of a ReadMcpResourceTool result: `contents[]` with text or a blob. */
function contentsOf(call: ToolCall): Array<Record<string, unknown>> | undefined {
  const s = obj(call.result?.toolUseResult) ?? (call.result ? jsonObjectOf(resultText(call.result)) : undefined);
  const c = s?.contents;
  return Array.isArray(c) ? c.map(obj).filter((x): x is Record<string, unknown> => !!x) : undefined;
}

/** ReadMcpResourceTool: which resource was read and its text (binary contents are named, not shown). */
export function renderReadMcpResource(call: ToolCall, ctx: RenderContext): SafeHtml {
  const uri = str(call.input.uri) ?? '';
  const output = orError(call, () => {
    if (!call.result) return '';
    const contents = contentsOf(call);
    if (!contents) return textBlock(resultText(call.result));
    return html`${contents.map((c) => {
      const text = str(c.text);
      const mime = str(c.mimeType);
      if (text !== undefined) return mime === 'application/json' || mime?.startsWith('text/') ? codeBlock(text, mime === 'application/json' ? 'json' : languageForPath(str(c.uri) ?? uri)) : textBlock(text);
      const blob = str(c.blob);
      return noteHtml(`${mime ?? 'Binary'} content${blob ? `, ${formatCount(Math.floor((blob.length * 3) / 4))} bytes` : ''} (not shown)`);
    })}`;
  });
  const link = /^https?:/i.test(uri) ? linkHtml(uri) : html`<code>${uri}</code>`;
  return toolFrame(call, ctx, { summary: html`${link}`, input: field('Server', str(call.input.server)), output });
}
