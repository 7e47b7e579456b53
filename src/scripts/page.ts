/**
 * The only JavaScript of the site: theme toggle, copy-link buttons, landing on
 * a permalinked message or on the words of a search hit, and the search dialog
 * (results: search-results.ts). Everything else works without it.
 */
import { firstMarkFrom, highlightWords, markWords, remarkOnRedraw, revealElement } from '../lib/search/highlight.ts';
import { searchUrl } from '../lib/site/urls.ts';
import { pageOfAnchor, type AnchorMap } from '../lib/site/anchor-map.ts';
import { PERMALINK } from '../lib/render/interface-labels.ts';
import { createResultList, loadPagefind } from './search-results.ts';

export function initPage(): void {
  initTheme();
  initCopyLinks();
  initWrapToggle();
  initDiffNumbers();
  initTarget();
  initSearchDialog();
}

const THEME_KEY = 'sessionpress-theme';

function initTheme(): void {
  const button = document.querySelector<HTMLButtonElement>('[data-theme-toggle]');
  if (!button) return;
  const current = () =>
    document.documentElement.dataset.theme ?? (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');
  const label = () => button.setAttribute('aria-label', current() === 'dark' ? 'Switch to light theme' : 'Switch to dark theme');
  label();
  button.addEventListener('click', () => {
    const next = current() === 'dark' ? 'light' : 'dark';
    document.documentElement.dataset.theme = next;
    try {
      localStorage.setItem(THEME_KEY, next);
    } catch {
      // Private windows may refuse storage; the toggle still works for this page.
    }
    label();
  });
}

/**
 * A "Copy link" button beside every message's permalink. Made here rather than sent in
 * the HTML: it only works with JavaScript, and one per message added up on long sessions.
 */
function initCopyLinks(): void {
  for (const link of document.querySelectorAll<HTMLAnchorElement>(PERMALINK)) {
    const href = link.getAttribute('href') ?? '';
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'copy-link';
    button.textContent = 'Copy link';
    link.after(button);
    button.addEventListener('click', async () => {
      const url = new URL(href, location.href).href;
      try {
        await navigator.clipboard.writeText(url);
        button.dataset.copied = 'true';
        button.textContent = 'Copied';
      } catch {
        history.replaceState(null, '', href);
        button.textContent = 'Link in address bar';
      }
      setTimeout(() => {
        delete button.dataset.copied;
        button.textContent = 'Copy link';
      }, 1500);
    });
  }
}

/** Typed `attr()`, with which the stylesheet starts a diff's line counters from its data-o / data-n. */
const TYPED_ATTR = 'o attr(data-o type(<integer>), 0)';

/**
 * Diff line numbers in browsers whose CSS cannot read the counters' start from
 * the block's attributes: set here instead (transcript.css shows the numbers of
 * a diff block that has them set, and only the signs otherwise).
 */
function initDiffNumbers(): void {
  if (CSS.supports('counter-reset', TYPED_ATTR)) return;
  for (const pre of document.querySelectorAll<HTMLElement>('pre.diff[data-o]')) {
    pre.style.counterReset = `o ${Number.parseInt(pre.dataset.o ?? '0', 10) || 0} n ${Number.parseInt(pre.dataset.n ?? '0', 10) || 0}`;
  }
}

const WRAP_KEY = 'sessionpress-wrap';

/**
 * "Wrap lines": long code lines wrap instead of scrolling sideways. The choice
 * is remembered (localStorage) and applies to every session page; the button
 * is in the page hidden and shown here, as it only works with JavaScript.
 */
function initWrapToggle(): void {
  const root = document.documentElement;
  let on = false;
  try {
    on = localStorage.getItem(WRAP_KEY) === 'on';
  } catch {
    // Storage refused: lines are not wrapped until asked.
  }
  root.classList.toggle('wrap-code', on);
  const button = document.querySelector<HTMLButtonElement>('[data-wrap-toggle]');
  if (!button) return;
  button.setAttribute('aria-pressed', String(on));
  button.closest<HTMLElement>('[hidden]')?.removeAttribute('hidden');
  button.addEventListener('click', () => {
    const next = !root.classList.contains('wrap-code');
    root.classList.toggle('wrap-code', next);
    button.setAttribute('aria-pressed', String(next));
    try {
      localStorage.setItem(WRAP_KEY, next ? 'on' : 'off');
    } catch {
      // Private windows may refuse storage; the toggle still works for this page.
    }
  });
}

/**
 * Landing on a link. From a search hit (`?highlight=` words): the words are
 * marked, the collapsed sections around the first one at or after the linked
 * message are opened and that word is scrolled into view. From a permalink:
 * the message's collapsed ancestors are opened, and it is highlighted and
 * scrolled to.
 */
function initTarget(): void {
  const words = highlightWords(location.search);
  const marks = words.length ? markWords(document.querySelectorAll('[data-pagefind-body]'), words) : [];
  const land = (first: boolean) => {
    const id = decodeURIComponent(location.hash.slice(1));
    const el = id ? document.getElementById(id) : null;
    if (id && !el) {
      void forwardToPage(id);
      return;
    }
    for (const old of document.querySelectorAll('.is-target')) old.classList.remove('is-target');
    // Only the first landing follows the words; a later permalink click is a plain permalink.
    const mark = first ? firstMarkFrom(marks, el) : undefined;
    // While landed on words, the linked message is not highlighted as a whole (see search.css).
    document.documentElement.toggleAttribute('data-search-landing', !!mark);
    if (mark) {
      landOnWord(mark, marks, words);
      return;
    }
    if (!el) return;
    revealElement(el);
    const msg = el.closest<HTMLElement>('[data-uuid]') ?? el;
    msg.classList.add('is-target');
    // A linked tool call is opened and scrolled to itself: its message may be long.
    const call = el.matches('[data-tool-use-id]') ? el : undefined;
    if (call instanceof HTMLDetailsElement) call.open = true;
    (call ?? msg).scrollIntoView({ block: 'start' });
  };
  window.addEventListener('hashchange', () => land(false));
  land(true);
}

/**
 * Opens the sections around a marked word and scrolls it into view. A code
 * block highlighted once shown redraws its text: its words are marked again,
 * and the word landed on is kept in view.
 */
function landOnWord(mark: HTMLElement, marks: HTMLElement[], words: string[]): void {
  let current = mark;
  current.classList.add('is-current');
  revealElement(current);
  const scroll = () => current.scrollIntoView({ block: 'center' });
  scroll();
  // The browser scrolls to the #anchor once the page has loaded; the word wins after that.
  if (document.readyState !== 'complete') window.addEventListener('load', () => requestAnimationFrame(scroll), { once: true });
  const home = current.closest('[data-hl]');
  const nth = home ? marks.filter((m) => home.contains(m)).indexOf(current) : -1;
  remarkOnRedraw(marks, words, (block, fresh) => {
    const next = fresh[nth] ?? fresh[0];
    if (block !== home || current.isConnected || !next) return;
    current = next;
    current.classList.add('is-current');
    scroll();
  });
}

/** A message or tool call of a long session lives on another page: go there, keeping the anchor. */
async function forwardToPage(id: string): Promise<void> {
  const data = document.getElementById('anchor-map');
  if (!data) return;
  let map: AnchorMap & { base: string };
  if (data.dataset.src) {
    // A long session's map is a file beside page 1, fetched only now.
    const response = await fetch(data.dataset.src).catch(() => undefined);
    if (!response?.ok) return;
    map = { ...((await response.json()) as AnchorMap), base: data.dataset.base ?? '' };
  } else map = JSON.parse(data.dataset.map ?? '{}') as AnchorMap & { base: string };
  const page = pageOfAnchor(map, id);
  if (!page) return;
  const target = `${map.base}${page}/`;
  // The query goes along: it holds the words of a search hit to mark on that page.
  if (new URL(target, location.href).pathname !== location.pathname) location.replace(`${target}${location.search}#${id}`);
}

/** Result rows the dialog shows at a time; "More results" adds as many again. */
const DIALOG_PAGE = 8;

/**
 * The search dialog (`/` or Ctrl+K): results as you type, a page at a time.
 * ↓ and ↑ move between the input and the hits, Enter opens the hit in focus
 * (from the input: the first hit), typing goes back to the input.
 */
function initSearchDialog(): void {
  const dialog = document.querySelector<HTMLDialogElement>('[data-search-dialog]');
  const input = dialog?.querySelector<HTMLInputElement>('[data-search-input]');
  const list = dialog?.querySelector<HTMLOListElement>('[data-search-results]');
  const status = dialog?.querySelector<HTMLElement>('[data-search-status]');
  const more = dialog?.querySelector<HTMLButtonElement>('[data-search-more]');
  const pageLink = dialog?.querySelector<HTMLAnchorElement>('[data-search-page-link]');
  if (!dialog || !input || !list || !status || !more) return;
  const results = createResultList(list, more, DIALOG_PAGE);
  const open = () => {
    if (!dialog.open) dialog.showModal();
    input.focus();
  };
  for (const b of document.querySelectorAll('[data-search-open]')) b.addEventListener('click', open);
  document.addEventListener('keydown', (e) => {
    const typing = e.target instanceof HTMLElement && (e.target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName));
    if ((e.key === '/' && !typing) || (e.key.toLowerCase() === 'k' && (e.ctrlKey || e.metaKey))) {
      e.preventDefault();
      open();
    }
  });
  let seq = 0;
  input.addEventListener('input', async () => {
    const q = input.value.trim();
    const mine = ++seq;
    // The search page link carries the query, so filters and sorting start from it.
    if (pageLink) pageLink.href = searchUrl(document.body.dataset.base ?? '/', q);
    if (!q) {
      results.clear();
      status.textContent = '';
      return;
    }
    const pagefind = await loadPagefind();
    if (!pagefind) {
      status.textContent = 'Search needs a built site: run `npm run build` then `npm run preview`.';
      return;
    }
    const res = await pagefind.search(q);
    if (mine !== seq) return;
    await results.show(res.results, q, () => mine === seq);
    if (mine !== seq) return;
    // The count is announced once the results are there to read.
    status.textContent = `${res.results.length} session${res.results.length === 1 ? '' : 's'} match`;
  });
  dialog.addEventListener('keydown', (e) => dialogKey(e, input, list, more));
  list.addEventListener('click', (e) => {
    if (e.target instanceof Element && e.target.closest('a')) dialog.close();
  });
}

/** Keyboard moves inside the search dialog: arrows between input and hits, Enter from the input opens the first hit. */
function dialogKey(e: KeyboardEvent, input: HTMLInputElement, list: HTMLOListElement, more: HTMLButtonElement): void {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const stops: HTMLElement[] = [...list.querySelectorAll<HTMLElement>('a.result-hit')];
  if (!more.hidden) stops.push(more);
  const at = stops.indexOf(document.activeElement as HTMLElement);
  if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
    if (!stops.length) return;
    e.preventDefault();
    const next = e.key === 'ArrowDown' ? Math.min(at + 1, stops.length - 1) : at - 1;
    (next < 0 ? input : stops[next]).focus();
  } else if (e.key === 'Enter' && document.activeElement === input) {
    // Enter would submit the dialog's form, which closes it; open the first hit instead,
    // or, with none (yet), the search page with the query.
    e.preventDefault();
    const first = list.querySelector<HTMLAnchorElement>('a.result-hit');
    if (first) first.click();
    else if (input.value.trim()) location.assign(searchUrl(document.body.dataset.base ?? '/', input.value.trim()));
  } else if (at !== -1 && e.key.length === 1 && e.key !== ' ') {
    input.focus();
  }
}
