import { fileURLToPath } from 'node:url';

/** One page of the site: its pattern below the prefix, and the file of the package that renders it. */
interface Page {
  pattern: string;
  file: string;
  notes?: boolean;
}

/** Every page Sessionpress adds to a site; src/routes/ holds their files. */
const PAGES: Page[] = [
  { pattern: '', file: 'index.astro' },
  { pattern: 'sessions/[...path]', file: 'sessions/[...path].astro' },
  { pattern: 'sessions/[...path]/index.md', file: 'sessions/[...path]/index.md.ts' },
  { pattern: 'sessions/[...path]/anchors.json', file: 'sessions/[...path]/anchors.json.ts' },
  { pattern: 'page/[page]', file: 'page/[page].astro' },
  { pattern: 'list/[chunk].json', file: 'list/[chunk].json.ts' },
  { pattern: 'projects/[project]', file: 'projects/[project].astro' },
  { pattern: 'projects/[project]/page/[page]', file: 'projects/[project]/page/[page].astro' },
  { pattern: 'search', file: 'search.astro' },
  { pattern: 'pull-requests', file: 'pull-requests.astro' },
  { pattern: 'pull-requests/[number]', file: 'pull-requests/[number].astro' },
  { pattern: 'insights', file: 'insights/index.astro' },
  { pattern: 'insights/[project]', file: 'insights/[project].astro' },
  { pattern: 'assets/[name]', file: 'assets/[name].ts' },
  { pattern: 'llms.txt', file: 'llms.txt.ts' },
  { pattern: 'notes', file: 'notes/index.astro', notes: true },
  { pattern: 'notes/[...slug]', file: 'notes/[...slug].astro', notes: true },
];

/**
 * The routes the integration injects: every page under `prefix` (`''` or
 * `'sessions/'`), the notes' pages only when the site publishes notes. Entry
 * points are absolute paths of the package's files, so they resolve whether
 * the project's root has the package in its node_modules (a host site) or not
 * (the command line's project, which lives in the cache folder).
 */
export function injectedRoutes(prefix: string, notes: boolean): Array<{ pattern: string; entrypoint: string }> {
  return PAGES.filter((p) => notes || !p.notes).map((p) => ({
    pattern: `/${prefix}${p.pattern}`.replace(/\/$/, '') || '/',
    entrypoint: fileURLToPath(new URL(`../routes/${p.file}`, import.meta.url)),
  }));
}
