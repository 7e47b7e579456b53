import { readdir, stat } from 'node:fs/promises';
import { basename, join, relative, sep } from 'node:path';

/** A session file found on disk, with the subagent files that may belong to it. */
export interface SessionSource {
  /** File name without `.jsonl`; a uuid in real files, anything in hand-made ones. */
  sessionId: string;
  /** Absolute path. */
  path: string;
  /** Path relative to the source root, with `/` separators. */
  relPath: string;
  /** Encoded project folder name (`-home-ada-work-api`), or `.` when the root itself holds sessions. */
  projectFolder: string;
  /** Absolute paths of `<session>/subagents/agent-*.jsonl` files: certainly this session's. */
  subagentPaths: string[];
  /** Absolute paths of `agent-*.jsonl` files beside the session: owned by whichever session their `sessionId` names. */
  siblingAgentPaths: string[];
  size: number;
  mtimeMs: number;
}

export interface SourceLayout {
  root: string;
  sessions: SessionSource[];
  /** Every agent file seen, so that callers can report the ones no session claimed. */
  agentPaths: string[];
}

const AGENT_FILE = /^agent-.+\.jsonl$/;

/**
 * Finds the session files under a folder laid out like `~/.claude/projects`:
 * `<project>/<session>.jsonl`, subagents as `<project>/agent-<id>.jsonl` (up to
 * 2.0.x) or `<project>/<session>/subagents/agent-<id>.jsonl` (2.1.x). A folder
 * that directly holds `.jsonl` files (one project folder) works too.
 * Results are sorted, so builds are deterministic.
 */
export async function discoverSources(root: string): Promise<SourceLayout> {
  const sessions: SessionSource[] = [];
  const agentPaths: string[] = [];
  const rootEntries = await readdir(root, { withFileTypes: true });
  const projectDirs = rootEntries.filter((d) => d.isDirectory()).map((d) => d.name);
  const folders: Array<{ dir: string; name: string }> = [];
  if (rootEntries.some((d) => d.isFile() && d.name.endsWith('.jsonl'))) folders.push({ dir: root, name: '.' });
  for (const name of projectDirs) folders.push({ dir: join(root, name), name });

  for (const { dir, name: projectFolder } of folders) {
    const entries = await readdir(dir, { withFileTypes: true });
    const siblings = entries
      .filter((d) => d.isFile() && AGENT_FILE.test(d.name))
      .map((d) => join(dir, d.name))
      .sort();
    agentPaths.push(...siblings);
    const sessionFiles = entries
      .filter((d) => d.isFile() && d.name.endsWith('.jsonl') && !AGENT_FILE.test(d.name))
      .map((d) => d.name)
      .sort();
    const subdirs = new Set(entries.filter((d) => d.isDirectory()).map((d) => d.name));
    for (const fileName of sessionFiles) {
      const sessionId = fileName.slice(0, -'.jsonl'.length);
      const path = join(dir, fileName);
      const subagentPaths: string[] = [];
      if (subdirs.has(sessionId)) {
        const subDir = join(dir, sessionId, 'subagents');
        try {
          for (const f of (await readdir(subDir)).sort()) {
            if (AGENT_FILE.test(f)) subagentPaths.push(join(subDir, f));
          }
        } catch {
          // A session folder without subagents/ holds tool output caches only.
        }
        agentPaths.push(...subagentPaths);
      }
      const st = await stat(path);
      sessions.push({
        sessionId,
        path,
        relPath: toPosix(relative(root, path)),
        projectFolder,
        subagentPaths,
        siblingAgentPaths: siblings,
        size: st.size,
        mtimeMs: st.mtimeMs,
      });
    }
  }
  return { root, sessions, agentPaths };
}

/** Relative path with `/` separators on every platform. */
export function toPosix(p: string): string {
  return sep === '/' ? p : p.split(sep).join('/');
}

/** The agent id of an `agent-<id>.jsonl` file name. */
export function agentIdFromPath(path: string): string {
  return basename(path).replace(/^agent-/, '').replace(/\.jsonl$/, '');
}
