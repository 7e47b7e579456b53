import { describe, expect, it } from 'vitest';
import { decodeLines, encodeLines, type Line } from '../../../src/lib/render/token-classes.js';

/** The text of tokenised lines, as the block they came from. */
const textOf = (lines: Line[]) => lines.map((l) => l.map((t) => t.content).join('')).join('\n');

describe('encodeLines and decodeLines', () => {
  const lines: Line[] = [
    [{ content: 'const', cls: 't-k' }, { content: ' a = ' }, { content: '"x 😀"', cls: 't-s' }],
    [],
    [{ content: '' }, { content: '  return', cls: 't-k s-b' }, { content: ' a;' }],
  ];

  it('carries a block\'s tokens as numbers and gives them back from its text, classes and all', () => {
    const encoded = encodeLines(lines);
    expect(encoded.data).toBeInstanceOf(Int32Array);
    // Only numbers and the class names cross: no text of the block.
    expect(JSON.stringify(encoded.classes)).not.toContain('return');
    const back = decodeLines(textOf(lines), encoded)!;
    expect(back.map((l) => l.map((t) => [t.content, t.cls ?? null]))).toEqual(lines.map((l) => l.map((t) => [t.content, t.cls ?? null])));
  });

  it('gives nothing back when the text is not the block\'s, so the caller tokenises it itself', () => {
    const encoded = encodeLines(lines);
    const text = textOf(lines);
    expect(decodeLines(`${text}\nmore`, encoded)).toBeUndefined();
    expect(decodeLines(text.replace('return', 'return!'), encoded)).toBeUndefined();
    expect(decodeLines(text.slice(0, -1), encoded)).toBeUndefined();
    expect(decodeLines(text, { ...encoded, data: encoded.data.slice(0, -2) })).toBeUndefined();
    expect(decodeLines(text, { classes: [], data: encoded.data })).toBeUndefined();
  });
});
