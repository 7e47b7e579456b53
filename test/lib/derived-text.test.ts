import { describe, expect, it } from 'vitest';
import { copyDerivedText, derivedTextOf, deriveText } from '../../src/lib/derived-text.js';

/** A holder whose `text` is made on each read, counting the reads. */
function derivedHolder(text: string) {
  const holder: Record<string, unknown> = { type: 'text', text: 'placeholder', other: 1 };
  let reads = 0;
  deriveText(holder, 'text', text.length, () => {
    reads++;
    // A new string each time, as a derived text is.
    return [...text].join('');
  });
  return { holder, reads: () => reads };
}

describe('deriveText', () => {
  it('reads as the plain value would: the same string each time, in JSON, in a clone, and in key order', () => {
    const { holder, reads } = derivedHolder('line one\nline two');
    const plain = { type: 'text', text: 'line one\nline two', other: 1 };
    expect(holder.text).toBe(plain.text);
    expect(holder).toEqual(plain);
    expect(JSON.stringify(holder)).toBe(JSON.stringify(plain));
    expect(structuredClone(holder)).toEqual(plain);
    expect(Object.keys(holder)).toEqual(['type', 'text', 'other']);
    expect(reads()).toBeGreaterThanOrEqual(4);
    expect(derivedTextOf(holder)?.key).toBe('text');
    expect(derivedTextOf(holder)?.text.length).toBe(plain.text.length);
    expect(derivedTextOf(holder)?.text.read()).toBe(plain.text);
  });

  it('becomes a plain value once written, or deleted and set again, and is no longer known as derived', () => {
    const written = derivedHolder('secret here').holder;
    written.text = 'redacted';
    expect(written.text).toBe('redacted');
    expect(Object.getOwnPropertyDescriptor(written, 'text')).toMatchObject({ value: 'redacted', writable: true, enumerable: true });
    expect(derivedTextOf(written)).toBeUndefined();

    const rebuilt = derivedHolder('kept').holder;
    const entries = Object.entries(rebuilt);
    for (const [k] of entries) delete rebuilt[k];
    for (const [k, v] of entries) rebuilt[k] = v;
    expect(rebuilt.text).toBe('kept');
    expect(derivedTextOf(rebuilt)).toBeUndefined();
    // And is copied as the plain value it now is.
    const copy: Record<string, unknown> = {};
    copyDerivedText(rebuilt, 'text', copy, 'text');
    expect(copy.text).toBe('kept');
    expect(derivedTextOf(copy)).toBeUndefined();
  });

  it('copyDerivedText keeps a derived text derived, and copies anything else as it is', () => {
    const { holder } = derivedHolder('numbered text');
    const target: Record<string, unknown> = {};
    copyDerivedText(holder, 'text', target, 'content');
    expect(target.content).toBe('numbered text');
    expect(derivedTextOf(target)?.key).toBe('content');
    // Writing the copy leaves the source as it was.
    target.content = 'changed';
    expect(holder.text).toBe('numbered text');
    expect(derivedTextOf(holder)?.key).toBe('text');

    const parts = [{ type: 'text', text: 'a' }];
    const plainTarget: Record<string, unknown> = {};
    copyDerivedText({ content: parts }, 'content', plainTarget, 'content');
    expect(plainTarget.content).toBe(parts);
    expect(derivedTextOf(plainTarget)).toBeUndefined();
    // Another key of a holder with a derived text is copied as it is.
    copyDerivedText(holder, 'other', plainTarget, 'other');
    expect(plainTarget.other).toBe(1);
    expect(derivedTextOf(plainTarget)).toBeUndefined();
  });
});
