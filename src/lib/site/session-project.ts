/**
 * Which project a session is listed under, and the worktree label it carries.
 *
 * Claude Code files a session under the folder it was started in, so a session
 * started in a git worktree (`<repo>/.worktrees/<name>`,
 * `<repo>/.claude/worktrees/<name>`, or any folder a `worktree-state` line
 * names) gets a project folder of its own. It belongs to its repository's
 * project: the slug and name are the ones the repository's own folder gets
 * (the same encoding, login-name removal and naming, see `projectSlugOf` and
 * `sessionProjectName`), so it lands in that project whether or not the
 * repository has sessions of its own. Nothing here looks at other sessions: a
 * stored entry depends on its own files only, which keeps incremental builds
 * right. The session's URL keeps its own folder's slug (`sessionEntryId`), so
 * no link breaks; only the grouping and the labels change.
 *
 * Only redacted values are compared; the raw folder is used for nothing but
 * cutting off the worktree's part, and goes through `projectSlugOf` and
 * `sessionProjectName` (which take the login name out) like any folder.
 */
import type { SessionFacts } from '../transcript/types.js';
import { decodeProjectFolder } from '../transcript/build-session.js';
import { encodePath, launchFolder, sessionCwd, sessionFolder, sessionProjectName, type NameRedactor } from './project-name.js';
import { projectSlugOf } from './slug.js';

/** The worktree a session ran in and its branch, for labels (at least one of the two). */
export interface Checkout {
  worktree?: string;
  branch?: string;
}

/** Where the repository of a worktree session is, from redacted values. */
export interface RepositoryOf {
  /** The folder in the main checkout that the session's folder mirrors (redacted), when a path tells. */
  path?: string;
  /** The repository's project folder, redacted. */
  folder: string;
  /**
   * How to get the repository's folder from the session's raw folder: cut off
   * the part that spells the worktree, add the part that spells the rest of
   * the repository's path. Absent when the two paths share nothing but the root.
   */
  swap?: { cut: string; add: string };
}

/** What a session's folder, working directory and `worktree-state` line say about a worktree. */
export interface WorktreeOrigin {
  checkout?: Checkout;
  /** Present when the session is filed under the worktree's own folder: it belongs to this repository. */
  repository?: RepositoryOf;
}

/** `<repo>[/sub]` as a worktree spells it: `<repo>/.worktrees/<name>[/sub]` or `<repo>/.claude/worktrees/<name>[/sub]`. */
const WORKTREE_PATH = /^(.+)[\\/](?:\.worktrees|\.claude[\\/]worktrees)[\\/]([^\\/]+)([\\/].*)?$/;
/** The same in an encoded folder name: `<repo>--worktrees-<name>`, `<repo>--claude-worktrees-<name>`. */
const WORKTREE_FOLDER = /^(.+)--(?:claude-)?worktrees-(.+)$/;

/** The last part of a path. */
function lastPart(path: string): string | undefined {
  return path.split(/[\\/]+/).filter(Boolean).pop();
}

/** A path without trailing separators (`/` stays `/`). */
function trimEnd(path: string): string {
  return path.replace(/(.)[\\/]+$/, '$1');
}

/** Whether `path` is `folder` or inside it. */
function isWithin(path: string, folder: string): boolean {
  return path === folder || (path.startsWith(folder) && /[\\/]/.test(path[folder.length] ?? ''));
}

/** Length of the leading path parts two paths share, ending on a part boundary (0 when only the root is shared). */
function sharedLength(a: string, b: string): number {
  let end = 0;
  for (let i = 0; ; i++) {
    const boundaryA = i === a.length || a[i] === '/' || a[i] === '\\';
    const boundaryB = i === b.length || b[i] === '/' || b[i] === '\\';
    if (boundaryA && boundaryB) end = i;
    if (i === a.length || i === b.length || (a[i] !== b[i] && !(boundaryA && boundaryB))) return end;
  }
}

/** A label from a worktree name and branch; none when both are missing. Detached (`HEAD`) is no branch. */
function checkoutOf(worktree: string | undefined, branch: string | undefined): Checkout | undefined {
  const b = branch && branch !== 'HEAD' ? branch : undefined;
  return worktree || b ? { ...(worktree ? { worktree } : {}), ...(b ? { branch: b } : {}) } : undefined;
}

/** The repository side of a worktree at `worktreePath` (whose encoding ends `folder`) that mirrors `repositoryPath`. */
function repositoryOf(folder: string, worktreePath: string, repositoryPath: string): RepositoryOf {
  const shared = sharedLength(worktreePath, repositoryPath);
  const cut = encodePath(worktreePath.slice(shared));
  if (shared === 0 || !cut || !folder.endsWith(cut)) return { path: repositoryPath, folder: encodePath(repositoryPath) };
  const add = encodePath(repositoryPath.slice(shared));
  return { path: repositoryPath, folder: folder.slice(0, folder.length - cut.length) + add, swap: { cut, add } };
}

/**
 * What a session says about a worktree, from its redacted project folder, its
 * redacted working directory (undefined when the model had none) and facts:
 * 1. a `worktree-state` line whose worktree path encodes to the folder: Claude
 *    Code filed the session under the worktree it made, and the line names the
 *    folder the session was started from (`enteredFrom`);
 * 2. a session started inside `<repo>/.worktrees/<name>` or
 *    `<repo>/.claude/worktrees/<name>` (its launch folder, from `cwd`);
 * 3. without a working directory that fits the folder, the folder name itself
 *    (`<repo>--worktrees-<name>`, `<repo>--claude-worktrees-<name>`);
 * 4. a session that entered a worktree while it ran is filed under the folder it
 *    started in: a label, no other project.
 * The branch is the worktree's, else the first the session recorded.
 */
export function worktreeOrigin(folder: string, cwd: string | undefined, facts: Pick<SessionFacts, 'worktree' | 'gitBranches'>): WorktreeOrigin | undefined {
  const w = facts.worktree;
  const firstBranch = facts.gitBranches.find((b) => b !== 'HEAD');
  if (w?.path && encodePath(trimEnd(w.path)) === folder) {
    const path = trimEnd(w.path);
    const checkout = checkoutOf(w.name ?? lastPart(path), w.branch ?? firstBranch);
    const pattern = WORKTREE_PATH.exec(path);
    const from = w.enteredFrom && !isWithin(w.enteredFrom, path) ? trimEnd(w.enteredFrom) : pattern && pattern[1] + (pattern[3] ?? '');
    return { ...(checkout ? { checkout } : {}), ...(from ? { repository: repositoryOf(folder, path, from) } : {}) };
  }
  const launched = cwd === undefined ? undefined : launchFolder(folder, cwd);
  const inside = launched ? WORKTREE_PATH.exec(launched) : null;
  if (launched && inside) return { checkout: checkoutOf(inside[2], firstBranch)!, repository: repositoryOf(folder, launched, inside[1] + (inside[3] ?? '')) };
  const named = launched ? null : WORKTREE_FOLDER.exec(folder);
  if (named) return { checkout: checkoutOf(named[2], firstBranch)!, repository: { folder: named[1], swap: { cut: folder.slice(named[1].length), add: '' } } };
  const entered = w && checkoutOf(w.name ?? (w.path ? lastPart(w.path) : undefined), w.branch);
  return entered ? { checkout: entered } : undefined;
}

/**
 * The repository's project folder in the same (raw) form as the session's:
 * the session's folder with the worktree's part swapped for the rest of the
 * repository's path, so that it gets exactly the slug and name the
 * repository's own folder gets. Falls back to the redacted folder when the
 * raw one does not end the same way.
 */
export function repositoryFolder(projectFolder: string, repository: RepositoryOf): string {
  const { swap } = repository;
  return swap && projectFolder.endsWith(swap.cut) ? projectFolder.slice(0, projectFolder.length - swap.cut.length) + swap.add : repository.folder;
}

/** The project a session is listed under, and its worktree label. */
export interface SessionProject {
  projectSlug: string;
  projectName: string;
  checkout?: Checkout;
}

/**
 * The project of one session, from its raw project folder, its redacted
 * project path and its facts: its own folder's, or for a session started in a
 * worktree, its repository's (see the module comment).
 */
export function sessionProject(projectFolder: string, projectPath: string, facts: Pick<SessionFacts, 'worktree' | 'gitBranches'>, redactor: NameRedactor, homeName?: string): SessionProject {
  const origin = worktreeOrigin(sessionFolder(projectFolder, redactor), sessionCwd(projectFolder, projectPath, redactor, homeName), facts);
  const checkout = origin?.checkout ? { checkout: origin.checkout } : {};
  const repository = origin?.repository;
  if (!repository) return { projectSlug: projectSlugOf(projectFolder, homeName), projectName: sessionProjectName(projectFolder, projectPath, redactor, homeName), ...checkout };
  const folder = repositoryFolder(projectFolder, repository);
  // Without a path the name comes from the folder alone, as for a session without a cwd.
  const path = repository.path ?? redactor.redactText(decodeProjectFolder(folder, homeName));
  return { projectSlug: projectSlugOf(folder, homeName), projectName: sessionProjectName(folder, path, redactor, homeName), ...checkout };
}

/** The words of a worktree label: `worktree 101-cjk-blns`, `branch fix/cjk`. */
export function checkoutParts(checkout: Checkout): Array<{ label: 'worktree' | 'branch'; value: string }> {
  return [
    ...(checkout.worktree ? [{ label: 'worktree' as const, value: checkout.worktree }] : []),
    ...(checkout.branch ? [{ label: 'branch' as const, value: checkout.branch }] : []),
  ];
}
