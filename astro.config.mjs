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
});
