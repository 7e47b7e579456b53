import { FILTER_PARAMS, readSearchState, searchStateQuery, type SearchState } from '../lib/search/search-state.ts';
import { createResultList, loadPagefind, type Pagefind, type SearchOptions } from './search-results.ts';

/** Result rows shown at a time; "More results" adds as many again. */
const PAGE_SIZE = 10;

/** What the page keeps in its history entry: how many rows were shown, so Back shows as many again. */
interface HistoryState {
  rows?: number;
}

/**
 * The search page: pagefind with filters by project, model, tool and branch,
 * and sorting by date. The query, filters and sort live in the URL (`?q=…`),
 * so a search can be linked to and Back from a result returns to it.
 */
export async function initSearchPage(): Promise<void> {
  const input = document.querySelector<HTMLInputElement>('[data-search-page-input]');
  const sort = document.querySelector<HTMLSelectElement>('[data-search-sort]');
  const box = document.querySelector<HTMLElement>('[data-search-filters]');
  const list = document.querySelector<HTMLOListElement>('[data-search-page-results]');
  const status = document.querySelector<HTMLElement>('[data-search-page-status]');
  const more = document.querySelector<HTMLButtonElement>('[data-search-page-more]');
  if (!input || !sort || !box || !list || !status || !more) return;
  // The <noscript> note is for readers without JavaScript.
  status.replaceChildren();
  const initial = readSearchState(location.search);
  input.value = initial.q;
  const pagefind = await loadPagefind();
  if (!pagefind) {
    status.textContent = 'Search needs a built site: run `npm run build` then `npm run preview` (it does not work in `npm run dev`).';
    return;
  }
  await addFilters(pagefind, box, initial);
  if ([...sort.options].some((o) => o.value === initial.sort)) sort.value = initial.sort;
  const saved = createHistoryWriter();
  const results = createResultList(list, more, PAGE_SIZE, () => saved.update({ rows: results.shown }));
  // A result opened before the writer's pause has passed still leaves its search behind for Back.
  list.addEventListener('click', () => saved.flush(), true);
  window.addEventListener('pagehide', () => saved.flush());
  const state = (): SearchState => {
    const filters: Record<string, string> = {};
    for (const s of box.querySelectorAll<HTMLSelectElement>('select[data-filter]')) if (s.value) filters[s.dataset.filter!] = s.value;
    return { q: input.value.trim(), filters, sort: sort.value };
  };
  let seq = 0;
  const run = async (rows?: number): Promise<void> => {
    const mine = ++seq;
    const now = state();
    saved.update({}, `${location.pathname}${searchStateQuery(now)}${location.hash}`);
    if (!now.q && !Object.keys(now.filters).length) {
      results.clear();
      status.textContent = '';
      return;
    }
    const [key, dir] = now.sort.split(':');
    const opts: SearchOptions = { filters: now.filters };
    if (dir === 'asc' || dir === 'desc') opts.sort = { [key]: dir };
    const res = await pagefind.search(now.q || null, opts);
    if (mine !== seq) return;
    await results.show(res.results, now.q, () => mine === seq, rows);
    if (mine !== seq) return;
    // The count is announced once the results are there to read.
    status.textContent = `${res.results.length} session${res.results.length === 1 ? '' : 's'} match`;
  };
  input.addEventListener('input', () => run());
  sort.addEventListener('change', () => run());
  box.addEventListener('change', () => run());
  const back = (history.state as HistoryState | null)?.rows;
  if (input.value || Object.keys(state().filters).length) await run(back);
}

/** One select per filter the index knows, preset from the URL. */
async function addFilters(pagefind: Pagefind, box: HTMLElement, initial: SearchState): Promise<void> {
  const available = await pagefind.filters();
  // Offered in this order, when the index has values for them.
  for (const name of FILTER_PARAMS) {
    const values = Object.keys(available[name] ?? {}).sort();
    if (!values.length) continue;
    const label = document.createElement('label');
    label.className = 'search-filter';
    const caption = document.createElement('span');
    caption.textContent = `${name[0].toUpperCase()}${name.slice(1)}`;
    const select = document.createElement('select');
    select.dataset.filter = name;
    select.append(new Option('any', ''));
    for (const v of values) select.append(new Option(`${v} (${available[name][v]})`, v));
    if (initial.filters[name] && values.includes(initial.filters[name])) select.value = initial.filters[name];
    label.append(caption, select);
    box.append(label);
  }
}

/** Pause after the last change before the history entry is written. */
const HISTORY_PAUSE_MS = 300;

/**
 * Writes the search into this history entry: its URL (`?q=…`) and the rows
 * shown. Replaced, not pushed: Back leaves the search page, and this entry is
 * what it comes back to. Written once typing pauses, as browsers limit how
 * often a page may rewrite its history (Safari throws past 100 in 30 s).
 */
function createHistoryWriter(): { update(state: HistoryState, url?: string): void; flush(): void } {
  let state: HistoryState = { ...(history.state as HistoryState | null) };
  let url = location.href;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    if (timer === undefined) return;
    clearTimeout(timer);
    timer = undefined;
    try {
      history.replaceState(state, '', url);
    } catch {
      // Refused (too many rewrites): the next pause tries again.
    }
  };
  return {
    update(next, nextUrl) {
      state = { ...state, ...next };
      if (nextUrl !== undefined) url = nextUrl;
      clearTimeout(timer);
      timer = setTimeout(flush, HISTORY_PAUSE_MS);
    },
    flush,
  };
}
