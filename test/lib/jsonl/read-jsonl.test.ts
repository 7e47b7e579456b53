import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../../src/lib/jsonl/json-depth.js';
import { jsonErrorReason, readJsonl, stringLiteralsOf } from '../../../src/lib/jsonl/read-jsonl.js';
import { BAD_LINE_CODES } from '../../../src/lib/diagnostics.js';
import { corpusRoot, fixturePath, loadExpect } from '../../helpers/shared.js';

const expectData = loadExpect();

/** The folders `tmpFile` made, deleted when this file's tests end. */
const tmpDirs: string[] = [];
afterAll(() => {
  for (const dir of tmpDirs) rmSync(dir, { recursive: true, force: true });
});

function tmpFile(bytes: Buffer | string): string {
  const dir = mkdtempSync(join(tmpdir(), 'sp-jsonl-'));
  tmpDirs.push(dir);
  const p = join(dir, 'x.jsonl');
  writeFileSync(p, bytes);
  return p;
}

describe('readJsonl', () => {
  it('reports exactly the bad lines EXPECT.json lists for the malformed fixture, and keeps the rest', async () => {
    const m = expectData.malformed;
    const r = await readJsonl(fixturePath(m.file), 'malformed.jsonl');
    const bad = r.diagnostics.filter((d) => BAD_LINE_CODES.has(d.code)).map((d) => d.line);
    expect(bad).toEqual(m.bad_lines.map((b: { line: number }) => b.line));
    expect(bad.length).toBe(m.bad_line_count);
    for (const line of m.invalid_utf8_lines) expect(r.diagnostics.some((d) => d.line === line && d.code === 'invalid-utf8')).toBe(true);
    for (const line of m.lone_surrogate_lines) expect(r.diagnostics.some((d) => d.line === line && d.code === 'lone-surrogate')).toBe(true);
    // Lines with recoverable damage still yield their entry.
    const lines = new Set(r.records.map((x) => x.line));
    for (const line of [...m.invalid_utf8_lines, ...m.lone_surrogate_lines]) expect(lines.has(line)).toBe(true);
    for (const line of m.blank_lines) expect(lines.has(line)).toBe(false);
    // Every recovered string is well-formed UTF-16.
    expect(JSON.stringify(r.records.map((x) => x.value)).isWellFormed()).toBe(true);
    expect(r.diagnostics.every((d) => d.file === 'malformed.jsonl' && d.line > 0)).toBe(true);
  });

  it('reads the long line whole (its head and tail marker both survive)', async () => {
    const m = expectData.malformed;
    const r = await readJsonl(fixturePath(m.file));
    const rec = r.records.find((x) => x.line === m.long_line.line)!;
    const text = JSON.stringify(rec.value);
    expect(text).toContain(m.long_line.head_marker);
    expect(text).toContain(m.long_line.tail_marker);
  });

  it('survives BOM, CRLF, a truncated last line, arrays and NUL padding in hand-made input', async () => {
    const p = tmpFile(Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('{"a":1}\r\n\r\n[1,2]\n"str"\n'),
      Buffer.from([0, 0, 0, 0x0a]),
      Buffer.from('{"b":2}\n{"c":'),
    ]));
    const r = await readJsonl(p, 'x');
    expect(r.records.map((x) => x.value)).toEqual([{ a: 1 }, { b: 2 }]);
    expect(r.diagnostics.map((d) => [d.line, d.code])).toEqual([
      [3, 'not-object'],
      [4, 'not-object'],
      [5, 'nul-bytes'],
      [7, 'truncated-line'],
    ]);
  });

  it('reports a line nested too deeply to walk, and keeps the lines around it and one just within the limit', async () => {
    const deep = (levels: number) => `{"message":{"content":${'['.repeat(levels - 2)}"x"${']'.repeat(levels - 2)}}}`;
    const p = tmpFile(`{"a":1}\n${deep(50_000)}\n${deep(MAX_JSON_DEPTH)}\n${deep(MAX_JSON_DEPTH + 1)}\n{"b":2}\n`);
    const r = await readJsonl(p, 'x');
    expect(r.records.map((x) => x.line)).toEqual([1, 3, 5]);
    expect(r.diagnostics.map((d) => [d.line, d.code])).toEqual([
      [2, 'too-deep'],
      [4, 'too-deep'],
    ]);
    expect(BAD_LINE_CODES.has('too-deep')).toBe(true);
  });

  it('flags the comment lines some corpus files start with as not JSON', async () => {
    const r = await readJsonl(join(corpusRoot, '-samples-session-share', 'general-tool-calls.jsonl'));
    expect(r.diagnostics.filter((d) => d.code === 'not-json').map((d) => d.line)).toEqual([1, 2]);
    expect(r.records.length).toBeGreaterThan(50);
  });

  it('handles lines that straddle its read chunks', async () => {
    const big = 'x'.repeat(3 * 1024 * 1024);
    const p = tmpFile(`{"a":"${big}"}\n{"b":1}\n`);
    const r = await readJsonl(p);
    expect(r.records).toHaveLength(2);
    expect((r.records[0].value.a as string).length).toBe(big.length);
  });
});

describe('bad lines quote nothing before redaction', () => {
  const parseError = (text: string) => {
    try {
      JSON.parse(text);
    } catch (err) {
      return err;
    }
    throw new Error('parsed');
  };

  it("drops the piece of the line V8's message quotes, and keeps what went wrong", () => {
    const token = 'ghp_4vUCsMehGAkWvj7FAc9QeWJKY40uvSwMFLZD';
    for (const text of [token, `{"members": [${token}]}`, `[1,${token}]`, `x${'y'.repeat(200)}${token}`]) {
      const reason = jsonErrorReason(parseError(text));
      expect(reason, text).toMatch(/^Unexpected token '.'$/);
    }
    expect(jsonErrorReason(parseError('undefined'))).toBe('not valid JSON');
    expect(jsonErrorReason(parseError('{"a":1'))).toMatch(/^Expected ',' or '}' after property value in JSON at position 6/);
    expect(jsonErrorReason(parseError(`{"a":"${token}"} x`))).toMatch(/^Unexpected non-whitespace character after JSON at position/);
  });

  it("keeps a bad line's head apart from its reason, for redaction to read whole", async () => {
    const line = `{"type":"user","token":"xoxb-7034236671-276842684656-9ojfljoQoaF1LlqsajAIxNKu" oops}`;
    const r = await readJsonl(tmpFile(`{"a":1}\n${line}\n${'z'.repeat(10_000)}\n`), 'x.jsonl');
    expect(r.diagnostics.map((d) => [d.line, d.code, d.lineHead?.length])).toEqual([
      [2, 'not-json', line.length],
      [3, 'not-json', 4096],
    ]);
    for (const d of r.diagnostics) expect(d.reason).not.toMatch(/xoxb|zzz/);
  });

  it("reads a bad line's strings decoded, a cut one as written", () => {
    expect(stringLiteralsOf('{"k":"{\\"apiKey\\": \\"v\\"}", "n":1, "cut":"ab\\u00')).toEqual(['k', '{"apiKey": "v"}', 'n', 'cut', 'ab\\u00']);
    expect(stringLiteralsOf('no strings at all')).toEqual([]);
  });

  it('keeps the heads of the first thousand bad lines of a file only, and reports every line', async () => {
    const r = await readJsonl(tmpFile(`${Array.from({ length: 1200 }, (_, i) => `not json ${i}`).join('\n')}\n{"a":1}\n`), 'x.jsonl');
    expect(r.diagnostics.length).toBe(1200);
    expect(r.diagnostics.filter((d) => d.lineHead !== undefined).map((d) => d.line)).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
  });
});
