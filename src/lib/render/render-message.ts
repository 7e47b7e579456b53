/**
 * Renders transcript messages to sanitised HTML.
 *
 * HTML contract (tests, permalinks and search rely on it):
 * - each message: `<article class="msg msg-<kind>" id="m-<uuid>" data-uuid="<uuid>" data-kind="<kind>">`,
 *   kind one of prompt, assistant, command, compaction, system, api-error,
 *   interruption, bash, tool-result; meta caveats and `<synthetic>` filler render nothing;
 * - a human prompt also has `data-prompt="<N>"` and an `<h2 id="m-<uuid>">` (the permalink id sits on the
 *   heading of prompts and assistant messages, on the article otherwise);
 * - each tool call: `data-tool-use-id` and `data-tool`; a subagent transcript sits in `data-subagent`;
 * - each message has `<a class="permalink" href="#m-<uuid>">` in its `.msg-links`; the page script adds a
 *   copy-link button beside it (a button that only works with JavaScript is not sent without it).
 */
import { formatCount, formatDuration } from '../format.js';
import type { AssistantMessage, CompactionMessage, ContentBlock, Message, SystemMessage, ToolCall, UserMessage } from '../transcript/types.js';
import type { RenderContext, RenderContextOptions } from './context.js';
import { ensureLanguages, highlightCode, highlightTerminal, languageForPath, loadHighlighter, stripAnsi } from './highlight.js';
import { collectFenceLanguages } from './markdown.js';
import { renderToolCallHtml } from './render-tool.js';
import { escapeHtml, html, joinHtml, sanitizeHtml, trustedHtml, type HtmlValue, type SafeHtml } from './sanitize.js';
import { collapsible, markdownBlock, lineCount, num, obj, renderImages, str, terminalBlock } from './tools/common.js';

export type { RenderContext, RenderContextOptions } from './context.js';

type ResolvedOptions = Required<Omit<RenderContextOptions, 'turns'>> & { promptNumber: (uuid: string) => number | undefined };

/** Builds a context at a given depth; `renderMessages` renders one level deeper. */
function contextAt(options: ResolvedOptions, depth: number): RenderContext {
  return {
    emitAsset: options.emitAsset,
    indexToolOutput: options.indexToolOutput,
    renderThinking: options.renderThinking,
    indexThinking: options.indexThinking,
    finalSanitize: options.finalSanitize,
    depth,
    promptNumber: depth === 0 ? options.promptNumber : () => undefined,
    renderMessages(messages: Message[]): SafeHtml {
      const inner = contextAt(options, depth + 1);
      return joinHtml(messages.map((m) => renderMessageHtml(m, inner)), '\n');
    },
  };
}

/**
 * Creates the render context. Defaults: tool output and thinking not indexed,
 * thinking rendered collapsed, every message sanitised at the end.
 *
 * Rendering is synchronous, so highlighting needs the grammars loaded first:
 * `await prepareMessages(messages)` (or at least `await loadHighlighter()`)
 * before rendering; code in languages not loaded is shown as plain text.
 */
export function createRenderContext(options: RenderContextOptions): RenderContext {
  let promptNumber: (uuid: string) => number | undefined;
  if (options.turns) {
    const byUuid = new Map<string, number>();
    for (const t of options.turns) if (t.prompt) byUuid.set(t.prompt.uuid, t.index);
    promptNumber = (uuid) => byUuid.get(uuid);
  } else {
    const seen = new Map<string, number>();
    promptNumber = (uuid) => {
      let n = seen.get(uuid);
      if (n === undefined) seen.set(uuid, (n = seen.size + 1));
      return n;
    };
  }
  return contextAt(
    {
      emitAsset: options.emitAsset,
      indexToolOutput: options.indexToolOutput ?? false,
      renderThinking: options.renderThinking ?? true,
      indexThinking: options.indexThinking ?? false,
      finalSanitize: options.finalSanitize ?? true,
      promptNumber,
    },
    0,
  );
}

/**
 * Loads the grammars these messages need (fenced code languages, file types of
 * read/written/edited files), subagent transcripts included. Call before
 * `renderTranscript`; anything not loaded renders as plain text.
 */
export async function prepareMessages(messages: Message[]): Promise<void> {
  await loadHighlighter();
  const langs = new Set<string>();
  const seen = new Set<Message>();
  const walk = (list: Message[]) => {
    for (const m of list) {
      if (seen.has(m)) continue;
      seen.add(m);
      if (m.kind === 'user') collectFenceLanguages(m.text, langs);
      else if (m.kind === 'compaction') collectFenceLanguages(m.summary, langs);
      else if (m.kind === 'assistant') {
        for (const b of m.blocks) {
          const t = b.type === 'text' ? str((b as { text?: unknown }).text) : b.type === 'thinking' ? str((b as { thinking?: unknown }).thinking) : undefined;
          if (t) collectFenceLanguages(t, langs);
        }
        for (const call of m.toolCalls) {
          collectCallLanguages(call, langs);
          if (call.subagent) walk(call.subagent.messages);
        }
      }
    }
  };
  walk(messages);
  await ensureLanguages(langs);
}

function collectCallLanguages(call: ToolCall, langs: Set<string>): void {
  const i = call.input ?? {};
  for (const key of ['file_path', 'notebook_path']) {
    const p = str(i[key]);
    if (p) {
      const l = languageForPath(p);
      if (l !== 'text') langs.add(l);
    }
  }
  const s = obj(call.result?.toolUseResult);
  if (s && str(s.language)) langs.add(str(s.language) as string);
  // Markdown-bearing fields: plans, prompts, fetched page summaries, agent answers.
  for (const key of ['plan', 'prompt']) {
    const t = str(i[key]);
    if (t) collectFenceLanguages(t, langs);
  }
  const c = call.result?.content;
  if (typeof c === 'string') {
    if (c.includes('```') || c.includes('~~~')) collectFenceLanguages(c, langs);
  } else if (Array.isArray(c)) {
    for (const b of c) {
      const t = str((b as { text?: unknown }).text);
      if (t && (t.includes('```') || t.includes('~~~'))) collectFenceLanguages(t, langs);
    }
  }
}

// ---------------------------------------------------------------------------

/** Per-message options. */
export interface RenderMessageOptions {
  /** Turn number of a human prompt (adds `data-prompt` and the `p-<N>` heading); default `ctx.promptNumber`. */
  promptIndex?: number;
}

/**
 * Renders one message as sanitised HTML (empty for hidden messages). Tool
 * results are rendered inside their tool call, subagent transcripts inside
 * their Task call.
 */
export function renderMessage(message: Message, ctx: RenderContext, options: RenderMessageOptions = {}): string {
  const out = renderMessageHtml(message, ctx, options).value;
  return ctx.finalSanitize ? sanitizeHtml(out) : out;
}

/**
 * Renders a transcript (or any run of it): every message in order, human
 * prompts numbered by `ctx.promptNumber`. Each message is sanitised (unless
 * `ctx.finalSanitize` is off), so the result is sanitiser output.
 */
export function renderTranscript(messages: Message[], ctx: RenderContext): string {
  const out: string[] = [];
  for (const m of messages) {
    const h = renderMessage(m, ctx);
    if (h) out.push(h);
  }
  return out.join('\n');
}

/** `prepareMessages` then `renderTranscript`. */
export async function renderTranscriptAsync(messages: Message[], ctx: RenderContext): Promise<string> {
  await prepareMessages(messages);
  return renderTranscript(messages, ctx);
}


/** Unsanitised (trusted) markup of one message; embedded by nested rendering. */
export function renderMessageHtml(message: Message, ctx: RenderContext, options: RenderMessageOptions = {}): SafeHtml {
  try {
    switch (message.kind) {
      case 'assistant':
        return renderAssistant(message, ctx);
      case 'user':
        return renderUser(message, ctx, options);
      case 'system':
        return renderSystem(message);
      case 'compaction':
        return renderCompaction(message, ctx);
      default:
        return html``;
    }
  } catch (err) {
    // One odd message must not take the page down; say so where it would have been.
    const m = message as { uuid?: string };
    return frame('system', m.uuid ?? 'unknown', undefined, html`<p class="render-error">This message could not be rendered (${(err as Error).message}).</p>`);
  }
}

// ---------------------------------------------------------------------------

function timeHtml(ts: string | undefined): SafeHtml {
  if (!ts) return html``;
  const d = new Date(ts);
  if (Number.isNaN(d.getTime())) return html``;
  const iso = d.toISOString();
  return html`<time datetime="${iso}" title="${iso.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}">${iso.slice(11, 16)}</time>`;
}

interface FrameOptions {
  promptIndex?: number;
  label?: HtmlValue;
  heading?: HtmlValue;
  extraClass?: string;
}

/**
 * The `<article>` every message sits in, with its permalink.
 * Prompts and assistant messages carry their permalink id (`m-<uuid>`) on a
 * heading rather than on the article: pagefind makes a sub-result of every
 * heading with an id, so a search hit opens the very message it matched.
 */
function frame(kind: string, uuid: string, timestamp: string | undefined, body: HtmlValue, opts: FrameOptions = {}): SafeHtml {
  const anchor = `#m-${uuid}`;
  const promptAttr = opts.promptIndex !== undefined ? trustedHtml(` data-prompt="${opts.promptIndex}"`) : '';
  const heading =
    opts.promptIndex !== undefined
      ? html`<h2 id="m-${uuid}" class="msg-title">Prompt ${String(opts.promptIndex)}</h2>`
      : kind === 'assistant'
        ? html`<h3 id="m-${uuid}" class="msg-title">Claude</h3>`
        : opts.heading
          ? html`<span class="msg-title">${opts.heading}</span>`
          : '';
  const idOnHeading = opts.promptIndex !== undefined || kind === 'assistant';
  const articleId = idOnHeading ? '' : trustedHtml(` id="m-${escapeHtml(uuid)}"`);
  const cls = `msg msg-${kind}${opts.extraClass ? ` ${opts.extraClass}` : ''}`;
  return html`<article class="${cls}"${articleId} data-uuid="${uuid}" data-kind="${kind}"${promptAttr}><header class="msg-head">${heading}${opts.label ? html`<span class="msg-label">${opts.label}</span>` : ''}${timeHtml(timestamp)}<span class="msg-links" data-pagefind-ignore><a class="permalink" href="${anchor}" aria-label="Link to this message">#</a></span></header>${body}</article>`;
}

// ---------------------------------------------------------------------------
// Assistant

function renderAssistant(m: AssistantMessage, ctx: RenderContext): SafeHtml {
  if (m.assistantKind === 'synthetic') return html``;
  if (m.assistantKind === 'api-error') {
    const text = m.blocks
      .map((b) => (b.type === 'text' ? str((b as { text?: unknown }).text) ?? '' : ''))
      .join('\n')
      .trim();
    return frame('api-error', m.uuid, m.timestamp, html`<p class="api-error-text">${text || 'API error'}</p>`, { label: 'API error' });
  }
  const calls = new Map(m.toolCalls.map((c) => [c.id, c]));
  const parts: SafeHtml[] = [];
  for (const b of m.blocks) parts.push(renderAssistantBlock(b, m, calls, ctx));
  const body = joinHtml(parts);
  if (!body.value) return html``;
  return frame('assistant', m.uuid, m.timestamp, html`<div class="msg-body">${body}</div>`, { label: m.model ? html`<span class="model">${m.model}</span>` : undefined });
}

function renderAssistantBlock(b: ContentBlock, m: AssistantMessage, calls: Map<string, ToolCall>, ctx: RenderContext): SafeHtml {
  switch (b.type) {
    case 'text': {
      const text = str((b as { text?: unknown }).text) ?? '';
      return text.trim() ? markdownBlock(text, ctx, 'md', '3') : html``;
    }
    case 'thinking': {
      if (!ctx.renderThinking) return html``;
      const text = str((b as { thinking?: unknown }).thinking) ?? '';
      if (!text.trim()) return html``;
      const index = ctx.indexThinking ? trustedHtml(' data-pagefind-weight="1"') : trustedHtml(' data-pagefind-ignore');
      return html`<details class="thinking"${index}><summary>Thinking · ${formatCount(text.length)} chars</summary>${markdownBlock(text, ctx)}</details>`;
    }
    case 'redacted_thinking':
      return ctx.renderThinking ? html`<p class="thinking redacted">Thinking (redacted)</p>` : html``;
    case 'tool_use': {
      const id = str((b as { id?: unknown }).id) ?? '';
      const call = calls.get(id) ?? {
        id,
        name: str((b as { name?: unknown }).name) ?? 'unknown',
        input: obj((b as { input?: unknown }).input) ?? {},
        entryUuid: m.uuid,
      };
      return renderToolCallHtml(call, ctx);
    }
    case 'image':
      return renderImages([b], ctx, 'Image');
    default:
      return html``;
  }
}

// ---------------------------------------------------------------------------
// User

function renderUser(m: UserMessage, ctx: RenderContext, options: RenderMessageOptions): SafeHtml {
  switch (m.userKind) {
    case 'meta':
      return html``;
    case 'prompt':
    case 'queued-prompt': {
      const images = renderImages(m.blocks, ctx, 'Pasted image');
      const docs = m.blocks.filter((b) => b.type === 'document').map((b) => html`<p class="attachment">Attached document${str((b as { title?: unknown }).title) ? html`: ${str((b as { title?: unknown }).title)}` : ''}</p>`);
      const body = html`<div class="msg-body">${markdownBlock(m.text, ctx, 'md', '5')}${images}${docs}</div>`;
      return frame('prompt', m.uuid, m.timestamp, body, {
        promptIndex: options.promptIndex ?? ctx.promptNumber(m.uuid),
        label: m.userKind === 'queued-prompt' ? 'queued' : undefined,
        extraClass: m.userKind === 'queued-prompt' ? 'queued' : undefined,
      });
    }
    case 'command':
      return renderCommand(m);
    case 'command-output': {
      const out = tagContent(m.text, 'local-command-stdout') ?? tagContent(m.text, 'local-command-stderr') ?? m.text;
      return frame('command', m.uuid, m.timestamp, html`<div class="command-output">${terminalBlock(out, 'Output')}</div>`);
    }
    case 'bash-input': {
      const cmd = tagContent(m.text, 'bash-input') ?? m.text;
      return frame('bash', m.uuid, m.timestamp, html`<div class="bash-input">${highlightCode(cmd, { lang: 'shellscript', className: 'command' })}</div>`, { label: 'Shell command' });
    }
    case 'bash-output': {
      const stdout = tagContent(m.text, 'bash-stdout') ?? '';
      const stderr = tagContent(m.text, 'bash-stderr') ?? '';
      const body = html`${stdout.trim() ? terminalBlock(stdout, 'Output') : ''}${stderr.trim() ? html`<div class="stream stderr"><span class="stream-label">stderr</span>${terminalBlock(stderr, 'stderr')}</div>` : ''}${!stdout.trim() && !stderr.trim() ? html`<p class="no-output">(no output)</p>` : ''}`;
      return frame('bash', m.uuid, m.timestamp, html`<div class="bash-output" data-pagefind-weight="0.5">${body}</div>`, { label: 'Shell output' });
    }
    case 'interruption': {
      const text = m.text.trim().replace(/^\[|\]$/g, '') || 'Request interrupted by user';
      return frame('interruption', m.uuid, m.timestamp, html`<p class="interruption-text">${text}</p>`);
    }
    case 'compact-summary':
      return renderCompaction({ kind: 'compaction', uuid: m.uuid, timestamp: m.timestamp, summary: m.text, line: m.line }, ctx);
    case 'tool-result': {
      // A result whose call is missing (the model pairs the rest inside their calls).
      const images = renderImages(m.blocks, ctx, 'Tool result image');
      return frame('tool-result', m.uuid, m.timestamp, html`<div class="tool-output orphan">${m.text.trim() ? terminalBlock(m.text, 'Output') : ''}${images}</div>`, { label: 'Tool result without its call' });
    }
    default:
      return html``;
  }
}

function renderCommand(m: UserMessage): SafeHtml {
  const cmd = m.command ?? { name: tagContent(m.text, 'command-name')?.trim() ?? '', args: tagContent(m.text, 'command-args')?.trim() ?? '' };
  const line = `${cmd.name}${cmd.args ? ` ${cmd.args}` : ''}`;
  const output = m.command?.output;
  const outHtml = output && output.trim() ? html`<div class="command-output" data-pagefind-weight="0.5">${terminalBlock(output, 'Output')}</div>` : html``;
  return frame('command', m.uuid, m.timestamp, html`<div class="command-line" data-pagefind-weight="2"><code>${line}</code></div>${outHtml}`);
}

/** Text between `<tag>` and `</tag>` (tolerates a missing close tag). */
function tagContent(text: string, tag: string): string | undefined {
  const open = `<${tag}>`;
  const start = text.indexOf(open);
  if (start === -1) return undefined;
  const end = text.indexOf(`</${tag}>`, start + open.length);
  return text.slice(start + open.length, end === -1 ? undefined : end);
}

// ---------------------------------------------------------------------------
// System and compaction

function renderSystem(m: SystemMessage): SafeHtml {
  const raw = m.raw ?? {};
  if (m.subtype === 'api_error') {
    const cause = obj(raw.cause) ?? obj(obj(raw.error)?.cause);
    const code = str(cause?.code) ?? str(obj(raw.error)?.message) ?? str(obj(raw.error)?.type);
    const attempt = num(raw.retryAttempt);
    const max = num(raw.maxRetries);
    const retryIn = formatDuration(num(raw.retryInMs));
    const retry = attempt !== undefined ? `retry ${attempt}${max !== undefined ? ` of ${max}` : ''}${retryIn ? ` in ${retryIn}` : ''}` : undefined;
    const text = [code, retry].filter(Boolean).join(' · ');
    return frame('api-error', m.uuid, m.timestamp, html`<p class="api-error-text">${text || stripAnsi(m.text) || 'API error'}</p>`, { label: 'API error' });
  }
  if (m.subtype === 'turn_duration') {
    const d = formatDuration(num(raw.durationMs));
    return frame('system', m.uuid, m.timestamp, html`<p class="system-text">Turn took ${d ?? 'unknown time'}</p>`, { extraClass: 'compact' });
  }
  if (m.subtype === 'stop_hook_summary') {
    const infos = Array.isArray(raw.hookInfos) ? raw.hookInfos.map(obj).filter((x): x is Record<string, unknown> => !!x) : [];
    const errors = Array.isArray(raw.hookErrors) ? raw.hookErrors.map((e) => (typeof e === 'string' ? e : JSON.stringify(e))) : [];
    const body = html`<p class="system-text">Stop hook${infos.length === 1 ? '' : 's'}: ${infos.map((h, i) => html`${i ? ', ' : ''}<code>${str(h.command) ?? '?'}</code>${formatDuration(num(h.durationMs)) ? ` (${formatDuration(num(h.durationMs))})` : ''}`)}</p>${errors.length ? html`<div class="tool-error">${highlightCode(errors.join('\n'), { className: 'plain error-text' })}</div>` : ''}`;
    return frame('system', m.uuid, m.timestamp, body, { extraClass: 'compact' });
  }
  const text = m.text ?? '';
  const label = m.subtype && m.subtype !== 'info' ? m.subtype.replace(/_/g, ' ') : undefined;
  const body = lineCount(text) > 1 ? collapsible(highlightTerminal(text), lineCount(text), 'Show') : html`<p class="system-text">${stripAnsi(text)}</p>`;
  const level = m.level === 'error' || m.level === 'warning' ? `level-${m.level}` : undefined;
  return frame('system', m.uuid, m.timestamp, body, { label, extraClass: level });
}

function renderCompaction(m: CompactionMessage, ctx: RenderContext): SafeHtml {
  const meta = [m.trigger ? `${m.trigger}` : undefined, m.preTokens !== undefined ? `${formatCount(m.preTokens)} tokens before` : undefined].filter(Boolean).join(' · ');
  const summary = m.summary.trim()
    ? html`<details class="compaction-summary"><summary>Conversation compacted${meta ? ` · ${meta}` : ''}</summary>${markdownBlock(m.summary, ctx, 'md', '1')}</details>`
    : html`<p class="compaction-summary">Conversation compacted${meta ? ` · ${meta}` : ''}</p>`;
  return frame('compaction', m.uuid, m.timestamp, html`<div class="divider" role="separator"></div>${summary}`);
}
