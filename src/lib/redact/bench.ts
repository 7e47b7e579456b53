import { discoverSources } from '../discover.js';
import { readJsonl } from '../jsonl/read-jsonl.js';
import { createRedactor, redactionPhaseMs } from './redactor.js';

/**
 * Measures redaction alone over every session under a folder laid out like
 * `~/.claude/projects` (session file + its subagent files per call, as the
 * loader does). Reading and parsing are not timed.
 *
 * @returns bytes of JSONL redacted, milliseconds spent redacting, MB/s, and
 *   milliseconds per phase (collecting strings, secretlint, our rules, replacing)
 */
export async function benchRedaction(
  root: string,
): Promise<{ bytes: number; ms: number; mbPerSec: number; phases: Record<keyof typeof redactionPhaseMs, number> }> {
  const start0 = { ...redactionPhaseMs };
  const layout = await discoverSources(root);
  const redactor = createRedactor();
  let bytes = 0;
  let ms = 0;
  for (const session of layout.sessions) {
    const files = [session.path, ...session.subagentPaths];
    const values: unknown[] = [];
    for (const file of files) {
      const read = await readJsonl(file);
      bytes += read.bytes;
      for (const r of read.records) values.push(r.value);
    }
    const start = performance.now();
    await redactor.redactSession(values, { projectFolders: [session.projectFolder] });
    ms += performance.now() - start;
  }
  const phases = { ...redactionPhaseMs };
  for (const k of Object.keys(phases) as Array<keyof typeof phases>) phases[k] = Math.round(phases[k] - start0[k]);
  return { bytes, ms, mbPerSec: ms > 0 ? bytes / 1e6 / (ms / 1000) : 0, phases };
}
