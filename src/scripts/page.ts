/**
 * The only JavaScript of the site: theme toggle, copy-link buttons, landing on
 * a permalinked message, and the search dialog. Everything else works without it.
 */
import { SEARCH_MANIFEST, type SearchManifest } from '../lib/search/manifest.ts';

export function initPage(): void {
  initTheme();
  initCopyLinks();
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
  for (const link of document.querySelectorAll<HTMLAnchorElement>('.msg-links > a.permalink')) {
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

/** Opens collapsed ancestors of the targeted message, highlights it and scrolls it into view. */
function initTarget(): void {
  const land = () => {
    const id = decodeURIComponent(location.hash.slice(1));
    if (!id) return;
    const el = document.getElementById(id);
    if (!el) {
      forwardToPage(id);
      return;
    }
    for (const old of document.querySelectorAll('.is-target')) old.classList.remove('is-target');
    let p: HTMLElement | null = el.parentElement;
    while (p) {
      if (p instanceof HTMLDetailsElement) p.open = true;
      p = p.parentElement;
    }
    const msg = el.closest<HTMLElement>('[data-uuid]') ?? el;
    msg.classList.add('is-target');
    msg.scrollIntoView({ block: 'start' });
  };
  window.addEventListener('hashchange', land);
  land();
}

/** A message of a long session lives on another page: go there, keeping the anchor. */
function forwardToPage(id: string): void {
  const data = document.getElementById('anchor-map');
  if (!data) return;
  const map = JSON.parse(data.dataset.map ?? '{}') as { base: string; pages: Record<string, number> };
  const uuid = id.replace(/^m-/, '');
  const page = map.pages[uuid];
  if (!page) return;
  const target = page === 1 ? map.base : `${map.base}${page}/`;
  if (new URL(target, location.href).pathname !== location.pathname) location.replace(`${target}#${id}`);
}

interface PagefindResult {
  id: string;
  data(): Promise<{ url: string; meta: Record<string, string>; excerpt: string; sub_results?: Array<{ url: string; title: string; excerpt: string }> }>;
}
interface PagefindModule {
  search(q: string | null, opts?: Record<string, unknown>): Promise<{ results: PagefindResult[] }>;
  filters?(): Promise<Record<string, Record<string, number>>>;
  mergeIndex(path: string): Promise<void>;
}
interface Pagefind {
  search(q: string | null, opts?: { filters?: Record<string, string>; sort?: Record<string, 'asc' | 'desc'> }): Promise<{ results: PagefindResult[] }>;
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
    const pf = (await import(/* @vite-ignore */ `${base}pagefind/pagefind.js`).catch(() => undefined)) as PagefindModule | undefined;
    if (!pf) return undefined;
    const manifest: SearchManifest = await fetch(`${base}pagefind/${SEARCH_MANIFEST}`)
      .then((r) => (r.ok ? r.json() : undefined))
      .catch(() => undefined) ?? { pages: 1, shards: [], dates: {} };
    for (const shard of manifest.shards) await pf.mergeIndex(`${base}${shard}`);
    return {
      async search(q, opts = {}) {
        // A site with nothing searchable has an empty index, which pagefind cannot open.
        if (manifest.pages === 0) return { results: [] };
        const res = await pf.search(q, opts);
        const [key, dir] = Object.entries(opts.sort ?? {})[0] ?? [];
        // pagefind orders the results of merged shards by score; a date order is restored here.
        if (key === 'date' && manifest.shards.length) {
          const d = (r: PagefindResult) => manifest.dates[r.id] ?? '';
          const sign = dir === 'asc' ? 1 : -1;
          res.results = [...res.results].sort((a, b) => (d(a) < d(b) ? -sign : d(a) > d(b) ? sign : 0));
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

/** Renders pagefind results as links to the messages themselves. */
export async function renderResults(list: HTMLOListElement, results: PagefindResult[], limit = 10, isCurrent: () => boolean = () => true): Promise<void> {
  // Built aside and swapped in at once, so a list never shows half of one query's results.
  const items: HTMLLIElement[] = [];
  for (const r of results.slice(0, limit)) {
    const d = await r.data();
    const li = document.createElement('li');
    const a = document.createElement('a');
    a.href = d.url;
    a.className = 'result-title';
    a.textContent = d.meta.title ?? d.url;
    li.append(a);
    const meta = document.createElement('p');
    meta.className = 'result-meta';
    meta.textContent = [d.meta.project, d.meta.date].filter(Boolean).join(' · ');
    li.append(meta);
    const subs = (d.sub_results ?? []).filter((s) => s.url.includes('#')).slice(0, 3);
    const ul = document.createElement('ul');
    for (const s of subs.length ? subs : [{ url: d.url, title: '', excerpt: d.excerpt }]) {
      const sli = document.createElement('li');
      const sa = document.createElement('a');
      sa.href = s.url;
      sa.className = 'result-hit';
      sa.append(...excerptNodes(s.excerpt));
      sli.append(sa);
      ul.append(sli);
    }
    li.append(ul);
    items.push(li);
  }
  // A slower, older query must not replace the results of a newer one.
  if (isCurrent()) list.replaceChildren(...items);
}

/**
 * pagefind excerpts are HTML with <mark> around hits. Parse them in an inert
 * document and rebuild only text and <mark>, so transcript text can never
 * become markup here.
 */
function excerptNodes(excerpt: string): Node[] {
  const doc = new DOMParser().parseFromString(`<body>${excerpt}</body>`, 'text/html');
  const out: Node[] = [];
  for (const node of doc.body.childNodes) {
    if (node.nodeName === 'MARK') {
      const mark = document.createElement('mark');
      mark.textContent = node.textContent;
      out.push(mark);
    } else {
      out.push(document.createTextNode(node.textContent ?? ''));
    }
  }
  return out;
}

function initSearchDialog(): void {
  const dialog = document.querySelector<HTMLDialogElement>('[data-search-dialog]');
  const input = dialog?.querySelector<HTMLInputElement>('[data-search-input]');
  const list = dialog?.querySelector<HTMLOListElement>('[data-search-results]');
  const status = dialog?.querySelector<HTMLElement>('[data-search-status]');
  if (!dialog || !input || !list || !status) return;
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
    if (!q) {
      list.replaceChildren();
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
    await renderResults(list, res.results, 6, () => mine === seq);
    if (mine !== seq) return;
    // The count is announced once the results are there to read.
    status.textContent = `${res.results.length} session${res.results.length === 1 ? '' : 's'} match`;
  });
  list.addEventListener('click', (e) => {
    if (e.target instanceof Element && e.target.closest('a')) dialog.close();
  });
}
