import type { Diagnostic } from '../diagnostics.js';
import { classifyAssistant, classifyUser, contentBlocks, messageOf, tagContent, textOf } from './entries.js';
import type {
  AssistantMessage,
  CompactionMessage,
  ContentBlock,
  Entry,
  Message,
  SystemMessage,
  ToolCall,
  Usage,
  UserMessage,
} from './types.js';

export interface MessagesResult {
  messages: Message[];
  /** Every tool call by id, paired or not. */
  toolCalls: Map<string, ToolCall>;
  unpairedToolUses: string[];
  orphanToolResults: string[];
  diagnostics: Diagnostic[];
}

/**
 * Turns the entries of one branch (in file order) into reader-level messages:
 * streaming entries that share `message.id` become one assistant message, tool
 * results are paired with their calls, a command and its output become one
 * message, and a compaction boundary absorbs the summary that follows it.
 */
export function buildMessages(entries: Entry[], file: string): MessagesResult {
  const diagnostics: Diagnostic[] = [];
  const messages: Message[] = [];
  const byMessageId = new Map<string, AssistantMessage>();
  const toolCalls = new Map<string, ToolCall>();
  const resultEntries: Entry[] = [];
  let pendingCompaction: CompactionMessage | undefined;
  let lastCommand: UserMessage | undefined;

  for (const entry of entries) {
    if (entry.type === 'assistant') {
      lastCommand = undefined;
      addAssistant(entry);
      continue;
    }
    if (entry.type === 'user') {
      const kind = classifyUser(entry);
      if (kind === 'tool-result') {
        resultEntries.push(entry);
        const extra = textOf(entry).trim();
        if (/^\[Request interrupted by user/.test(extra)) messages.push(userMessage(entry, 'interruption', extra));
        continue;
      }
      if (kind === 'compact-summary') {
        const summary = textOf(entry);
        if (pendingCompaction && !pendingCompaction.summary) {
          pendingCompaction.summary = summary;
        } else {
          messages.push({ kind: 'compaction', uuid: entry.uuid ?? `line-${entry.line}`, timestamp: entry.timestamp, summary, line: entry.line });
        }
        pendingCompaction = undefined;
        continue;
      }
      const text = textOf(entry);
      if (kind === 'command-output' && lastCommand?.command && lastCommand.command.output === undefined) {
        lastCommand.command.output = commandOutput(text);
        continue;
      }
      const msg = userMessage(entry, kind, text);
      messages.push(msg);
      lastCommand = kind === 'command' ? msg : undefined;
      continue;
    }
    if (entry.type === 'system') {
      const subtype = entry.subtype ?? 'info';
      if (subtype === 'compact_boundary') {
        const meta = (entry.raw.compactMetadata ?? {}) as { trigger?: string; preTokens?: number };
        pendingCompaction = {
          kind: 'compaction',
          uuid: entry.uuid ?? `line-${entry.line}`,
          timestamp: entry.timestamp,
          trigger: typeof meta.trigger === 'string' ? meta.trigger : undefined,
          preTokens: typeof meta.preTokens === 'number' ? meta.preTokens : undefined,
          summary: '',
          line: entry.line,
        };
        messages.push(pendingCompaction);
        continue;
      }
      const content = typeof entry.raw.content === 'string' ? entry.raw.content : '';
      if (subtype === 'local_command' && content.includes('<command-name>')) {
        const msg = userMessage(entry, 'command', content);
        messages.push(msg);
        lastCommand = msg;
        continue;
      }
      if (subtype === 'local_command' && lastCommand?.command && lastCommand.command.output === undefined) {
        lastCommand.command.output = commandOutput(content);
        continue;
      }
      messages.push(systemMessage(entry, subtype, content));
      continue;
    }
    if (entry.type === 'attachment') {
      const att = entry.raw.attachment as Record<string, unknown> | undefined;
      if (att && att.type === 'queued_command' && typeof att.prompt === 'string') {
        messages.push({ ...userMessage(entry, 'queued-prompt', att.prompt) });
      }
    }
    // progress, snapshots, queue operations and other metadata are not messages.
  }

  const orphanToolResults: string[] = [];
  for (const entry of resultEntries) {
    const blocks = contentBlocks(entry);
    const results = blocks.filter((b) => b.type === 'tool_result') as Array<Extract<ContentBlock, { type: 'tool_result' }>>;
    for (const block of results) {
      const call = toolCalls.get(block.tool_use_id);
      if (!call) {
        orphanToolResults.push(block.tool_use_id);
        diagnostics.push({ file, line: entry.line, code: 'tool-result-without-tool-use', reason: `tool result for ${block.tool_use_id} has no matching tool call; shown on its own` });
        messages.push(userMessage(entry, 'tool-result', stringifyResult(block.content)));
        continue;
      }
      if (call.result) continue;
      call.result = {
        uuid: entry.uuid ?? `line-${entry.line}`,
        timestamp: entry.timestamp,
        content: block.content ?? '',
        isError: block.is_error === true,
        // One entry holds one result in every version seen; with several, the structured
        // result cannot be told apart, so only a lone result gets it.
        toolUseResult: results.length === 1 ? entry.raw.toolUseResult : undefined,
      };
    }
  }
  const unpairedToolUses: string[] = [];
  for (const call of toolCalls.values()) {
    if (!call.result) unpairedToolUses.push(call.id);
  }
  messages.sort((a, b) => a.line - b.line);
  return { messages, toolCalls, unpairedToolUses, orphanToolResults, diagnostics };

  function addAssistant(entry: Entry): void {
    const message = messageOf(entry) ?? {};
    const id = typeof message.id === 'string' ? message.id : undefined;
    const blocks = contentBlocks(entry);
    const existing = id ? byMessageId.get(id) : undefined;
    const target: AssistantMessage =
      existing ?? {
        kind: 'assistant',
        assistantKind: classifyAssistant(entry),
        uuid: entry.uuid ?? `line-${entry.line}`,
        uuids: [],
        messageId: id,
        model: typeof message.model === 'string' ? message.model : undefined,
        timestamp: entry.timestamp,
        blocks: [],
        toolCalls: [],
        line: entry.line,
      };
    if (!existing) {
      messages.push(target);
      if (id) byMessageId.set(id, target);
    }
    if (entry.uuid) target.uuids.push(entry.uuid);
    target.blocks = mergeBlocks(target.blocks, blocks);
    if (message.usage && typeof message.usage === 'object') target.usage = message.usage as Usage;
    if ('stop_reason' in message) target.stopReason = (message.stop_reason as string | null) ?? target.stopReason ?? null;
    for (const block of blocks) {
      if (block.type !== 'tool_use') continue;
      const b = block as Extract<ContentBlock, { type: 'tool_use' }>;
      if (typeof b.id !== 'string' || toolCalls.has(b.id)) continue;
      const call: ToolCall = {
        id: b.id,
        name: typeof b.name === 'string' ? b.name : 'unknown',
        input: b.input && typeof b.input === 'object' ? b.input : {},
        entryUuid: entry.uuid ?? target.uuid,
      };
      toolCalls.set(b.id, call);
      target.toolCalls.push(call);
    }
  }
}

/**
 * Merges the blocks of a new streaming entry into a message. Split style adds
 * new blocks; cumulative style repeats (and may extend) the earlier ones, so the
 * later entry replaces them. Each block ends up exactly once, in order.
 */
export function mergeBlocks(previous: ContentBlock[], next: ContentBlock[]): ContentBlock[] {
  if (previous.length === 0) return [...next];
  if (next.length >= previous.length && previous.every((b, i) => extendsBlock(b, next[i]))) return [...next];
  const merged = [...previous];
  for (const block of next) {
    const at = merged.findIndex((b) => sameBlock(b, block));
    if (at === -1) merged.push(block);
    else if (extendsBlock(merged[at], block)) merged[at] = block;
  }
  return merged;
}

function blockText(b: ContentBlock): string | undefined {
  if (b.type === 'text') return (b as { text?: string }).text ?? '';
  if (b.type === 'thinking') return (b as { thinking?: string }).thinking ?? '';
  return undefined;
}

function sameBlock(a: ContentBlock, b: ContentBlock): boolean {
  if (a.type !== b.type) return false;
  if (a.type === 'tool_use') return (a as { id?: string }).id === (b as { id?: string }).id;
  const ta = blockText(a);
  if (ta !== undefined) return ta === blockText(b);
  return JSON.stringify(a) === JSON.stringify(b);
}

/** `b` is `a`, or a later, longer state of the same streamed block. */
function extendsBlock(a: ContentBlock, b: ContentBlock | undefined): boolean {
  if (!b || a.type !== b.type) return false;
  const ta = blockText(a);
  if (ta !== undefined) return (blockText(b) ?? '').startsWith(ta);
  return sameBlock(a, b);
}

function userMessage(entry: Entry, userKind: UserMessage['userKind'], text: string): UserMessage {
  const blocks = contentBlocks(entry).filter((b) => b.type !== 'text' && b.type !== 'tool_result');
  const msg: UserMessage = {
    kind: 'user',
    userKind,
    uuid: entry.uuid ?? `line-${entry.line}`,
    timestamp: entry.timestamp,
    text,
    blocks,
    line: entry.line,
    raw: entry.raw,
  };
  if (userKind === 'command') {
    const name = (tagContent(text, 'command-name') ?? '').trim();
    const args = (tagContent(text, 'command-args') ?? '').trim();
    const inlineOut = tagContent(text, 'local-command-stdout');
    msg.command = { name: name.startsWith('/') || !name ? name : `/${name}`, args, output: inlineOut };
  }
  return msg;
}

function systemMessage(entry: Entry, subtype: string, content: string): SystemMessage {
  return {
    kind: 'system',
    uuid: entry.uuid ?? `line-${entry.line}`,
    subtype,
    timestamp: entry.timestamp,
    text: content,
    level: typeof entry.raw.level === 'string' ? entry.raw.level : undefined,
    line: entry.line,
    raw: entry.raw,
  };
}

function commandOutput(text: string): string {
  return tagContent(text, 'local-command-stdout') ?? tagContent(text, 'local-command-stderr') ?? text;
}

function stringifyResult(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((b) => (b && typeof b === 'object' && typeof (b as { text?: unknown }).text === 'string' ? (b as { text: string }).text : ''))
      .join('\n');
  }
  return '';
}
