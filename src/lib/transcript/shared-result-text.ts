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
  const message = record.message;
  const content = message !== null && typeof message === 'object' ? (message as Record<string, unknown>).content : undefined;
  if (!Array.isArray(content)) return byLength;
  for (const block of content) {
    if (block === null || typeof block !== 'object' || (block as Record<string, unknown>).type !== 'tool_result') continue;
    const c = (block as Record<string, unknown>).content;
    if (typeof c === 'string') add(c);
    else if (Array.isArray(c)) for (const part of c) if (part !== null && typeof part === 'object') add((part as Record<string, unknown>).text);
  }
  return byLength;
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
