import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
// Imported up front: a dynamic import inside a hook goes through Vite's module runner, which
// Astro may already have closed by the time `astro:build:done` runs.
import * as pagefind from 'pagefind';
import { copyTree, listFiles, mapLimit } from '../lib/fs/parallel.js';

/**
 * Builds the pagefind search index after Astro has written the site, through
 * pagefind's Node API. Every response's `errors` is checked: an index that
 * failed to build fails the build instead of shipping a silently empty search.
 *
 * pagefind has no incremental mode, so the index of the last build is kept in
 * Astro's cache folder with a digest of every page it indexed; when a rebuild
 * produced the very same pages, that index is copied back instead of rebuilt.
 */
export function pagefindIntegration(): AstroIntegration {
  let cacheDir = '';
  return {
    name: 'sessionpress-pagefind',
    hooks: {
      'astro:config:done': ({ config }) => {
        cacheDir = join(fileURLToPath(config.cacheDir), 'sessionpress-pagefind');
      },
      'astro:build:done': async ({ dir, logger }) => {
        const started = performance.now();
        const outDir = fileURLToPath(dir).replace(/\/$/, '');
        const target = join(outDir, 'pagefind');
        const digest = await htmlDigest(outDir);
        const cached = join(cacheDir, digest);
        if (existsSync(join(cached, 'pagefind-entry.json'))) {
          await copyTree(cached, target);
          logger.info(`pages unchanged; reused the search index in ${((performance.now() - started) / 1000).toFixed(1)}s`);
          return;
        }
        logger.info('building the search index…');
        const { index, errors } = await pagefind.createIndex({
          // Only the marked content of each page is indexed; chrome and abandoned branches are not.
          excludeSelectors: ['[data-branch="abandoned"]', 'nav', 'header.site', 'footer.site'],
        });
        try {
          if (!index || errors.length) throw new Error(`pagefind could not start: ${errors.join('; ')}`);
          const added = await index.addDirectory({ path: outDir });
          if (added.errors.length) throw new Error(`pagefind failed to index ${outDir}: ${added.errors.join('; ')}`);
          const written = await index.writeFiles({ outputPath: target });
          if (written.errors.length) throw new Error(`pagefind failed to write its index: ${written.errors.join('; ')}`);
          logger.info(`indexed ${added.page_count} pages in ${((performance.now() - started) / 1000).toFixed(1)}s`);
        } finally {
          await pagefind.close();
        }
        await rm(cacheDir, { recursive: true, force: true });
        await copyTree(target, cached);
      },
    },
  };
}

/** A digest of pagefind's version and every HTML page of the site, by path and content, in a stable order. */
async function htmlDigest(outDir: string): Promise<string> {
  const hash = createHash('sha256');
  // pagefind exports only its entry point; its package.json sits one folder above lib/.
  const entry = fileURLToPath(import.meta.resolve('pagefind'));
  hash.update(JSON.parse(await readFile(join(dirname(entry), '..', 'package.json'), 'utf8')).version);
  const files = await listFiles(outDir, (name) => name.endsWith('.html'));
  // Pages are read and hashed many at a time, then combined in path order.
  const digests = await mapLimit(files, 16, async (f) => createHash('sha256').update(await readFile(f)).digest('hex'));
  files.forEach((f, i) => hash.update(f.slice(outDir.length)).update('\0').update(digests[i]));
  return hash.digest('hex').slice(0, 24);
}
