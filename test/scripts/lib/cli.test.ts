import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../../../scripts/lib/cli.js';

describe('parseCommandLine', () => {
  const opts = { strict: { type: 'boolean' }, dist: { type: 'string' } } as const;
  function run(argv: string[], positionals?: { min?: number; max?: number }) {
    const lines: string[] = [];
    return { r: parseCommandLine(argv, opts, 'USAGE', (l) => lines.push(l), positionals), lines };
  }
  it('returns flags and positionals', () => {
    const { r } = run(['src', '--strict', '--dist', 'out'], { max: 1 });
    expect(r).toEqual({ ok: true, values: { strict: true, dist: 'out' }, positionals: ['src'] });
  });
  it('prints the usage for --help and exits 0', () => {
    const { r, lines } = run(['-h']);
    expect(r).toEqual({ ok: false, code: 0 });
    expect(lines).toEqual(['USAGE']);
  });
  it('exits 2 with the problem and the usage for unknown flags and wrong argument counts', () => {
    const bad = run(['--nope']);
    expect(bad.r).toEqual({ ok: false, code: 2 });
    expect(bad.lines[0]).toMatch(/nope[\s\S]*USAGE/);
    expect(run(['a', 'b'], { max: 1 }).lines[0]).toMatch(/^at most 1 argument, got 2/);
    expect(run([], { min: 1, max: 1 }).lines[0]).toMatch(/^expected 1 argument, got 0/);
  });
});
