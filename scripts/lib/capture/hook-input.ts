import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/**
 * The fields of a Claude Code hook's stdin that capture reads. Every hook
 * event gets `session_id`, `transcript_path`, `cwd` and `hook_event_name`
 * (SessionEnd adds `reason`, PreCompact `trigger`); `session_id` is the
 * transcript's file name, so the file alone says which session it is.
 */
export interface HookInput {
  /** Absolute path of the session's `.jsonl` under `~/.claude/projects/<folder>/`. */
  transcriptPath: string;
  /** The working folder of the session when the hook ran. */
  cwd: string;
  /** `SessionEnd`, `PreCompact`, …; only for the log line. */
  event: string;
}

/** The hook payload read from its JSON text, or why it cannot be used (one short line, no stack). */
export function parseHookInput(text: string, fallbackCwd: string): { ok: true; input: HookInput } | { ok: false; reason: string } {
  if (!text.trim()) return { ok: false, reason: 'no hook input on stdin (capture is meant to run as a Claude Code hook)' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'hook input on stdin is not JSON' };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { ok: false, reason: 'hook input on stdin is not a JSON object' };
  const v = value as Record<string, unknown>;
  const str = (k: string) => (typeof v[k] === 'string' && v[k] !== '' ? (v[k] as string) : undefined);
  const transcript = str('transcript_path');
  if (!transcript) return { ok: false, reason: 'hook input has no transcript_path' };
  return {
    ok: true,
    input: {
      transcriptPath: resolve(expandHome(transcript)),
      // Claude Code runs hooks in the project's folder, so the process's own folder stands in for a missing cwd.
      cwd: resolve(expandHome(str('cwd') ?? fallbackCwd)),
      event: str('hook_event_name') ?? 'capture',
    },
  };
}

function expandHome(p: string): string {
  return p === '~' || p.startsWith('~/') ? join(homedir(), p.slice(1)) : p;
}

/**
 * The root of the git working tree holding `dir`: the nearest folder, from
 * `dir` up, with a `.git` entry (a folder in a clone, a file in a worktree or
 * submodule). Undefined outside any repository.
 */
export function findRepoRoot(dir: string): string | undefined {
  let current = resolve(dir);
  for (;;) {
    if (existsSync(join(current, '.git'))) return current;
    const parent = dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}
