// @ts-check
import mdx from '@astrojs/mdx';
import { defineConfig } from 'astro/config';
import { sessionpress } from './src/integrations/sessionpress.ts';

// Site, base, the cache folder and the search index come from sessionpress.config.json,
// read and validated once by the integration.
export default defineConfig({
  trailingSlash: 'always',
  build: { format: 'directory', concurrency: 4 },
  integrations: [mdx(), sessionpress()],
  devToolbar: { enabled: false },
  // Astro 7.2+: a page whose `cacheKey` (from getStaticPaths) and module graph are unchanged since the
  // last build is copied from the cache folder instead of rendered again. The session pages give a key
  // (src/lib/site/page-keys.ts); pages without one are rendered every time.
  experimental: { incrementalBuild: true },
});
