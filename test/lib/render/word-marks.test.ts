/**
 * Changed words are marked in a run of removed lines and the added run after it
 * only when the two keep at least 40 % of their non-space characters in common.
 * Pairs are ruled out by a cheap bound before the word diff runs: it must never
 * rule out a pair the diff itself would have marked, nor mark one it would not.
 */
import { diffWordsWithSpace } from 'diff';
import { describe, expect, it } from 'vitest';
import { html } from '../../../src/lib/render/sanitize.js';
import { markChangedWords } from '../../../src/lib/render/tools/files.js';

type Rows = Parameters<typeof markChangedWords>[0];

const rows = (dels: string[], adds: string[]): Rows => [
  ...dels.map((text, i) => ({ kind: 'del' as const, before: { o: i, n: 0 }, text, markup: html`${text}` })),
  ...adds.map((text, i) => ({ kind: 'add' as const, before: { o: dels.length, n: i }, text, markup: html`${text}` })),
];

/** What the rule says, worked out from the word diff alone. */
function diffSaysMark(oldText: string, newText: string): boolean {
  const parts = diffWordsWithSpace(oldText, newText);
  const same = parts.filter((p) => !p.added && !p.removed).reduce((a, p) => a + p.value.replace(/\s/g, '').length, 0);
  const longest = Math.max(oldText.replace(/\s/g, '').length, newText.replace(/\s/g, '').length);
  return longest > 0 && same / longest >= 0.4;
}

/** A seeded generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ['const', 'x', '=', 'value', '(', ')', ';', 'return', 'if', '{', '}', 'a', 'b', 'items', '.', 'map', 'é', 'ünïcode', '  ', '\t', '42', 'foo_bar'];

describe('marking changed words', () => {
  it('marks a pair exactly when the word diff keeps 40 % in common, near the threshold too', () => {
    const rnd = random(27);
    const pick = () => WORDS[Math.floor(rnd() * WORDS.length)];
    const line = (n: number) => Array.from({ length: n }, () => pick()).join(rnd() < 0.5 ? ' ' : '');
    let marked = 0;
    let unmarked = 0;
    for (let i = 0; i < 1500; i++) {
      const dels = Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => line(2 + Math.floor(rnd() * 12)));
      // Edited copies (some words changed, dropped or added) or unrelated lines, so both sides of 40 % occur.
      const change = rnd();
      const adds = dels.map((l) =>
        rnd() < 0.2
          ? line(2 + Math.floor(rnd() * 12))
          : l
              .split(' ')
              .map((w) => (rnd() < change ? pick() : w))
              .join(' '),
      );
      if (rnd() < 0.3) adds.push(line(3));
      const r = rows(dels, adds);
      markChangedWords(r);
      const applied = r.some((row) => row.marked !== undefined);
      expect(applied, JSON.stringify({ dels, adds })).toBe(diffSaysMark(dels.join('\n'), adds.join('\n')));
      if (applied) marked++;
      else unmarked++;
    }
    // Both outcomes were exercised.
    expect(marked).toBeGreaterThan(100);
    expect(unmarked).toBeGreaterThan(100);
  });

  it('leaves a rewrite unmarked and marks the word changed in an edited line', () => {
    const rewrite = rows(['alpha beta gamma delta'], ['one two three four five']);
    markChangedWords(rewrite);
    expect(rewrite.every((r) => r.marked === undefined)).toBe(true);
    const edit = rows(['const total = items.length;'], ['const total = items.size;']);
    markChangedWords(edit);
    expect(edit.map((r) => r.markup.value)).toEqual(['const total = items.<mark>length</mark>;', 'const total = items.<mark>size</mark>;']);
  });
});
