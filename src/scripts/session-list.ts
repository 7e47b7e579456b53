/**
 * Progressive enhancement of a session list (the index, a project's page).
 * The page holds the newest sessions only (src/components/SessionIndex.astro);
 * when a reader filters by project, groups, sorts or asks for more, this
 * script loads the JSON listing of every session (src/routes/list/) once and
 * renders the cards from it, a window of at most `MAX_CARDS` at a time, so the
 * page stays small whatever the archive's size. Filter, grouping and sort live
 * in the address (`?project=…&group=day&sort=oldest`): a reload or a shared
 * link restores them, back and forward step through them. Titles are
 * transcript text: every card is built with DOM calls and `textContent`.
 * Without JavaScript the page reads as built, with numbered pages.
 */
import { countOf, formatCount, formatDuration, formatTimestamp } from '../lib/format.ts';
import type { CardRow, ListingChunk } from '../lib/site/listing.ts';
import { isWebUrl, sessionDay } from '../lib/site/summary.ts';
import { listingUrl, projectUrl, sessionUrl } from '../lib/site/urls.ts';

type Grouping = 'project' | 'none' | 'day';
type Sort = 'newest' | 'oldest' | 'longest' | 'prompts';
const SORTS: Sort[] = ['newest', 'oldest', 'longest', 'prompts'];
const SORT_WORDS: Record<Sort, string> = { newest: 'newest first', oldest: 'oldest first', longest: 'longest first', prompts: 'most prompts first' };

/** The most cards the page holds at once: about 18 elements each, well under 8,000 with the page around them. */
export const MAX_CARDS = 300;

interface ListState {
  project: string;
  group: Grouping;
  sort: Sort;
}

interface Listing {
  rows: CardRow[];
  names: Map<string, string>;
}

export function initSessionList(): void {
  const root = document.querySelector<HTMLElement>('[data-session-groups]');
  if (!root || root.dataset.listPage !== '1') return;
  // From here on the script filters; the CSS :target rule steps aside.
  root.classList.add('js-filter');
  const base = root.dataset.base ?? '/';
  const scope = root.dataset.scope ?? '';
  const pageSize = Number(root.dataset.pageSize) || 50;
  const chunks = Number(root.dataset.listingChunks) || 1;
  const pricesAsOf = root.dataset.pricesAsOf ?? '';
  const toggle = document.querySelector<HTMLElement>('[data-group-toggle]');
  const sortSelect = document.querySelector<HTMLSelectElement>('[data-sort-select]');
  const projectSelect = document.querySelector<HTMLSelectElement>('[data-project-select]');
  const pager = document.querySelector<HTMLElement>('[data-list-pager]');
  const range = document.querySelector<HTMLElement>('[data-list-range]');
  const moreRow = document.querySelector<HTMLElement>('[data-show-more-row]');
  const more = moreRow?.querySelector<HTMLButtonElement>('[data-show-more]');
  const groupings = [...(toggle?.querySelectorAll<HTMLButtonElement>('button[data-group]') ?? [])].map((b) => b.dataset.group as Grouping);
  const defaults: ListState = { project: '', group: groupings[0] ?? 'none', sort: 'newest' };
  const total = Number(root.dataset.total) || 0;

  const earlierRow = document.createElement('p');
  earlierRow.className = 'show-more';
  earlierRow.hidden = true;
  const earlier = document.createElement('button');
  earlier.type = 'button';
  earlier.textContent = 'Show newer sessions';
  earlierRow.append(earlier);
  root.before(earlierRow);

  let listing: Promise<Listing> | undefined;
  const load = () => (listing ??= loadListing(base, chunks));
  let state = readState(defaults, groupings);
  let start = 0;
  let count = pageSize;
  let drawn = false;

  const showControls = () => {
    for (const b of toggle?.querySelectorAll<HTMLButtonElement>('button[data-group]') ?? []) b.setAttribute('aria-pressed', String(b.dataset.group === state.group));
    if (sortSelect) sortSelect.value = state.sort;
    for (const link of document.querySelectorAll<HTMLAnchorElement>('.project-filter a[data-filter]')) {
      if ((link.dataset.filter ?? '') === state.project) link.setAttribute('aria-current', 'true');
      else link.removeAttribute('aria-current');
    }
    if (projectSelect) projectSelect.value = [...projectSelect.options].some((o) => o.value === state.project) ? state.project : '';
  };

  /** Draws the cards of the current state from the listing; keeps `anchor` (a card's link) where it was on screen. */
  const draw = async (anchor?: string) => {
    showControls();
    const untouched = !drawn && sameState(state, defaults) && start === 0 && count <= pageSize;
    if (untouched) {
      // The page as built is this very view: nothing to load.
      if (more && moreRow) {
        moreRow.hidden = total <= pageSize;
        more.textContent = `Show ${Math.min(pageSize, total - pageSize)} more`;
      }
      return;
    }
    root.setAttribute('aria-busy', 'true');
    let data: Listing;
    try {
      data = await load();
    } catch {
      root.removeAttribute('aria-busy');
      listing = undefined;
      if (range) range.textContent = 'The full list could not be loaded: the numbered pages below list every session.';
      return;
    }
    const before = anchor ? anchorTop(root, anchor) : undefined;
    const rows = sortRows(data.rows.filter((r) => (scope ? r.p === scope : !state.project || r.p === state.project)), state.sort);
    start = Math.min(start, Math.max(0, rows.length - 1));
    const shown = rows.slice(start, start + count);
    root.replaceChildren(...renderGroups(shown, rows, state.group, { base, names: data.names, showProject: !scope, pricesAsOf }));
    drawn = true;
    root.removeAttribute('aria-busy');
    if (pager) pager.hidden = true;
    if (range) {
      const where = state.project ? ` in ${data.names.get(state.project) ?? state.project}` : '';
      range.hidden = false;
      range.textContent = rows.length ? `Sessions ${formatCount(start + 1)} to ${formatCount(start + shown.length)} of ${formatCount(rows.length)}${where}, ${SORT_WORDS[state.sort]}.` : `No sessions${where}.`;
    }
    const left = rows.length - start - shown.length;
    if (more && moreRow) {
      moreRow.hidden = left <= 0;
      more.textContent = `Show ${Math.min(pageSize, left)} more (${formatCount(left)} left)`;
    }
    earlierRow.hidden = start === 0;
    if (before !== undefined && anchor) {
      const after = anchorTop(root, anchor);
      if (after !== undefined) scrollBy(0, after - before);
    }
  };

  /** A new state from the reader: a new history entry, the list from its start. */
  const change = (next: Partial<ListState>) => {
    state = { ...state, ...next };
    start = 0;
    count = pageSize;
    history.pushState(null, '', urlOf(state, defaults));
    void draw();
  };

  if (toggle) {
    toggle.hidden = false;
    toggle.addEventListener('click', (e) => {
      const group = (e.target as HTMLElement).closest<HTMLButtonElement>('button[data-group]')?.dataset.group as Grouping | undefined;
      if (group && group !== state.group) change({ group });
    });
  }
  if (sortSelect) {
    sortSelect.closest<HTMLElement>('[data-sort-control]')!.hidden = false;
    sortSelect.addEventListener('change', () => change({ sort: sortSelect.value as Sort }));
  }
  document.querySelector('.project-filter')?.addEventListener('click', (e) => {
    const link = (e.target as HTMLElement).closest<HTMLAnchorElement>('a[data-filter]');
    if (!link) return;
    e.preventDefault();
    change({ project: link.dataset.filter ?? '' });
  });
  if (projectSelect) {
    projectSelect.hidden = false;
    // The other projects come with the listing, when the reader reaches for the menu.
    const fill = async () => {
      if (projectSelect.options.length > 1) return;
      const linked = new Set([...document.querySelectorAll<HTMLAnchorElement>('.project-filter a[data-filter]')].map((a) => a.dataset.filter));
      for (const [slug, name] of (await load()).names) {
        if (!linked.has(slug)) projectSelect.add(new Option(name, slug));
      }
      showControls();
    };
    projectSelect.addEventListener('focus', () => void fill().catch(() => {}), { once: true });
    projectSelect.addEventListener('change', () => change({ project: projectSelect.value }));
    if (state.project) void fill().catch(() => {});
  }
  more?.addEventListener('click', () => {
    const last = root.querySelector<HTMLAnchorElement>('li.card:last-child a.card-title');
    count += pageSize;
    if (count > MAX_CARDS) {
      start += count - MAX_CARDS;
      count = MAX_CARDS;
    }
    void draw(last?.getAttribute('href') ?? undefined);
  });
  earlier.addEventListener('click', () => {
    const first = root.querySelector<HTMLAnchorElement>('li.card a.card-title');
    start = Math.max(0, start - pageSize);
    count = Math.min(MAX_CARDS, count + pageSize);
    void draw(first?.getAttribute('href') ?? undefined);
  });
  addEventListener('popstate', () => {
    state = readState(defaults, groupings);
    start = 0;
    count = pageSize;
    void draw();
  });

  void draw();
}

/** The state the address names; anything it does not name (or names wrongly) is the default. */
function readState(defaults: ListState, groupings: Grouping[]): ListState {
  const q = new URLSearchParams(location.search);
  const group = q.get('group') as Grouping | null;
  const sort = q.get('sort') as Sort | null;
  return {
    project: q.get('project') ?? defaults.project,
    group: group && groupings.includes(group) ? group : defaults.group,
    sort: sort && SORTS.includes(sort) ? sort : defaults.sort,
  };
}

/** The page's address for a state: only what differs from the default goes in the query. */
function urlOf(state: ListState, defaults: ListState): string {
  const q = new URLSearchParams();
  if (state.project !== defaults.project) q.set('project', state.project);
  if (state.group !== defaults.group) q.set('group', state.group);
  if (state.sort !== defaults.sort) q.set('sort', state.sort);
  const query = q.toString();
  return `${location.pathname}${query ? `?${query}` : ''}`;
}

function sameState(a: ListState, b: ListState): boolean {
  return a.project === b.project && a.group === b.group && a.sort === b.sort;
}

/** Every chunk of the listing, fetched side by side, joined in order (newest first). */
async function loadListing(base: string, chunks: number): Promise<Listing> {
  const parts = await Promise.all(
    Array.from({ length: chunks }, async (_, i) => {
      const res = await fetch(listingUrl(base, i + 1));
      if (!res.ok) throw new Error(`${res.status} ${res.url}`);
      return (await res.json()) as ListingChunk;
    }),
  );
  return { rows: parts.flatMap((p) => p.rows), names: new Map(parts[0]?.projects ?? []) };
}

/** The rows in the reader's order; the listing's own order (newest first, then slug) breaks ties. */
function sortRows(rows: CardRow[], sort: Sort): CardRow[] {
  if (sort === 'newest') return rows;
  if (sort === 'oldest') return [...rows].reverse();
  const key = sort === 'longest' ? (r: CardRow) => r.ms ?? 0 : (r: CardRow) => r.n;
  return rows.map((r, i) => ({ r, i })).sort((a, b) => key(b.r) - key(a.r) || a.i - b.i).map((x) => x.r);
}

interface CardContext {
  base: string;
  names: Map<string, string>;
  showProject: boolean;
  pricesAsOf: string;
}

/** The shown rows in groups (by project or day, in the order they first come; one list for "none"), each heading counting all its rows. */
function renderGroups(shown: CardRow[], all: CardRow[], grouping: Grouping, ctx: CardContext): HTMLElement[] {
  if (grouping === 'none') {
    const section = document.createElement('section');
    section.className = 'flat-group';
    section.append(cardList(shown, ctx));
    return [section];
  }
  const keyOf = grouping === 'project' ? (r: CardRow) => r.p : (r: CardRow) => sessionDay(r.i);
  const totals = new Map<string, number>();
  for (const r of all) totals.set(keyOf(r), (totals.get(keyOf(r)) ?? 0) + 1);
  const groups = new Map<string, CardRow[]>();
  for (const r of shown) groups.set(keyOf(r), [...(groups.get(keyOf(r)) ?? []), r]);
  return [...groups].map(([key, rows]) => {
    const section = document.createElement('section');
    const h = document.createElement('h2');
    if (grouping === 'project') {
      section.className = 'project-group';
      section.dataset.projectGroup = key;
      h.append(link(projectUrl(ctx.base, key), ctx.names.get(key) ?? key));
    } else {
      section.className = 'day-group';
      h.append(dayHeading(key || 'Date unknown'));
    }
    const small = document.createElement('small');
    small.textContent = ` ${countOf(totals.get(key) ?? rows.length, 'session')}`;
    h.append(small);
    section.append(h, cardList(rows, ctx));
    return section;
  });
}

function cardList(rows: CardRow[], ctx: CardContext): HTMLUListElement {
  const ul = document.createElement('ul');
  ul.className = 'session-list';
  ul.append(...rows.map((r) => card(r, ctx)));
  return ul;
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

function link(href: string, text: string, className?: string): HTMLAnchorElement {
  const a = el('a', className, text);
  a.href = href;
  return a;
}

/** ` · ` between the parts of a card's meta line, hidden from screen readers (as the built cards have it). */
function dot(): HTMLSpanElement {
  const s = el('span', undefined, ' · ');
  s.setAttribute('aria-hidden', 'true');
  return s;
}

/** The card of one session, as SessionList.astro builds it. */
function card(r: CardRow, ctx: CardContext): HTMLLIElement {
  const li = el('li', 'card');
  Object.assign(li.dataset, { project: r.p, day: sessionDay(r.i), sort: r.k });
  const meta = el('p', 'card-meta');
  if (ctx.showProject) meta.append(link(projectUrl(ctx.base, r.p), ctx.names.get(r.p) ?? r.p, 'card-project'), dot());
  if (r.wt) {
    const label = el('span', 'worktree-label');
    for (const [i, part] of r.wt.entries()) {
      label.dataset[part.label === 'worktree' ? 'worktree' : 'worktreeBranch'] = part.value;
      label.append(`${i > 0 ? ' · ' : ''}${part.label} `, el('code', undefined, part.value));
    }
    meta.append(label, dot());
  }
  const time = el('time', undefined, formatTimestamp(r.i) || 'time unknown');
  if (r.i) time.dateTime = r.i;
  meta.append(time);
  const duration = formatDuration(r.ms);
  if (duration) meta.append(dot(), el('span', undefined, duration));
  const facts = el('p', 'card-facts');
  facts.append(el('span', undefined, countOf(r.n, 'prompt')), el('span', undefined, countOf(r.c, 'tool call')));
  if (r.a > 0) facts.append(el('span', undefined, countOf(r.a, 'subagent')));
  if (r.$) {
    const cost = el('span', 'card-cost', r.$);
    cost.title = r.st ? `Stated: as the records give it; ≈ estimated at list prices of ${ctx.pricesAsOf}` : `Estimated at list prices of ${ctx.pricesAsOf}`;
    facts.append(cost);
  }
  for (const m of r.m) facts.append(el('span', 'chip', m));
  for (const [label, url] of r.r ?? []) {
    const badge = isWebUrl(url) ? link(url, '', 'pr-badge') : el('span', 'pr-badge');
    if (badge instanceof HTMLAnchorElement) badge.rel = 'nofollow noopener noreferrer';
    badge.title = `Pull request ${label}`;
    badge.dataset.pr = label.slice(label.lastIndexOf('#') + 1);
    const kind = el('span', 'pr-badge-kind', 'PR');
    kind.setAttribute('aria-hidden', 'true');
    badge.append(kind, ` ${label}`);
    facts.append(badge);
  }
  li.append(link(sessionUrl(ctx.base, r.s), r.t, 'card-title'), meta, facts);
  return li;
}

/** Where the card linking to `href` is on screen (its top), if it is drawn. */
function anchorTop(root: HTMLElement, href: string): number | undefined {
  const a = [...root.querySelectorAll<HTMLAnchorElement>('li.card a.card-title')].find((x) => x.getAttribute('href') === href);
  return a?.closest('li')?.getBoundingClientRect().top;
}

/** `2026-02-03` → `<time datetime="2026-02-03">Tue, 3 Feb 2026</time>` (the day in UTC, as the cards give it). */
function dayHeading(day: string): Node {
  const t = Date.parse(`${day}T00:00:00Z`);
  if (Number.isNaN(t)) return document.createTextNode(day);
  const time = document.createElement('time');
  time.dateTime = day;
  time.textContent = new Date(t).toLocaleDateString('en-GB', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
  return time;
}
