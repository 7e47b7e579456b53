/**
 * The config of an agent team (`teams/session-<8 hex>/config.json`: its lead,
 * members and their prompts), read only when it lies inside the source root
 * the user gave: Claude Code keeps it in `~/.claude/teams/`, outside
 * `~/.claude/projects`, and nothing outside the source is ever read. A team
 * folder copied into the source tree (or beside a captured copy) is read;
 * none is ever required. The value is redacted with the session.
 */
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { readTextInside } from '../fs/safe-path.js';
import type { Diagnostic } from '../diagnostics.js';
import { MAX_JSON_DEPTH, nestsTooDeep } from '../jsonl/json-depth.js';
import { jsonErrorReason } from '../jsonl/read-jsonl.js';

/** The team config of a session, if its source tree holds one: `<root>/teams/session-<first 8 of its id>/config.json`. */
export async function readTeamConfig(root: string, sessionId: string, rel: (p: string) => string, diagnostics: Diagnostic[]): Promise<{ file: string; value: Record<string, unknown> } | undefined> {
  if (!/^[0-9a-f]{8}/i.test(sessionId)) return undefined;
  const path = join(root, 'teams', `session-${sessionId.slice(0, 8).toLowerCase()}`, 'config.json');
  try {
    const st = await lstat(path);
    // No symlink is followed (and saying so), and the real path must lie inside the real root.
    if (st.isSymbolicLink()) {
      diagnostics.push({ file: rel(path), line: 0, code: 'symlink-skipped', reason: 'team config is a symbolic link; not followed' });
      return undefined;
    }
    if (!st.isFile()) return undefined;
    const text = await readTextInside(root, path);
    if (!text.trim()) return undefined;
    const value: unknown = JSON.parse(text);
    if (!value || typeof value !== 'object' || Array.isArray(value)) {
      diagnostics.push({ file: rel(path), line: 0, code: 'not-object', reason: 'team config is not a JSON object; ignored' });
      return undefined;
    }
    if (nestsTooDeep(text, value)) {
      diagnostics.push({ file: rel(path), line: 0, code: 'too-deep', reason: `team config nests deeper than ${MAX_JSON_DEPTH} levels; ignored` });
      return undefined;
    }
    return { file: rel(path), value: value as Record<string, unknown> };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    diagnostics.push({ file: rel(path), line: 0, code: 'not-json', reason: `team config cannot be read as JSON (${jsonErrorReason(err)}); ignored` });
    return undefined;
  }
}
