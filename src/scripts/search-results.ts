/**
 * pagefind in the browser, shared by the search dialog and the search page:
 * loading the index (every shard merged), and result rows that link to the
 * very words that matched, a page of rows at a time.
 */
import { cleanExcerpt, markedWords, queryWords } from '../lib/search/excerpt.ts';
import { stripMarkdown } from '../lib/plain-text.ts';
import { highlightUrl } from '../lib/search/highlight.ts';
import { bundleDir, SEARCH_MANIFEST, type SearchManifest } from '../lib/search/manifest.ts';

interface SubResult {
  url: string;
  title: string;
  excerpt: string;
  /** Word positions of the matches in the page. */
  locations?: number[];
}
/** An element with an id in the page, and the word position where it starts. */
interface Anchor {
  id: string;
  location: number;
}
interface ResultData {
  url: string;
  meta: Record<string, string>;
  excerpt: string;
  sub_results?: SubResult[];
  anchors?: Anchor[];
}
export interface PagefindResult {
  id: string;
  data(): Promise<ResultData>;
}
interface PagefindModule {
  search(q: string | null, opts?: SearchOptions): Promise<{ results: PagefindResult[] }>;
  filters?(): Promise<Record<string, Record<string, number>>>;
  mergeIndex(path: string, options?: { baseUrl?: string }): Promise<void>;
  options(options: { baseUrl?: string }): Promise<void>;
}
export interface SearchOptions {
  filters?: Record<string, string>;
  sort?: Record<string, 'asc' | 'desc'>;
}
export interface Pagefind {
  search(q: string | null, opts?: SearchOptions): Promise<{ results: PagefindResult[] }>;
  filters(): Promise<Record<string, Record<string, number>>>;
}

let pagefindPromise: Promise<Pagefind | undefined> | undefined;

/**
 * Loads pagefind once, with every shard of a large site's index merged in; in
 * `npm run dev` there is no index yet and this says so by returning undefined.
 */
export function loadPagefind(): Promise<Pagefind | undefined> {
  const base = document.body.dataset.base ?? '/';
  pagefindPromise ??= (async () => {
    const bundle = `${base}${bundleDir(0)}/`;
    const pf = (await import(/* @vite-ignore */ `${bundle}pagefind.js`).catch(() => undefined)) as PagefindModule | undefined;
    if (!pf) return undefined;
    // Result URLs are relative to our pages' base, not to the bundle's folder (pagefind's guess).
    await pf.options({ baseUrl: base });
    const manifest: SearchManifest = (await fetch(`${bundle}${SEARCH_MANIFEST}`)
      .then((r) => (r.ok ? r.json() : undefined))
      .catch(() => undefined)) ?? { pages: 1, shards: [], dates: {} };
    for (const shard of manifest.shards) await pf.mergeIndex(`${base}${shard}`, { baseUrl: base });
    return {
      async search(q, opts = {}) {
        // A site with nothing searchable has an empty index, which pagefind cannot open.
        if (manifest.pages === 0) return { results: [] };
        const res = await pf.search(q, opts);
        const [key, dir] = Object.entries(opts.sort ?? {})[0] ?? [];
        // pagefind orders the results of merged shards by score; a date order is restored here.
        // Pages without a date (notes) are left out, as a single index leaves them out of a sorted search.
        if (key === 'date' && manifest.shards.length) {
          const d = (r: PagefindResult) => manifest.dates[r.id] ?? '';
          const sign = dir === 'asc' ? 1 : -1;
          res.results = res.results.filter((r) => d(r)).sort((a, b) => (d(a) < d(b) ? -sign : d(a) > d(b) ? sign : 0));
        }
        return res;
      },
      async filters() {
        if (manifest.pages === 0) return {};
        return (await pf.filters?.()) ?? {};
      },
    };
  })();
  return pagefindPromise;
}

/** Hits shown under one session: the messages it matched in, best first. */
const HITS_PER_RESULT = 3;

/** A list of results shown a page at a time, with a "more results" button after it. */
export interface ResultList {
  /** Shows the first rows of a new result set (or `rows` of them, e.g. as many as before Back). */
  show(results: PagefindResult[], query: string, isCurrent: () => boolean, rows?: number): Promise<void>;
  /** Adds the next page of rows and moves focus to the first new hit when `focus`. */
  more(focus?: boolean): Promise<void>;
  /** Empties the list; rows still being built for an earlier set are dropped. */
  clear(): void;
  /** Rows shown. */
  readonly shown: number;
  /** Results in the set. */
  readonly total: number;
}

/** A result list in `list`, `pageSize` rows at a time; `button` asks for the next page. */
export function createResultList(list: HTMLOListElement, button: HTMLButtonElement, pageSize: number, onChange: () => void = () => {}): ResultList {
  let results: PagefindResult[] = [];
  let query = '';
  let shown = 0;
  let current: () => boolean = () => true;
  const update = () => {
    const left = results.length - shown;
    button.hidden = left <= 0;
    button.textContent = `More results (${left} more)`;
    onChange();
  };
  const rowsFor = (set: PagefindResult[], q: string, from: number, to: number) => Promise.all(set.slice(from, to).map((r) => resultRow(r, q)));
  const self: ResultList = {
    async show(next, q, isCurrent, rows = pageSize) {
      const rowsShown = Math.max(pageSize, Math.min(rows, next.length));
      const built = await rowsFor(next, q, 0, rowsShown);
      // A slower, older query must not replace the results of a newer one.
      if (!isCurrent()) return;
      results = next;
      query = q;
      current = isCurrent;
      shown = Math.min(rowsShown, next.length);
      // Built aside and swapped in at once, so a list never shows half of one query's results.
      list.replaceChildren(...built);
      update();
    },
    async more(focus = false) {
      const from = shown;
      const mine = current;
      const built = await rowsFor(results, query, from, from + pageSize);
      if (!mine() || shown !== from) return;
      list.append(...built);
      shown = Math.min(from + pageSize, results.length);
      update();
      if (focus) built[0]?.querySelector<HTMLAnchorElement>('a.result-hit')?.focus();
    },
    clear() {
      results = [];
      shown = 0;
      current = () => false;
      list.replaceChildren();
      update();
    },
    get shown() {
      return shown;
    },
    get total() {
      return results.length;
    },
  };
  button.addEventListener('click', () => self.more(true));
  return self;
}

/**
 * One result row: the session's title, its project and date, then the
 * messages the words were found in, each with its excerpt. Every link carries
 * the marked words, so the page it opens marks them too. Text only: excerpts
 * are rebuilt from text runs, never parsed as markup.
 */
async function resultRow(result: PagefindResult, query: string): Promise<HTMLLIElement> {
  const d = await result.data();
  const anchored = (d.sub_results ?? []).filter((s) => s.url.includes('#')).slice(0, HITS_PER_RESULT).map((s) => ({ ...s, url: messageUrl(s, d.anchors ?? []) }));
  const hits: SubResult[] = anchored.length ? anchored : [{ url: d.url, title: '', excerpt: d.excerpt }];
  const fallback = queryWords(query);
  const wordsOf = (excerpts: string[]) => {
    const marked = markedWords(excerpts);
    return marked.length ? marked : fallback;
  };
  const li = document.createElement('li');
  li.className = 'result';
  const title = document.createElement('a');
  title.href = highlightUrl(d.url, wordsOf(hits.map((h) => h.excerpt)));
  title.className = 'result-title';
  title.textContent = stripMarkdown(d.meta.title ?? d.url);
  const meta = document.createElement('p');
  meta.className = 'result-meta';
  meta.textContent = [d.meta.project, d.meta.date].filter(Boolean).join(' · ');
  const ul = document.createElement('ul');
  ul.className = 'result-hits';
  for (const s of hits) {
    const item = document.createElement('li');
    const a = document.createElement('a');
    a.href = highlightUrl(s.url, wordsOf([s.excerpt]));
    a.className = 'result-hit';
    if (s.title) {
      const where = document.createElement('span');
      where.className = 'result-where';
      where.textContent = stripMarkdown(s.title);
      a.append(where, ' ');
    }
    const text = document.createElement('span');
    text.className = 'result-excerpt';
    text.append(...excerptNodes(s.excerpt, s.title));
    a.append(text);
    item.append(a);
    ul.append(item);
  }
  li.append(title, meta, ul);
  return li;
}

/**
 * A hit's URL at the message it was found in. pagefind links a hit to the heading
 * above it, but a message that goes on with a reply has no heading: its
 * `m-<uuid>` id is on its article. The last message anchor at or before the
 * first matched word names that very message.
 */
function messageUrl(s: SubResult, anchors: Anchor[]): string {
  const first = s.locations?.[0];
  if (first === undefined) return s.url;
  let best: Anchor | undefined;
  for (const a of anchors) if (a.id.startsWith('m-') && a.location <= first && (!best || a.location >= best.location)) best = a;
  return best ? `${s.url.replace(/#.*$/, '')}#${best.id}` : s.url;
}

/** An excerpt as text nodes and `<mark>`s built with DOM calls: transcript text can never become markup here. */
function excerptNodes(excerpt: string, heading: string): Node[] {
  return cleanExcerpt(excerpt, heading).map((p) => {
    if (!p.mark) return document.createTextNode(p.text);
    const mark = document.createElement('mark');
    mark.textContent = p.text;
    return mark;
  });
}
