import { z } from 'astro/zod';
import { DIAGNOSTIC_CODES } from '../lib/diagnostics.js';

const diagnosticSchema = z.object({ file: z.string(), line: z.number().int(), code: z.enum(DIAGNOSTIC_CODES), reason: z.string() });

const usageSchema = z.object({
  model: z.string(),
  messages: z.number(),
  inputTokens: z.number(),
  outputTokens: z.number(),
  cacheCreationTokens: z.number(),
  cacheReadTokens: z.number(),
});

/** Facts shown in a session's header and used for search filters. */
export const sessionFactsSchema = z.object({
  projectPath: z.string(),
  projectName: z.string(),
  firstTimestamp: z.string().optional(),
  lastTimestamp: z.string().optional(),
  durationMs: z.number().optional(),
  versions: z.array(z.string()),
  models: z.array(z.string()),
  gitBranches: z.array(z.string()),
  promptCount: z.number().int(),
  messageCount: z.number().int(),
  toolCallCount: z.number().int(),
  toolCounts: z.record(z.string(), z.number()),
  usage: z.array(usageSchema),
});

/** One entry of the `sessions` collection, as the loader stores it. */
export const sessionEntrySchema = z.object({
  sessionId: z.string(),
  slug: z.string().regex(/^[a-z0-9-]+\/[A-Za-z0-9_-]+$/),
  projectSlug: z.string(),
  projectName: z.string(),
  projectPath: z.string(),
  title: z.string(),
  titleSource: z.string(),
  facts: sessionFactsSchema,
  toc: z.array(z.object({ n: z.number().int(), uuid: z.string(), text: z.string(), page: z.number().int() })),
  pageCount: z.number().int().min(1),
  anchors: z.record(z.string(), z.number().int()),
  hasAbandoned: z.boolean(),
  abandonedCount: z.number().int(),
  assets: z.array(z.object({ name: z.string(), mediaType: z.string() })),
  cacheKey: z.string(),
  diagnostics: z.object({ total: z.number().int(), badLines: z.number().int(), sourceFile: z.string(), items: z.array(diagnosticSchema) }),
  redactions: z.array(z.object({ rule: z.string(), count: z.number().int() })),
  subagentCount: z.number().int(),
});

export type SessionEntry = z.infer<typeof sessionEntrySchema>;
