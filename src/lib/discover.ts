import type { Dirent } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { basename, join, relative, sep } from 'node:path';
import type { Diagnostic } from './diagnostics.js';
import { escapeRegExp } from './escape-regexp.js';
import { headCwds } from './fs/read-head.js';
import { unsafeNameReason } from './fs/safe-path.js';
import { PLACEHOLDER_SOURCE } from './redact/rules.js';
import { homeNameOf, usernamesFromFolder } from './redact/usernames.js';

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
  /**
   * Absolute paths of the `agent-<id>.meta.json` sidecars of its subagents
   * (2.1.x), workflow runs' included. Optional: hand-made sources have none.
   */
  sidecarPaths?: string[];
  /** Absolute paths of the `journal.jsonl` of each workflow run (`<session>/subagents/workflows/<runId>/journal.jsonl`): what the run's agents started and returned, not transcript. */
  journalPaths?: string[];
  /** Absolute paths of `<session>/tool-results/*` files: whole outputs of tools (`<id>.txt`) and hooks (`hook-<id>-stdout.txt`) that the records show only in part. */
  toolResultPaths?: string[];
  size: number;
  mtimeMs: number;
  /**
   * The login name whose home the project folder lies in, from a `cwd` at
   * the head of one of the folder's sessions (see `homeNameOf`): the same for
   * every session of a folder. URLs are made without it, and without the
   * rest of a name the folder's encoding cut in two (`ada.lovelace`).
   */
  homeName?: string;
}

export interface SourceLayout {
  root: string;
  sessions: SessionSource[];
  /** Every agent file seen, so that callers can report the ones no session claimed. */
  agentPaths: string[];
  /**
   * What discovery refused, by file (relative to the root): symbolic links
   * (never followed: a cloned repository can commit `tool-results -> ~/.kube`)
   * and names that cannot be ids (`...jsonl` would give the id `..`).
   * Reported by every command, never dropped silently.
   */
  problems: Diagnostic[];
}

const AGENT_FILE = /^agent-.+\.jsonl$/;
const SIDECAR_FILE = /^agent-.+\.meta\.json$/;
/** A workflow run's record of its agents' starts and results (not transcript). */
export const WORKFLOW_JOURNAL = 'journal.jsonl';
/** A workflow run's folder: `<session>/subagents/workflows/<runId>/`. */
export const WORKFLOW_DIR = /[\\/]subagents[\\/]workflows[\\/]([^\\/]+)[\\/][^\\/]+$/;

/**
 * Finds the session files under a folder laid out like `~/.claude/projects`:
 * `<project>/<session>.jsonl`, subagents as `<project>/agent-<id>.jsonl` (up to
 * 2.0.x) or `<project>/<session>/subagents/agent-<id>.jsonl` (2.1.x). A folder
 * that directly holds `.jsonl` files (one project folder) works too.
 * Results are sorted, so builds are deterministic. `homeNames: false` leaves
 * out each folder's `homeName` (a file read per folder) for a caller that
 * only counts sessions and makes no URL.
 */
export async function discoverSources(root: string, { homeNames = true }: { homeNames?: boolean } = {}): Promise<SourceLayout> {
  const sessions: SessionSource[] = [];
  const agentPaths: string[] = [];
  const problems: Diagnostic[] = [];
  const seen = (dir: string, entries: Dirent[]): Dirent[] => keepReal(root, dir, entries, problems);
  const rootEntries = seen(root, await readdir(root, { withFileTypes: true }));
  const projectDirs = rootEntries.filter((d) => d.isDirectory()).map((d) => d.name);
  const folders: Array<{ dir: string; name: string }> = [];
  if (rootEntries.some((d) => d.isFile() && d.name.endsWith('.jsonl'))) folders.push({ dir: root, name: '.' });
  for (const name of projectDirs) folders.push({ dir: join(root, name), name });

  for (const { dir, name: projectFolder } of folders) {
    const entries = seen(dir, await readdir(dir, { withFileTypes: true }));
    const siblings = entries
      .filter((d) => d.isFile() && AGENT_FILE.test(d.name) && safeId(root, dir, d.name, agentIdFromPath(d.name), problems))
      .map((d) => join(dir, d.name))
      .sort();
    agentPaths.push(...siblings);
    const sessionFiles = entries
      .filter((d) => d.isFile() && d.name.endsWith('.jsonl') && !AGENT_FILE.test(d.name))
      .map((d) => d.name)
      .filter((name) => safeId(root, dir, name, name.slice(0, -'.jsonl'.length), problems))
      .sort();
    const subdirs = new Set(entries.filter((d) => d.isDirectory()).map((d) => d.name));
    const folderSessions: SessionSource[] = [];
    for (const fileName of sessionFiles) {
      const sessionId = fileName.slice(0, -'.jsonl'.length);
      const path = join(dir, fileName);
      const found: SessionFolderFiles = { subagentPaths: [], sidecarPaths: [], toolResultPaths: [], journalPaths: [] };
      if (subdirs.has(sessionId)) {
        await readSessionFolder(root, join(dir, sessionId), found, problems);
        agentPaths.push(...found.subagentPaths);
      }
      // lstat: the entry was a regular file when listed; a link put in its place since is not followed.
      const st = await lstat(path);
      if (!st.isFile()) {
        problems.push(linkProblem(root, path));
        continue;
      }
      folderSessions.push({
        sessionId,
        path,
        relPath: toPosix(relative(root, path)),
        projectFolder,
        subagentPaths: found.subagentPaths,
        siblingAgentPaths: siblings,
        sidecarPaths: found.sidecarPaths,
        toolResultPaths: found.toolResultPaths,
        ...(found.journalPaths.length ? { journalPaths: found.journalPaths } : {}),
        size: st.size,
        mtimeMs: st.mtimeMs,
      });
    }
    const homeName = homeNames ? await folderHomeName(projectFolder, folderSessions) : undefined;
    for (const s of folderSessions) sessions.push(homeName === undefined ? s : { ...s, homeName });
  }
  return { root, sessions, agentPaths, problems };
}

/** How many of a folder's sessions are looked at for a `cwd`, and how much of each: Claude Code writes one in its first lines. */
const HOME_LOOKS = 4;
const HOME_HEAD_BYTES = 16 * 1024;

/**
 * The login name of a project folder's home, from the `cwd` at the head of
 * its first sessions in name order (the same answer on every build while
 * they stay), or undefined for a folder outside a home or without a cwd.
 */
async function folderHomeName(projectFolder: string, sessions: readonly SessionSource[]): Promise<string | undefined> {
  if (!usernamesFromFolder(projectFolder).length) return undefined;
  for (const s of sessions.slice(0, HOME_LOOKS)) {
    const name = homeNameOf(projectFolder, await headCwds(s.path, HOME_HEAD_BYTES));
    if (name !== undefined) return name;
  }
  return undefined;
}

/**
 * The one line for a source folder that holds no session file: the layout
 * expected and, when a folder below holds sessions (`~/.claude` given for
 * `~/.claude/projects`, or a home folder), that folder and how many. Only
 * real folders inside `root` are looked into: no link is followed.
 */
export async function noSessionsMessage(root: string): Promise<string> {
  const line = `No Claude Code session files in ${root}: expected <project folder>/<session id>.jsonl, as in ~/.claude/projects`;
  for (const below of [['projects'], ['.claude', 'projects']]) {
    const candidate = join(root, ...below);
    if (!(await realFoldersAlong(root, below))) continue;
    const { sessions } = await discoverSources(candidate, { homeNames: false }).catch(() => ({ sessions: [] }));
    if (sessions.length) return `${line}. ${candidate} holds ${sessions.length} session${sessions.length === 1 ? '' : 's'}: give that folder instead.`;
  }
  return `${line}.`;
}

/** Whether each folder along `segments` below `root` is a real folder (not a link, not a file). */
async function realFoldersAlong(root: string, segments: string[]): Promise<boolean> {
  let dir = root;
  for (const segment of segments) {
    dir = join(dir, segment);
    const st = await lstat(dir).catch(() => undefined);
    if (!st?.isDirectory()) return false;
  }
  return true;
}

/** The entries of a folder that are real files and folders; each symbolic link among them becomes a problem. */
function keepReal(root: string, dir: string, entries: Dirent[], problems: Diagnostic[]): Dirent[] {
  const out: Dirent[] = [];
  for (const e of entries) {
    if (e.isSymbolicLink()) problems.push(linkProblem(root, join(dir, e.name)));
    else out.push(e);
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function linkProblem(root: string, path: string): Diagnostic {
  return { file: toPosix(relative(root, path)), line: 0, code: 'symlink-skipped', reason: 'a symbolic link; not followed (only real files and folders inside the source are read)' };
}

/** Whether an id made from a file name is safe as a path segment; a problem names the file when it is not. */
function safeId(root: string, dir: string, fileName: string, id: string, problems: Diagnostic[]): boolean {
  const why = unsafeNameReason(id);
  if (why) problems.push({ file: toPosix(relative(root, join(dir, fileName))), line: 0, code: 'unsafe-name', reason: `its id would be ${JSON.stringify(id)} (${why}); not read` });
  return !why;
}

interface SessionFolderFiles {
  subagentPaths: string[];
  sidecarPaths: string[];
  toolResultPaths: string[];
  journalPaths: string[];
}

/**
 * Reads a session's own folder (2.1.x): `subagents/agent-*.jsonl` with their
 * `.meta.json` sidecars, workflow runs under `subagents/workflows/<runId>/`,
 * and the whole outputs under `tool-results/`. Missing parts are normal; a
 * part that is a symbolic link is a problem, and not followed.
 */
async function readSessionFolder(root: string, sessionDir: string, found: SessionFolderFiles, problems: Diagnostic[]): Promise<void> {
  const list = (dir: string) => listDir(root, dir, problems);
  const subDir = join(sessionDir, 'subagents');
  await collectAgentFiles(root, subDir, await list(subDir), found, problems);
  const workflows = join(subDir, 'workflows');
  for (const run of await list(workflows)) {
    if (run.isDirectory()) await collectAgentFiles(root, join(workflows, run.name), await list(join(workflows, run.name)), found, problems, true);
  }
  for (const f of await list(join(sessionDir, 'tool-results'))) {
    if (f.isFile()) found.toolResultPaths.push(join(sessionDir, 'tool-results', f.name));
  }
}

async function collectAgentFiles(root: string, dir: string, entries: Dirent[], found: SessionFolderFiles, problems: Diagnostic[], workflowRun = false): Promise<void> {
  for (const f of entries) {
    if (!f.isFile()) continue;
    if (workflowRun && f.name === WORKFLOW_JOURNAL) found.journalPaths.push(join(dir, f.name));
    if (AGENT_FILE.test(f.name)) {
      if (safeId(root, dir, f.name, agentIdFromPath(f.name), problems)) found.subagentPaths.push(join(dir, f.name));
    } else if (SIDECAR_FILE.test(f.name)) found.sidecarPaths.push(join(dir, f.name));
  }
}

/**
 * A folder's real entries, sorted by name (deterministic builds); none when it
 * does not exist. A folder that is itself a symbolic link is not listed.
 */
async function listDir(root: string, dir: string, problems: Diagnostic[]): Promise<Dirent[]> {
  let st;
  try {
    st = await lstat(dir);
  } catch {
    return [];
  }
  if (st.isSymbolicLink()) {
    problems.push(linkProblem(root, dir));
    return [];
  }
  if (!st.isDirectory()) return [];
  try {
    return keepReal(root, dir, await readdir(dir, { withFileTypes: true }), problems);
  } catch {
    return [];
  }
}

/** The sidecar path of an agent file: `agent-<id>.jsonl` → `agent-<id>.meta.json`. */
export function sidecarPathOf(agentPath: string): string {
  return agentPath.replace(/\.jsonl$/, '.meta.json');
}

/** Relative path with `/` separators on every platform. */
export function toPosix(p: string): string {
  return sep === '/' ? p : p.split(sep).join('/');
}

/** The agent id of an `agent-<id>.jsonl` file name. */
export function agentIdFromPath(path: string): string {
  return basename(path).replace(/^agent-/, '').replace(/\.jsonl$/, '');
}

/**
 * The real relative path, among `candidates`, of a file that a stored (so
 * redacted) diagnostic names: placeholders such as `[REDACTED:username]` stand
 * for one path segment's part. The build log names files by their real paths,
 * so an editor can open them; a name that matches no candidate, or several,
 * is returned as it is. The candidates are listed only for a redacted name.
 */
export function realPathOf(file: string, candidates: () => readonly string[]): string {
  if (!PLACEHOLDER.test(file)) return file;
  const pattern = new RegExp(`^${file.split(PLACEHOLDER_GLOBAL).map(escapeRegExp).join('[^/]+?')}$`);
  const found = candidates().filter((c) => pattern.test(c));
  return found.length === 1 ? found[0] : file;
}

const PLACEHOLDER = new RegExp(PLACEHOLDER_SOURCE);
const PLACEHOLDER_GLOBAL = new RegExp(PLACEHOLDER_SOURCE, 'g');
