import type { SessionEntry } from '../../schemas/session.js';

/**
 * What a session page after the first shows of its entry: only what stays as
 * the session grows.
 *
 * Claude Code appends to a session, and every append changes its running
 * totals (prompts, messages, tool calls and their counts, tokens and cost,
 * the last timestamp, the number of pages, the problems found). Page 1 shows
 * them all. A later page shows the session's name and lasting facts, its own
 * transcript and prompts, and the link to the next page when there is one;
 * so an append leaves the pages before the one it lands on unchanged, and an
 * incremental build copies them instead of rendering them again
 * (`laterPageKey`, src/lib/build/page-key.ts).
 *
 * The session page renders a later page from this object alone, and its key
 * is this object's digest: whatever the page shows of its entry is in the key
 * by construction. The running fields keep their types with nothing in them
 * (zero, empty), and the templates do not show them on a later page.
 *
 * @param data the session's stored entry
 * @param page a 1-based page number, 2 or more
 */
export function laterPageData(data: SessionEntry, page: number): SessionEntry {
  const f = data.facts;
  return {
    sessionId: data.sessionId,
    slug: data.slug,
    projectSlug: data.projectSlug,
    projectName: data.projectName,
    projectPath: data.projectPath,
    ...(data.checkout ? { checkout: data.checkout } : {}),
    title: data.title,
    titleSource: data.titleSource,
    facts: {
      projectPath: f.projectPath,
      projectName: f.projectName,
      ...(f.firstTimestamp !== undefined ? { firstTimestamp: f.firstTimestamp } : {}),
      versions: f.versions,
      models: f.models,
      gitBranches: f.gitBranches,
      promptCount: 0,
      messageCount: 0,
      toolCallCount: 0,
      // The tools used, for search's filter; how often each was used is a running total.
      toolCounts: Object.fromEntries(Object.keys(f.toolCounts).sort().map((tool) => [tool, 0])),
      usage: [],
      pullRequests: f.pullRequests,
      ...(f.worktree ? { worktree: f.worktree } : {}),
      ...(f.agentName !== undefined ? { agentName: f.agentName } : {}),
      tags: f.tags,
      ...(f.sdk ? { sdk: f.sdk } : {}),
      ...(f.background !== undefined ? { background: f.background } : {}),
    },
    // Whether there is a next page, and nothing of how many there are.
    pageCount: page < data.pageCount ? page + 1 : page,
    hasAbandoned: data.hasAbandoned,
    abandonedCount: data.abandonedCount,
    assets: [],
    cacheKey: '',
    diagnostics: { total: 0, badLines: 0, sourceFile: data.diagnostics.sourceFile },
    redactions: [],
    subagentCount: 0,
    hiddenCounts: {},
    unknownMetadata: {},
  };
}
