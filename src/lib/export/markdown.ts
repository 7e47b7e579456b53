/**
 * A session as GitHub-flavoured Markdown for a pull request description or
 * comment: a header of facts, each prompt as a quote, assistant text as
 * Markdown, each tool call as a `<details>` (summary: the compact row; body: the
 * input and a fenced output in its language), subagents nested. The session is
 * already redacted (it comes from `openSessionById`); everything here only
 * decides layout and keeps transcript text from breaking out of our markup.
 */
import prices from '../../data/prices.json' with { type: 'json' };
import { formatCount, formatDuration, formatTimestamp, formatTokens } from '../format.js';
import { stripAnsi } from '../render/ansi.js';
import { languageForPath } from '../render/languages.js';
import { summarizeToolCall } from '../render/tool-summary.js';
import { imageBlocks } from '../render/tools/common.js';
import { cleanResultText, resultText, str } from '../render/tool-data.js';
import type { PriceTable } from '../site/cost.js';
import { pullRequestLabel } from '../site/pull-requests.js';
import { countOf, formatCost, isWebUrl, sessionCost, sessionCostText } from '../site/summary.js';
import type { AssistantMessage, Message, Session, ToolCall, Turn } from '../transcript/types.js';
import { blockquote, closeOpenFence, cutText, fence, headingText, inlineCode, linkDestination, neutralizeMarkdown, openDetails, summaryText } from './gfm.js';

/** GitHub refuses a comment or description longer than this. */
export const GITHUB_COMMENT_LIMIT = 65_536;

export interface MarkdownExportOptions {
  /** URL of the published page (absolute, root-relative, or relative to the Markdown's own address), for the header and cut notes. */
  pageUrl?: string;
  /** A permalink to a message on the published page, given its uuid. */
  messageUrl?: (uuid: string) => string | undefined;
  /** Only these turns (all when undefined). */
  turns?: Turn[];
  /** Only these messages of the turns (used by `--message`). */
  messageFilter?: (m: Message) => boolean;
  /** Output lines kept per tool call before cutting (default 60). */
  maxOutputLines?: number;
  /** Characters kept per tool output or input before cutting (default 6,000). */
  maxOutputChars?: number;
  /** Characters per part (default GitHub's limit); `Infinity` for the whole session in one document (the site's Markdown beside each page). */
  limit?: number;
  /**
   * GitHub renders it (a pull request): transcript text gets no live mention,
   * issue reference, tag or image (see `breakGithubReferences`), and assistant
   * text is quoted, so that whatever its own blocks do ends with the quote.
   */
  github?: boolean;
  /** The last line when blocks are left out to stay within `limit` (default: GitHub's limit and where to read the rest). */
  cutNote?: (left: number, total: number) => string;
}

/** A piece of the document that is kept whole when it is split into parts. */
interface Block {
  text: string;
}

const PART_HEADROOM = 400;

/**
 * The Markdown of a session as one document or several parts, each within
 * `limit`. With `split` false, blocks that do not fit are left out and a last
 * line says how much and where to read it; with `split` true they go into
 * numbered parts.
 */
export function sessionToMarkdown(session: Session, options: MarkdownExportOptions & { split?: boolean } = {}): string[] {
  const limit = options.limit ?? GITHUB_COMMENT_LIMIT;
  const header = headerBlock(session, options);
  const blocks = bodyBlocks(session, options).map((b) => fitBlock(b, limit - header.length - PART_HEADROOM));
  return options.split ? splitParts(header, blocks, limit) : cutToLimit(header, blocks, limit, options);
}

/**
 * `sessionToMarkdown`'s whole document (no `limit`) in pieces: its header, and
 * the Markdown of any run of turns. The header, then the Markdown of each page's
 * turns in order (`paginateTurns`), is the document, character for character.
 */
export function markdownParts(session: Session, options: Omit<MarkdownExportOptions, 'limit' | 'turns' | 'messageFilter'> = {}): { header: string; turns(turns: Turn[]): string } {
  return {
    header: headerBlock(session, options),
    turns: (turns) => bodyBlocks(session, { ...options, turns }).map((b) => `\n${b.text}\n`).join(''),
  };
}

function headerBlock(session: Session, options: MarkdownExportOptions): string {
  const f = session.facts;
  const lines = [`## ${headingText(session.title, options)}`, ''];
  const when = formatTimestamp(f.firstTimestamp);
  const facts: string[] = [];
  facts.push(`**Project:** ${inlineCode(f.projectName, options)}`);
  if (when) facts.push(`**Date:** ${when}${f.durationMs !== undefined ? ` (${formatDuration(f.durationMs)})` : ''}`);
  if (f.models.length) facts.push(`**Models:** ${f.models.map((m) => inlineCode(m, options)).join(', ')}`);
  facts.push(`**Activity:** ${countOf(f.promptCount, 'prompt')} · ${countOf(f.messageCount, 'message')} · ${countOf(f.toolCallCount, 'tool call')}`);
  const usage = tokenLine(session);
  if (usage) facts.push(usage);
  for (const pr of f.pullRequests ?? []) {
    const label = inlineCode(pullRequestLabel(pr), options);
    // A transcript's URL: linked only when it is a plain web address, encoded so that no character of it ends the link.
    facts.push(`**Pull request:** ${isWebUrl(pr.url) ? `[${label}](${linkDestination(pr.url, options)})` : label}`);
  }
  // A web address stands alone (GitHub links it); a relative one needs Markdown link syntax to be a link.
  if (options.pageUrl) facts.push(`**Full transcript:** ${isWebUrl(options.pageUrl) ? options.pageUrl : `[the published page](${linkDestination(options.pageUrl)})`}`);
  lines.push(facts.map((l) => `- ${l}`).join('\n'));
  return `${lines.join('\n')}\n`;
}

/** Tokens in and out summed over models, and the cost: as the records state it, else estimated where the price table knows the model. */
function tokenLine(session: Session): string | undefined {
  const usage = session.facts.usage;
  if (!usage.length) return undefined;
  let input = 0;
  let output = 0;
  let cache = 0;
  for (const u of usage) {
    input += u.inputTokens;
    output += u.outputTokens;
    cache += u.cacheReadTokens + u.cacheCreationTokens;
  }
  const table = prices as PriceTable;
  const cost = sessionCost(usage, table);
  // Claude Code's own total (a `cost-state` line) wins over an estimate.
  const recorded = session.facts.recordedCost;
  const money = recorded && table.currency === 'USD' ? ` · ${sessionCostText(session.facts, table)} by Claude Code` : cost.total > 0 ? ` · ${formatCost({ ...cost, unpriced: [] }, table.currency)}${cost.total > cost.stated ? ` at list prices of ${table.asOf}` : ''}` : '';
  return `**Tokens:** ${formatTokens(input)} in, ${formatTokens(output)} out, ${formatTokens(cache)} cache${money}`;
}

function bodyBlocks(session: Session, options: MarkdownExportOptions): Block[] {
  const out: Block[] = [];
  for (const turn of options.turns ?? session.turns) {
    const messages = options.messageFilter ? turn.messages.filter(options.messageFilter) : turn.messages;
    if (!messages.length) continue;
    for (const m of messages) {
      const md = messageMarkdown(m, options, 0, turn);
      if (md) out.push({ text: md });
    }
  }
  return out;
}

/** One message as Markdown blocks joined; empty for messages a reader does not need. */
function messageMarkdown(m: Message, options: MarkdownExportOptions, depth: number, turn?: Turn): string {
  switch (m.kind) {
    case 'user':
      return userMarkdown(m, options, depth, turn);
    case 'assistant':
      return assistantMarkdown(m, options, depth);
    case 'compaction':
      return details('Conversation compacted', prose(m.summary, options), options);
    case 'system':
      return m.text && m.subtype !== 'turn_duration' ? `_${summaryText(`${m.subtype}: ${m.text}`, 300, options)}_` : '';
    default:
      return '';
  }
}

function userMarkdown(m: Extract<Message, { kind: 'user' }>, options: MarkdownExportOptions, depth: number, turn?: Turn): string {
  if (m.userKind === 'tool-result' || m.userKind === 'meta') return '';
  const images = imageBlocks(m.blocks).length;
  const imageNote = images ? `\n>\n> _(${images} image${images === 1 ? '' : 's'} attached: see the published page)_` : '';
  if (m.userKind === 'command' && m.command) return `> ${inlineCode(`${m.command.name} ${m.command.args}`.trim(), options)}`;
  if (m.userKind === 'bash-input') return `> ${inlineCode(`! ${m.text}`, options)}`;
  if (m.userKind === 'bash-output' || m.userKind === 'command-output') return fence(stripAnsi(m.text), 'text');
  if (m.userKind === 'interruption') return '_Interrupted by the user._';
  const text = neutralizeMarkdown(m.text.trim(), options);
  if (!text && !images) return '';
  const isPrompt = depth === 0 && turn?.prompt?.uuid === m.uuid;
  const link = isPrompt ? options.messageUrl?.(m.uuid) : undefined;
  const title = isPrompt ? `### ${link ? `[Prompt ${turn!.index}](${linkDestination(link)})` : `Prompt ${turn!.index}`}\n\n` : '';
  return `${title}${blockquote(text)}${imageNote}`;
}

function assistantMarkdown(m: AssistantMessage, options: MarkdownExportOptions, depth: number): string {
  const parts: string[] = [];
  const calls = new Map(m.toolCalls.map((c) => [c.id, c]));
  for (const b of m.blocks) {
    if (b.type === 'text' && typeof b.text === 'string' && b.text.trim()) parts.push(prose(b.text.trim(), options));
    else if (b.type === 'tool_use') {
      const call = calls.get(String((b as { id?: unknown }).id));
      if (call) parts.push(toolCallMarkdown(call, options, depth));
    } else if (b.type === 'image') parts.push('_(image: see the published page)_');
  }
  return parts.join('\n\n');
}

/** A tool call: `<details>` with the compact row as its summary; input and output fenced inside. */
function toolCallMarkdown(call: ToolCall, options: MarkdownExportOptions, depth: number): string {
  const s = summarizeToolCall(call);
  const row = [s.tool, s.target, s.outcome].filter(Boolean).join(' · ');
  const summary = `${s.isError ? '❌ ' : ''}${row}`;
  const body: string[] = [];
  const input = inputMarkdown(call, options);
  if (input) body.push(input);
  if (call.subagent) {
    const nested = call.subagent.messages.map((m) => messageMarkdown(m, options, depth + 1)).filter(Boolean);
    body.push(`**Subagent** (${formatCount(nested.length)} messages)\n\n${nested.join('\n\n')}`);
  }
  const output = outputMarkdown(call, options);
  if (output) body.push(output);
  return details(summary, body.join('\n\n'), options);
}

/** A `<details>` block: summary on one line (escaped), Markdown body after a blank line so GitHub renders it. */
function details(summary: string, body: string, options: MarkdownExportOptions): string {
  return `<details>\n<summary>${summaryText(summary, 200, options)}</summary>\n\n${body}\n\n</details>`;
}

/** Transcript Markdown as it goes into ours: neutralised, and for GitHub quoted (see `github`). */
function prose(text: string, options: MarkdownExportOptions): string {
  const safe = neutralizeMarkdown(text, options);
  return options.github ? blockquote(safe) : safe;
}

function inputMarkdown(call: ToolCall, options: MarkdownExportOptions): string {
  const input = call.input ?? {};
  const path = str(input.file_path) ?? str(input.notebook_path) ?? str(input.path);
  switch (call.name) {
    case 'Bash':
      return str(input.command) ? cutFence(str(input.command)!, 'sh', options, 'Command') : '';
    case 'Read':
      return '';
    case 'Write':
      return str(input.content) !== undefined ? cutFence(str(input.content)!, languageForPath(path), options, `Content of ${path ?? 'file'}`) : '';
    case 'Edit':
      return editDiff(str(input.old_string) ?? '', str(input.new_string) ?? '', options);
    case 'MultiEdit': {
      const edits = Array.isArray(input.edits) ? (input.edits as Array<Record<string, unknown>>) : [];
      return edits.map((e) => editDiff(str(e.old_string) ?? '', str(e.new_string) ?? '', options)).join('\n\n');
    }
    case 'Task':
    case 'Agent':
      return str(input.prompt) ? `**Prompt**\n\n${blockquote(neutralizeMarkdown(str(input.prompt)!, options))}` : '';
    default:
      return Object.keys(input).length ? cutFence(JSON.stringify(input, null, 2), 'json', options, 'Input') : '';
  }
}

function editDiff(before: string, after: string, options: MarkdownExportOptions): string {
  const lines = [...before.split('\n').map((l) => `-${l}`), ...after.split('\n').map((l) => `+${l}`)];
  return cutFence(lines.join('\n'), 'diff', options, 'Edit');
}

function outputMarkdown(call: ToolCall, options: MarkdownExportOptions): string {
  if (!call.result) return '_No result was recorded._';
  if (call.subagent) return '';
  const raw = stripAnsi(cleanResultText(resultText(call.result)));
  const text = call.name === 'Read' ? stripLineNumbers(raw) : raw;
  const images = imageBlocks(Array.isArray(call.result.content) ? call.result.content : []).length;
  const parts: string[] = [];
  if (text.trim()) parts.push(cutFence(text, outputLanguage(call), options, call.result.isError ? 'Error' : 'Output'));
  if (images) parts.push(`_(${images} image${images === 1 ? '' : 's'}: see the published page)_`);
  return parts.join('\n\n');
}

/** `Read` output numbers its lines (`    12→code`); the fence shows the code as it is in the file. */
function stripLineNumbers(text: string): string {
  const lines = text.split('\n');
  const numbered = /^\s*\d+→/;
  return lines.every((l) => !l || numbered.test(l)) ? lines.map((l) => l.replace(numbered, '')).join('\n') : text;
}

/** The language of a tool's output: a file's by its path, Markdown for fetched pages, plain text otherwise. */
function outputLanguage(call: ToolCall): string {
  if (call.result?.isError) return 'text';
  if (call.name === 'Read') return languageForPath(str(call.input?.file_path));
  if (call.name === 'WebFetch') return 'markdown';
  return 'text';
}

/** A labelled fence, cut to the configured size with a note saying how much is left out. */
function cutFence(text: string, lang: string, options: MarkdownExportOptions, label: string): string {
  const cut = cutText(text, options.maxOutputLines ?? 60, options.maxOutputChars ?? 6_000);
  const note = cut.cutLines > 0 ? `\n\n_Cut: ${formatCount(cut.cutLines)} of ${formatCount(cut.totalLines)} lines left out${options.pageUrl ? `; read them on [the published page](${linkDestination(options.pageUrl)})` : ''}._` : '';
  // The label can hold a transcript's file name: shown as text, like a summary.
  return `**${summaryText(label, 300, options)}**\n\n${fence(cut.text, lang)}${note}`;
}

/** A block longer than a part can hold is cut at a line and closed again, so it still fits. */
function fitBlock(block: Block, max: number): Block {
  if (block.text.length <= max) return block;
  const head = closeOpenFence(block.text.slice(0, max - 200).replace(/\n[^\n]*$/, ''));
  // Counted outside fences: a tool output's own `</details>` lines close nothing.
  return { text: `${head}\n\n_This message was cut to fit._${'\n\n</details>'.repeat(openDetails(head))}` };
}

function cutToLimit(header: string, blocks: Block[], limit: number, options: MarkdownExportOptions): string[] {
  const pageUrl = options.pageUrl;
  let doc = header;
  let i = 0;
  for (; i < blocks.length; i++) {
    const next = `${doc}\n${blocks[i].text}\n`;
    if (next.length > limit - PART_HEADROOM) break;
    doc = next;
  }
  if (i < blocks.length) {
    const where = pageUrl ? `read the whole session on [the published page](${linkDestination(pageUrl)})` : 'use `--split` to export it in parts';
    const note = options.cutNote?.(blocks.length - i, blocks.length) ?? `Cut to stay under GitHub's ${formatCount(limit)}-character limit: ${formatCount(blocks.length - i)} of ${formatCount(blocks.length)} blocks left out; ${where}.`;
    doc += `\n---\n\n_${note}_\n`;
  }
  return [doc];
}

function splitParts(header: string, blocks: Block[], limit: number): string[] {
  const bodies: string[] = [];
  let current = header;
  for (const b of blocks) {
    const next = `${current}\n${b.text}\n`;
    if (next.length > limit - PART_HEADROOM && current.length) {
      bodies.push(current);
      current = `${b.text}\n`;
    } else current = next;
  }
  if (current.length) bodies.push(current);
  if (bodies.length === 1) return bodies;
  return bodies.map((body, i) => `${body}\n---\n\n_Part ${i + 1} of ${bodies.length}._\n`);
}
