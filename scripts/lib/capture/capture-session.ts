import { open, readFile, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { discoverSources, toPosix, type SessionSource } from '../../../src/lib/discover.js';
import { assignSiblingAgents } from '../../../src/lib/build/open-session.js';
import { usernamesFromCwds } from '../../../src/lib/redact/usernames.js';
import { createSafeTarget } from '../../../src/lib/fs/safe-write.js';
import type { RedactionOptions } from '../../../src/lib/redact/types.js';
import { folderUsernames, importSession, type CopyStep, type ImportSessionResult } from '../import/import-session.js';

/**
 * The session a hook names, found as `sessionpress import` would find it in
 * `~/.claude/projects`: its project folder is the transcript's folder, whose
 * encoded name (`-home-ada-work-api`) it keeps, with its subagents, sidecars
 * and kept outputs. Only that folder is read, not every project.
 */
export async function locateSession(transcriptPath: string): Promise<{ source: SessionSource; root: string; siblingAgents: string[] } | undefined> {
  const projectDir = dirname(transcriptPath);
  const projectFolder = basename(projectDir);
  // Discovered as a root of its own, the project folder's sessions come back under the folder name ".".
  const layout = await discoverSources(projectDir);
  const found = layout.sessions.find((s) => s.path === transcriptPath);
  if (!found) return undefined;
  const source = { ...found, projectFolder, relPath: toPosix(join(projectFolder, basename(found.path))) };
  const owners = await assignSiblingAgents(layout);
  return { source, root: dirname(projectDir), siblingAgents: owners.get(found.sessionId) ?? [] };
}

export interface CaptureCounts {
  files: number;
  agents: number;
  keptOutputs: number;
}

/** What a copy holds: agent transcripts (subagents, teammates, forks) and kept tool or hook outputs. */
export function captureCounts(result: ImportSessionResult): CaptureCounts {
  const agents = result.files.filter((f) => /(^|\/)agent-[^/]+\.jsonl$/.test(f.target)).length;
  const keptOutputs = result.files.filter((f) => /\/tool-results\//.test(f.target)).length;
  return { files: result.files.length, agents, keptOutputs };
}

/**
 * Copies one session into `outDir`, redacted, replacing an earlier copy (a
 * session that grew is copied again whole). The new copy is written beside
 * the old one and swapped in file by file (see `importSession`), so a hook
 * killed at any instant (SessionEnd hooks get 1.5 s) leaves one whole copy;
 * nothing is written through a symbolic link; two hooks of the same session
 * (PreCompact and SessionEnd close together) take turns through a lock (see
 * {@link withSessionLock}).
 */
export async function captureSession(
  located: { source: SessionSource; root: string; siblingAgents: string[] },
  options: { outDir: string; redaction: Partial<RedactionOptions>; cwd: string; onStep?: (step: CopyStep) => void },
): Promise<ImportSessionResult> {
  const { source, root, siblingAgents } = located;
  // The session's own `cwd` values name the login name, even one with a dash in it; the hook's cwd adds one more.
  const usernames = [...((await folderUsernames([source])).get(source.projectFolder) ?? []), ...usernamesFromCwds([options.cwd])];
  return withSessionLock(options.outDir, source.sessionId, () =>
    importSession(source, { root, outDir: options.outDir, redaction: options.redaction, siblingAgents, folderUsernames: usernames, onStep: options.onStep }),
  );
}

/** How long a second capture of the same session waits for the first before giving up. */
const LOCK_WAIT_MS = 30_000;
const LOCK_POLL_MS = 100;

/**
 * Runs `fn` while holding `<outDir>/.capture-<session>.lock`, a file created
 * exclusively (`wx`: only one process can) that holds the owner's pid. A lock
 * whose owner no longer runs is taken over, so a capture killed by Claude
 * Code's hook timeout never blocks the next one. A file, not a folder: the
 * site's discovery looks into folders and ignores other files.
 */
export async function withSessionLock<T>(outDir: string, sessionId: string, fn: () => Promise<T>): Promise<T> {
  const lock = join(outDir, `.capture-${sessionId.replace(/[^A-Za-z0-9_-]/g, '_')}.lock`);
  // Refuses an output folder that is a symbolic link (a cloned repository can commit one) before anything is written.
  await createSafeTarget(outDir).ensureDir(outDir);
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      const handle = await open(lock, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const owner = await lockOwner(lock);
    // No pid yet: the owner is between creating the file and writing it, or died there; wait, then take over.
    const stale = owner === 'gone' || (owner === 'unknown' && Date.now() > deadline);
    if (stale) {
      await rm(lock, { force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`another capture of this session still holds ${basename(lock)}`);
    await new Promise((r) => setTimeout(r, LOCK_POLL_MS));
  }
  try {
    return await fn();
  } finally {
    await rm(lock, { force: true });
  }
}

/** Whether the process named in a lock file still runs. */
async function lockOwner(lock: string): Promise<'alive' | 'gone' | 'unknown'> {
  const text = await readFile(lock, 'utf8').catch(() => undefined);
  // Removed meanwhile: the next attempt to create it decides.
  if (text === undefined) return 'gone';
  const pid = Number.parseInt(text, 10);
  if (!Number.isInteger(pid) || pid <= 0) return 'unknown';
  try {
    process.kill(pid, 0);
    return 'alive';
  } catch (err) {
    // EPERM: it runs, as another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM' ? 'alive' : 'gone';
  }
}
