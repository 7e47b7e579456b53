import { z } from 'astro/zod';

const usageSchema = z.object({
  model: z.string(),
  messages: z.number(),
  inputTokens: z.number(),
  outputTokens: z.number(),
  cacheCreationTokens: z.number(),
  cacheReadTokens: z.number(),
  cacheCreation1hTokens: z.number().optional(),
  thinkingTokens: z.number().optional(),
  fastMessages: z.number().optional(),
  provider: z.string().optional(),
  statedCost: z.number().optional(),
  byokMessages: z.number().optional(),
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
  pullRequests: z.array(z.object({ number: z.number().int(), url: z.string(), repository: z.string().optional() })).default([]),
  worktree: z.object({ path: z.string().optional(), branch: z.string().optional(), name: z.string().optional(), enteredFrom: z.string().optional() }).optional(),
  agentName: z.string().optional(),
  tags: z.array(z.string()).default([]),
  sdk: z.object({ entrypoint: z.string().optional() }).optional(),
  background: z.boolean().optional(),
  recordedCost: z.object({ totalCostUSD: z.number(), linesAdded: z.number().optional(), linesRemoved: z.number().optional(), models: z.array(z.string()).optional() }).optional(),
  cwdChanges: z.number().int().optional(),
});

/** One entry of the `sessions` collection, as the loader stores it. */
export const sessionEntrySchema = z.object({
  sessionId: z.string(),
  slug: z.string().regex(/^[a-z0-9-]+\/[A-Za-z0-9_-]+$/),
  /**
   * The project the session is listed under: its folder's, or for a session started in a git worktree, its
   * repository's (src/lib/site/session-project.ts). Its URL keeps its folder's slug (`slug`).
   */
  projectSlug: z.string(),
  projectName: z.string(),
  projectPath: z.string(),
  /** The git worktree the session ran in and its branch, for the labels of lists and the header. */
  checkout: z.object({ worktree: z.string().optional(), branch: z.string().optional() }).optional(),
  title: z.string(),
  titleSource: z.string(),
  facts: sessionFactsSchema,
  // The overview's prompts and lists and the problems themselves are not here: they are kept with the
  // session's render and read by its own pages (`SessionDetails`, src/lib/build/render-cache.ts).
  pageCount: z.number().int().min(1),
  /**
   * For a session of more than one page: a digest per page of what its render shows on it
   * (`RenderedSession.pageKeys`). A page after the first is keyed by its own (src/lib/build/page-key.ts).
   */
  pageKeys: z.array(z.string()).optional(),
  /** Where page 1 forwards `#m-` and `#t-` links it does not hold (src/lib/site/anchor-map.ts); only for sessions of more than one page. */
  anchorMap: z.object({ keyLength: z.number().int().min(1), pages: z.array(z.string()) }).optional(),
  /** The map is too large for page 1 and the store: it is a file beside page 1 (`anchors.json`), fetched only to forward a link. */
  anchorMapFile: z.boolean().optional(),
  hasAbandoned: z.boolean(),
  abandonedCount: z.number().int(),
  assets: z.array(z.object({ name: z.string(), mediaType: z.string() })),
  cacheKey: z.string(),
  /** How many problems reading the session found (each is in its `SessionDetails` and the problems file). */
  diagnostics: z.object({ total: z.number().int(), badLines: z.number().int(), sourceFile: z.string() }),
  redactions: z.array(z.object({ rule: z.string(), count: z.number().int() })),
  subagentCount: z.number().int(),
  /** Known records read but not shown, by kind (`hook results`, `mode changes`): for the build summary. */
  hiddenCounts: z.record(z.string(), z.number().int()).default({}),
  /** Lines of entry types this version does not know with no message and no uuid (inert metadata), by type: for the build summary. */
  unknownMetadata: z.record(z.string(), z.number().int()).default({}),
});

export type SessionEntry = z.infer<typeof sessionEntrySchema>;
