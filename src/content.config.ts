import { defineCollection } from 'astro:content';
import { resolve } from 'node:path';
import { glob, type Loader } from 'astro/loaders';
import { existsSync, readdirSync } from 'node:fs';
import { z } from 'astro/zod';
import { sessionsLoader } from './loaders/sessions-loader.js';
import config from 'virtual:sessionpress/config';
import { sessionEntrySchema } from './schemas/session.js';

const sessions = defineCollection({
  loader: sessionsLoader(config),
  schema: sessionEntrySchema,
});

const notes = defineCollection({
  // SESSIONPRESS_NOTES lets tests build a notes folder of their own without touching content/notes.
  // Notes under samples/ quote the sample sessions: built from any other source, their embeds
  // could not resolve and would fail the build, so they are left out.
  loader: notesLoader(config.sourceDir === resolve('content/sessions'), process.env.SESSIONPRESS_NOTES || './content/notes'),
  schema: z.object({
    title: z.string(),
    description: z.string().optional(),
    date: z.coerce.date().optional(),
  }),
});

/** A placeholder id set and deleted again at once (see `notesLoader`). */
const NO_NOTES = '__sessionpress-no-notes__';

/**
 * The glob loader for `content/notes`, except when there is no note: then the
 * collection is left existing but empty, so a site without notes builds
 * without Astro warning on every page that lists notes (once per page, and
 * once more from the glob loader) that the collection "does not exist or is
 * empty". One info line says where notes would go.
 */
function notesLoader(withSamples: boolean, base: string): Loader {
  const inner = glob({ pattern: withSamples ? '**/*.{md,mdx}' : ['**/*.{md,mdx}', '!samples/**'], base });
  return {
    name: 'sessionpress-notes',
    async load(context) {
      if (hasNotes(resolve(base), withSamples)) return inner.load(context);
      context.store.clear();
      // Setting then deleting an entry leaves the collection known to the store, and empty.
      context.store.set({ id: NO_NOTES, data: {} });
      context.store.delete(NO_NOTES);
      context.logger.info(`no notes (add Markdown or MDX files to ${base} to publish some)`);
    },
  };
}

/** Whether the notes folder holds a Markdown or MDX file the glob above would load. */
function hasNotes(dir: string, withSamples: boolean): boolean {
  if (!existsSync(dir)) return false;
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).some(
    (f) => /\.mdx?$/.test(f) && (withSamples || !/^samples[\\/]/.test(f)),
  );
}

export const collections = { sessions, notes };
