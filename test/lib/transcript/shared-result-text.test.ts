import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { collectGarbage } from '../../../src/lib/build/heap-growth.js';
import { readJsonl } from '../../../src/lib/jsonl/read-jsonl.js';
import { derivedTextOf } from '../../../src/lib/derived-text.js';
import { deriveNumberedReadText, numberedLines, shareRepeatedResultText, SHARED_TEXT_MIN_CHARS } from '../../../src/lib/transcript/shared-result-text.js';
import { corpusRoot, jsonlFiles } from '../../helpers/shared.js';

const work = mkdtempSync(join(tmpdir(), 'sp-shared-text-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const long = (tag: string) => `${tag}: ${'output line\n'.repeat(20)}`;

/** A tool result entry as Claude Code writes one: the text in the `tool_result` block, and again in `toolUseResult`. */
function resultEntry(text: string, toolUseResult: unknown, content: unknown = text): Record<string, unknown> {
  return { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content }] }, toolUseResult };
}

/** Writes `count` entries made by `entry` as a JSONL file in the work folder; its path. */
function writeEntries(name: string, count: number, entry: (i: number) => Record<string, unknown>): string {
  const path = join(work, name);
  writeFileSync(path, `${Array.from({ length: count }, (_, i) => JSON.stringify(entry(i))).join('\n')}\n`);
  return path;
}

/** The heap alive (collected) while the file at `path`, of `count` records, is held as read, given each record to `onRecord` if any. */
async function aliveWhileRead(path: string, count: number, onRecord?: (value: Record<string, unknown>) => void): Promise<number> {
  const read = await readJsonl(path, basename(path), work, onRecord ? { onRecord } : {});
  const used = collectGarbage().after;
  expect(read.records).toHaveLength(count);
  return used;
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
    const path = writeEntries('big.jsonl', 40, (i) => {
      const text = `${i} ${'a line of output that repeats\n'.repeat(35_000)}`;
      return resultEntry(text, { stdout: text, stderr: '' });
    });
    const twice = await aliveWhileRead(path, 40);
    const once = await aliveWhileRead(path, 40, shareRepeatedResultText);
    // 40 × 1 MB of one-byte text repeated; allow for what else the heap holds and moves.
    expect(twice - once).toBeGreaterThan(30e6);
  });
});

/** A file's text of `lines` lines, each different. */
const fileText = (lines: number, tag = 'x') => Array.from({ length: lines }, (_, i) => `${tag} const line${i} = ${i * 7}; // → ${'·'.repeat(i % 5)}`).join('\n');

/** A Read result entry as Claude Code writes one: the file's text numbered in the tool_result, and as it is in `toolUseResult.file`. */
function readEntry(content: string, startLine: number, text: string, asParts = false): Record<string, unknown> {
  return resultEntry(text, { type: 'text', file: { filePath: '/work/app/src/a.ts', content, numLines: content.split('\n').length, startLine, totalLines: 500 } }, asParts ? [{ type: 'text', text }] : text);
}

const REMINDER = '\n\n<system-reminder>\nWhenever you read a file, you should consider whether it would be considered malware.\n</system-reminder>\n';

describe('numberedLines', () => {
  it("numbers each line as Claude Code's Read does: right-aligned in six columns, the separator, the line", () => {
    expect(numberedLines('a\nb', 1, '→')).toBe('     1→a\n     2→b');
    expect(numberedLines('a\n', 9, '\t')).toBe('     9\ta\n    10\t');
    expect(numberedLines('', 3, '→')).toBe('     3→');
    expect(numberedLines('x\ny', 999_999, '→')).toBe('999999→x\n1000000→y');
  });
});

describe('deriveNumberedReadText', () => {
  const block = (entry: Record<string, unknown>) => ((entry.message as { content: Array<Record<string, unknown>> }).content)[0];

  it("makes a Read result's numbered text from the file's text, with the note after it, for either separator and either shape, changing no value", () => {
    const content = fileText(40);
    const cases = [
      readEntry(content, 1, numberedLines(content, 1, '→') + REMINDER),
      readEntry(content, 120, numberedLines(content, 120, '→')),
      readEntry(content, 1, numberedLines(content, 1, '\t') + REMINDER),
      readEntry(content, 1, numberedLines(content, 1, '→') + REMINDER, true),
    ];
    for (const entry of cases) {
      const before = structuredClone(entry);
      expect(deriveNumberedReadText(entry)).toBeGreaterThan(content.length);
      expect(entry).toEqual(before);
      expect(JSON.stringify(entry)).toBe(JSON.stringify(before));
      const holder = Array.isArray(block(entry).content) ? (block(entry).content as Array<Record<string, unknown>>)[0] : block(entry);
      expect(derivedTextOf(holder)).toBeDefined();
    }
  });

  it('leaves alone a result that is not exactly the numbered file: another line, another start, another format, a note before it, two results, a short file, a start line that is no number', () => {
    const content = fileText(40);
    const body = numberedLines(content, 1, '→');
    const leftAlone = [
      readEntry(content, 1, body.replace('line7', 'line8')),
      readEntry(content, 2, body),
      readEntry(content, 1, body.replace(/→/g, ': ')),
      readEntry(content, 1, `note\n${body}`),
      { ...readEntry(content, 1, body), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a', content: body }, { type: 'tool_result', tool_use_id: 'b', content: body }] } },
      readEntry('short', 1, numberedLines('short', 1, '→')),
      readEntry(content, 1, body, false),
    ];
    (leftAlone[6].toolUseResult as { file: Record<string, unknown> }).file.startLine = '1';
    for (const entry of leftAlone) {
      const before = structuredClone(entry);
      expect(deriveNumberedReadText(entry)).toBe(0);
      expect(entry).toEqual(before);
    }
  });

  it('finds Read results to derive in the real sessions of the corpus, and leaves every record equal to its plain parse', async () => {
    let derived = 0;
    for (const file of jsonlFiles(corpusRoot)) {
      const plain = await readJsonl(file);
      const read = await readJsonl(file, file, undefined, { onRecord: (value) => (derived += deriveNumberedReadText(value)) });
      expect(JSON.stringify(read.records)).toBe(JSON.stringify(plain.records));
      expect(read.records).toEqual(plain.records);
    }
    expect(derived).toBeGreaterThan(0);
  });

  it('holds no numbered copy: 40 Read results of a file of 16,000 lines each keep more than 40 MB less alive', async () => {
    const path = writeEntries('reads.jsonl', 40, (i) => {
      const content = fileText(16_000, `f${i}`);
      return readEntry(content, 1, numberedLines(content, 1, '→') + REMINDER);
    });
    const plain = await aliveWhileRead(path, 40);
    const derived = await aliveWhileRead(path, 40, deriveNumberedReadText);
    // 40 numbered copies of two-byte text (the arrow), 0.7 M characters each (56 MB); allow for what else the heap holds and moves.
    expect(plain - derived).toBeGreaterThan(40e6);
  });
});
