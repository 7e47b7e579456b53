/**
 * Renders transcript messages to `SafeHtml`: built with the escaping `html` tag,
 * markdown through the sanitiser (sanitize.ts), so no second pass over the whole.
 *
 * HTML contract (tests, permalinks and search rely on it):
 * - each message: `<article class="msg msg-<kind>" id="m-<uuid>" data-uuid="<uuid>" data-kind="<kind>">`,
 *   kind one of prompt, assistant, command, compaction, system, api-error,
 *   interruption, bash, tool-result, notification, agent-message; meta caveats and `<synthetic>` filler render nothing;
 * - a human prompt also has `data-prompt="<N>"` and an `<h2 id="m-<uuid>">` (the permalink id sits on the
 *   heading of prompts and of the assistant message that starts a reply, on the article otherwise);
 * - each tool call: `data-tool-use-id` and `data-tool`; a subagent transcript sits in `data-subagent`;
 * - each message has its permalink `<a href="#m-<uuid>" aria-label="Link to this message">`: the one link
 *   directly in its header, or the first child of a continuation, which has no header (PERMALINK in
 *   interface-labels.ts; no class, as every message has one); the page script adds a copy-link button
 *   beside it (a button that only works with JavaScript is not sent without it).
 * - interface labels (time, tool names, "Show N more lines"...) are kept out of search by the selectors of
 *   interface-labels.ts, not by an attribute on each.
 */
import { formatCount } from '../format.js';
import { agentsIn } from '../transcript/entries.js';
import type { AssistantMessage, CompactionMessage, ContentBlock, Message, SystemMessage, ToolCall, UserMessage } from '../transcript/types.js';
import type { RenderContext, RenderContextOptions, RepeatKey } from './context.js';
import { ensureLanguages, highlightCode, languageForPath, loadHighlighter, withDeferredHighlighting } from './highlight.js';
import { collectFenceLanguages } from './markdown.js';
import { attachmentView, collectAttachmentLanguages, markerView } from './attachments.js';
import { renderToolCallHtml } from './render-tool.js';
import { systemView, type MessageView } from './system.js';
import { commandExpansion, renderPromptText } from './tagged-text.js';
import { agentOriginLink, compactionAgentHtml, forkedAgentsHtml } from './tools/agent.js';
import { hasServerCall, renderDocumentBlock, renderOrphanServerResult, renderRedactedThinking, renderServerToolUse } from './tools/content-blocks.js';
import { html, joinHtml, type HtmlValue, type SafeHtml } from './sanitize.js';
import { markdownBlock, renderImages, terminalBlock } from './tools/common.js';
import { obj, str } from './tool-data.js';

export type { RenderContext, RenderContextOptions } from './context.js';

type ResolvedOptions = Required<Omit<RenderContextOptions, 'turns' | 'finalSanitize'>> & { promptNumber: (uuid: string) => number | undefined; shown: Map<string, ShownBlock[]> };

/** A block shown on the page, by its repeat key's head (`RenderContext.shownBefore`): `full` once it was needed (null: too short to link). */
interface ShownBlock {
  id: string;
  key: RepeatKey;
  full?: string | null;
}

/** Builds a context at a given depth; `renderMessages` renders one level deeper. */
function contextAt(options: ResolvedOptions, depth: number): RenderContext {
  return {
    emitAsset: options.emitAsset,
    indexToolOutput: options.indexToolOutput,
    renderThinking: options.renderThinking,
    indexThinking: options.indexThinking,
    depth,
    promptNumber: depth === 0 ? options.promptNumber : () => undefined,
    shownBefore(key: RepeatKey, id: string): string | undefined {
      const same = options.shown.get(key.head);
      if (!same) {
        options.shown.set(key.head, [{ id, key }]);
        return undefined;
      }
      const full = key.full();
      if (full === undefined) return undefined;
      // The first block of this head that is the same block, each one's whole made at most once.
      for (const earlier of same) {
        if (earlier.full === undefined) earlier.full = earlier.key.full() ?? null;
        if (earlier.full === full) return earlier.id;
      }
      same.push({ id, key, full });
      return undefined;
    },
    renderMessages(messages: Message[], nested: { answer?: string } = {}): SafeHtml {
      const inner: RenderContext = { ...contextAt(options, depth + 1), answerShownBelow: nested.answer };
      const out: SafeHtml[] = [];
      let prev: Message | undefined;
      for (const m of messages) {
        const h = renderMessageHtml(m, inner, { continues: continuesReply(m, prev) });
        if (h.value) {
          out.push(h);
          prev = m;
        }
      }
      return joinHtml(out, html`\n`);
    },
  };
}

/**
 * Creates the render context. Defaults: tool output and thinking not indexed,
 * thinking rendered collapsed.
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
  const shown = new Map<string, ShownBlock[]>();
  const ctx = contextAt(
    {
      emitAsset: options.emitAsset,
      indexToolOutput: options.indexToolOutput ?? false,
      renderThinking: options.renderThinking ?? true,
      indexThinking: options.indexThinking ?? false,
      promptNumber,
      shown,
    },
    0,
  );
  pageResets.set(ctx, () => shown.clear());
  return ctx;
}

/** Forgets the blocks shown so far: call at each page break, so a repeat never links to another page. */
export function startPage(ctx: RenderContext): void {
  pageResets.get(ctx)?.();
}

/** How each context created here forgets its shown blocks (kept off the context's public shape). */
const pageResets = new WeakMap<RenderContext, () => void>();

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
      else if (m.kind === 'attachment') collectAttachmentLanguages(m, langs);
      else if (m.kind === 'assistant') {
        for (const b of m.blocks) {
          const t = b.type === 'text' ? str((b as { text?: unknown }).text) : b.type === 'thinking' ? str((b as { thinking?: unknown }).thinking) : undefined;
          if (t) collectFenceLanguages(t, langs);
        }
        for (const call of m.toolCalls) collectCallLanguages(call, langs);
      }
      for (const sub of agentsIn(m)) walk(sub.messages);
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
  /** The message continues the assistant reply shown just before it: no header of its own (see `continuesReply`). */
  continues?: boolean;
}

/**
 * Whether an assistant message goes on with the reply rendered just before it:
 * Claude Code writes one entry per text block or tool call, and a reader wants
 * one "Claude · model · time" header per reply, not one per tool call. A new
 * model starts a new header.
 */
export function continuesReply(m: Message, prev: Message | undefined): boolean {
  return m.kind === 'assistant' && m.assistantKind === 'normal' && prev?.kind === 'assistant' && prev.assistantKind === 'normal' && prev.model === m.model;
}

/**
 * Renders one message (empty for hidden messages). Tool results are rendered
 * inside their tool call, subagent transcripts inside their Task call.
 */
export function renderMessageSafe(message: Message, ctx: RenderContext, options: RenderMessageOptions = {}): SafeHtml {
  // Code in closed <details> is left plain (and highlighted in the browser when opened): see highlight.ts.
  return withDeferredHighlighting(() => renderMessageHtml(message, ctx, options));
}

/** `renderMessageSafe` as text (tests, previews); pages are built from the `SafeHtml`. */
export function renderMessage(message: Message, ctx: RenderContext, options: RenderMessageOptions = {}): string {
  return renderMessageSafe(message, ctx, options).value;
}

/**
 * Renders a transcript (or any run of it): every message in order, human
 * prompts numbered by `ctx.promptNumber`.
 */
export function renderTranscriptSafe(messages: Message[], ctx: RenderContext): SafeHtml {
  const out: SafeHtml[] = [];
  let prev: Message | undefined;
  for (const m of messages) {
    const h = renderMessageSafe(m, ctx, { continues: continuesReply(m, prev) });
    if (h.value) {
      out.push(h);
      prev = m;
    }
  }
  return joinHtml(out, html`\n`);
}

/** `renderTranscriptSafe` as text (tests, previews); pages are built from the `SafeHtml`. */
export function renderTranscript(messages: Message[], ctx: RenderContext): string {
  return renderTranscriptSafe(messages, ctx).value;
}


/** Markup of one message with highlighting placeholders unresolved; embedded by nested rendering. */
export function renderMessageHtml(message: Message, ctx: RenderContext, options: RenderMessageOptions = {}): SafeHtml {
  try {
    switch (message.kind) {
      case 'assistant':
        return renderAssistant(message, ctx, options.continues === true);
      case 'user':
        return renderUser(message, ctx, options);
      case 'system':
        return renderSystem(message, ctx);
      case 'attachment':
        return renderView(message.uuid, message.timestamp, attachmentView(message, ctx));
      case 'marker':
        return renderView(message.uuid, message.timestamp, markerView(message));
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
  const promptAttr = opts.promptIndex !== undefined ? html` data-prompt="${opts.promptIndex}"` : '';
  const heading =
    opts.promptIndex !== undefined
      ? html`<h2 id="m-${uuid}" class="msg-title">Prompt ${String(opts.promptIndex)}</h2>`
      : kind === 'assistant'
        ? html`<h3 id="m-${uuid}" class="msg-title">Claude</h3>`
        : opts.heading
          ? html`<span class="msg-title">${opts.heading}</span>`
          : '';
  const idOnHeading = opts.promptIndex !== undefined || kind === 'assistant';
  const articleId = idOnHeading ? '' : html` id="m-${uuid}"`;
  const cls = `msg msg-${kind}${opts.extraClass ? ` ${opts.extraClass}` : ''}`;
  return html`<article class="${cls}"${articleId} data-uuid="${uuid}" data-kind="${kind}"${promptAttr}><header class="msg-head">${heading}${opts.label ? html`<span class="msg-label">${opts.label}</span>` : ''}${timeHtml(timestamp)}${permalink(uuid)}</header>${body}</article>`;
}

/** A message's permalink (found, styled and kept out of search by its place: PERMALINK in interface-labels.ts). */
function permalink(uuid: string): SafeHtml {
  return html`<a href="#m-${uuid}" aria-label="Link to this message">#</a>`;
}

/**
 * An assistant message that continues the reply above it: no header, and no
 * heading (for a screen reader it goes on under the reply's "Claude"); its
 * permalink id on the article, its permalink shown on hover and focus. Search
 * hits in it land on the reply's heading, then on the matched words.
 */
function continuation(uuid: string, body: SafeHtml): SafeHtml {
  return html`<article class="msg cont" id="m-${uuid}" data-uuid="${uuid}" data-kind="assistant">${permalink(uuid)}${body}</article>`;
}

// ---------------------------------------------------------------------------
// Assistant

function renderAssistant(m: AssistantMessage, ctx: RenderContext, continues = false): SafeHtml {
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
  if (continues) return continuation(m.uuid, body);
  // A message a later refusal withdrew stays readable, marked, with a link to the refusal.
  const withdrawn = m.retractedBy ? html` <a class="badge badge-warn retracted-by" href="#m-${m.retractedBy}">withdrawn</a>` : '';
  // No body wrapper: an assistant message is most of a page's articles, and its blocks need none.
  return frame('assistant', m.uuid, m.timestamp, body, { label: m.model || withdrawn ? html`${m.model ? html`<span class="model">${m.model}</span>` : ''}${m.model && m.provider ? html` <span class="provider">via ${m.provider}</span>` : ''}${withdrawn}` : undefined, extraClass: m.retractedBy ? 'retracted' : undefined });
}

function renderAssistantBlock(b: ContentBlock, m: AssistantMessage, calls: Map<string, ToolCall>, ctx: RenderContext): SafeHtml {
  switch (b.type) {
    case 'text': {
      const text = str((b as { text?: unknown }).text) ?? '';
      // A subagent's last words are its answer, shown (and indexed) once: as the result of its call.
      if (ctx.answerShownBelow && text.trim() === ctx.answerShownBelow) return html`<p class="tool-message repeat">Its answer: shown below, as the result of the call.</p>`;
      return text.trim() ? markdownBlock(text, 'md', '3') : html``;
    }
    case 'thinking': {
      if (!ctx.renderThinking) return html``;
      const text = str((b as { thinking?: unknown }).thinking) ?? '';
      // 2.1.2xx keeps only the signature of some thinking blocks: Claude thought, but the words were not written down.
      if (!text.trim()) return str((b as { signature?: unknown }).signature) ? html`<p class="thinking redacted">Thinking not kept in the record (only its signature)</p>` : html``;
      const index = ctx.indexThinking ? html` data-pagefind-weight="1"` : html` data-pagefind-ignore`;
      return html`<details class="thinking"${index}><summary>Thinking · ${formatCount(text.length)} chars</summary>${markdownBlock(text)}</details>`;
    }
    case 'redacted_thinking':
      return renderRedactedThinking(ctx);
    case 'server_tool_use':
      return renderServerToolUse(b, m.blocks, m.uuid, ctx);
    case 'document':
      return renderDocumentBlock(b);
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
      // A server tool's result (`web_search_tool_result`...) shows inside its call; alone only when the call is missing.
      if (b.type.endsWith('_tool_result') && b.type !== 'tool_result') return hasServerCall(b, m.blocks) ? html`` : renderOrphanServerResult(b);
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
      const docs = m.blocks.filter((b) => b.type === 'document').map((b) => renderDocumentBlock(b));
      const promptIndex = options.promptIndex ?? ctx.promptNumber(m.uuid);
      // A prompt with nothing to show keeps its anchor (links by number stay valid) but no empty box.
      if (!m.text.trim() && !images.value && !docs.length) return html`<article class="msg msg-prompt empty" id="m-${m.uuid}" data-uuid="${m.uuid}" data-kind="prompt"${promptIndex !== undefined ? html` data-prompt="${promptIndex}"` : ''} hidden></article>`;
      const body = html`<div class="msg-body">${renderPromptText(m.text, ctx)}${images}${docs}</div>`;
      return frame('prompt', m.uuid, m.timestamp, body, {
        promptIndex,
        label: m.userKind === 'queued-prompt' ? 'queued' : promptSourceLabel(m.promptSource),
        extraClass: m.userKind === 'queued-prompt' ? 'queued' : undefined,
      });
    }
    case 'command':
      return renderCommand(m, ctx);
    case 'command-output': {
      const out = tagContent(m.text, 'local-command-stdout') ?? tagContent(m.text, 'local-command-stderr') ?? m.text;
      return frame('command', m.uuid, m.timestamp, html`<div class="command-output">${terminalBlock(out)}</div>${forkedAgentsHtml(m.forks, ctx)}`);
    }
    case 'bash-input': {
      const cmd = tagContent(m.text, 'bash-input') ?? m.text;
      return frame('bash', m.uuid, m.timestamp, html`<div class="bash-input">${highlightCode(cmd, { lang: 'shellscript', className: 'command' })}</div>`, { label: 'Shell command' });
    }
    case 'bash-output': {
      const stdout = tagContent(m.text, 'bash-stdout') ?? '';
      const stderr = tagContent(m.text, 'bash-stderr') ?? '';
      const body = html`${stdout.trim() ? terminalBlock(stdout) : ''}${stderr.trim() ? html`<div class="stream stderr"><span class="stream-label">stderr</span>${terminalBlock(stderr)}</div>` : ''}${!stdout.trim() && !stderr.trim() ? html`<p class="no-output">(no output)</p>` : ''}`;
      return frame('bash', m.uuid, m.timestamp, html`<div class="bash-output" data-pagefind-weight="0.5">${body}</div>`, { label: 'Shell output' });
    }
    case 'interruption': {
      const text = m.text.trim().replace(/^\[|\]$/g, '') || 'Request interrupted by user';
      return frame('interruption', m.uuid, m.timestamp, html`<p class="interruption-text">${text}</p>`);
    }
    case 'compact-summary':
      return renderCompaction({ kind: 'compaction', uuid: m.uuid, timestamp: m.timestamp, summary: m.text, line: m.line }, ctx);
    case 'task-notification':
      // A background agent's result, injected by Claude Code: shown as its card, never as a prompt of its own, with a link to where the agent started.
      return frame('notification', m.uuid, m.timestamp, html`<div class="msg-body">${renderPromptText(m.text, ctx)}${agentOriginLink(m.resultOf)}</div>`);
    case 'agent-message':
      // A teammate's or another session's message: a card naming who sent it, never a prompt of the user's.
      return frame('agent-message', m.uuid, m.timestamp, html`<div class="msg-body">${peerMessageHtml(m, ctx)}</div>`);
    case 'tool-result': {
      // A result whose call is missing (the model pairs the rest inside their calls).
      const images = renderImages(m.blocks, ctx, 'Tool result image');
      return frame('tool-result', m.uuid, m.timestamp, html`<div class="tool-output orphan">${m.text.trim() ? terminalBlock(m.text) : ''}${images}</div>`, { label: 'Tool result without its call' });
    }
    default:
      return html``;
  }
}

/** How a prompt came in, when not typed (`promptSource`): a word beside its number. `sdk` is said once, in the header. */
const PROMPT_SOURCES: Record<string, string> = { queued: 'queued', suggestion_accepted: 'suggestion accepted', system: 'sent by Claude Code' };

function promptSourceLabel(source: string | undefined): string | undefined {
  return source && Object.hasOwn(PROMPT_SOURCES, source) ? PROMPT_SOURCES[source] : undefined;
}

/** What Claude Code puts around another session's message when it has no `<cross-session-message>` wrapper. */
const PEER_INTRO_LINE = /^\s*Another Claude session sent a message:\s*/;
const PEER_OUTRO_LINE = /\s*This came from another Claude session[^\n]*\s*$/;

/**
 * A message from a teammate or another session. A wrapped one names its
 * sender in its card (tagged-text.ts); a bare one from another session
 * (`origin.kind: "peer"`) gets the same card from its origin. Either links to
 * the `SendMessage` call that answered it.
 */
function peerMessageHtml(m: UserMessage, ctx: RenderContext): SafeHtml {
  const answer = m.peer?.answeredBy ? html`<p class="agent-link peer-answer"><a href="#t-${m.peer.answeredBy}">Answered by a SendMessage call below</a></p>` : '';
  if (!m.peer || /<cross-session-message\b/.test(m.text)) return html`${renderPromptText(m.text, ctx)}${answer}`;
  const { name, from, mode } = m.peer;
  const details = [name && from ? from : undefined, mode ? `${mode} mode` : undefined].filter(Boolean).join(' · ');
  const body = m.text.replace(PEER_INTRO_LINE, '').replace(PEER_OUTRO_LINE, '');
  return html`<blockquote class="teammate-message session-message"><p class="teammate-from">Message from session <strong>${name ?? from ?? 'another session'}</strong>${details ? html` <span class="muted">(${details})</span>` : ''}</p>${renderPromptText(body, ctx, '1')}</blockquote>${answer}`;
}

function renderCommand(m: UserMessage, ctx: RenderContext): SafeHtml {
  const cmd = m.command ?? { name: tagContent(m.text, 'command-name')?.trim() ?? '', args: tagContent(m.text, 'command-args')?.trim() ?? '' };
  const line = `${cmd.name}${cmd.args ? ` ${cmd.args}` : ''}`;
  const output = m.command?.output;
  const outHtml = output && output.trim() ? html`<div class="command-output" data-pagefind-weight="0.5">${terminalBlock(output)}</div>` : html``;
  // The expanded text Claude received (when the model links it to its command), collapsed under the chip.
  const expansion = commandExpansion(m.command?.expansion, ctx);
  return frame('command', m.uuid, m.timestamp, html`<div class="command-line" data-pagefind-weight="2"><code>${line}</code></div>${expansion}${outHtml}${forkedAgentsHtml(m.forks, ctx)}`);
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

function renderSystem(m: SystemMessage, ctx: RenderContext): SafeHtml {
  const view = systemView(m, ctx);
  // A `⑂ forked` line shows the fork it started below it.
  return renderView(m.uuid, m.timestamp, view && m.forks?.length ? { ...view, body: html`${view.body}${forkedAgentsHtml(m.forks, ctx)}` } : view);
}

/** A message whose parts come from system.ts or attachments.ts, in the message frame; nothing for no view. */
function renderView(uuid: string, timestamp: string | undefined, view: MessageView | undefined): SafeHtml {
  if (!view) return html``;
  return frame(view.kind, uuid, timestamp, view.body, { label: view.label, extraClass: view.extraClass });
}

function renderCompaction(m: CompactionMessage, ctx: RenderContext): SafeHtml {
  const meta = [m.trigger ? `${m.trigger}` : undefined, m.preTokens !== undefined ? `${formatCount(m.preTokens)} tokens before` : undefined].filter(Boolean).join(' · ');
  const summary = m.summary.trim()
    ? html`<details class="compaction-summary"><summary>Conversation compacted${meta ? ` · ${meta}` : ''}</summary>${markdownBlock(m.summary, 'md', '1')}</details>`
    : html`<p class="compaction-summary">Conversation compacted${meta ? ` · ${meta}` : ''}</p>`;
  return frame('compaction', m.uuid, m.timestamp, html`<div class="divider" role="separator"></div>${summary}${compactionAgentHtml(m.compactionAgent, ctx)}`);
}
