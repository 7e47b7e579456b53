import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { firstMarkFrom, highlightUrl, highlightWords, markWords, remarkOnRedraw, revealElement, wordPattern } from '../../../src/lib/search/highlight.js';

function page(body: string): Document {
  return new JSDOM(`<!doctype html><body>${body}</body>`).window.document;
}

describe('highlight URLs', () => {
  it('adds one parameter per word before the anchor, and reads them back', () => {
    const url = highlightUrl('/sessions/p/s/#m-1', ['quarterly', 'a&b']);
    expect(url).toBe('/sessions/p/s/?highlight=quarterly&highlight=a%26b#m-1');
    expect(highlightWords(url.slice(url.indexOf('?'), url.indexOf('#')))).toEqual(['quarterly', 'a&b']);
    expect(highlightUrl('/x/?q=1', ['w'])).toBe('/x/?q=1&highlight=w');
    expect(highlightUrl('/x/', [])).toBe('/x/');
  });

  it('matches where a word starts, longest word first, regex syntax escaped', () => {
    const re = wordPattern(['run', 'running', 'a.b'])!;
    expect('running rerun a.b axb'.match(re)).toEqual(['running', 'a.b']);
  });
});

describe('markWords', () => {
  it('marks the words in text only, skipping ignored and abandoned parts', () => {
    const doc = page(
      '<div data-pagefind-body><p>The <b>Quarterly</b> ledger</p><span data-pagefind-ignore>quarterly label</span>' +
        '<details data-branch="abandoned"><p>quarterly</p></details><p title="quarterly">&lt;quarterly&gt;</p></div>',
    );
    const marks = markWords(doc.querySelectorAll('[data-pagefind-body]'), ['quarterly']);
    expect(marks.map((m) => m.textContent)).toEqual(['Quarterly', 'quarterly']);
    expect(doc.querySelectorAll('mark.search-mark')).toHaveLength(2);
    // Text stayed text: the angle brackets were not parsed into markup.
    expect(doc.querySelectorAll('[data-pagefind-body] p')[2].innerHTML).toBe('&lt;<mark class="search-mark">quarterly</mark>&gt;');
  });

  it('lands on the first mark after the linked message, and opens the sections around it', () => {
    const doc = page(
      '<main data-pagefind-body><article id="a"><p>alpha</p></article><article id="b"><details><summary>Show more</summary><details><p>x alpha</p></details></details></article></main>',
    );
    const marks = markWords([doc.querySelector('main')!], ['alpha']);
    const first = firstMarkFrom(marks, doc.getElementById('b'))!;
    expect(first).toBe(marks[1]);
    expect(firstMarkFrom(marks, null)).toBe(marks[0]);
    revealElement(first);
    expect([...doc.querySelectorAll('details')].every((d) => d.open)).toBe(true);
  });
});

describe('remarkOnRedraw', () => {
  it('marks a code block again when the browser highlighter redraws its text', async () => {
    const doc = page('<main><pre data-hl="lazy"><code><span class="src">from x import annotations</span></code></pre></main>');
    const marks = markWords([doc.querySelector('main')!], ['annotations']);
    const redrawn = new Promise<HTMLElement[]>((resolve) => remarkOnRedraw(marks, ['annotations'], (_block, fresh) => resolve(fresh)));
    // What the lazy highlighter does: the text re-drawn as coloured runs, the old nodes (and marks) gone.
    const src = doc.querySelector('.src')!;
    const kw = doc.createElement('span');
    kw.textContent = 'from';
    src.replaceChildren(kw, doc.createTextNode(' x import annotations'));
    const fresh = await redrawn;
    expect(fresh.map((m) => m.textContent)).toEqual(['annotations']);
    expect(fresh[0].isConnected).toBe(true);
  });
});
