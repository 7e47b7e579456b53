/**
 * `sessionpress/content`: the collections a site declares in its
 * `src/content.config.ts`, beside its own, e.g.
 * `export const collections = { docs: …, sessions: sessionsCollection() }`.
 * Both read the settings the integration validated, from
 * `virtual:sessionpress/config`: add `sessionpress()` to the Astro config first.
 */
// Astro's own declaration of `astro:content` re-exports it from here. Through `astro:content` the content
// config's load (on every build, before any session is read) also ran Astro's content and server runtimes
// through Vite's module runner: 0.25 s of each build (four builds each way, one session changed).
import { defineCollection } from 'astro/content/config';
import { existsSync, readdirSync } from 'node:fs';
import { glob, type Loader } from 'astro/loaders';
import { z } from 'astro/zod';
import config from 'virtual:sessionpress/config';
import { keepCollectionKnown } from './loaders/empty-collection.js';
import { sessionsLoader } from './loaders/sessions-loader.js';
import { sessionEntrySchema } from './schemas/session.js';

/** The `sessions` collection: one entry per session of the configured source, redacted and rendered. */
export function sessionsCollection() {
  return defineCollection({ loader: sessionsLoader(config), schema: sessionEntrySchema });
}

/** What a note's front matter holds. */
export const noteSchema = z.object({
  title: z.string(),
  description: z.string().optional(),
  date: z.coerce.date().optional(),
});

/**
 * The `notes` collection: the Markdown and MDX files of the integration's
 * `notes` folder, published under `<prefix>notes/`. `exclude` leaves out
 * globs below that folder.
 */
export function notesCollection(options: { exclude?: string[] } = {}) {
  return defineCollection({ loader: notesLoader(config.notesDir, options.exclude ?? []), schema: noteSchema });
}

/**
 * The glob loader for the notes folder, except when there is no note: then the
 * collection is left existing but empty, so a site without notes builds
 * without Astro warning on every page that lists notes (once per page, and
 * once more from the glob loader) that the collection "does not exist or is
 * empty". One info line says where notes would go.
 */
function notesLoader(dir: string | undefined, exclude: string[]): Loader {
  const pattern = exclude.length ? ['**/*.{md,mdx}', ...exclude.map((g) => `!${g}`)] : '**/*.{md,mdx}';
  return {
    name: 'sessionpress-notes',
    async load(context) {
      if (dir && hasNotes(dir, exclude)) return glob({ pattern, base: dir }).load(context);
      context.store.clear();
      keepCollectionKnown(context.store);
      context.logger.info(dir ? `no notes (add Markdown or MDX files to ${dir} to publish some)` : 'no notes folder (the `notes` option of sessionpress())');
    },
  };
}

/** Whether the notes folder holds a Markdown or MDX file the glob above would load (`exclude`: folders, as `name/**`). */
function hasNotes(dir: string, exclude: string[]): boolean {
  if (!existsSync(dir)) return false;
  const skipped = exclude.map((g) => g.replace(/\/\*\*$/, '/'));
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).some((f) => /\.mdx?$/.test(f) && !skipped.some((s) => f.split('\\').join('/').startsWith(s)));
}
