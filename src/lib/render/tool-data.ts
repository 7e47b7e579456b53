/**
 * A tool call read as plain data: its loosely typed input and result fields,
 * the text of its result, the hunks of an edit, an MCP tool's names. No HTML:
 * the renderers (tools/*) and the one-line summaries (tool-summary.ts) both
 * build on these, so imports flow one way, from them to this module.
 */
import { structuredPatch } from 'diff';
import { tagContent } from '../transcript/entries.js';
import type { ToolCall, ToolResult } from '../transcript/types.js';

/** A string field of a loosely typed object, or undefined. */
export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** A number field, or undefined. */
export function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** A plain object, or undefined. */
export function obj(v: unknown): Record<string, unknown> | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** The structured `toolUseResult` when it is an object. */
export function structured(call: ToolCall): Record<string, unknown> | undefined {
  return obj(call.result?.toolUseResult);
}

/** The objects of an array field of the structured result (`tasks`, `jobs`…), or undefined when it is not an array. */
export function structuredList(call: ToolCall, key: string): Array<Record<string, unknown>> | undefined {
  const list = structured(call)?.[key];
  return Array.isArray(list) ? list.map(obj).filter((o): o is Record<string, unknown> => !!o) : undefined;
}

/** Text of a tool result: the string content, or its text blocks joined. */
export function resultText(result: ToolResult | undefined): string {
  if (!result) return '';
  const c = result.content;
  if (typeof c === 'string') return c;
  if (!Array.isArray(c)) return '';
  return c
    .map((b) => (b && b.type === 'text' && typeof (b as { text?: unknown }).text === 'string' ? (b as { text: string }).text : ''))
    .filter(Boolean)
    .join('\n\n');
}

/** Counts lines the way a reader would (a trailing newline adds none). */
export function lineCount(text: string): number {
  if (!text) return 0;
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') ? n - 1 : n;
}

/** Drops the `<system-reminder>` blocks Claude Code appends to results: they are not output. */
export function cleanResultText(text: string): string {
  return text.replace(/\n*<system-reminder>[\s\S]*?<\/system-reminder>\n*/g, '\n').replace(/\n+$/, '');
}

/** The text inside `<tag>…</tag>` in a result (first one; tolerates a missing close), trimmed. */
export function taggedValue(text: string, tag: string): string | undefined {
  return tagContent(text, tag)?.trim();
}

/** A result's text parsed as a JSON object (tools that answer in JSON text), or undefined. */
export function jsonObjectOf(text: string): Record<string, unknown> | undefined {
  const t = text.trim();
  if (!t.startsWith('{')) return undefined;
  try {
    return obj(JSON.parse(t));
  } catch {
    return undefined;
  }
}

/** The structured result, else the result text parsed as a JSON object. */
export function structuredOrJson(call: ToolCall): Record<string, unknown> | undefined {
  return structured(call) ?? (call.result && !call.result.isError ? jsonObjectOf(resultText(call.result)) : undefined);
}

/**
 * A tool's entry in a table by tool name: its own, else the one for MCP tools
 * (`mcp__…`), else the one for any other tool. The renderers and the one-line
 * summaries are both looked up this way.
 */
export function byToolName<T>(table: Record<string, T>, name: string, fallback: { mcp: T; other: T }): T {
  if (Object.prototype.hasOwnProperty.call(table, name)) return table[name];
  return name.startsWith('mcp__') ? fallback.mcp : fallback.other;
}

/** Splits `mcp__server__tool` into its server and tool names. */
export function parseMcpName(name: string): { server: string; tool: string } | undefined {
  const m = /^mcp__(.+?)__(.+)$/.exec(name);
  return m ? { server: m[1], tool: m[2] } : undefined;
}

export interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

/** Hunks of a `structuredPatch` value, validated (it is transcript data). */
export function patchHunks(value: unknown): Hunk[] {
  if (!Array.isArray(value)) return [];
  const out: Hunk[] = [];
  for (const h of value) {
    const o = obj(h);
    if (!o || !Array.isArray(o.lines)) continue;
    out.push({
      oldStart: num(o.oldStart) ?? 1,
      oldLines: num(o.oldLines) ?? 0,
      newStart: num(o.newStart) ?? 1,
      newLines: num(o.newLines) ?? 0,
      lines: o.lines.filter((l): l is string => typeof l === 'string'),
    });
  }
  return out;
}

/** How many lines some hunks add and remove. */
export interface LineCounts {
  added: number;
  removed: number;
}

/** Counts the lines hunks add and remove. */
export function countLines(hunks: readonly Hunk[]): LineCounts {
  let added = 0;
  let removed = 0;
  for (const h of hunks) {
    for (const l of h.lines) {
      if (l[0] === '+') added++;
      else if (l[0] === '-') removed++;
    }
  }
  return { added, removed };
}

/** The line counts of edits whose hunks were computed, by the object that holds their texts (see `computeHunks`). */
const counted = new WeakMap<object, { oldText: string; newText: string; counts: LineCounts }>();

/**
 * Computes hunks from old and new text (line numbers relative to the snippet).
 * With `owner` (the call or the edit the texts are from), how many lines they
 * add and remove is kept for `editLineCounts`.
 */
export function computeHunks(oldText: string, newText: string, owner?: object): Hunk[] {
  let hunks: Hunk[];
  try {
    const patch = structuredPatch('a', 'b', oldText, newText, '', '', { context: 3 });
    hunks = patch.hunks.map((h) => ({ oldStart: h.oldStart, oldLines: h.oldLines, newStart: h.newStart, newLines: h.newLines, lines: h.lines }));
  } catch {
    hunks = [];
  }
  if (owner) counted.set(owner, { oldText, newText, counts: countLines(hunks) });
  return hunks;
}

/**
 * How many lines an edit recorded without its patch adds and removes: as
 * counted when its diff was drawn (`computeHunks` with the same owner and
 * texts), else computed. Its row and its Markdown twin need only these: on the
 * generated 630 MB session, computing the hunks again for each was 0.5 s of
 * the render, and keeping the hunks instead would hold a copy of every edit's
 * text until the session is written.
 */
export function editLineCounts(oldText: string, newText: string, owner: object): LineCounts {
  const known = counted.get(owner);
  if (known && known.oldText === oldText && known.newText === newText) return known.counts;
  // Drawn now instead: computeHunks keeps the counts with the owner.
  computeHunks(oldText, newText, owner);
  return counted.get(owner)!.counts;
}

/**
 * A result's whole output when Claude Code kept it beside the session and it
 * was read: it wins over whatever the record holds (a preview, a `stdout` cut
 * at 30,000 characters).
 */
export function keptOutput(call: ToolCall): string | undefined {
  const r = call.result;
  return r?.persistedOutput && !r.persistedOutput.missing ? resultText(r) : undefined;
}
