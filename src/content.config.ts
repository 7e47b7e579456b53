import { defineCollection } from 'astro:content';
import { resolve } from 'node:path';
import { glob } from 'astro/loaders';
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
  loader: glob({
    pattern: config.sourceDir === resolve('content/sessions') ? '**/*.{md,mdx}' : ['**/*.{md,mdx}', '!samples/**'],
    base: process.env.SESSIONPRESS_NOTES || './content/notes',
  }),
  schema: z.object({
    title: z.string(),
    description: z.string().optional(),
    date: z.coerce.date().optional(),
  }),
});

export const collections = { sessions, notes };
