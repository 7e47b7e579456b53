// @ts-check
import mdx from '@astrojs/mdx';
import { defineConfig } from 'astro/config';
import { join } from 'node:path';
import { sessionpress } from './src/integrations/sessionpress.ts';
import { astroCacheDir } from './src/lib/build/render-cache.ts';

// Site, base, the cache folder and the search index come from sessionpress.config.json,
// read and validated once by the integration.
export default defineConfig({
  trailingSlash: 'always',
  build: { format: 'directory', concurrency: 4 },
  integrations: [mdx(), sessionpress()],
  devToolbar: { enabled: false },
  // Astro 7.2+: a page whose `cacheKey` (from getStaticPaths) and module graph are unchanged since the
  // last build is copied from the cache folder instead of rendered again. The session pages give a key
  // (src/lib/build/page-key.ts); pages without one are rendered every time.
  experimental: { incrementalBuild: true },
  // Vite's dependency cache beside Astro's (not the shared node_modules/.vite): builds with different
  // cache folders (tests, the bench, a deploy) no longer invalidate each other's and re-optimise every time.
  vite: {
    cacheDir: join(astroCacheDir(process.cwd()), 'vite'),
    // The output folder is kept, so reused pages stay in place; src/integrations/out-dir.ts (added by
    // the sessionpress integration) removes whatever this build did not produce.
    build: { emptyOutDir: false },
  },
});
