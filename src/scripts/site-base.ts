import { base } from 'astro:config/client';
import { withTrailingSlash } from '../lib/site/urls';

/**
 * The site's base path, always ending in `/` (`/` or `/my-repo/`), read from
 * the Astro config itself. Not `import.meta.env.BASE_URL`: a `BASE_URL`
 * variable in the build's environment (vitest sets one, so do some CI
 * systems) silently replaces that value in page links while assets keep the
 * configured base, which breaks every link of a project site.
 */
export const siteBase: string = withTrailingSlash(base);
