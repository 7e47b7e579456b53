import { describe, expect, it } from 'vitest';
import { createProgress, createThrottle, isInteractive, isVerbose } from '../../../src/lib/build/progress.js';

/** A clock the test moves by hand. */
function clock() {
  let t = 1_000;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('progress', () => {
  it('redraws a terminal at most ten times a second, from the first update', () => {
    const c = clock();
    const due = createThrottle(true, c.now);
    expect(due()).toBe(true);
    expect(due()).toBe(false);
    c.advance(99);
    expect(due()).toBe(false);
    c.advance(1);
    expect(due()).toBe(true);
  });

  it('writes a line to a file after 5 s, then at doubling gaps never over a minute: a handful of lines for a long build', () => {
    const c = clock();
    const lines: number[] = [];
    const update = createProgress({ info: () => lines.push(c.now()) }, false, c.now);
    // An update every 100 ms for 20 minutes.
    for (let i = 0; i < 12_000; i++) {
      update('x');
      c.advance(100);
    }
    const gaps = lines.map((t, i) => t - (i ? lines[i - 1] : 1_000));
    expect(gaps.slice(0, 5)).toEqual([5_000, 10_000, 20_000, 40_000, 60_000]);
    expect(Math.max(...gaps)).toBe(60_000);
    // At 5, 15, 35 and 75 s, then each minute from 135 s to 1,155 s: 22 lines in 20 minutes, not 240.
    expect(lines.length).toBe(22);
  });

  it('is interactive on a terminal outside CI only', () => {
    expect(isInteractive({ isTTY: true }, {})).toBe(true);
    expect(isInteractive({ isTTY: true }, { CI: 'true' })).toBe(false);
    expect(isInteractive({ isTTY: false }, {})).toBe(false);
    expect(isInteractive({}, {})).toBe(false);
  });

  it('is verbose with SESSIONPRESS_VERBOSE=1 or Astro at debug level (--verbose)', () => {
    expect(isVerbose('info', {})).toBe(false);
    expect(isVerbose('info', { SESSIONPRESS_VERBOSE: '1' })).toBe(true);
    expect(isVerbose('debug', {})).toBe(true);
  });
});
