/**
 * `sessionpress pr-comment --repo OWNER/NAME --pr N [--source DIR] [--dry-run]`
 *
 * Finds the sessions of a pull request (a `pr-link` line naming it, or files
 * of theirs it adds or changes under the source folder) and keeps one comment
 * on it up to date: created on the first run, updated on every later one (found
 * by its hidden marker). Everything is redacted, and the body is audited with
 * the same scanner as `sessionpress audit` before it is sent, allow-list
 * ignored: a body with a finding is not posted. Reads GITHUB_TOKEN and
 * GITHUB_API_URL (GitHub Enterprise).
 */
import { parseCommandLine } from './lib/cli.js';
import { commentBody, isOurComment, type CommentSession } from './lib/pr-comment/body.js';
import { findPullRequestSessions, repositoryRoot, type FoundSession } from './lib/pr-comment/find-sessions.js';
import { blame } from '../src/lib/blame/blame.js';
import { GitError } from '../src/lib/blame/git.js';
import { blameSummaryMarkdown } from './lib/pr-comment/blame-summary.js';
import { createGithubClient, GithubError, pullRequestApi, type IssueComment, type PullRequest } from './lib/pr-comment/github.js';
import { describeSample } from './audit.js';
import { GITHUB_COMMENT_LIMIT } from '../src/lib/export/markdown.js';
import { auditText } from './lib/audit-detector.js';
import { pageOfMessage } from '../src/lib/site/pages.js';
import { absoluteUrl, pagesBase, sessionUrl } from '../src/lib/site/urls.js';
import { loadConfig, type SessionpressConfig } from '../src/schemas/config.js';

const USAGE = `usage: sessionpress pr-comment --repo OWNER/NAME --pr N [options]

  --repo OWNER/NAME  the repository of the pull request
  --pr N             the pull request's number
  --source DIR       the sessions folder in the checked-out repository (default: the configured source)
  --dry-run          print the comment instead of posting it (reads only; GITHUB_TOKEN optional)
  --config FILE      a Sessionpress config (default: sessionpress.config.json if present)

Posts one comment listing the pull request's sessions and updates that same comment on every
later run. Needs GITHUB_TOKEN (permission to write pull request comments); GITHUB_API_URL names
another API root, e.g. https://github.example.com/api/v3 for GitHub Enterprise Server.`;

export interface PrCommentDeps {
  out?: (line: string) => void;
  err?: (line: string) => void;
  env?: NodeJS.ProcessEnv;
  fetch?: typeof globalThis.fetch;
}

/** Runs the command; resolves with 0 (posted, updated, or nothing to post), 1 (refused or failed) or 2 (usage). */
export async function main(argv: string[], deps: PrCommentDeps = {}): Promise<number> {
  const out = deps.out ?? ((l: string) => console.log(l));
  const err = deps.err ?? ((l: string) => console.error(l));
  const env = deps.env ?? process.env;
  const cli = parseCommandLine(
    argv,
    { repo: { type: 'string' }, pr: { type: 'string' }, source: { type: 'string' }, 'dry-run': { type: 'boolean' }, config: { type: 'string' } },
    USAGE,
    { out, err },
    { max: 0 },
  );
  if (!cli.ok) return cli.code;
  const { values } = cli;
  const repoMatch = /^([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+)$/.exec(values.repo ?? '');
  if (!repoMatch) {
    err(`${values.repo === undefined ? '--repo is required' : `--repo takes OWNER/NAME, not "${values.repo}"`}\n\n${USAGE}`);
    return 2;
  }
  if (!values.pr || !/^[1-9]\d*$/.test(values.pr)) {
    err(`${values.pr === undefined ? '--pr is required' : `--pr takes a pull request number, not "${values.pr}"`}\n\n${USAGE}`);
    return 2;
  }
  const [, owner, repo] = repoMatch;
  const number = Number(values.pr);
  const dryRun = values['dry-run'] === true;
  const token = env.GITHUB_TOKEN?.trim();
  if (!token && !dryRun) {
    err('GITHUB_TOKEN is not set: pr-comment needs a token that may write pull request comments (in a GitHub Action: `env: GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}` with `permissions: pull-requests: write`). Use --dry-run to see the comment without posting it.');
    return 2;
  }
  let config: SessionpressConfig;
  try {
    config = loadConfig(process.cwd(), values.config ? { ...env, SESSIONPRESS_CONFIG: values.config } : env, { inline: { source: values.source } });
  } catch (e) {
    err((e as Error).message);
    return 2;
  }

  const api = pullRequestApi(createGithubClient({ token, apiUrl: env.GITHUB_API_URL, fetch: deps.fetch }), owner, repo);
  const label = `${owner}/${repo}#${number}`;
  try {
    const pr = await api.pull(number);
    const files = await api.files(number);
    const found = await findPullRequestSessions({
      sourceDir: config.sourceDir,
      repoRoot: repositoryRoot(config.sourceDir, process.cwd()),
      owner,
      repo,
      number,
      htmlUrl: pr.html_url,
      files,
      redaction: config.redaction,
    });
    if (!found.length) {
      out(`No sessions for ${label} (no pr-link names it, and it changes no session file under ${config.source}): nothing posted.`);
      return 0;
    }
    const blameSummary = await commentBlame(found, pr, config, err);
    const body = commentBody(found.map((f) => commentSession(f.opened, f.reasons, config)), { pageSize: config.pageSize, blameSummary });
    const usernames = [...new Set(found.flatMap((f) => f.opened.redactor?.knownUsernames() ?? []))];
    // The allow-list is the site's to decide; a comment on GitHub gets nothing any rule, or the audit's own detector, finds.
    const findings = await auditText(body, { ...config.redaction, allowlist: [], usernames });
    if (findings.length) {
      err(`Not posted: the comment for ${label} still holds what the redaction rules detect (an allow-listed string, or a pattern that reached it another way):`);
      for (const f of findings) err(`  ${f.rule} ×${f.count}  ${describeSample(f.rule, f.samples[0] ?? '')}`);
      err('Remove the string from the session (or the allow-list), or leave the session out of the pull request.');
      return 1;
    }
    if (body.length > GITHUB_COMMENT_LIMIT) {
      err(`Not posted: the comment is ${body.length} characters, over GitHub's ${GITHUB_COMMENT_LIMIT}.`);
      return 1;
    }
    if (dryRun) {
      out(body);
      return 0;
    }
    const updated = await updateOurs(api, number, body);
    const sent = updated ?? (await api.createComment(number, body));
    out(`${updated ? 'Updated' : 'Posted'} the sessions comment on ${label} (${found.length} session${found.length === 1 ? '' : 's'}, ${body.length.toLocaleString('en-US')} characters): ${sent.html_url}`);
    return 0;
  } catch (e) {
    if (e instanceof GithubError) {
      err(`${e.message}${e.status === 401 ? ' (is GITHUB_TOKEN valid?)' : e.status === 403 || e.status === 404 ? ` (does the token have access to ${owner}/${repo}, with permission to write pull request comments?)` : ''}`);
      return 1;
    }
    throw e;
  }
}

/**
 * Updates our comment, if the pull request has one: the first that starts with
 * the marker and that the token may edit (someone else's copy of the marker
 * is refused by GitHub and passed over). Undefined when there is none.
 */
async function updateOurs(api: ReturnType<typeof pullRequestApi>, number: number, body: string): Promise<IssueComment | undefined> {
  for (const c of (await api.comments(number)).filter((x) => isOurComment(x.body))) {
    try {
      return await api.updateComment(c.id, body);
    } catch (e) {
      if (!(e instanceof GithubError && (e.status === 403 || e.status === 404))) throw e;
    }
  }
  return undefined;
}

/** A found session with the published page's address, when the site's is known. */
function commentSession(opened: { identity: { entryId: string }; result: { session: CommentSession['session'] } }, reasons: CommentSession['reasons'], config: SessionpressConfig): CommentSession {
  const session = opened.result.session;
  if (!config.site) return { session, reasons };
  const base = pagesBase(config.base, config.prefix);
  const slug = opened.identity.entryId;
  return {
    session,
    reasons,
    pageUrl: absoluteUrl(sessionUrl(base, slug), config.site),
    messageUrl: (uuid) => absoluteUrl(sessionUrl(base, slug, { page: pageOfMessage(session, uuid, config.pageSize)?.page, message: uuid }), config.site),
  };
}

/**
 * The comment's blame section: the pull request's added lines by who wrote
 * them, read from the checkout (base and head as the API names them). Without
 * those commits in the checkout (a shallow clone) the section is left out and
 * the log says why.
 */
async function commentBlame(found: FoundSession[], pr: PullRequest, config: SessionpressConfig, err: (line: string) => void): Promise<string | undefined> {
  const base = pr.base?.sha;
  const head = pr.head?.sha;
  if (!base || !head) return undefined;
  const repo = repositoryRoot(config.sourceDir, process.cwd());
  try {
    const report = await blame(
      { repo, base, head, links: { site: config.site, base: config.base, prefix: config.prefix, pageSize: config.pageSize }, redaction: config.redaction, sessionFolders: [config.sourceDir] },
      found.map((f) => ({ session: f.opened.result.session, entryId: f.opened.identity.entryId, reasons: f.reasons })),
    );
    return blameSummaryMarkdown(report) || undefined;
  } catch (e) {
    if (!(e instanceof GitError)) throw e;
    err(`No blame section: git cannot compare the pull request's commits in ${repo} (${e.message}); check out with fetch-depth: 0.`);
    return undefined;
  }
}
