/**
 * What a sample is (its files and the ids worth knowing), and the checks every
 * sample file must pass before it is written. The samples must be as
 * well-formed as a real transcript: the site's tests run on them, so a broken
 * chain or an unpaired tool call here would pass for a bug in the site.
 */
import type { JsonObject } from './json.js';

export interface SessionFile {
  /** Path relative to the output root. */
  path: string;
  lines: JsonObject[];
}

/** One sample session: its main file, any subagent files, and what tests and reviews refer to. */
export interface SampleSession {
  title: string;
  files: SessionFile[];
  /** Ids worth knowing in tests and reviews (prompts, tool calls, agents). */
  landmarks: Record<string, string>;
}

/** Throws when a file breaks a structural rule the site relies on. */
export function validate(file: SessionFile): void {
  const fail = (why: string) => {
    throw new Error(`${file.path}: ${why}`);
  };
  const byUuid = new Map<string, JsonObject>();
  for (const entry of file.lines) {
    const uuid = entry.uuid;
    if (typeof uuid !== 'string') continue;
    if (byUuid.has(uuid)) fail(`duplicate uuid ${uuid}`);
    byUuid.set(uuid, entry);
  }
  let roots = 0;
  const toolUses = new Map<string, number>();
  const toolResults = new Map<string, number>();
  const lastOfMessage = new Map<string, string>();
  for (const entry of file.lines) {
    if (typeof entry.uuid !== 'string') continue;
    const parent = entry.parentUuid;
    if (parent === null) {
      if (entry.subtype !== 'compact_boundary') roots++;
    } else if (typeof parent !== 'string' || !byUuid.has(parent)) {
      fail(`parentUuid ${String(parent)} of ${entry.uuid} does not resolve`);
    }
    const message = entry.message as JsonObject | undefined;
    const content = message?.content;
    if (Array.isArray(content)) {
      for (const block of content as JsonObject[]) {
        if (block.type === 'tool_use') toolUses.set(String(block.id), 0);
        if (block.type === 'tool_result') {
          const id = String(block.tool_use_id);
          toolResults.set(id, (toolResults.get(id) ?? 0) + 1);
        }
      }
    }
    if (entry.type === 'assistant' && message) {
      const id = String(message.id);
      const previous = lastOfMessage.get(id);
      if (previous !== undefined && previous !== parent) fail(`entries of ${id} are not contiguous in the chain`);
      lastOfMessage.set(id, entry.uuid);
    }
  }
  if (roots !== 1) fail(`expected one root entry, found ${roots}`);
  for (const id of toolUses.keys()) {
    if (toolResults.get(id) !== 1) fail(`tool_use ${id} has ${toolResults.get(id) ?? 0} results`);
  }
  for (const id of toolResults.keys()) if (!toolUses.has(id)) fail(`tool_result for unknown ${id}`);
}
