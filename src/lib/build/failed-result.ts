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
  const reason = limitReached(error) ?? `could not be processed (${kind}${where ? ` in ${where}` : ''}); no page is made. This is a bug in Sessionpress: please report it`;
  // Its file name redacted as the session's own would have been (the project folder names the user).
  const diagnostics = await redactLayoutProblems([{ file: source.relPath, line: 0, code: 'process-error', reason }], job.redaction);
  return { ok: false, reason: 'failed', diagnostics, sourceFile: diagnostics[0].file, bytes: source.size, ms: 0 };
}

/**
 * What to say when processing stopped at one of Node's limits rather than at
 * a bug: its thread's heap filled, or a string or buffer grew past what V8
 * allows. The user can act on the first; neither is worth a bug report.
 */
function limitReached(error: unknown): string | undefined {
  if ((error as NodeJS.ErrnoException | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
    return 'could not be processed: its worker thread ran out of memory; no page is made. Give Node more (NODE_OPTIONS=--max-old-space-size=8192, in MB) and build again';
  }
  if (error instanceof RangeError && /^(?:Invalid string length|Invalid array length|Array buffer allocation failed)/.test(error.message)) {
    return 'could not be processed: a piece of it is larger than a JavaScript string or buffer may be; no page is made';
  }
  return undefined;
}
