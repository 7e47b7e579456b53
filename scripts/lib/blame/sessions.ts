/**
 * The sessions blame looks at: the pull request's own (found as `pr-comment`
 * finds them: a `pr-link` naming it, or files of theirs it adds under the
 * sessions folder), and those of `--source` folders whose edits touch the
 * changed files within the pull request's time span. Every session is opened
 * the one way (src/lib/build/open-session.ts), redacted.
 */
import { existsSync } from 'node:fs';
import { openSession, sourceLayout } from '../../../src/lib/build/open-session.js';
import type { RedactionOptions } from '../../../src/lib/redact/types.js';
import { findPullRequestSessions } from '../pr-comment/find-sessions.js';
import type { ChangedFile } from '../../../src/lib/blame/diff.js';
import { touchesWithin, type BlameSessionInput } from '../../../src/lib/blame/blame.js';

/** The pull request, when known: its `pr-link` lines name it. */
export interface PullRequestId {
  owner: string;
  repo: string;
  number: number;
  htmlUrl?: string;
}

const PR_STATUS: Record<ChangedFile['status'], string> = { added: 'added', modified: 'modified', deleted: 'removed', renamed: 'renamed', copied: 'copied', 'type-changed': 'changed', other: 'changed' };

/** The pull request's own sessions in the repository's sessions folder (none when the folder does not exist). */
export async function pullRequestSessions(options: { sessionsDir: string; repo: string; files: ChangedFile[]; pr?: PullRequestId; redaction: Partial<RedactionOptions> }): Promise<BlameSessionInput[]> {
  if (!existsSync(options.sessionsDir)) return [];
  const found = await findPullRequestSessions({
    sourceDir: options.sessionsDir,
    repoRoot: options.repo,
    // Without a pull request only its files can name a session: no `pr-link` names number 0.
    owner: options.pr?.owner ?? '',
    repo: options.pr?.repo ?? '',
    number: options.pr?.number ?? 0,
    // A bare number is matched as `#N` (any repository's pull request of that number).
    htmlUrl: options.pr?.htmlUrl ?? (options.pr && !options.pr.owner ? `#${options.pr.number}` : undefined),
    files: options.files.map((f) => ({ filename: f.path, status: PR_STATUS[f.status], ...(f.oldPath ? { previous_filename: f.oldPath } : {}) })),
    redaction: options.redaction,
  });
  return found.map((f) => ({ session: f.opened.result.session, entryId: f.opened.identity.entryId, reasons: f.reasons }));
}

/**
 * Sessions of other folders whose edits touch a changed file within the span,
 * in each folder's order. When none does but some touch the files at another
 * time (commits dated apart from the work: a history rewritten or made up
 * later), those are taken: matching by content still decides every line.
 */
export async function sourceSessions(options: { dirs: string[]; changed: ReadonlySet<string>; span: { start: number; end: number }; redaction: Partial<RedactionOptions>; pageSize: number; skip: ReadonlySet<string> }): Promise<BlameSessionInput[]> {
  const within: BlameSessionInput[] = [];
  const outside: BlameSessionInput[] = [];
  const seen = new Set<string>();
  const always = { start: Number.NEGATIVE_INFINITY, end: Number.POSITIVE_INFINITY };
  for (const dir of options.dirs) {
    const { layout, owners } = await sourceLayout(dir);
    const opened = await Promise.all(layout.sessions.filter((s) => !options.skip.has(s.sessionId)).map((source) => openSession(source, { root: dir, owners, redaction: options.redaction })));
    for (const o of opened) {
      if (!o.result.ok) continue;
      const session = o.result.session;
      if (seen.has(session.sessionId)) continue;
      seen.add(session.sessionId);
      const input: BlameSessionInput = { session, entryId: o.identity.entryId, reasons: ['source'] };
      if (touchesWithin(session, options.changed, options.span, options.pageSize)) within.push(input);
      else if (touchesWithin(session, options.changed, always, options.pageSize)) outside.push(input);
    }
  }
  return within.length ? within : outside;
}
