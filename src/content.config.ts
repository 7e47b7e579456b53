import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { z } from 'astro/zod';
import { sessionsLoader } from './loaders/sessions-loader.js';
import { loadConfig } from './schemas/config.js';
import { sessionEntrySchema } from './schemas/session.js';

const config = loadConfig();

const sessions = defineCollection({
  loader: sessionsLoader(config),
  schema: sessionEntrySchema,
});

const notes = defineCollection({
  loader: glob({ pattern: '**/*.{md,mdx}', base: './content/notes' }),
  schema: z.object({
    title: z.string(),
    description: z.string().optional(),
    date: z.coerce.date().optional(),
  }),
});

export const collections = { sessions, notes };
