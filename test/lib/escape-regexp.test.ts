import { describe, expect, it } from 'vitest';
import { escapeRegExp } from '../../src/lib/escape-regexp.js';

describe('escapeRegExp', () => {
  it('matches every character of regex syntax literally, and nothing else', () => {
    const syntax = '.*+?^${}()|[]\\/-';
    const re = new RegExp(`^${escapeRegExp(syntax)}$`);
    expect(re.test(syntax)).toBe(true);
    expect(re.test(syntax.replace('.', 'x'))).toBe(false);
    // Random text from a pool heavy in syntax: each escapes to a regex that matches exactly itself.
    const pool = `ab.*+?^\${}()|[]\\ -/`;
    for (let n = 0; n < 500; n++) {
      const text = Array.from({ length: 1 + (n % 12) }, (_, i) => pool[(n * 7 + i * 13) % pool.length]).join('');
      expect(new RegExp(`^${escapeRegExp(text)}$`, 'u').test(text), text).toBe(true);
      expect(new RegExp(`^${escapeRegExp(text)}$`).test(`${text}x`), text).toBe(false);
    }
  });
});
