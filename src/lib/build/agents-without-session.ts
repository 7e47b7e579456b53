import { redactProblem, type Diagnostic } from '../diagnostics.js';
import { createRedactor } from '../redact/redactor.js';
import type { RedactionOptions } from '../redact/types.js';
import { usernamesFromFolder } from '../redact/usernames.js';

/**
 * The problems of agent files that no session of the source claims, one per
 * file, named like a session's own diagnostics: relative to the source root,
 * through a redactor that knows the login names of the file's project folder
 * (`-home-ada-work` names `ada`), so they may be kept in the cache and
 * written to the problems file. Apart from the loader's light modules: it
 * loads the redactor, which a build only needs when this list changed.
 */
export async function agentsWithoutSession(relPaths: string[], redaction: RedactionOptions): Promise<Diagnostic[]> {
  return redactLayoutProblems(
    relPaths.map((rel) => ({ file: rel, line: 0, code: 'agent-without-session', reason: 'agent file whose session is not in the source; not shown' })),
    redaction,
  );
}

/**
 * Problems of the source's layout (see `SourceLayout.problems`, and agent
 * files without a session), their file names and reasons redacted as a
 * session's are, so that they may be stored and logged.
 */
export async function redactLayoutProblems(problems: Diagnostic[], redaction: RedactionOptions): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  for (const d of problems) {
    const folder = d.file.split('/')[0];
    const redactor = createRedactor({ ...redaction, usernames: [...(redaction.usernames ?? []), ...usernamesFromFolder(folder)] });
    // Nothing to scan: this seeds the login names, as opening a session does.
    await redactor.redactSession([], { projectFolders: [folder] });
    out.push(redactProblem(d, (text) => redactor.redactText(text)));
  }
  return out;
}
