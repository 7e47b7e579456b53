/**
 * Real tool calls from the corpus: scans every JSONL file under the corpus for
 * `tool_use` blocks and pairs each with its `tool_result` (and the entry's
 * `toolUseResult`) by tool_use_id. Read-only; nothing is copied into the repo.
 */
import type { ContentBlock, ToolCall } from '../../src/lib/transcript/types.js';
import { corpusRoot, jsonlFiles, rawEntries } from './shared.js';

let cache: Map<string, ToolCall[]> | undefined;

/** Every tool call of the corpus by tool name, in file order; results attached when found. */
export function corpusCalls(): Map<string, ToolCall[]> {
  if (cache) return cache;
  const byName = new Map<string, ToolCall[]>();
  const byId = new Map<string, ToolCall>();
  for (const file of jsonlFiles(corpusRoot)) {
    for (const o of rawEntries(file)) {
      const content = o?.message?.content;
      if (!Array.isArray(content)) continue;
      for (const b of content) {
        if (!b || typeof b !== 'object') continue;
        if (b.type === 'tool_use' && typeof b.id === 'string' && !byId.has(b.id)) {
          const call: ToolCall = { id: b.id, name: String(b.name), input: b.input && typeof b.input === 'object' ? b.input : {}, entryUuid: String(o.uuid ?? '') };
          byId.set(b.id, call);
          const list = byName.get(call.name) ?? [];
          list.push(call);
          byName.set(call.name, list);
        } else if (b.type === 'tool_result' && typeof b.tool_use_id === 'string') {
          const call = byId.get(b.tool_use_id);
          if (call && !call.result) {
            call.result = {
              uuid: String(o.uuid ?? ''),
              timestamp: o.timestamp,
              content: (b.content ?? '') as string | ContentBlock[],
              isError: b.is_error === true,
              toolUseResult: o.toolUseResult,
            };
          }
        }
      }
    }
  }
  cache = byName;
  return byName;
}

/** Calls of one tool; `withResult` keeps only calls whose result was found. */
export function callsOf(name: string, filter: (c: ToolCall) => boolean = () => true): ToolCall[] {
  return (corpusCalls().get(name) ?? []).filter(filter);
}

/** The first call of a tool that satisfies `filter`; throws (failing the test) when the corpus has none. */
export function firstCall(name: string, filter: (c: ToolCall) => boolean = (c) => !!c.result): ToolCall {
  const c = callsOf(name, filter)[0];
  if (!c) throw new Error(`no ${name} call in the corpus matches`);
  return c;
}

/** The structured result of a call as a loose object. */
export function tur(call: ToolCall): any {
  return call.result?.toolUseResult;
}
