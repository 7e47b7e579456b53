import { describe, expect, it } from 'vitest';
import { LINE_HEAD_READ, redactProblem, type Diagnostic } from '../../src/lib/diagnostics.js';

/** A stand-in redactor: replaces whole `tok_` + 30 letters tokens only, as a shape rule does. */
const redact = (text: string) => text.replace(/tok_[a-z]{30}/g, '[REDACTED:token]');
const TOKEN = `tok_${'q'.repeat(10)}${'w'.repeat(10)}${'e'.repeat(10)}`;

describe('redactProblem', () => {
  it('redacts the line head whole before cutting it, so a token across the cut is found by its shape', () => {
    const head = `{"type":"user","k":"${TOKEN}" oops}`;
    // The token starts at 20 and ends past 40: cut first, it no longer matches, and 20 of its characters show.
    expect(redact(head.slice(0, 40))).toContain('qqqqqqqqqq');
    const d = redactProblem({ file: 'p/s.jsonl', line: 3, code: 'not-json', reason: 'not JSON: Unexpected token', lineHead: head }, redact);
    expect(d.reason).toBe('not JSON: Unexpected token — starts with "{\\"type\\":\\"user\\",\\"k\\":\\"[REDACTED:token]\\" oo"');
    expect(d).not.toHaveProperty('lineHead');
    expect(d.reason).not.toMatch(/qqq/);
  });

  it('quotes at most forty characters of the redacted head', () => {
    const d = redactProblem({ file: 'f', line: 1, code: 'not-json', reason: 'r', lineHead: 'x'.repeat(LINE_HEAD_READ) }, redact);
    expect(d.reason).toBe(`r — starts with "${'x'.repeat(40)}"`);
  });

  it('redacts the file and reason of a problem without a line head, and adds nothing', () => {
    const d: Diagnostic = { file: `p/${TOKEN}.jsonl`, line: 0, code: 'read-error', reason: `cannot read ${TOKEN}` };
    expect(redactProblem(d, redact)).toEqual({ file: 'p/[REDACTED:token].jsonl', line: 0, code: 'read-error', reason: 'cannot read [REDACTED:token]' });
  });
});
