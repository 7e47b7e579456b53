/**
 * The sessions of a pull request: those with a `pr-link` line naming it, and
 * those whose files it adds or changes under the source folder (a session
 * file, a subagent's `agent-*.jsonl`, a sidecar or a kept tool output counts
 * for its session). A removed file names no session: what the pull request
 * takes away is not shown. Every session is opened the one way, redacted.
 */
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { discoverSources, sidecarPathOf, type SessionSource } from '../../../src/lib/discover.js';
import { assignSiblingAgents, openSession, sessionFileIncludes, type OpenedSession } from '../../../src/lib/build/open-session.js';
import { matchesPullRequest } from '../../../src/lib/site/pull-requests.js';
import type { RedactionOptions } from '../../../src/lib/redact/types.js';
import type { BuildResult } from '../../../src/lib/transcript/build-session.js';
import type { PullRequestFile } from './github.js';

/** A session found for the pull request, opened and redacted. */
export interface FoundSession {
  opened: OpenedSession & { result: Extract<BuildResult, { ok: true }> };
  /** Why it belongs: its `pr-link` names the pull request, and/or the pull request adds or changes its files. */
  reasons: Array<'pr-link' | 'files'>;
}

export interface FindOptions {
  /** The source folder (absolute). */
  sourceDir: string;
  /** The root of the checked-out repository the pull request's paths are relative to. */
  repoRoot: string;
  owner: string;
  repo: string;
  number: number;
  /** The pull request's page (from the API), matched against `pr-link` URLs. */
  htmlUrl?: string;
  files: PullRequestFile[];
  redaction: Partial<RedactionOptions>;
}

/** The repository a folder is in: the nearest folder up with a `.git` (a folder, or a worktree's file); else `fallback`. */
export function repositoryRoot(dir: string, fallback: string): string {
  for (let d = resolve(dir); ; d = dirname(d)) {
    if (existsSync(join(d, '.git'))) return d;
    if (dirname(d) === d) return fallback;
  }
}

/**
 * The sessions of the pull request, in source order. Sessions that have no
 * conversation to show are left out; so are files that name no session.
 */
export async function findPullRequestSessions(options: FindOptions): Promise<FoundSession[]> {
  const layout = await discoverSources(options.sourceDir);
  const owners = await assignSiblingAgents(layout);
  const byFile = sessionsByFile(layout.sessions, owners);
  const changed = new Set<string>();
  for (const f of options.files) {
    if (f.status === 'removed') continue;
    const abs = resolve(options.repoRoot, f.filename);
    const id = byFile.files.get(abs) ?? byFile.folders.find(([folder]) => abs.startsWith(folder))?.[1];
    if (id !== undefined) changed.add(id);
  }
  const label = `${options.owner}/${options.repo}#${options.number}`;
  const found: FoundSession[] = [];
  for (const source of layout.sessions) {
    const byFiles = changed.has(source.sessionId);
    // A session can name the pull request only on a `pr-link` line: other sessions are not opened at all.
    if (!byFiles && !(await mentionsPrLink(source))) continue;
    const opened = await openSession(source, { root: options.sourceDir, owners, redaction: options.redaction });
    if (!opened.result.ok) continue;
    const linked = (opened.result.session.facts.pullRequests ?? []).some((pr) => matchesPullRequest(pr, label) || (options.htmlUrl !== undefined && matchesPullRequest(pr, options.htmlUrl)));
    if (!byFiles && !linked) continue;
    const reasons: FoundSession['reasons'] = [];
    if (linked) reasons.push('pr-link');
    if (byFiles) reasons.push('files');
    found.push({ opened: opened as FoundSession['opened'], reasons });
  }
  return found;
}

/** Every file of each session (its own folder by prefix), by absolute path → session id. */
function sessionsByFile(sessions: SessionSource[], owners: Map<string, string[]>): { files: Map<string, string>; folders: Array<[string, string]> } {
  const files = new Map<string, string>();
  const folders: Array<[string, string]> = [];
  for (const s of sessions) {
    for (const p of [s.path, ...s.subagentPaths, ...(s.sidecarPaths ?? []), ...(s.toolResultPaths ?? []), ...(owners.get(s.sessionId) ?? [])]) files.set(resolve(p), s.sessionId);
    // Sidecars of sibling agents (`agent-<id>.meta.json` beside the session) and anything else in `<session>/`.
    for (const p of owners.get(s.sessionId) ?? []) files.set(resolve(sidecarPathOf(p)), s.sessionId);
    folders.push([`${resolve(dirname(s.path), s.sessionId)}${sep}`, s.sessionId]);
  }
  return { files, folders };
}

/** Whether a session file has a `pr-link` line (a cheap look before the session is opened). */
async function mentionsPrLink(source: SessionSource): Promise<boolean> {
  return sessionFileIncludes(source.path, '"pr-link"');
}

/** A path relative to a root, `/`-separated: how the pull request names it. */
export function repoPath(root: string, path: string): string {
  return relative(root, path).split(sep).join('/');
}
