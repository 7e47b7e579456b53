import { loadPagefind, renderResults } from './page.ts';

const FILTERS = ['project', 'model', 'tool', 'branch'];

/** The search page: pagefind with filters by project, model, tool and branch, and sorting by date. */
export async function initSearchPage(): Promise<void> {
  const input = document.querySelector<HTMLInputElement>('[data-search-page-input]');
  const sort = document.querySelector<HTMLSelectElement>('[data-search-sort]');
  const box = document.querySelector<HTMLElement>('[data-search-filters]');
  const list = document.querySelector<HTMLOListElement>('[data-search-page-results]');
  const status = document.querySelector<HTMLElement>('[data-search-page-status]');
  if (!input || !sort || !box || !list || !status) return;
  const pagefind = await loadPagefind();
  if (!pagefind) {
    status.textContent = 'Search needs a built site: run `npm run build` then `npm run preview` (it does not work in `npm run dev`).';
    return;
  }
  const available = await pagefind.filters();
  for (const name of FILTERS) {
    const values = Object.keys(available[name] ?? {}).sort();
    if (!values.length) continue;
    const label = document.createElement('label');
    label.textContent = `${name[0].toUpperCase()}${name.slice(1)} `;
    const select = document.createElement('select');
    select.dataset.filter = name;
    select.append(new Option('any', ''));
    for (const v of values) select.append(new Option(`${v} (${available[name][v]})`, v));
    label.append(select);
    box.append(label);
    select.addEventListener('change', run);
  }
  // Declared before the first run(): a ?q= link runs the search straight away, and
  // run() reading `seq` while it is still in its temporal dead zone would throw.
  let seq = 0;
  const params = new URLSearchParams(location.search);
  input.value = params.get('q') ?? '';
  input.addEventListener('input', run);
  sort.addEventListener('change', run);
  if (input.value) run();

  async function run(): Promise<void> {
    const mine = ++seq;
    const filters: Record<string, string> = {};
    for (const s of box!.querySelectorAll<HTMLSelectElement>('select[data-filter]')) if (s.value) filters[s.dataset.filter!] = s.value;
    const q = input!.value.trim();
    const [key, dir] = sort!.value.split(':');
    const opts: { filters: Record<string, string>; sort?: Record<string, 'asc' | 'desc'> } = { filters };
    if (dir === 'asc' || dir === 'desc') opts.sort = { [key]: dir };
    if (!q && !Object.keys(filters).length) {
      list!.replaceChildren();
      status!.textContent = '';
      return;
    }
    const res = await pagefind!.search(q || null, opts);
    if (mine !== seq) return;
    await renderResults(list!, res.results, 30, () => mine === seq);
    if (mine !== seq) return;
    // The count is announced once the results are there to read.
    status!.textContent = `${res.results.length} session${res.results.length === 1 ? '' : 's'} match`;
  }
}
