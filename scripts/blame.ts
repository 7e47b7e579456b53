/**
 * `sessionpress blame --repo DIR --base REF --head REF [--source DIR] [--format text|json|agent-trace] [FILE…]`
 *
 * For every line the head adds relative to the base (the pull request's
 * diff, from their merge base), who wrote it: a tool call of a session (with
 * the prompt it answered and its permalink), a command a session ran (a
 * formatter, `sed`), or a person (or no one the transcripts know). Sessions
 * are the pull request's own (a `pr-link` naming `--pr`, or files it adds
 * under the sessions folder) and those of `--source` folders whose edits
 * touch the changed files within the pull request's time span. Everything
 * printed is redacted.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseCommandLine, version } from './lib/cli.js';
import { blame, pullRequestDiff, pullRequestSpan, type BlameSessionInput } from '../src/lib/blame/blame.js';
import { formatAgentTrace, formatJson, formatText } from '../src/lib/blame/format.js';
import { GitError } from '../src/lib/blame/git.js';
import { pullRequestSessions, sourceSessions, type PullRequestId } from './lib/blame/sessions.js';
import { loadConfig, type SessionpressConfig } from '../src/schemas/config.js';

const USAGE = `usage: sessionpress blame --base REF [--head REF] [options] [FILE…]

  --repo DIR       the repository's checkout (default: the current folder)
  --base REF       the pull request's base (a branch, tag or commit)
  --head REF       the pull request's head (default: HEAD)
  --source DIR     also look at the sessions of DIR whose edits touch the changed files (repeatable)
  --pr PR          the pull request (N, OWNER/NAME#N or its URL): sessions whose pr-link names it count
  --format F       text (default, like git blame), json (the whole record) or agent-trace (Agent Trace 0.1)
  --config FILE    a Sessionpress config (default: sessionpress.config.json if present)

Every line the head adds is attributed to the tool call that wrote it (the session, the prompt,
the call's permalink), to a command a session ran (a formatter, sed), or to "a person or
unknown". FILE… limits it to those paths.`;

const FORMATS = ['text', 'json', 'agent-trace'] as const;

export interface BlameDeps {
  out?: (line: string) => void;
  err?: (line: string) => void;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

/** Parses `--pr`: a number, `owner/name#N` or a pull request URL. */
export function parsePullRequest(value: string): PullRequestId | undefined {
  const n = /^#?([1-9]\d*)$/.exec(value);
  if (n) return { owner: '', repo: '', number: Number(n[1]) };
  const label = /^([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+)#([1-9]\d*)$/.exec(value);
  if (label) return { owner: label[1], repo: label[2], number: Number(label[3]) };
  const url = /^https?:\/\/[^/\s]+\/([^/\s]+)\/([^/\s]+)\/pulls?\/([1-9]\d*)\/?$/.exec(value);
  if (url) return { owner: url[1], repo: url[2], number: Number(url[3]), htmlUrl: value };
  return undefined;
}

/** Runs the command; resolves with 0, 1 (git or the sessions failed) or 2 (usage). */
export async function main(argv: string[], deps: BlameDeps = {}): Promise<number> {
  const out = deps.out ?? ((l: string) => console.log(l));
  const err = deps.err ?? ((l: string) => console.error(l));
  const env = deps.env ?? process.env;
  const cwd = deps.cwd ?? process.cwd();
  const cli = parseCommandLine(
    argv,
    { repo: { type: 'string' }, base: { type: 'string' }, head: { type: 'string' }, source: { type: 'string', multiple: true }, pr: { type: 'string' }, format: { type: 'string' }, config: { type: 'string' } },
    USAGE,
    { out, err },
  );
  if (!cli.ok) return cli.code;
  const { values, positionals } = cli;
  if (!values.base) {
    err(`--base is required\n\n${USAGE}`);
    return 2;
  }
  const format = (values.format ?? 'text') as (typeof FORMATS)[number];
  if (!FORMATS.includes(format)) {
    err(`--format takes text, json or agent-trace, not "${values.format}"\n\n${USAGE}`);
    return 2;
  }
  const pr = values.pr !== undefined ? parsePullRequest(values.pr) : undefined;
  if (values.pr !== undefined && !pr) {
    err(`--pr takes a number, OWNER/NAME#N or a pull request URL, not "${values.pr}"\n\n${USAGE}`);
    return 2;
  }
  let config: SessionpressConfig;
  try {
    config = loadConfig(cwd, values.config ? { ...env, SESSIONPRESS_CONFIG: values.config } : env, { needSource: false });
  } catch (e) {
    err((e as Error).message);
    return 2;
  }
  const repo = resolve(cwd, values.repo ?? '.');
  const sources = (values.source ?? []).map((s) => resolve(cwd, s));
  for (const s of sources) {
    if (!existsSync(s)) {
      err(`--source ${s} does not exist`);
      return 2;
    }
  }
  try {
    // The whole diff: the pull request's session files name its sessions even when FILE… leaves them out.
    const diff = await pullRequestDiff(repo, values.base, values.head ?? 'HEAD');
    // The repository's own sessions folders: the configured source, and capture's `.claude-sessions/`.
    // The configured source (relative to the current folder, and to the repository: blame may run from elsewhere).
    const folders = [...new Set([config.sourceDir, resolve(repo, config.source), join(repo, '.claude-sessions')])].filter((d) => existsSync(d));
    const sessions: BlameSessionInput[] = [];
    for (const dir of folders) {
      for (const s of await pullRequestSessions({ sessionsDir: dir, repo, files: diff.files, pr, redaction: config.redaction })) {
        if (!sessions.some((x) => x.session.sessionId === s.session.sessionId)) sessions.push(s);
      }
    }
    if (sources.length) {
      const span = await pullRequestSpan(repo, diff.mergeBase, diff.head);
      const changed = new Set(diff.files.map((f) => f.path));
      sessions.push(...(await sourceSessions({ dirs: sources, changed, span, redaction: config.redaction, pageSize: config.pageSize, skip: new Set(sessions.map((s) => s.session.sessionId)) })));
    }
    const report = await blame(
      // Session files in the pull request (its sessions folders, a --source inside the repository) are listed, not blamed.
      { repo, base: values.base, head: values.head ?? 'HEAD', paths: positionals, links: { site: config.site, base: config.base, prefix: config.prefix, pageSize: config.pageSize }, redaction: config.redaction, sessionFolders: [...folders, ...sources] },
      sessions,
      diff,
    );
    if (format === 'json') out(formatJson(report));
    else if (format === 'agent-trace') out(JSON.stringify(formatAgentTrace(report, { version: version(), rawLines: report.rawLine }), null, 2));
    else out(formatText(report));
    if (!sessions.length) err(`No sessions: no pr-link names the pull request, it adds no session file, and ${sources.length ? 'no --source session edits its files in its time span' : 'no --source folder was given'}. Every line is "a person or unknown".`);
    return 0;
  } catch (e) {
    if (e instanceof GitError) {
      err(`git: ${e.message}`);
      return 1;
    }
    throw e;
  }
}
