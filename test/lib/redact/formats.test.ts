import { describe, expect, it } from 'vitest';
import { nextBase64Run } from '../../../src/lib/redact/formats.js';

/** What the loop stands for: a base64 run of 16 or more that starts a run, with up to two `=` after it. */
const RUN = /(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{16,}={0,2}/g;

function byRegex(s: string, from: number): [number, number] | undefined {
  RUN.lastIndex = from;
  const m = RUN.exec(s);
  return m ? [m.index, m.index + m[0].length] : undefined;
}

/** A small seeded generator, so that a failure names a string that can be made again. */
function strings(count: number, seed: number): string[] {
  let state = seed;
  const next = (n: number) => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state % n;
  };
  // Mostly base64 characters, so that runs of about 16 are common, with padding, base64url, blanks and wide characters between.
  const alphabet = ['A', 'z', '7', '+', '/', 'Q', 'k', '0', '=', '=', '-', '_', ' ', '\n', 'é', '→', '"'];
  return Array.from({ length: count }, () => Array.from({ length: next(90) }, () => alphabet[next(alphabet.length) < 8 ? next(8) : next(alphabet.length)]).join(''));
}

describe('nextBase64Run', () => {
  it('finds, from any position, what the regex it replaces finds', () => {
    for (const s of strings(3000, 7)) {
      for (let from = 0; from <= s.length; from++) expect(nextBase64Run(s, from), `${JSON.stringify(s)} from ${from}`).toEqual(byRegex(s, from));
    }
  });

  it('walks a string run by run as the regex did, padding included', () => {
    const s = `auth ${'QWxhZGRpbjpvcGVuIHNlc2FtZQ'}== and ${'c2hvcnQ'} and ${'A'.repeat(15)} then /${'b'.repeat(20)}=${'C'.repeat(16)}`;
    const runs: string[] = [];
    for (let at = nextBase64Run(s, 0); at; at = nextBase64Run(s, at[1])) runs.push(s.slice(...at));
    expect(runs).toEqual(['QWxhZGRpbjpvcGVuIHNlc2FtZQ==', `/${'b'.repeat(20)}=`, 'C'.repeat(16)]);
  });
});
