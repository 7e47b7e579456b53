import { base } from 'astro:config/client';
import config from 'virtual:sessionpress/config';
import { pagesBase } from '../lib/site/urls';

/**
 * The base of Sessionpress's pages, always ending in `/` (`/`, `/my-repo/`,
 * or `/my-repo/sessions/` under a prefix in a host site): the site's base read
 * from the Astro config itself, then the integration's prefix. Not
 * `import.meta.env.BASE_URL`: a `BASE_URL` variable in the build's environment
 * (vitest sets one, so do some CI systems) silently replaces that value in
 * page links while assets keep the configured base, which breaks every link of
 * a project site. Server-side only: the config holds local paths.
 */
export const siteBase: string = pagesBase(base, config.prefix);
