import { describe, expect, it } from 'vitest';
import { MAX_TRIE_DEPTH, caselessFragments, exactFragments, trieSource } from '../../../src/lib/redact/trie-regex.js';

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
      // Depth 1 and 2 cut even these small tries into bands, the path a hostile set of secrets takes.
      for (const maxDepth of [MAX_TRIE_DEPTH, 2, 1]) {
        for (const fragments of [exactFragments, caselessFragments]) {
          const parts = literals.map(fragments);
          const trie = trieSource(parts, false, maxDepth);
          const label = `${JSON.stringify(literals)} (depth ${maxDepth}) in ${JSON.stringify(text)}`;
          expect(matches(`(?:${trie})`, text), label).toEqual(matches(`(?:${flat(parts)})`, text));
          expect(matches(`(?:${trie})(?![A-Za-z])`, text), `${label}, bounded`).toEqual(matches(`(?:${flat(parts)})(?![A-Za-z])`, text));
        }
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

  it('compiles thousands of literals that are prefixes of each other, which nested as one trie would abort V8', () => {
    // A token of every length from 1 to 6,000: one trie nests 6,000 optional groups, and Node 22 dies (not throws) past about 2,700.
    const longest = Array.from({ length: 6_000 }, (_, i) => 'aB3dE5gH7j'[i % 10]).join('');
    const literals = Array.from({ length: longest.length }, (_, i) => longest.slice(0, i + 1));
    const source = trieSource(literals.map(exactFragments));
    // (A flat alternation of them, 18 million characters, aborts V8 as well.)
    const text = `${longest} ${longest.slice(0, 4_321)}! ${longest.slice(0, 7)}x`;
    expect(matches(source, text)).toEqual([
      [0, longest],
      [6_001, longest.slice(0, 4_321)],
      [10_324, longest.slice(0, 7)],
    ]);
    expect(matches(`(?:${source})(?![A-Za-z0-9])`, text)).toEqual([
      [0, longest],
      [6_001, longest.slice(0, 4_321)],
    ]);
  });

  it('cuts a trie that branches at every character into bands, each within the depth', () => {
    // No literal is a prefix of another, yet the path of a's branches at each of them.
    const length = 300;
    const literals = Array.from({ length }, (_, i) => 'a'.repeat(i) + 'b' + 'c'.repeat(length - i - 1)).map(exactFragments);
    const source = trieSource(literals, false, 16);
    const depth = (src: string): number => {
      let open = 0;
      let max = 0;
      for (const c of src.replace(/\\./g, '')) max = Math.max(max, (open += c === '(' ? 1 : c === ')' ? -1 : 0));
      return max;
    };
    expect(depth(trieSource(literals, false, Infinity))).toBeGreaterThan(length - 10);
    expect(depth(source)).toBeLessThanOrEqual(16 + 1);
    const text = `${literals[123].join('')} ${'a'.repeat(length)} ${literals[length - 1].join('')}c`;
    expect(matches(source, text)).toEqual(matches(flat(literals), text));
    expect(matches(source, text).map(([i]) => i)).toEqual([0, 2 * length + 2]);
  });

  it('escapes what a regex would read as syntax', () => {
    expect(matches(trieSource(['a.b*', '(c)'].map(exactFragments)), 'aXb a.b* (c) c')).toEqual([
      [4, 'a.b*'],
      [9, '(c)'],
    ]);
  });
});
