// @ts-check
import mdx from '@astrojs/mdx';
import { defineConfig } from 'astro/config';
import { pagefindIntegration } from './src/integrations/pagefind.ts';
import { loadConfig } from './src/schemas/config.ts';

const config = loadConfig();

export default defineConfig({
  site: config.site,
  base: config.base,
  trailingSlash: 'always',
  build: { format: 'directory' },
  integrations: [mdx(), pagefindIntegration()],
  devToolbar: { enabled: false },
});
