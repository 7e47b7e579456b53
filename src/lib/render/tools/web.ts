/** WebFetch and WebSearch. */
import { formatCount, formatDuration } from '../../format.js';
import type { ToolCall } from '../../transcript/types.js';
import type { RenderContext } from '../context.js';
import { html, type SafeHtml } from '../sanitize.js';
import { collapsible, errorBlock, field, linkHtml, markdownBlock, toolFrame } from './common.js';
import { lineCount, num, obj, resultText, str, structured } from '../tool-data.js';

/** WebFetch: the URL (a link only when http/https), the question asked, and the answer as markdown. */
export function renderWebFetch(call: ToolCall, ctx: RenderContext): SafeHtml {
  const url = str(call.input.url) ?? str(structured(call)?.url) ?? '';
  const s = structured(call);
  const meta = [num(s?.code) !== undefined ? `${num(s?.code)} ${str(s?.codeText) ?? ''}`.trim() : undefined, num(s?.bytes) !== undefined ? `${formatCount(num(s?.bytes) ?? 0)} bytes` : undefined, formatDuration(num(s?.durationMs))].filter(Boolean).join(' · ');
  const input = field('Prompt', str(call.input.prompt));
  const r = call.result;
  let output = html``;
  if (r) {
    const text = str(s?.result) ?? resultText(r);
    output = r.isError ? errorBlock(resultText(r)) : html`${meta ? html`<p class="count">${meta}</p>` : ''}${collapsible(markdownBlock(text), lineCount(text), 'Show page summary')}`;
  }
  return toolFrame(call, ctx, { summary: linkHtml(url), input, output });
}

interface SearchLink {
  title: string;
  url: string;
}

/** Links from the structured results: strings are commentary, objects hold `content: [{title,url}]`. */
function searchLinks(results: unknown): { links: SearchLink[]; notes: string[] } {
  const links: SearchLink[] = [];
  const notes: string[] = [];
  if (!Array.isArray(results)) return { links, notes };
  for (const r of results) {
    if (typeof r === 'string') {
      notes.push(r);
      continue;
    }
    const content = obj(r)?.content;
    if (!Array.isArray(content)) continue;
    for (const c of content) {
      const o = obj(c);
      const url = str(o?.url);
      if (url) links.push({ title: str(o?.title) ?? url, url });
    }
  }
  return { links, notes };
}

/** WebSearch: the query, result links, and the model's notes as markdown. */
export function renderWebSearch(call: ToolCall, ctx: RenderContext): SafeHtml {
  const query = str(call.input.query) ?? '';
  const s = structured(call);
  const domains = ['allowed_domains', 'blocked_domains']
    .map((k) => (Array.isArray(call.input[k]) ? `${k.replace('_', ' ')}: ${(call.input[k] as unknown[]).join(', ')}` : ''))
    .filter(Boolean)
    .join('; ');
  const r = call.result;
  let output = html``;
  if (r) {
    if (r.isError) {
      output = errorBlock(resultText(r));
    } else {
      const { links, notes } = searchLinks(s?.results);
      const text = notes.length ? notes.join('\n\n') : resultText(r).replace(/^Links: \[.*\]$/m, '');
      const list = links.length ? html`<ul class="links">${links.map((l) => html`<li>${linkHtml(l.url, l.title)}</li>`)}</ul>` : html``;
      output = html`${list}${text.trim() ? collapsible(markdownBlock(text), lineCount(text), 'Show notes') : ''}`;
    }
  }
  return toolFrame(call, ctx, { summary: html`<q>${query}</q>`, input: field('Domains', domains), output });
}
