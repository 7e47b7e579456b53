/**
 * A search as the search page's URL holds it: `?q=words&sort=date:desc&project=api`.
 * Linkable, and what Back returns to. No DOM and no Node imports: the page
 * script bundles this file.
 */

export interface SearchState {
  /** The words, as typed (trimmed). */
  q: string;
  /** Filter name → chosen value; only chosen filters are present. */
  filters: Record<string, string>;
  /** `relevance` (the default), `date:desc` or `date:asc`. */
  sort: string;
}

/** Filter names the URL may carry, so unrelated parameters never become filters. */
export const FILTER_PARAMS = ['project', 'model', 'tool', 'branch'] as const;

const DEFAULT_SORT = 'relevance';

/** Reads a search from a query string (`location.search`). */
export function readSearchState(search: string): SearchState {
  const params = new URLSearchParams(search);
  const filters: Record<string, string> = {};
  for (const name of FILTER_PARAMS) {
    const v = params.get(name);
    if (v) filters[name] = v;
  }
  return { q: (params.get('q') ?? '').trim(), filters, sort: params.get('sort') || DEFAULT_SORT };
}

/** The query string of a search (`?q=…`, or `` for an empty one), parameters in a fixed order. */
export function searchStateQuery(state: SearchState): string {
  const params = new URLSearchParams();
  if (state.q) params.set('q', state.q);
  for (const name of FILTER_PARAMS) if (state.filters[name]) params.set(name, state.filters[name]);
  if (state.sort && state.sort !== DEFAULT_SORT) params.set('sort', state.sort);
  const text = params.toString();
  return text ? `?${text}` : '';
}
