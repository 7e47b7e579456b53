/**
 * Progressive enhancement of a session list (index and project pages): group
 * the cards by day instead of by project (the choice is remembered), and
 * filter by project without a jump. Without JavaScript the page still groups
 * by project and its filter links work through CSS `:target`.
 */

const GROUP_KEY = 'sessionpress-group';
type Grouping = 'project' | 'day';

export function initSessionList(): void {
  const groups = document.querySelector<HTMLElement>('[data-session-groups]');
  if (!groups) return;
  // From here on the script filters; the CSS :target rule steps aside.
  groups.classList.add('js-filter');
  const days = buildDayView(groups);
  const toggle = document.querySelector<HTMLElement>('[data-group-toggle]');
  let filter = filterFromHash(groups);

  const apply = (grouping: Grouping) => {
    groups.hidden = grouping === 'day';
    days.hidden = grouping !== 'day';
    for (const b of toggle?.querySelectorAll<HTMLButtonElement>('button[data-group]') ?? []) b.setAttribute('aria-pressed', String(b.dataset.group === grouping));
    applyFilter(groups, days, filter);
  };

  if (toggle) {
    toggle.hidden = false;
    toggle.addEventListener('click', (e) => {
      const grouping = (e.target as HTMLElement).closest<HTMLButtonElement>('button[data-group]')?.dataset.group as Grouping | undefined;
      if (!grouping) return;
      try {
        localStorage.setItem(GROUP_KEY, grouping);
      } catch {
        // Storage refused (private window): the choice lasts for this page only.
      }
      apply(grouping);
    });
  }

  document.querySelector('.project-filter')?.addEventListener('click', (e) => {
    const link = (e.target as HTMLElement).closest<HTMLAnchorElement>('a[data-filter]');
    if (!link) return;
    e.preventDefault();
    filter = link.dataset.filter ?? '';
    history.pushState(null, '', link.getAttribute('href'));
    applyFilter(groups, days, filter);
  });
  addEventListener('popstate', () => {
    filter = filterFromHash(groups);
    applyFilter(groups, days, filter);
  });

  apply(storedGrouping());
}

function storedGrouping(): Grouping {
  try {
    return localStorage.getItem(GROUP_KEY) === 'day' ? 'day' : 'project';
  } catch {
    return 'project';
  }
}

/** The project a `#project-<slug>` hash names, if the page has that section. */
function filterFromHash(groups: HTMLElement): string {
  const id = decodeURIComponent(location.hash.slice(1));
  const section = id ? groups.querySelector<HTMLElement>(`[data-project-group]#${CSS.escape(id)}`) : null;
  return section?.dataset.projectGroup ?? '';
}

/** A copy of the cards grouped by the day each session started, newest first, placed after the project view. */
function buildDayView(groups: HTMLElement): HTMLElement {
  const view = document.createElement('div');
  view.className = 'session-groups day-view';
  view.hidden = true;
  const cards = [...groups.querySelectorAll<HTMLElement>('li.card')].sort((a, b) => (b.dataset.sort ?? '').localeCompare(a.dataset.sort ?? ''));
  const byDay = new Map<string, HTMLElement[]>();
  for (const card of cards) {
    const day = card.dataset.day || 'Date unknown';
    byDay.set(day, [...(byDay.get(day) ?? []), card]);
  }
  for (const [day, list] of byDay) {
    const section = document.createElement('section');
    section.className = 'day-group';
    const h = document.createElement('h2');
    h.append(dayHeading(day));
    const count = document.createElement('small');
    count.textContent = ` ${list.length} session${list.length === 1 ? '' : 's'}`;
    h.append(count);
    const ul = document.createElement('ul');
    ul.className = 'session-list';
    for (const card of list) ul.append(card.cloneNode(true));
    section.append(h, ul);
    view.append(section);
  }
  groups.after(view);
  return view;
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

/** Shows only the cards of one project (all with an empty filter), in both views, and marks the current filter link. */
function applyFilter(groups: HTMLElement, days: HTMLElement, project: string): void {
  for (const section of groups.querySelectorAll<HTMLElement>('[data-project-group]')) section.hidden = !!project && section.dataset.projectGroup !== project;
  for (const section of days.querySelectorAll<HTMLElement>('.day-group')) {
    let shown = 0;
    for (const card of section.querySelectorAll<HTMLElement>('li.card')) {
      card.hidden = !!project && card.dataset.project !== project;
      if (!card.hidden) shown++;
    }
    section.hidden = shown === 0;
  }
  for (const link of document.querySelectorAll<HTMLAnchorElement>('.project-filter a[data-filter]')) {
    if ((link.dataset.filter ?? '') === project) link.setAttribute('aria-current', 'true');
    else link.removeAttribute('aria-current');
  }
}
