/**
 * The one display name of a project: the index group, the session label, the
 * search filter and the page title all use it. It comes only from redacted
 * values (the project path is redacted before it gets here, and the folder
 * name goes through the same login-name removal as the project's URL slug), so
 * a name can never carry a username. URL slugs are not derived from it, so a
 * better name never breaks a link.
 */
import { redactProjectFolder, usernamesFromFolder } from '../redact/usernames.js';
import { decodeProjectFolder } from '../transcript/build-session.js';

/** Folder names that hold projects rather than name one: a name is more than `work/` or `src/`. */
const CONTAINERS: ReadonlySet<string> = new Set([
  'home', 'users', 'user', 'src', 'source', 'sources', 'dev', 'code', 'work', 'workspace', 'workspaces', 'projects',
  'project', 'repos', 'repo', 'repositories', 'git', 'github', 'gitlab', 'development', 'documents', 'desktop',
  'tmp', 'temp', 'var', 'opt', 'srv', 'mnt', 'volumes', 'private', 'sites', 'www', 'apps', 'packages', 'workspaces',
]);

/** The fallback when nothing in a folder or path names the project. */
const UNNAMED = 'sessions';

/**
 * Claude Code's folder encoding of a path: every character other than a
 * letter or digit becomes `-`. A redacted home (`~`) is left out, as the
 * username is left out of a redacted folder name.
 */
export function encodePath(path: string): string {
  return path.replace(/^~(?=[\\/]|$)/, '').replace(/[^A-Za-z0-9]/g, '-');
}

/** A path's parts, with home markers, drive letters and leading dashes (from a mangled path) removed. */
function pathParts(path: string): string[] {
  return path
    .split(/[\\/]+/)
    .map((s) => s.replace(/^-+/, '').trim())
    .filter((s) => s && s !== '~' && !/^[A-Za-z]:$/.test(s));
}

/** The last part of a path, with its parent when the parent names something (not `work/`, `src/`…). */
function nameFromParts(parts: string[]): string {
  const last = parts[parts.length - 1];
  if (!last) return '';
  const parent = parts[parts.length - 2];
  return parent && !CONTAINERS.has(parent.toLowerCase()) ? `${parent}/${last}` : last;
}

/**
 * The folder the session was started in: `cwd` or the ancestor of it whose
 * encoding is the (redacted) project folder (a session may have moved into a
 * subfolder); undefined when no part of `cwd` encodes to the folder.
 */
export function launchFolder(redactedFolder: string, cwd: string): string | undefined {
  // A session started in the home folder itself: its folder is `-home` once redacted, its cwd `~`.
  const target = redactedFolder === '-home' ? '' : redactedFolder;
  const cuts = [...cwd.matchAll(/[\\/]+/g)].map((m) => m.index);
  const ancestors = [cwd, ...cuts.reverse().map((i) => cwd.slice(0, i))];
  return ancestors.find((path) => path && encodePath(path) === target);
}

/**
 * A name from the encoded folder alone. Dashes may have been slashes or part
 * of a name and nothing tells which, so the folder stays one word; only leading
 * container folders (`-work-`, `-src-`) are dropped.
 */
function nameFromFolder(redactedFolder: string): string {
  const encoded = redactedFolder.startsWith('-');
  const words = redactedFolder.replace(/^-+/, '').split('-');
  while (encoded && words.length > 1 && (CONTAINERS.has(words[0].toLowerCase()) || words[0] === '')) words.shift();
  return words.join('-').replace(/^-+|-+$/g, '');
}

/**
 * The login name removed from an encoded project folder, exactly as for the
 * project's URL slug, plus any other known login name.
 */
export function redactedProjectFolder(projectFolder: string, usernames: string[] = []): string {
  return redactProjectFolder(projectFolder, [...new Set([...usernamesFromFolder(projectFolder), ...usernames])]);
}

/**
 * The display name of a project from its encoded folder (already redacted, see
 * `redactedProjectFolder`) and a session's redacted working directory: the
 * last one or two meaningful parts of the folder the session was started in
 * when `cwd` encodes to the folder; otherwise the folder decoded as one name.
 * Every session of a folder whose `cwd` matches it gets the same name, and so
 * does every session whose `cwd` does not (or that has none). Never starts with
 * a dash.
 */
export function projectName(redactedFolder: string, cwd?: string): string {
  if (cwd) {
    const launched = launchFolder(redactedFolder, cwd);
    if (launched !== undefined) return nameFromParts(pathParts(launched)) || 'home';
  }
  if (redactedFolder === '-home') return 'home';
  return nameFromFolder(redactedFolder) || UNNAMED;
}

/** Something that can redact a string the way a session was redacted. */
export interface NameRedactor {
  redactText(text: string): string;
  knownUsernames(): string[];
}

/** A raw project folder with the login name taken out (as for its slug), then redacted like its session. */
export function sessionFolder(projectFolder: string, redactor: NameRedactor): string {
  return redactor.redactText(redactedProjectFolder(projectFolder, redactor.knownUsernames()));
}

/**
 * The session's (redacted) working directory, or undefined when the model had
 * none: without a cwd it falls back to the folder decoded as a path, which
 * guesses every dash to be a slash, and that guess is not a cwd.
 */
export function sessionCwd(projectFolder: string, projectPath: string, redactor: NameRedactor, homeName?: string): string | undefined {
  return projectPath === redactor.redactText(decodeProjectFolder(projectFolder, homeName)) ? undefined : projectPath;
}

/**
 * The project name of one session, from its raw project folder and its
 * already redacted project path; the folder is redacted here first, so the
 * name holds redacted values only.
 */
export function sessionProjectName(projectFolder: string, projectPath: string, redactor: NameRedactor, homeName?: string): string {
  // Naming by a guessed cwd would differ from the other sessions of the folder.
  return projectName(sessionFolder(projectFolder, redactor), sessionCwd(projectFolder, projectPath, redactor, homeName));
}
