/**
 * Landing on the words of a search hit: the hit's link carries the words in
 * `?highlight=` (pagefind's highlightParam convention, one parameter per
 * word), and the page marks them. Written here rather than loading pagefind's
 * highlight script (mark.js, ~40 KB) so it also works on a page whose index
 * has not loaded, skips exactly what the index skips, and returns the marks so
 * the page can open and scroll to the first. No Node imports: bundled into the
 * page script; DOM-only functions take their document from the root node.
 */

import { escapeRegExp } from '../escape-regexp.js';
import { INTERFACE_LABELS } from '../render/interface-labels.js';

/** The URL parameter holding the words to mark, repeated once per word. */
export const HIGHLIGHT_PARAM = 'highlight';

/** Class of every mark the landing page adds; the one it scrolls to has `is-current` too. */
export const HIGHLIGHT_CLASS = 'search-mark';

/** What is never marked: what the index skips (interface labels included), and text that is not content. */
const SKIP = ['[data-pagefind-ignore]', ...INTERFACE_LABELS, 'script, style, noscript, template, textarea, mark, [data-branch="abandoned"], [hidden]'].join(', ');

/** Never more marks than this on one page: a common word on a very long page stays cheap. */
const MAX_MARKS = 2000;

/** A site URL (path, query and hash) with the words to mark added before its hash. */
export function highlightUrl(url: string, words: string[]): string {
  if (!words.length) return url;
  const hashAt = url.indexOf('#');
  const [head, hash] = hashAt === -1 ? [url, ''] : [url.slice(0, hashAt), url.slice(hashAt)];
  const query = words.map((w) => `${HIGHLIGHT_PARAM}=${encodeURIComponent(w)}`).join('&');
  return `${head}${head.includes('?') ? '&' : '?'}${query}${hash}`;
}

/** The words to mark named by a page's query string (`location.search`). */
export function highlightWords(search: string): string[] {
  const words = new URLSearchParams(search)
    .getAll(HIGHLIGHT_PARAM)
    .map((w) => w.trim().toLowerCase())
    .filter((w) => w.length >= 2 && w.length <= 100);
  return [...new Set(words)].slice(0, 16);
}

/** A pattern matching any of the words where a word starts (so `run` also marks `running`), longest first. */
export function wordPattern(words: string[]): RegExp | undefined {
  const list = [...new Set(words.filter(Boolean))].sort((a, b) => b.length - a.length);
  if (!list.length) return undefined;
  const alternatives = list.map(escapeRegExp).join('|');
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives})`, 'giu');
}

/**
 * Wraps every occurrence of the words in the text under `roots` in
 * `<mark class="search-mark">`, skipping ignored and hidden parts; returns the
 * marks in document order. Text is split with DOM calls only, never re-parsed.
 */
export function markWords(roots: Iterable<Element>, words: string[]): HTMLElement[] {
  const pattern = wordPattern(words);
  const marks: HTMLElement[] = [];
  if (!pattern) return marks;
  for (const root of roots) {
    const doc = root.ownerDocument;
    const walker = doc.createTreeWalker(root, 4 /* NodeFilter.SHOW_TEXT */);
    const texts: Text[] = [];
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n as Text;
      if (text.data.trim() && !text.parentElement?.closest(SKIP)) texts.push(text);
    }
    for (const text of texts) {
      if (marks.length >= MAX_MARKS) return marks;
      marks.push(...markText(text, pattern));
    }
  }
  return marks;
}

/** Splits one text node around the matches and wraps each match in a mark. */
function markText(text: Text, pattern: RegExp): HTMLElement[] {
  const found = [...text.data.matchAll(pattern)];
  if (!found.length) return [];
  const doc = text.ownerDocument;
  const out: HTMLElement[] = [];
  const frag = doc.createDocumentFragment();
  let at = 0;
  for (const m of found) {
    const start = m.index;
    if (start > at) frag.append(doc.createTextNode(text.data.slice(at, start)));
    const mark = doc.createElement('mark');
    mark.className = HIGHLIGHT_CLASS;
    mark.textContent = m[0];
    frag.append(mark);
    out.push(mark);
    at = start + m[0].length;
  }
  if (at < text.data.length) frag.append(doc.createTextNode(text.data.slice(at)));
  text.replaceWith(frag);
  return out;
}

/**
 * The mark to land on: the first one at or after `anchor` (the message the
 * hit named), else the first one at all.
 */
export function firstMarkFrom(marks: HTMLElement[], anchor: Element | null): HTMLElement | undefined {
  if (anchor) {
    const after = marks.find((m) => anchor === m || anchor.contains(m) || !!(anchor.compareDocumentPosition(m) & 4 /* DOCUMENT_POSITION_FOLLOWING */));
    if (after) return after;
  }
  return marks[0];
}

/** Opens every collapsed `<details>` around an element, so it can be seen. */
export function revealElement(el: Element): void {
  for (let p = el.parentElement; p; p = p.parentElement) {
    if (p.tagName === 'DETAILS') (p as HTMLDetailsElement).open = true;
  }
}

/**
 * Code blocks that are highlighted in the browser once shown (`data-hl`,
 * src/scripts/lazy-highlight.ts) redraw their text, which drops the marks in
 * them. Each such block holding marks is watched; when it is redrawn, its words
 * are marked again and `redrawn` gets the new marks of that block.
 */
export function remarkOnRedraw(marks: HTMLElement[], words: string[], redrawn: (block: Element, marks: HTMLElement[]) => void): void {
  const blocks = new Set(marks.map((m) => m.closest('[data-hl]')).filter((b): b is Element => !!b));
  for (const block of blocks) {
    const win = block.ownerDocument.defaultView;
    if (!win?.MutationObserver) return;
    const observer = new win.MutationObserver(() => {
      if (block.querySelector(`mark.${HIGHLIGHT_CLASS}`)) return;
      observer.disconnect();
      redrawn(block, markWords([block], words));
    });
    observer.observe(block, { childList: true, subtree: true });
  }
}
