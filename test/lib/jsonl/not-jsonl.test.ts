import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readJsonl } from '../../../src/lib/jsonl/read-jsonl.js';

const dir = mkdtempSync(join(tmpdir(), 'sp-notjsonl-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Deterministic pseudo-random bytes (a 200 KB file of them gave 1,476 warnings before). */
function randomBytes(n: number, seed: number): Buffer {
  const out = Buffer.alloc(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

describe('a file that is not JSONL at all', () => {
  it('gives exactly one diagnostic for 200 KB of random bytes', async () => {
    const p = join(dir, 'noise.jsonl');
    const bytes = randomBytes(200 * 1024, 7);
    writeFileSync(p, bytes);
    const r = await readJsonl(p, 'noise.jsonl');
    expect(r.records).toHaveLength(0);
    // Many lines: without the rule, each would be reported (often twice).
    expect(r.lineCount).toBeGreaterThan(100);
    expect(r.diagnostics).toHaveLength(1);
    expect(r.diagnostics[0]).toMatchObject({ file: 'noise.jsonl', code: 'not-jsonl' });
  });

  it('gives one diagnostic for a text file with no JSON line, and keeps per-line reports once a line is JSON', async () => {
    const text = join(dir, 'log.jsonl');
    writeFileSync(text, 'starting\nstill going\ndone\n');
    expect((await readJsonl(text, 'log.jsonl')).diagnostics.map((d) => d.code)).toEqual(['not-jsonl']);
    const mixed = join(dir, 'mixed.jsonl');
    writeFileSync(mixed, 'oops\n{"type":"user"}\nagain\n');
    const r = await readJsonl(mixed, 'mixed.jsonl');
    expect(r.records).toHaveLength(1);
    expect(r.diagnostics.map((d) => [d.line, d.code])).toEqual([
      [1, 'not-json'],
      [3, 'not-json'],
    ]);
  });
});
