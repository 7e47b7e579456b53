/** MCP tools and any tool we do not know: formatted JSON input, result as text. */
import type { ToolCall } from '../../transcript/types.js';
import type { RenderContext } from '../context.js';
import { html, type SafeHtml } from '../sanitize.js';
import { parseMcpName } from '../tool-data.js';
import { jsonBlock, toolFrame } from './common.js';

/** An MCP call: server and tool named, input as JSON, result text and images. */
export function renderMcp(call: ToolCall, ctx: RenderContext): SafeHtml {
  const parsed = parseMcpName(call.name);
  const summary = parsed ? html`<span class="mcp-server">${parsed.server}</span> · <span class="mcp-tool">${parsed.tool}</span>` : undefined;
  const input = Object.keys(call.input).length ? jsonBlock(call.input) : undefined;
  return toolFrame(call, ctx, { summary, input, className: 'tool-mcp' });
}

/** Any other tool: input as JSON, result as text. */
export function renderGeneric(call: ToolCall, ctx: RenderContext): SafeHtml {
  const input = Object.keys(call.input).length ? jsonBlock(call.input) : undefined;
  return toolFrame(call, ctx, { input, className: 'tool-generic' });
}
