// @ts-check
import mdx from '@astrojs/mdx';
import { defineConfig } from 'astro/config';
import sessionpress from 'sessionpress';

// The template: a Sessionpress site of its own. Site, base, the source and the search settings come
// from sessionpress.config.json (or SESSIONPRESS_* variables), read and validated once by the integration,
// which also sets what a standalone site needs (see `standaloneSettings` in src/integrations/sessionpress.ts).
export default defineConfig({
  integrations: [mdx(), sessionpress({ standalone: true, notes: 'content/notes' })],
});
