import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';

/**
 * Builds the pagefind search index after Astro has written the site, through
 * pagefind's Node API. Every response's `errors` is checked: an index that
 * failed to build must fail the build, not ship a silently empty search.
 */
export function pagefindIntegration(): AstroIntegration {
  return {
    name: 'sessionpress-pagefind',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        const started = performance.now();
        const pagefind = await import('pagefind');
        const outDir = fileURLToPath(dir);
        const { index, errors } = await pagefind.createIndex({
          // Only the marked content of each page is indexed; chrome and abandoned branches are not.
          excludeSelectors: ['[data-branch="abandoned"]', 'nav', 'header.site', 'footer.site'],
        });
        try {
          if (!index || errors.length) throw new Error(`pagefind could not start: ${errors.join('; ')}`);
          const added = await index.addDirectory({ path: outDir });
          if (added.errors.length) throw new Error(`pagefind failed to index ${outDir}: ${added.errors.join('; ')}`);
          const written = await index.writeFiles({ outputPath: `${outDir.replace(/\/$/, '')}/pagefind` });
          if (written.errors.length) throw new Error(`pagefind failed to write its index: ${written.errors.join('; ')}`);
          logger.info(`indexed ${added.page_count} pages in ${((performance.now() - started) / 1000).toFixed(1)}s`);
        } finally {
          await pagefind.close();
        }
      },
    },
  };
}
