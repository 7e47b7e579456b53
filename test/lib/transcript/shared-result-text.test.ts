import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { collectGarbage } from '../../../src/lib/build/heap-growth.js';
import { readJsonl } from '../../../src/lib/jsonl/read-jsonl.js';
import { shareRepeatedResultText, SHARED_TEXT_MIN_CHARS } from '../../../src/lib/transcript/shared-result-text.js';
import { corpusRoot, jsonlFiles } from '../../helpers/shared.js';

const work = mkdtempSync(join(tmpdir(), 'sp-shared-text-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const long = (tag: string) => `${tag}: ${'output line\n'.repeat(20)}`;

/** A tool result entry as Claude Code writes one: the text in the `tool_result` block, and again in `toolUseResult`. */
function resultEntry(text: string, toolUseResult: unknown, content: unknown = text): Record<string, unknown> {
  return { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content }] }, toolUseResult };
}

describe('shareRepeatedResultText', () => {
  it('counts the repeated text of Bash, subagent, MCP and error results, and changes no value', () => {
    const text = long('a');
    const cases = [
      resultEntry(text, { stdout: text, stderr: '', interrupted: false }),
      resultEntry(text, { status: 'completed', content: [{ type: 'text', text }] }, [{ type: 'text', text }]),
      resultEntry(text, { result: text }),
      resultEntry(text, text),
    ];
    for (const entry of cases) {
      const before = structuredClone(entry);
      expect(shareRepeatedResultText(entry)).toBe(text.length);
      expect(entry).toEqual(before);
    }
  });

  it('leaves alone what is not the same text: a different output, a short one, text deeper than three levels, no tool result', () => {
    const text = long('a');
    expect(shareRepeatedResultText(resultEntry(text, { stdout: long('b') }))).toBe(0);
    expect(shareRepeatedResultText(resultEntry(text, { stdout: `${text} ` }))).toBe(0);
    const short = 'x'.repeat(SHARED_TEXT_MIN_CHARS - 1);
    expect(shareRepeatedResultText(resultEntry(short, { stdout: short }))).toBe(0);
    expect(shareRepeatedResultText(resultEntry(text, { a: { b: { c: { d: text } } } }))).toBe(0);
    expect(shareRepeatedResultText({ type: 'user', message: { role: 'user', content: text }, toolUseResult: { stdout: text } })).toBe(0);
    expect(shareRepeatedResultText({ type: 'assistant', toolUseResult: null })).toBe(0);
  });

  it('finds repeated text in the real sessions of the corpus, and leaves every record equal to its plain parse', async () => {
    let shared = 0;
    for (const file of jsonlFiles(corpusRoot)) {
      const plain = await readJsonl(file);
      const trimmed = await readJsonl(file, file, undefined, { onRecord: (value) => (shared += shareRepeatedResultText(value)) });
      expect(trimmed.records).toEqual(plain.records);
    }
    expect(shared).toBeGreaterThan(0);
  });

  it('holds the repeated text once: a file of 40 results of 1 MB each read with it keeps about 40 MB less alive', async () => {
    const path = join(work, 'big.jsonl');
    const lines: string[] = [];
    for (let i = 0; i < 40; i++) {
      const text = `${i} ${'a line of output that repeats\n'.repeat(35_000)}`;
      lines.push(JSON.stringify(resultEntry(text, { stdout: text, stderr: '' })));
    }
    writeFileSync(path, `${lines.join('\n')}\n`);
    lines.length = 0;
    const alive = async (onRecord?: (value: Record<string, unknown>) => void) => {
      const read = await readJsonl(path, 'big.jsonl', work, onRecord ? { onRecord } : {});
      const used = collectGarbage().after;
      expect(read.records).toHaveLength(40);
      return used;
    };
    const twice = await alive();
    const once = await alive(shareRepeatedResultText);
    // 40 × 1 MB of one-byte text repeated; allow for what else the heap holds and moves.
    expect(twice - once).toBeGreaterThan(30e6);
  });
});
