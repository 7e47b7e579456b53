import { describe, expect, it } from 'vitest';
import { createProgress, createProgressThinner, createThrottle, isInteractive, isVerbose, sessionsProgressText, SHOWN_RUNNING_MIN_BYTES, type SessionProgress } from '../../../src/lib/build/progress.js';

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

describe("a session's progress", () => {
  /** What the thinner lets through of `updates`. */
  const thinned = (updates: SessionProgress[]) => {
    const sent: SessionProgress[] = [];
    const thin = createProgressThinner((p) => sent.push(p));
    for (const p of updates) thin(p);
    return sent;
  };
  const MB = 1 << 20;

  it('crosses threads at every step, every 8 MB read, every percent looked for secrets and every hundredth of the pages, and at the end of each', () => {
    const total = 100 * MB + 123;
    const reads: SessionProgress[] = Array.from({ length: 101 }, (_, i) => ({ stage: 'read', bytes: Math.min(total, (i + 1) * MB), total }));
    const looked: SessionProgress[] = Array.from({ length: 1001 }, (_, i) => ({ stage: 'detect', done: i * 300, total: 300_000 }));
    const pages: SessionProgress[] = Array.from({ length: 1550 }, (_, i) => ({ stage: 'render', pages: i + 1, total: 1550 }));
    const sent = thinned([...reads, ...looked, { stage: 'redact' }, { stage: 'model' }, ...pages]);
    const sentReads = sent.filter((p) => p.stage === 'read').map((p) => p.bytes);
    expect(sentReads).toEqual([1, 9, 17, 25, 33, 41, 49, 57, 65, 73, 81, 89, 97].map((n) => n * MB).concat(total));
    expect(sent.filter((p) => p.stage === 'detect').map((p) => p.done)).toEqual(Array.from({ length: 101 }, (_, i) => i * 3000));
    expect(sent.filter((p) => p.stage === 'redact' || p.stage === 'model').map((p) => p.stage)).toEqual(['redact', 'model']);
    const sentPages = sent.filter((p) => p.stage === 'render').map((p) => p.pages);
    expect(sentPages[0]).toBe(1);
    expect(sentPages.at(-1)).toBe(1550);
    expect(sentPages.length).toBeLessThanOrEqual(102);
    // Steps in the order they came.
    expect(sent.map((p) => p.stage).filter((s, i, all) => s !== all[i - 1])).toEqual(['read', 'detect', 'redact', 'model', 'render']);
  });

  it('sends every page of a short session', () => {
    const pages: SessionProgress[] = [1, 2, 3].map((n) => ({ stage: 'render', pages: n, total: 3 }));
    expect(thinned(pages)).toEqual(pages);
  });
});

describe('the sessions progress line', () => {
  const big = 630e6;
  it('counts the sessions processed, and says where the largest running session stands when it is large', () => {
    expect(sessionsProgressText(228, 1120)).toBe('sessions 228/1120 processed');
    const running = (bytes: number, progress: SessionProgress, name = '5e55104d') => ({ name, bytes, progress });
    expect(sessionsProgressText(0, 1, [running(big, { stage: 'read', bytes: 312e6, total: big })])).toBe('sessions 0/1 processed; 5e55104d: 312 of 630 MB read');
    expect(sessionsProgressText(0, 1, [running(big, { stage: 'detect', done: 455, total: 1000 })])).toBe('sessions 0/1 processed; 5e55104d: looking for secrets, 45%');
    // Not done until it is: 99.9% is 99%, and nothing to look at is done.
    expect(sessionsProgressText(0, 1, [running(big, { stage: 'detect', done: 999, total: 1000 })])).toMatch(/ 99%$/);
    expect(sessionsProgressText(0, 1, [running(big, { stage: 'detect', done: 0, total: 0 })])).toMatch(/ 100%$/);
    expect(sessionsProgressText(0, 1, [running(big, { stage: 'redact' })])).toBe('sessions 0/1 processed; 5e55104d: redacting');
    expect(sessionsProgressText(0, 1, [running(big, { stage: 'model' })])).toBe('sessions 0/1 processed; 5e55104d: building the conversation');
    expect(sessionsProgressText(0, 1, [running(big, { stage: 'render', pages: 800, total: 1550 })])).toBe('sessions 0/1 processed; 5e55104d: 800 of 1550 pages rendered');
    // Two running: the larger is the one a wait is for.
    expect(sessionsProgressText(5, 9, [running(40e6, { stage: 'redact' }, 'aaaaaaaa'), running(big, { stage: 'model' }), running(20e6, { stage: 'redact' }, 'bbbbbbbb')])).toContain('5e55104d: building');
  });

  it('names no session that is done before a line would show it', () => {
    expect(sessionsProgressText(3, 9, [{ name: 'session small', bytes: SHOWN_RUNNING_MIN_BYTES - 1, progress: { stage: 'redact' } }])).toBe('sessions 3/9 processed');
  });
});
