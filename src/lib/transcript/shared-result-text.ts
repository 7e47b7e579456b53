import { deriveText } from '../derived-text.js';

/**
 * A tool result entry often carries its output twice: as the text of its
 * `tool_result` block, which the model saw, and again in `toolUseResult`
 * (Bash's `stdout`, a subagent's `content[].text`, an MCP tool's `result`).
 * `JSON.parse` makes each its own string, so a session holds that output
 * twice in memory until the end of its build: about a fifth of the generated
 * 630 MB bench session's live heap (901 MB read, 699 MB once shared), and
 * 2.5 % of the text of the real sessions in `../shared/corpus`. Sharing one
 * string changes no value: strings are immutable, and every reader sees the
 * same text as before.
 */

/** Below this length a repeated string costs less than looking for its twin. */
export const SHARED_TEXT_MIN_CHARS = 64;

/** Levels of objects and arrays looked into, `toolUseResult` the first: a subagent's `content[].text` lies in the third. */
const MAX_DEPTH = 3;

/**
 * Points the strings of a record's `toolUseResult` that repeat one of its
 * `tool_result` texts at that text's string, so that the record holds the
 * text once. Changes no value; meant for a record just parsed, before anything
 * else holds it.
 *
 * @returns the characters no longer held twice (for tests and measurements)
 */
export function shareRepeatedResultText(record: Record<string, unknown>): number {
  const result = record.toolUseResult;
  if (result === null || (typeof result !== 'object' && typeof result !== 'string')) return 0;
  const texts = resultTexts(record);
  return texts.size ? shareAt(record, 'toolUseResult', texts, 1) : 0;
}

/** The record's `tool_result` texts (a string `content`, or the `text` of its text parts), by length. */
function resultTexts(record: Record<string, unknown>): Map<number, string[]> {
  const byLength = new Map<number, string[]>();
  const add = (s: unknown) => {
    if (typeof s !== 'string' || s.length < SHARED_TEXT_MIN_CHARS) return;
    const same = byLength.get(s.length);
    if (same) same.push(s);
    else byLength.set(s.length, [s]);
  };
  for (const block of resultBlocks(record)) {
    const c = block.content;
    if (typeof c === 'string') add(c);
    else if (Array.isArray(c)) for (const part of c) if (part !== null && typeof part === 'object') add((part as Record<string, unknown>).text);
  }
  return byLength;
}

/** The record's `tool_result` blocks, in order (none when its message has no list of blocks). */
function resultBlocks(record: Record<string, unknown>): Array<Record<string, unknown>> {
  const message = record.message;
  const content = message !== null && typeof message === 'object' ? (message as Record<string, unknown>).content : undefined;
  if (!Array.isArray(content)) return [];
  return content.filter((b) => b !== null && typeof b === 'object' && (b as Record<string, unknown>).type === 'tool_result') as Array<Record<string, unknown>>;
}

/**
 * Shares the value at `node[key]` (`depth` levels into `toolUseResult`, itself
 * the first) when it is a repeated text, or the strings inside it when it is an
 * object or array no deeper than `MAX_DEPTH`.
 */
function shareAt(node: Record<string, unknown>, key: string, texts: Map<number, string[]>, depth: number): number {
  const value = node[key];
  if (typeof value === 'string') {
    if (value.length < SHARED_TEXT_MIN_CHARS) return 0;
    const twin = texts.get(value.length)?.find((t) => t === value);
    if (twin === undefined) return 0;
    node[key] = twin;
    return value.length;
  }
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return 0;
  let shared = 0;
  // An array's indices are its keys too.
  for (const k of Object.keys(value)) shared += shareAt(value as Record<string, unknown>, k, texts, depth + 1);
  return shared;
}

/**
 * Claude Code's Read output: each line of `content` behind its number, right
 * aligned in six columns, then `separator` (`→`; a tab before 2.0). What a
 * Read result's text is made of, apart from a note Claude Code may add after
 * it (a `<system-reminder>`).
 */
export function numberedLines(content: string, startLine: number, separator: string): string {
  let out = '';
  let n = startLine;
  let i = 0;
  for (;;) {
    const end = content.indexOf('\n', i);
    const num = String(n++);
    // Each line keeps its own newline, so the last line's number comes even after a final newline, as Claude Code writes it.
    out += (num.length < 6 ? '      '.slice(num.length) + num : num) + separator + (end === -1 ? content.slice(i) : content.slice(i, end + 1));
    if (end === -1) return out;
    i = end + 1;
  }
}

/**
 * A file's text as Claude Code's Read result carries it twice: in
 * `toolUseResult.file.content`, and numbered line by line in the
 * `tool_result` (see {@link numberedLines}). The numbered copy cannot share a
 * string with the file's, and costs twice its length: on the generated 630 MB
 * session it was 133 M characters of two-byte text (the arrow), 266 MB alive
 * through the whole build; on `../shared/corpus` 90 % of Read results'
 * characters. The renderer draws a Read from the file's text and hardly reads
 * the numbered one.
 *
 * When the record's lone `tool_result` text is exactly that numbering of the
 * file's text (and whatever note follows it), the property holding it is made
 * to number the file's text each time it is read (0.12 s for all 133 M
 * characters), instead of holding it. Every reader sees the same string as
 * before; writing the property (redaction, a kept output) makes it a plain
 * value again (src/lib/derived-text.ts). Anything that copies the text itself
 * holds it again: the model copies the property instead. The file's text
 * numbered is the one read, not what a later redaction makes of
 * `file.content`: the two are redacted each as a string of its own, as before.
 *
 * @returns the characters no longer held (for tests and measurements)
 */
export function deriveNumberedReadText(record: Record<string, unknown>): number {
  const result = record.toolUseResult;
  const file = result !== null && typeof result === 'object' ? (result as Record<string, unknown>).file : undefined;
  if (file === null || typeof file !== 'object') return 0;
  const { content, startLine } = file as Record<string, unknown>;
  if (typeof content !== 'string' || content.length < SHARED_TEXT_MIN_CHARS) return 0;
  const start = startLine === undefined ? 1 : startLine;
  if (typeof start !== 'number' || !Number.isSafeInteger(start) || start < 0) return 0;
  const place = loneResultText(record);
  if (!place) return 0;
  const [holder, key] = place;
  const text = holder[key] as string;
  // The separator stands after the first number, right-aligned in six columns or wider.
  const separator = text[Math.max(6, String(start).length)];
  if (separator !== '→' && separator !== '\t') return 0;
  const body = numberedLines(content, start, separator);
  if (!text.startsWith(body)) return 0;
  // A copy, not a slice: a slice of the text would keep all of it alive.
  const note = text.length === body.length ? '' : (JSON.parse(JSON.stringify(text.slice(body.length))) as string);
  deriveText(holder, key, text.length, () => numberedLines(content, start, separator) + note);
  return body.length;
}

/** Where the record's lone `tool_result` text is: the block's string `content`, or the `text` of its lone text part. */
function loneResultText(record: Record<string, unknown>): [Record<string, unknown>, string] | undefined {
  const results = resultBlocks(record);
  if (results.length !== 1) return undefined;
  const block = results[0];
  if (typeof block.content === 'string') return [block, 'content'];
  if (!Array.isArray(block.content) || block.content.length !== 1) return undefined;
  const part = block.content[0] as Record<string, unknown> | null;
  return part !== null && typeof part === 'object' && part.type === 'text' && typeof part.text === 'string' ? [part, 'text'] : undefined;
}
