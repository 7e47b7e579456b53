/**
 * The compact markup of diffs and numbered code (issue 12): one bare element
 * per diff line (`<del>`, `<ins>`, `<span>`) numbered by CSS counters started
 * from the block's `data-o` / `data-n`, and gutters of code left for the browser
 * to highlight drawn by the page script from `data-start`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { highlightCode, loadHighlighter, withDeferredHighlighting } from '../../../src/lib/render/highlight.js';
import { sanitizeHtml } from '../../../src/lib/render/sanitize.js';
import { renderHunks } from '../../../src/lib/render/tools/files.js';
import { type Hunk } from '../../../src/lib/render/tool-data.js';
import { parse } from './dom.js';

beforeAll(async () => {
  await loadHighlighter();
});

/**
 * The numbers the stylesheet shows, worked out the way CSS counters count:
 * `o` and `n` start at the block's attributes; a removed line steps `o` and
 * shows it, an added line steps `n`, a context line steps both and shows `n`.
 */
function shownNumbers(pre: Element): Array<[string, number]> {
  let o = Number(pre.getAttribute('data-o'));
  let n = Number(pre.getAttribute('data-n'));
  return [...pre.querySelectorAll(':scope > code > *')].map((line) => {
    const tag = line.tagName.toLowerCase();
    if (tag === 'del') return [tag, ++o];
    if (tag === 'ins') return [tag, ++n];
    o++;
    return [tag, ++n];
  });
}

// A hunk as Claude Code records it: old lines 12-15 became new lines 10-14.
const HUNK: Hunk = { oldStart: 12, oldLines: 4, newStart: 10, newLines: 5, lines: [' keep', '-old one', '-old two', '+new one', '+new two', '+new three', ' tail'] };

describe('diff lines', () => {
  it('are del, ins and bare span elements, with the counters started at the lines before the hunk', () => {
    const doc = parse(sanitizeHtml(renderHunks([HUNK], 'text').value));
    const pre = doc.querySelector('.hunk pre.diff')!;
    expect(pre.getAttribute('data-o')).toBe('11');
    expect(pre.getAttribute('data-n')).toBe('9');
    expect(shownNumbers(pre)).toEqual([
      ['span', 10],
      ['del', 13],
      ['del', 14],
      ['ins', 11],
      ['ins', 12],
      ['ins', 13],
      ['span', 14],
    ]);
    // No per-line class or number left in the markup, and the text is each line's own.
    expect(pre.querySelector('[class], [data-ln]')).toBeNull();
    expect([...pre.querySelectorAll(':scope > code > *')].map((l) => l.textContent)).toEqual(HUNK.lines.map((l) => l.slice(1)));
    // The hunk header still says where the hunk is.
    expect(doc.querySelector('.hunk-head')?.textContent).toBe('@@ -12,4 +10,5 @@');
  });

  it('keep their numbering across the "show more" cut of a long diff', () => {
    const lines = Array.from({ length: 70 }, (_, i) => (i % 2 ? `+added ${i}` : ` same ${i}`));
    const hunk: Hunk = { oldStart: 100, oldLines: 35, newStart: 200, newLines: 70, lines };
    const doc = parse(sanitizeHtml(renderHunks([hunk], 'text').value));
    const [shown, hidden] = [...doc.querySelectorAll('pre.diff')];
    expect(hidden.closest('details.more')).not.toBeNull();
    const before = shownNumbers(shown);
    const after = shownNumbers(hidden);
    expect(before[0]).toEqual(['span', 200]);
    // The hidden part starts where the shown part stopped, in both files.
    expect(after[0][1]).toBe(before[before.length - 1][1] + 1);
    expect(Number(hidden.getAttribute('data-o'))).toBe(100 + lines.slice(0, before.length).filter((l) => l[0] === ' ').length - 1);
  });

  it('survive the sanitiser unchanged (no style attribute needed, none let through)', () => {
    const markup = renderHunks([HUNK], 'text').value;
    expect(sanitizeHtml(markup)).toBe(markup);
    expect(sanitizeHtml('<pre class="code diff" data-o="1" data-n="1" style="counter-reset: o 99"><code><del>x</del></code></pre>')).not.toContain('style');
  });
});

describe('line numbers of code left for the browser', () => {
  const code = 'a = 1\nb = 2\nc = 3\n';

  it('are a data-start on a lazy block, and a gutter on a block shown at once', () => {
    const lazy = parse(withDeferredHighlighting(() => `<details><summary>x</summary>${highlightCode(code, { lang: 'python', startLine: 7, lineNumbers: true }).value}</details>`));
    const pre = lazy.querySelector('pre')!;
    expect(pre.getAttribute('data-hl')).toBe('lazy');
    expect(pre.getAttribute('data-start')).toBe('7');
    expect(pre.querySelector('.gutter')).toBeNull();
    expect(pre.textContent).toBe('a = 1\nb = 2\nc = 3');
    const open = parse(withDeferredHighlighting(() => highlightCode(code, { lang: 'python', startLine: 7, lineNumbers: true }).value));
    expect(open.querySelector('pre')!.hasAttribute('data-start')).toBe(false);
    expect(open.querySelector('pre .gutter')?.textContent).toBe('7\n8\n9');
  });

  it('stay a gutter when the numbers skip (a Read whose output had gaps)', () => {
    const numbers = [3, 4, 9];
    const doc = parse(withDeferredHighlighting(() => `<details><summary>x</summary>${highlightCode(code, { lang: 'python', lineLabel: (i) => numbers[i] }).value}</details>`));
    const pre = doc.querySelector('pre')!;
    expect(pre.hasAttribute('data-start')).toBe(false);
    expect(pre.querySelector('.gutter')?.textContent).toBe('3\n4\n9');
  });
});

describe('diffs hidden in a closed details', () => {
  // A TypeScript edit with a changed word in one line and an unmarked context line.
  const ts: Hunk = { oldStart: 1, oldLines: 3, newStart: 1, newLines: 3, lines: [' const a = 1;', '-export function total(x: number) {', '+export function sum(x: number) {', ' return a;'] };

  it('are left plain for the browser, with marked words kept, and coloured by the build when shown', () => {
    const closed = parse(withDeferredHighlighting(() => `<details><summary>x</summary>${renderHunks([ts], 'typescript').value}</details>`));
    const lazy = closed.querySelector('pre.diff')!;
    expect(lazy.getAttribute('data-hl')).toBe('lazy');
    expect(lazy.querySelector('span[class^="t-"]')).toBeNull();
    expect([...lazy.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['total', 'sum']);

    const open = parse(withDeferredHighlighting(() => `<details open><summary>x</summary>${renderHunks([ts], 'typescript').value}</details>`));
    const shown = open.querySelector('pre.diff')!;
    expect(shown.hasAttribute('data-hl')).toBe(false);
    // The context line is in syntax colours; the marked lines keep their marks and no colours.
    const [first, del, ins] = [...shown.querySelectorAll(':scope > code > *')];
    expect(first.querySelector('span[class^="t-"]')).not.toBeNull();
    expect(del.querySelector('mark')?.textContent).toBe('total');
    expect(ins.querySelector('span[class^="t-"]')).toBeNull();
    // Same lines, same numbers, either way.
    expect(shownNumbers(lazy)).toEqual(shownNumbers(shown));
    expect(lazy.textContent).toBe(shown.textContent);
  });
});
