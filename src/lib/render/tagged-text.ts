/**
 * Tags Claude Code writes into prompt text, rendered as what they mean instead
 * of as raw tags: a message from a teammate or from another session (a quoted
 * card), a background task finishing (a card), a fork's boilerplate
 * (collapsed; its directive shown), the IDE's selection or open file (a chip),
 * a reminder (collapsed), a slash command (a chip), and caveats (dropped: they
 * address the model, not the reader). The tags are found by
 * transcript/prompt-tags.ts. Text between tags is markdown, as before. Every
 * value goes through `html` (escaped) or the markdown renderer (sanitised).
 */
import { formatCount, formatDuration } from '../format.js';
import { CROSS_SESSION_INTRO, hasPromptTags, splitTaggedText, stripDirectivePrefix, type Segment } from '../transcript/prompt-tags.js';
import type { RenderContext } from './context.js';
import { html, joinHtml, type SafeHtml } from './sanitize.js';
import { badgeHtml, collapsible, markdownBlock, pathHtml, textBlock } from './tools/common.js';
import { jsonObjectOf, lineCount, taggedValue } from './tool-data.js';

/**
 * Prompt text as markup: plain text as markdown (search weight 5, as prompts
 * always had), known tags as chips and cards. Text without tags renders
 * exactly as a plain prompt.
 */
export function renderPromptText(text: string, ctx: RenderContext, weight = '5'): SafeHtml {
  if (!hasPromptTags(text)) return markdownBlock(text, 'md', weight);
  const segments = splitTaggedText(text);
  const parts: SafeHtml[] = [];
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i];
    if (!s.tag) {
      // The words announcing another session's message: its card says who sent it.
      if (CROSS_SESSION_INTRO.test(s.body) && segments[i + 1]?.tag === 'cross-session-message') continue;
      // After a fork's boilerplate comes its directive: the words without their label.
      const body = segments[i - 1]?.tag === 'fork-boilerplate' ? stripDirectivePrefix(s.body.trimStart()) : s.body;
      if (body.trim()) parts.push(markdownBlock(body, 'md', weight));
      continue;
    }
    if (s.tag === 'command-name' || s.tag === 'command-message' || s.tag === 'command-args') {
      // One chip for the run of command tags, whatever their order.
      let j = i;
      const cmd: Record<string, string> = {};
      while (j < segments.length && (segments[j].tag?.startsWith('command-') || (!segments[j].tag && !segments[j].body.trim()))) {
        if (segments[j].tag) cmd[segments[j].tag as string] = segments[j].body.trim();
        j++;
      }
      parts.push(commandChip(cmd['command-name'] ?? cmd['command-message'] ?? '', cmd['command-args'] ?? ''));
      i = j - 1;
      continue;
    }
    parts.push(renderTag(s, ctx));
  }
  return joinHtml(parts);
}

function renderTag(s: Segment, ctx: RenderContext): SafeHtml {
  switch (s.tag) {
    case 'teammate-message':
      return teammateMessage(s, ctx);
    case 'cross-session-message':
      return sessionMessage(s, ctx);
    case 'fork-boilerplate':
      // The rules every fork gets, the same each time: closed, never taken for what the fork was asked.
      return html`<details class="fork-boilerplate" data-pagefind-ignore><summary>Fork instructions · ${formatCount(lineCount(s.body.trim()))} lines</summary>${textBlock(s.body.trim())}</details>`;
    case 'task-notification':
      return taskNotification(s.body, ctx);
    case 'local-command-caveat':
      return html``;
    case 'system-reminder':
      return html`<details class="system-reminder"><summary>System reminder</summary>${textBlock(s.body.trim())}</details>`;
    case 'ide_selection':
      return ideSelection(s.body);
    case 'ide_opened_file':
      return ideOpenedFile(s.body);
    default:
      return html``;
  }
}

/** A slash command as a chip: `/name args`. */
export function commandChip(name: string, args: string): SafeHtml {
  const n = name.trim();
  const line = `${n && !n.startsWith('/') ? `/${n}` : n}${args.trim() ? ` ${args.trim()}` : ''}`;
  return html`<p class="command-chip"><code>${line || '/(command)'}</code></p>`;
}

/** The expanded text of a slash command (what Claude received), collapsed under its chip. */
export function commandExpansion(text: string | undefined, ctx: RenderContext): SafeHtml {
  if (!text || !text.trim()) return html``;
  return html`<details class="command-expansion"><summary>What Claude received · ${formatCount(lineCount(text))} lines</summary>${markdownBlock(text)}</details>`;
}

const TEAMMATE_COLOURS = new Set(['red', 'blue', 'green', 'yellow', 'purple', 'orange', 'pink', 'cyan']);

/** A message from a teammate, quoted: who, their summary, and the body (markdown, or a structured notice in words). */
function teammateMessage(s: Segment, ctx: RenderContext): SafeHtml {
  const who = s.attrs.teammate_id || s.attrs.from || 'teammate';
  const colour = TEAMMATE_COLOURS.has((s.attrs.color ?? '').toLowerCase()) ? ` teammate-${s.attrs.color.toLowerCase()}` : '';
  const isSystem = who === 'system';
  const summary = s.attrs.summary;
  const notice = jsonObjectOf(s.body);
  const body = notice && typeof notice.type === 'string' ? structuredNotice(notice) : s.body.trim() ? collapsible(markdownBlock(s.body.trim()), lineCount(s.body.trim()), 'Message') : html``;
  const from = isSystem ? html`Team notice` : html`Message from <strong>${who}</strong>`;
  return html`<blockquote class="teammate-message${colour}"><p class="teammate-from">${from}${summary ? html` · ${summary}` : ''}</p>${body}</blockquote>`;
}

/**
 * A message from another Claude Code session (`SendMessage` between sessions):
 * quoted like a teammate's, named by the sending session (`from-name`), with
 * its address and mode in small print.
 */
function sessionMessage(s: Segment, ctx: RenderContext): SafeHtml {
  const name = s.attrs['from-name'] || s.attrs.from || 'another session';
  const address = s.attrs['from-name'] && s.attrs.from ? s.attrs.from : undefined;
  const mode = s.attrs['from-mode'];
  const details = [address, mode ? `${mode} mode` : undefined].filter(Boolean).join(' · ');
  const body = s.body.trim() ? collapsible(markdownBlock(s.body.trim()), lineCount(s.body.trim()), 'Message') : html``;
  return html`<blockquote class="teammate-message session-message"><p class="teammate-from">Message from session <strong>${name}</strong>${details ? html` <span class="muted">(${details})</span>` : ''}</p>${body}</blockquote>`;
}

/** A JSON notice in a teammate message (`{"type":"idle_notification",…}`) as one line of words. */
function structuredNotice(o: Record<string, unknown>): SafeHtml {
  const type = String(o.type).replace(/_/g, ' ');
  const detail = ['summary', 'reason', 'message', 'content', 'idleReason']
    .map((k) => (typeof o[k] === 'string' ? (o[k] as string) : undefined))
    .find((v) => v && v.trim());
  const from = typeof o.from === 'string' ? o.from : undefined;
  return html`<p class="teammate-notice">${type}${from ? html` from <strong>${from}</strong>` : ''}${detail ? html`: ${detail}` : ''}</p>`;
}

/** A background task (agent or shell) finished: status, summary, its result collapsed. */
function taskNotification(body: string, ctx: RenderContext): SafeHtml {
  const id = taggedValue(body, 'task-id');
  const status = taggedValue(body, 'status');
  const summary = taggedValue(body, 'summary');
  const result = taggedValue(body, 'result');
  const usage = taggedValue(body, 'usage');
  const outputFile = taggedValue(body, 'output-file');
  const stats = usage ? usageLine(usage) : '';
  const tone = status === 'completed' ? 'ok' : status === 'failed' || status === 'killed' ? 'error' : 'plain';
  const resultHtml = result?.trim() ? html`<details class="task-result"><summary>Result · ${formatCount(lineCount(result))} lines</summary>${markdownBlock(result)}</details>` : '';
  return html`<div class="task-notification"><p class="task-notification-head">Background task${id ? html` <code>${id}</code>` : ''}${badgeHtml(status, tone)}${summary ? html` ${summary}` : ''}${stats ? html` <span class="muted">· ${stats}</span>` : ''}</p>${outputFile ? html`<p class="task-output-file">Output: ${pathHtml(outputFile)}</p>` : ''}${resultHtml}</div>`;
}

/** `total_tokens: 1\ntool_uses: 2\nduration_ms: 3` in words. */
function usageLine(usage: string): string {
  const n = (key: string) => {
    const m = new RegExp(`\\b${key}:\\s*(\\d+)`).exec(usage);
    return m ? Number(m[1]) : undefined;
  };
  const tokens = n('total_tokens');
  const tools = n('tool_uses');
  return [formatDuration(n('duration_ms')), tokens !== undefined ? `${formatCount(tokens)} tokens` : '', tools !== undefined ? `${formatCount(tools)} tool calls` : ''].filter(Boolean).join(' · ');
}

const SELECTION_RE = /^The user selected the lines? (\d+) to (\d+) from (.+?):\n([\s\S]*?)(?:\n+This may or may not be related to the current task\.?)?\s*$/;

/** What the user had selected in the IDE: a chip naming the lines and file, the text collapsed. */
function ideSelection(body: string): SafeHtml {
  const m = SELECTION_RE.exec(body.trim());
  if (!m) return html`<details class="ide-context"><summary>IDE selection</summary>${textBlock(body.trim())}</details>`;
  const [, from, to, path, selected] = m;
  const lines = from === to ? `line ${from}` : `lines ${from}–${to}`;
  return html`<details class="ide-context"><summary>Selected ${lines} of ${pathHtml(path)} in the IDE</summary>${textBlock(selected)}</details>`;
}

/** The file the user had open in the IDE: one chip. */
function ideOpenedFile(body: string): SafeHtml {
  const path = /^The user opened the file (.+?) in the IDE\b/.exec(body.trim())?.[1];
  return html`<p class="ide-context">${path ? html`Opened ${pathHtml(path)} in the IDE` : body.trim().slice(0, 300)}</p>`;
}
