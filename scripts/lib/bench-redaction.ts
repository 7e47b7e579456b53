import { discoverSources } from '../../src/lib/discover.js';
import { readJsonl } from '../../src/lib/jsonl/read-jsonl.js';
import { createRedactor } from '../../src/lib/redact/index.js';

/** Redaction of one session: its JSONL bytes (session file and subagent files) and the time one `redactSession` took. */
export interface SessionRedactionTime {
  relPath: string;
  bytes: number;
  ms: number;
}

/**
 * Measures redaction alone over every session under a folder laid out like
 * `~/.claude/projects` (session file + its subagent files per call, as the
 * loader does). Reading and parsing are not timed; each session's whole
 * `redactSession` call is.
 *
 * @returns bytes of JSONL redacted, milliseconds spent redacting, MB/s, and
 *   the same per session, in discovery order
 */
export async function benchRedaction(
  root: string,
): Promise<{ bytes: number; ms: number; mbPerSec: number; sessions: SessionRedactionTime[] }> {
  const layout = await discoverSources(root);
  const redactor = createRedactor();
  const sessions: SessionRedactionTime[] = [];
  for (const session of layout.sessions) {
    const values: unknown[] = [];
    let bytes = 0;
    for (const file of [session.path, ...session.subagentPaths]) {
      const read = await readJsonl(file);
      bytes += read.bytes;
      for (const r of read.records) values.push(r.value);
    }
    const start = performance.now();
    await redactor.redactSession(values, { projectFolders: [session.projectFolder] });
    sessions.push({ relPath: session.relPath, bytes, ms: performance.now() - start });
  }
  const bytes = sessions.reduce((n, s) => n + s.bytes, 0);
  const ms = sessions.reduce((n, s) => n + s.ms, 0);
  return { bytes, ms, mbPerSec: ms > 0 ? bytes / 1e6 / (ms / 1000) : 0, sessions };
}
