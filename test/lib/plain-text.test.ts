/**
 * The site's one markdown stripper: syntax goes, words and content characters
 * stay. Titles use it with HTML on; search excerpts without.
 */
import { describe, expect, it } from 'vitest';
import { stripMarkdown } from '../../src/lib/plain-text.js';

const fold = (s: string) => s.replace(/\s+/g, ' ').trim();

describe('stripMarkdown', () => {
  it('removes emphasis, strong, strikethrough and code markers, keeping the words', () => {
    expect(stripMarkdown('Check the **quarterly** ledger, *this* one and ~~that~~ one')).toBe('Check the quarterly ledger, this one and that one');
    expect(stripMarkdown('***both*** and _em_, __strong words__.')).toBe('both and em, strong words.');
    // One word between double underscores is a Python name (`__init__`), not strong emphasis.
    expect(stripMarkdown('call __init__ and __name__')).toBe('call __init__ and __name__');
    expect(stripMarkdown('**Note:** run `npm test` first')).toBe('Note: run npm test first');
  });

  it('turns links into their text and images into their alt text; a lone [Image #1] is text', () => {
    expect(stripMarkdown('see [the docs](https://x.test/a_(b) "Docs") and ![a chart](chart.png)')).toBe('see the docs and a chart');
    expect(stripMarkdown('[ref link][1] and <https://example.com/x>')).toBe('ref link and https://example.com/x');
    expect(stripMarkdown('[Image #1] the margin is off')).toBe('[Image #1] the margin is off');
  });

  it('removes heading, bullet, task and quote markers at line starts, and rules', () => {
    expect(fold(stripMarkdown('# Plan\n\n- first **step**\n* second\n- [ ] third\n> quoted\n> > twice\n---\nend ##'))).toBe('Plan first step second third quoted twice end ##');
    expect(fold(stripMarkdown('## Closed heading ##\n1. one\n2. two'))).toBe('Closed heading 1. one 2. two');
  });

  it('never strips characters that are content', () => {
    const content = 'a*b, 2 * 3, 2**3, f(*args, **kwargs), src/*.ts, **/*.md, snake_case_names, src/__init__.py, the __init__ method, C#, #1, ~/bin, ~5 min, Vec<String>, x > y';
    expect(stripMarkdown(content)).toBe(content);
    expect(stripMarkdown(content, { html: true })).toBe(content);
  });

  it('keeps code as written, inside spans and fences', () => {
    expect(stripMarkdown('use `**kwargs` and ``a `tick` here`` or `# not a heading`')).toBe('use **kwargs and a `tick` here or # not a heading');
    expect(fold(stripMarkdown('```python\n# comment\nx = 2 ** 3  # **not bold**\n```\nexplain *this*'))).toBe('# comment x = 2 ** 3 # **not bold** explain this');
    // A fence never closed runs to the end, as markdown reads it.
    expect(fold(stripMarkdown('look:\n```\n- not a bullet'))).toBe('look: - not a bullet');
  });

  it('turns HTML elements into text only when asked; other tags and generated wrappers stay', () => {
    const text = '<b>bold</b> <img src="x.png" alt="a cat"> line<br>break <!-- note --><system-reminder>';
    expect(stripMarkdown(text, { html: true })).toBe('bold a cat line break <system-reminder>');
    expect(stripMarkdown(text)).toBe(text);
    // Inside code, a tag is code.
    expect(stripMarkdown('the `<div>` tag', { html: true })).toBe('the <div> tag');
  });

  it('leaves long lines of lone delimiters (a pasted log) as they are', () => {
    // Quadratic matching once took seconds on these; the bench measures speed, this checks the result.
    for (const text of [' *a'.repeat(30_000), ' _x'.repeat(30_000), '['.repeat(60_000)]) {
      expect(stripMarkdown(text, { html: true })).toBe(text);
    }
  });

  it('sees syntax through a search hit’s edges (\\u0001, \\u0002) and keeps them', () => {
    expect(stripMarkdown('the **\u0001quarterly\u0002** ledger `\u0001total\u0002`')).toBe('the \u0001quarterly\u0002 ledger \u0001total\u0002');
    // A heading flattened into an excerpt, before a capitalised word.
    expect(stripMarkdown('done. ## Result The total')).toBe('done. Result The total');
    expect(stripMarkdown('the ## operator pastes tokens')).toBe('the ## operator pastes tokens');
  });
});
