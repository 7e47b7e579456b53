import { describe, expect, it } from 'vitest';
import { caselessFragments, exactFragments, trieSource } from '../../../src/lib/redact/trie-regex.js';

/** A small seeded generator, so a failure names its case. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

const matches = (source: string, text: string): Array<[number, string]> => [...text.matchAll(new RegExp(source, 'g'))].map((m) => [m.index, m[0]]);
/** What the trie replaces: one alternation of the literals, longest first. */
const flat = (literals: string[][]): string => [...literals].sort((a, b) => b.join('').length - a.join('').length || 0).map((l) => l.join('')).join('|');

describe('trieSource', () => {
  it('matches what an alternation sorted longest first matches, with a boundary after it too, over random literals sharing prefixes', () => {
    const next = random(27);
    const alphabet = ['a', 'b', 'A', '.', '*', '-', 'é'];
    const word = (max: number) => Array.from({ length: 1 + Math.floor(next() * max) }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
    for (let round = 0; round < 300; round++) {
      const literals = Array.from({ length: 1 + Math.floor(next() * 8) }, () => word(5));
      // Prefixes of each other, the case the order of the alternation decides.
      literals.push(literals[0].slice(0, 1 + Math.floor(next() * literals[0].length)));
      const text = Array.from({ length: 6 }, () => word(7)).join(next() < 0.5 ? ' ' : '');
      for (const fragments of [exactFragments, caselessFragments]) {
        const parts = literals.map(fragments);
        const trie = trieSource(parts);
        expect(matches(`(?:${trie})`, text), `${JSON.stringify(literals)} in ${JSON.stringify(text)}`).toEqual(matches(`(?:${flat(parts)})`, text));
        expect(matches(`(?:${trie})(?![A-Za-z])`, text), `${JSON.stringify(literals)} bounded in ${JSON.stringify(text)}`).toEqual(matches(`(?:${flat(parts)})(?![A-Za-z])`, text));
      }
    }
  });

  it('shares one path between names that differ only in case, and writes each shared prefix once', () => {
    const source = trieSource(['Ada Lovelace', 'ada lovelace', 'Ada Byron'].map(caselessFragments));
    expect(source.match(/\[aA\]\[dD\]\[aA\]/g)).toHaveLength(1);
    expect(matches(source, 'ADA LOVELACE and ada byron')).toEqual([
      [0, 'ADA LOVELACE'],
      [17, 'ada byron'],
    ]);
  });

  it('stops at the shortest literal when asked: enough to find where one may start', () => {
    const source = trieSource(['sk-', 'sk-ant-', 'ghp_'].map(exactFragments), true);
    expect(matches(source, 'x sk-ant-1 ghp_2')).toEqual([
      [2, 'sk-'],
      [11, 'ghp_'],
    ]);
  });

  it('never matches for no literal, and takes a literal far longer than the stack is deep', () => {
    expect(matches(trieSource([]), 'anything')).toEqual([]);
    expect(matches(trieSource([[]]), 'anything')).toEqual([]);
    const long = 'k'.repeat(12_000);
    const source = trieSource([exactFragments(long), exactFragments(`${long}x`)]);
    expect(matches(source, `${long}x`)).toEqual([[0, `${long}x`]]);
  });

  it('escapes what a regex would read as syntax', () => {
    expect(matches(trieSource(['a.b*', '(c)'].map(exactFragments)), 'aXb a.b* (c) c')).toEqual([
      [4, 'a.b*'],
      [9, '(c)'],
    ]);
  });
});
