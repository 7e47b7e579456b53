import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, nestsDeeperThan, nestsTooDeep } from '../../../src/lib/jsonl/json-depth.js';

/** `levels` arrays and objects inside each other, alternating, around one string. */
function nested(levels: number): unknown {
  let v: unknown = 'x';
  for (let i = 0; i < levels; i++) v = i % 2 ? { k: v } : [v];
  return v;
}

describe('nestsDeeperThan', () => {
  it('counts the value itself as level one, arrays and objects alike', () => {
    expect(nestsDeeperThan(nested(10), 10)).toBe(false);
    expect(nestsDeeperThan(nested(11), 10)).toBe(true);
    expect(nestsDeeperThan({ a: [1, { b: [] }] }, 4)).toBe(false);
    expect(nestsDeeperThan({ a: [1, { b: [] }] }, 3)).toBe(true);
  });

  it('finds the one deep branch among wide shallow ones', () => {
    const wide = { list: Array.from({ length: 10_000 }, (_, i) => ({ i })), deep: [1, 2, nested(40)] };
    expect(nestsDeeperThan(wide, 40)).toBe(true);
    expect(nestsDeeperThan({ ...wide, deep: [] }, 40)).toBe(false);
  });

  it('is false for what does not nest, and walks a value deeper than the stack without recursing', () => {
    for (const v of [null, 1, 'text', true]) expect(nestsDeeperThan(v, 0)).toBe(false);
    expect(nestsDeeperThan(JSON.parse(`${'['.repeat(200_000)}${']'.repeat(200_000)}`), 512)).toBe(true);
  });
});

describe('nestsTooDeep', () => {
  const text = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

  it('passes the deepest text the limit allows and stops the shortest one past it', () => {
    // The length shortcut must never hide a text too deep: the shortest such text is two brackets a level.
    const atLimit = text(MAX_JSON_DEPTH);
    const past = text(MAX_JSON_DEPTH + 1);
    expect(nestsTooDeep(atLimit, JSON.parse(atLimit))).toBe(false);
    expect(nestsTooDeep(past, JSON.parse(past))).toBe(true);
  });

  it('reads a deep value inside a long line of other text', () => {
    const line = JSON.stringify({ pad: 'x'.repeat(5000), v: JSON.parse(text(MAX_JSON_DEPTH)) });
    expect(nestsTooDeep(line, JSON.parse(line))).toBe(true);
  });
});
