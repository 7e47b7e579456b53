import { redactLayoutProblems } from './agents-without-session.js';
import type { SessionJob, SessionJobResult } from './process-session.js';

/**
 * The result of a session whose processing threw (a bug, or input that broke
 * a limit we did not know of): no page, and one problem that says so, so that
 * the rest of the build goes on and the log names the file. The problem names
 * the error's kind and the function it came from, never its message: a
 * message can quote the session's text, secrets included.
 */
export async function failedResult(job: SessionJob, error: unknown): Promise<SessionJobResult> {
  const { source } = job;
  const kind = error instanceof Error ? error.name : typeof error;
  const where = error instanceof Error ? /^\s+at ([\w$.<>]+) \(/m.exec(error.stack ?? '')?.[1] : undefined;
  const reason = `could not be processed (${kind}${where ? ` in ${where}` : ''}); no page is made. This is a bug in Sessionpress: please report it`;
  // Its file name redacted as the session's own would have been (the project folder names the user).
  const diagnostics = await redactLayoutProblems([{ file: source.relPath, line: 0, code: 'process-error', reason }], job.redaction);
  return { ok: false, reason: 'failed', diagnostics, sourceFile: diagnostics[0].file, bytes: source.size, ms: 0 };
}
