/**
 * What a message weighs on a session page, estimated from the model alone, so
 * that every command that needs to know which page shows a message (the build,
 * `link`, `export`, the Markdown twins, pull-request comments) cuts a session
 * the same way without rendering it. The estimate counts the text a message
 * shows (its words, its tool calls' inputs and outputs, its subagents' whole
 * transcripts) and the elements its frame adds; it errs on the heavy side, so
 * a page cut by it stays under the limits once rendered.
 */
import { agentsIn } from '../transcript/entries.js';
import type { ContentBlock, Message, ToolCall } from '../transcript/types.js';

/** What one message (or a page) weighs: bytes of HTML and number of elements, estimated. */
export interface Weight {
  bytes: number;
  elements: number;
}

/**
 * Per-item costs, measured on the corpus (rendered HTML ÷ text shown, elements
 * per message, call and line), rounded up. Text grows by escaping and by the
 * frame around it; a line of output costs an element or two (diff rows, list
 * items, line numbers).
 */
const COST = {
  /** HTML bytes per character of text shown. */
  bytesPerChar: 1.1,
  /** The frame of a message: header, time, anchors, copy buttons. */
  messageBytes: 600,
  messageElements: 10,
  /** The frame of a tool call: summary line, input, output, details. */
  callBytes: 1200,
  callElements: 20,
  /** Elements per line of text (markdown paragraphs and list items, diff rows, table cells). */
  elementsPerLine: 0.4,
} as const;

/** Text shown longer than this is counted at this length: the renderers cut or fold what is longer. */
const TEXT_CAP = 2_000_000;

/** Strings inside a value (a tool input, a result's blocks, a record's fields), summed as characters and lines. */
function textOf(value: unknown, acc: { chars: number; lines: number }, depth = 0): void {
  if (depth > 8 || value === null || value === undefined) return;
  if (typeof value === 'string') {
    const n = Math.min(value.length, TEXT_CAP);
    acc.chars += n;
    acc.lines += countLines(value, n);
    return;
  }
  if (typeof value === 'number' || typeof value === 'boolean') {
    acc.chars += 6;
    return;
  }
  if (Array.isArray(value)) {
    for (const v of value) textOf(v, acc, depth + 1);
    return;
  }
  if (typeof value === 'object') {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      // Images are emitted as files and linked; a signature is never shown.
      if (k === 'data' || k === 'signature') continue;
      acc.chars += k.length;
      textOf(v, acc, depth + 1);
    }
  }
}

function countLines(text: string, upTo: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < upTo; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function blocksText(blocks: ContentBlock[], acc: { chars: number; lines: number }): void {
  for (const b of blocks) {
    if (b.type === 'text') textOf((b as { text?: unknown }).text, acc);
    else if (b.type === 'thinking') textOf((b as { thinking?: unknown }).thinking, acc);
    else if (b.type === 'tool_use' || b.type === 'tool_result') continue; // counted with the call
    else textOf(b, acc);
  }
}

function callText(call: ToolCall, acc: { chars: number; lines: number }): void {
  textOf(call.input, acc);
  const r = call.result;
  if (!r) return;
  const before = acc.chars;
  textOf(r.content, acc);
  // A result whose content is empty is shown from its structured copy (stdout, a patch).
  if (acc.chars === before) textOf(r.toolUseResult, acc);
}

/**
 * The estimated weight of one message as a session page shows it, its tool
 * calls and the subagents shown inside it included (at any depth; an agent
 * reached twice is counted once).
 */
export function messageWeight(m: Message, seen = new Set<object>()): Weight {
  const acc = { chars: 0, lines: 0 };
  let calls = 0;
  let messages = 1;
  const add = (msg: Message) => {
    if (msg.kind === 'assistant') {
      blocksText(msg.blocks, acc);
      for (const call of msg.toolCalls) {
        calls++;
        callText(call, acc);
      }
    } else if (msg.kind === 'user') {
      textOf(msg.text, acc);
      if (msg.command) textOf(msg.command, acc);
      blocksText(msg.blocks.filter((b) => b.type !== 'text'), acc);
    } else {
      // Any other kind: its fields as they are (the raw record holds what a system line or attachment shows).
      const { uuid: _uuid, line: _line, timestamp: _ts, ...rest } = msg as Message & Record<string, unknown>;
      textOf(rest, acc);
    }
    for (const agent of agentsIn(msg)) {
      if (seen.has(agent)) continue;
      seen.add(agent);
      for (const inner of agent.messages) {
        messages++;
        add(inner);
      }
    }
  };
  add(m);
  return {
    bytes: Math.ceil(acc.chars * COST.bytesPerChar + messages * COST.messageBytes + calls * COST.callBytes),
    elements: Math.ceil(acc.lines * COST.elementsPerLine + messages * COST.messageElements + calls * COST.callElements),
  };
}
