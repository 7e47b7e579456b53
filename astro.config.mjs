// @ts-check
import mdx from '@astrojs/mdx';
import { defineConfig } from 'astro/config';
import { pagefindIntegration } from './src/integrations/pagefind.ts';
import { astroCacheDir } from './src/lib/site/page-data.ts';
import { loadConfig } from './src/schemas/config.ts';

const config = loadConfig();

export default defineConfig({
  site: config.site,
  base: config.base,
  trailingSlash: 'always',
  build: { format: 'directory', concurrency: 4 },
  integrations: [mdx(), pagefindIntegration({ shardBytes: config.search.shardSizeMB * 1e6 })],
  cacheDir: astroCacheDir(process.cwd()),
  devToolbar: { enabled: false },
});
