/**
 * Pull requests that sessions opened or updated (Claude Code 2.1.x writes a
 * `pr-link` line for each), grouped so a page or a script can list each PR
 * with the sessions that touched it. Pure: works on stored entries and on
 * freshly opened sessions alike.
 */

/** A PR as a session's facts record it. */
export interface PullRequestRef {
  number: number;
  url: string;
  repository?: string;
}

/** What grouping needs of a session. */
export interface SessionWithPullRequests {
  facts: { pullRequests?: PullRequestRef[]; firstTimestamp?: string; lastTimestamp?: string };
}

export interface PullRequestGroup<T> {
  /** `owner/repo#12`, or `#12` when the repository is unknown. */
  label: string;
  number: number;
  url: string;
  repository?: string;
  /** Sessions that touched it, newest first. */
  sessions: T[];
  /** Last activity of its newest session (ISO), for ordering. */
  lastActivity: string;
}

/** The PR's label: `owner/repo#12`, or `#12`. */
export function pullRequestLabel(pr: PullRequestRef): string {
  return `${pr.repository ?? ''}#${pr.number}`;
}

/** One key per PR: its URL without a trailing slash, lowercased host and path. */
function keyOf(pr: PullRequestRef): string {
  return pr.url.replace(/\/+$/, '').toLowerCase();
}

function activityOf(s: SessionWithPullRequests): string {
  return s.facts.lastTimestamp ?? s.facts.firstTimestamp ?? '';
}

/**
 * Each PR with the sessions that touched it, sessions newest first and PRs by
 * their newest session (ties by label, so the order is deterministic).
 */
export function groupByPullRequest<T>(items: T[], facts: (item: T) => SessionWithPullRequests['facts']): Array<PullRequestGroup<T>> {
  const groups = new Map<string, PullRequestGroup<T>>();
  for (const item of items) {
    for (const pr of facts(item).pullRequests ?? []) {
      const key = keyOf(pr);
      let g = groups.get(key);
      if (!g) {
        g = { label: pullRequestLabel(pr), number: pr.number, url: pr.url, repository: pr.repository, sessions: [], lastActivity: '' };
        groups.set(key, g);
      }
      if (!g.sessions.includes(item)) g.sessions.push(item);
    }
  }
  for (const g of groups.values()) {
    g.sessions.sort((a, b) => activityOf({ facts: facts(b) }).localeCompare(activityOf({ facts: facts(a) })));
    g.lastActivity = activityOf({ facts: facts(g.sessions[0]) });
  }
  return [...groups.values()].sort((a, b) => b.lastActivity.localeCompare(a.lastActivity) || a.label.localeCompare(b.label));
}

/**
 * Whether a PR matches what a user typed: a number (`12`, `#12`), a label
 * (`owner/repo#12`) or a URL. A URL matches its PR even when redaction changed
 * part of the stored one (e.g. a username in the owner): then number and, when
 * known, repository decide.
 */
export function matchesPullRequest(pr: PullRequestRef, query: string): boolean {
  const q = query.trim();
  const bare = /^#?(\d+)$/.exec(q);
  if (bare) return pr.number === Number(bare[1]);
  const label = /^([^\s#/]+\/[^\s#/]+)#(\d+)$/.exec(q);
  if (label) return pr.number === Number(label[2]) && (pr.repository ?? '').toLowerCase() === label[1].toLowerCase();
  if (/^https?:\/\//i.test(q)) {
    if (keyOf({ number: 0, url: q }) === keyOf(pr)) return true;
    const m = /^https?:\/\/[^/]+\/([^/]+\/[^/]+)\/pulls?\/(\d+)/i.exec(q);
    if (!m || pr.number !== Number(m[2])) return false;
    return !pr.repository || pr.repository.toLowerCase() === m[1].toLowerCase() || pr.repository.includes('[REDACTED') || pr.url.includes('[REDACTED');
  }
  return false;
}
