/** Small hand-built model objects for tests. */
import { randomUUID } from 'node:crypto';
import type { AssistantMessage, ContentBlock, SystemMessage, ToolCall, UserMessage } from '../../../src/lib/transcript/types.js';

export function userMsg(text: string, userKind: UserMessage['userKind'] = 'prompt', extra: Partial<UserMessage> = {}): UserMessage {
  return { kind: 'user', userKind, uuid: randomUUID(), timestamp: '2025-01-02T03:04:05.000Z', text, blocks: [], line: 1, raw: {}, ...extra };
}

export function assistantMsg(blocks: ContentBlock[], toolCalls: ToolCall[] = [], extra: Partial<AssistantMessage> = {}): AssistantMessage {
  return {
    kind: 'assistant',
    assistantKind: 'normal',
    uuid: randomUUID(),
    uuids: [],
    timestamp: '2025-01-02T03:04:06.000Z',
    model: 'claude-test',
    blocks,
    toolCalls,
    line: 2,
    ...extra,
  };
}

/** An assistant message holding one tool call (with its tool_use block). */
export function withCall(call: ToolCall): AssistantMessage {
  return assistantMsg([{ type: 'tool_use', id: call.id, name: call.name, input: call.input }], [call]);
}

export function toolCall(name: string, input: Record<string, unknown>, result?: { content: string | ContentBlock[]; isError?: boolean; toolUseResult?: unknown }): ToolCall {
  const id = `toolu_${randomUUID().replace(/-/g, '').slice(0, 20)}`;
  return {
    id,
    name,
    input,
    entryUuid: randomUUID(),
    result: result ? { uuid: randomUUID(), content: result.content, isError: result.isError ?? false, toolUseResult: result.toolUseResult } : undefined,
  };
}

export function systemMsg(subtype: string, text: string, raw: Record<string, unknown> = {}): SystemMessage {
  return { kind: 'system', uuid: randomUUID(), subtype, text, line: 3, raw: { subtype, ...raw } };
}
