/**
 * Blame for a pull request page of the site: the build's repository
 * (`repo` in the config), the pull request's commits found in it
 * (pull-request-commits.ts), and its sessions opened the one way, by id, with
 * links to the site's own pages. Never throws: what it cannot do is said in
 * `problem`, for the page to show.
 */
import { openSessionById } from '../build/open-session.js';
import type { RedactionOptions } from '../redact/types.js';
import { blame, type BlameReport, type BlameSessionInput } from './blame.js';
import { pullRequestCommits, type PullRequestCommits } from './pull-request-commits.js';

export interface SitePullRequestBlame {
  report?: BlameReport;
  commits?: PullRequestCommits;
  /** Why there is no report. */
  problem?: string;
}

/** Blames pull request `number` of `repo` on the given sessions of the site. */
export async function pullRequestBlame(options: {
  repo: string;
  number: number;
  sourceDir: string;
  sessions: Array<{ sessionId: string; slug: string }>;
  redaction: Partial<RedactionOptions>;
  /** The pages' base (`siteBase`): links stay on the site. */
  base: string;
  pageSize: number;
}): Promise<SitePullRequestBlame> {
  try {
    const commits = await pullRequestCommits(options.repo, options.number);
    if (!commits) return { problem: `the repository's checkout has no commits of pull request #${options.number} (no refs/pull/${options.number}/head, and no merge or squash commit naming it)` };
    const inputs: BlameSessionInput[] = [];
    for (const s of options.sessions) {
      try {
        const opened = await openSessionById(options.sourceDir, s.sessionId, options.redaction);
        inputs.push({ session: opened.result.session, entryId: s.slug, reasons: ['pr-link'] });
      } catch {
        // A session the source no longer has a page for blames nothing; the others still do.
      }
    }
    const report = await blame({ repo: options.repo, base: commits.base, head: commits.head, links: { base: options.base, prefix: '', pageSize: options.pageSize }, redaction: options.redaction, sessionFolders: [options.sourceDir] }, inputs);
    return { report, commits };
  } catch (e) {
    return { problem: `blame failed: ${(e as Error).message}` };
  }
}
