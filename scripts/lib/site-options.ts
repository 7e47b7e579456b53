/**
 * The options `sessionpress build|dev|preview` share, apart from the project
 * they build (site-project.ts): light to load, so that a rebuild with nothing
 * changed answers before the integration's code is loaded.
 */
export const DEFAULT_OUT = 'sessionpress-site';
export const DEFAULT_CACHE = '.sessionpress-cache';

/** The options build, dev and preview share, in `parseCommandLine`'s shape. */
export const SITE_OPTIONS = {
  out: { type: 'string', short: 'o' },
  cache: { type: 'string' },
  config: { type: 'string' },
} as const;

/** Their lines of the usage text. */
export const SITE_USAGE = `  --out, -o DIR   the site's folder (default: ./${DEFAULT_OUT})
  --cache DIR     what a rebuild reuses, and the project Astro builds (default: ./${DEFAULT_CACHE})
  --config FILE   a Sessionpress config (default: ./sessionpress.config.json if present)`;
