import { describe, expect, it } from 'vitest';
import { cleanExcerpt, decodeEntities, markedWords, parseExcerpt, queryWords } from '../../../src/lib/search/excerpt.js';
import { stripMarkdown } from '../../../src/lib/plain-text.js';

describe('parseExcerpt', () => {
  it('keeps only <mark> as markup; every other tag stays text', () => {
    expect(parseExcerpt('a <mark>hit</mark> &lt;img src=x onerror=alert(1)&gt; <b>bold</b>')).toEqual([
      { text: 'a ', mark: false },
      { text: 'hit', mark: true },
      { text: ' <img src=x onerror=alert(1)> <b>bold</b>', mark: false },
    ]);
  });

  it('decodes named and numeric references, and leaves unknown ones alone', () => {
    expect(decodeEntities('&amp;&quot;&#39;&#x41;&nbsp;&bogus;')).toBe('&"\'A &bogus;');
  });
});

describe('stripMarkdown', () => {
  it('removes emphasis, code ticks, headings and link syntax, keeping the words', () => {
    expect(stripMarkdown('## Result The **quarterly** total is `42`, see [the docs](https://x.test/a_(b)) and *this*.')).toBe(
      'Result The quarterly total is 42, see the docs and this.',
    );
  });

  it('leaves code-like stars and underscores alone', () => {
    expect(stripMarkdown('glob src/*.ts and **/*.md, call __init__.py, 2 * 3')).toBe('glob src/*.ts and **/*.md, call __init__.py, 2 * 3');
  });
});

describe('cleanExcerpt', () => {
  it('strips markdown across a hit boundary', () => {
    expect(cleanExcerpt('the **<mark>quarterly</mark>** ledger `<mark>total</mark>`')).toEqual([
      { text: 'the ', mark: false },
      { text: 'quarterly', mark: true },
      { text: ' ledger ', mark: false },
      { text: 'total', mark: true },
    ]);
  });

  it('drops the section heading pagefind repeats at the start', () => {
    expect(cleanExcerpt('Claude. They <mark>differ</mark> in depth', 'Claude')).toEqual([
      { text: 'They ', mark: false },
      { text: 'differ', mark: true },
      { text: ' in depth', mark: false },
    ]);
    // Only at the very start.
    expect(cleanExcerpt('said Claude. <mark>x</mark>', 'Claude')[0].text).toBe('said Claude. ');
  });
});

describe('words to mark', () => {
  it('takes the marked words of excerpts, without punctuation, once each', () => {
    expect(markedWords(['a <mark>file:line,</mark> b <mark>Files.</mark>', '<mark>file:line</mark>'])).toEqual(['file:line', 'files']);
  });

  it('falls back to the query words', () => {
    expect(queryWords('  Quarterly "ledger" a  ')).toEqual(['quarterly', 'ledger']);
  });
});
