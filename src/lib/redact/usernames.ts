import { escapeRegExp } from '../escape-regexp.js';

/**
 * Where the user's login name hides in a session, and how to take it out.
 *
 * Claude Code records the working directory (`cwd`) on every entry and encodes
 * it into the project folder name (`/home/ada/work/api` → `-home-ada-work-api`),
 * so the login name is in nearly every line. The path forms are always
 * rewritten (`/home/ada/x` → `~/x`); the bare name is only blanked out when it
 * is not an ordinary word, so that "user" or "admin" in prose survives.
 */

/**
 * Login names that are also ordinary words or generic accounts: their path
 * forms are still rewritten, but the bare word is left alone in prose.
 */
export const COMMON_USERNAMES: ReadonlySet<string> = new Set([
  'user', 'users', 'admin', 'administrator', 'root', 'runner', 'ubuntu', 'dev', 'developer', 'debian',
  'ec2-user', 'centos', 'fedora', 'vagrant', 'docker', 'node', 'app', 'home', 'guest', 'test', 'tester',
  'build', 'builder', 'ci', 'jenkins', 'git', 'www', 'www-data', 'nobody', 'default', 'public', 'shared',
  'me', 'you', 'olduser', 'newuser', 'username', 'work', 'code', 'project', 'projects', 'src', 'local',
  'linuxbrew', 'pi', 'coder', 'codespace', 'vscode', 'workspace', 'main', 'master', 'demo', 'example',
  'service', 'server', 'system', 'data', 'temp', 'tmp', 'chip', 'redacted',
  // Accounts named for what they run (a deploy key's `deploy@ci`, a container's `postgres`): words in any devops session.
  'deploy', 'deployer', 'postgres', 'mysql', 'redis', 'nginx', 'apache', 'ansible', 'backup', 'daemon', 'ftp', 'mail', 'ops', 'bot',
]);

/** Folders under `/home` or `/Users` that are not a person's home. */
export const NON_PERSONAL_HOMES: ReadonlySet<string> = new Set(['Shared', 'linuxbrew', 'Guest']);

/** Shortest bare name that is blanked out: shorter ones hit too many ordinary words. */
const MIN_BARE_USERNAME = 3;

/**
 * Whether a login name is specific enough to be blanked out wherever it
 * appears as a word (not only in its path forms).
 */
export function isDistinctiveUsername(name: string): boolean {
  return (
    name.length >= MIN_BARE_USERNAME &&
    !COMMON_USERNAMES.has(name.toLowerCase()) &&
    !NON_PERSONAL_HOMES.has(name) &&
    /^[A-Za-z0-9_][A-Za-z0-9._-]*$/.test(name) &&
    // A name made only of digits is a number in every other context.
    !/^\d+$/.test(name)
  );
}

// A Windows user folder may hold blanks (`C:\\Users\\Ada Lovelace`); a cwd is a path, so the name runs to the next separator.
const CWD_HOME = /(?:^|[\\/])(?:home|Users)[\\/]+([^\\/\n]+)/;

/**
 * Candidate login names in working-directory strings such as
 * `/home/ada/work/api`, `/Users/ada` or `C:\Users\ada\src`.
 */
export function usernamesFromCwds(cwds: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const cwd of cwds) {
    if (typeof cwd !== 'string') continue;
    const m = CWD_HOME.exec(cwd);
    const name = m?.[1].trim();
    if (name && !NON_PERSONAL_HOMES.has(name)) out.add(name);
  }
  return [...out];
}

/** The home part of an encoded project folder name (`-home-`, `-Users-`, `C--Users-`): group 1. */
const FOLDER_HOME_PREFIX = /^((?:[A-Za-z]-)?-(?:home|Users)-)/;

/**
 * Candidate login name in an encoded project folder name: `-home-ada-work-api`
 * → `ada`, `-Users-ada-x` → `ada`, `C--Users-ada-x` → `ada`. The encoding turns
 * every `/` and `.` into `-`, so a name with a dash in it cannot be told apart
 * from the folder below it; the first segment is the best guess, and the real
 * name comes from `cwd` values when there are any.
 */
export function usernamesFromFolder(folder: string): string[] {
  const prefix = FOLDER_HOME_PREFIX.exec(folder)?.[1];
  const name = prefix === undefined ? '' : folder.slice(prefix.length).split('-')[0];
  return name && !NON_PERSONAL_HOMES.has(name) ? [name] : [];
}

/**
 * An encoded project folder in the home of one of `usernames` (the longest
 * that fits, as whole segments), cut in three: its home prefix (`-Users-`),
 * that login name as given (`ada.lovelace`), and what follows its encoding
 * (`-shop`, or ``).
 */
export function splitHomeFolder(folder: string, usernames: readonly string[]): { prefix: string; name: string; rest: string } | undefined {
  const prefix = FOLDER_HOME_PREFIX.exec(folder)?.[1];
  if (prefix === undefined) return undefined;
  const after = folder.slice(prefix.length);
  const name = usernames
    .filter((u) => {
      const e = encodeSegment(u);
      return e !== '' && (after === e || after.startsWith(`${e}-`));
    })
    .sort((a, b) => b.length - a.length)[0];
  return name === undefined ? undefined : { prefix, name, rest: after.slice(name.length) };
}

/**
 * The login name whose home an encoded project folder lies in, as a `cwd`
 * from one of its sessions tells it (`-Users-ada-lovelace-x` with cwd
 * `/Users/ada.lovelace/x` → `ada.lovelace`), or undefined when no cwd given
 * names the folder's home. The folder name alone would take `ada` and leave
 * `lovelace` in every URL of the project.
 */
export function homeNameOf(folder: string, cwds: Iterable<string>): string | undefined {
  return splitHomeFolder(folder, usernamesFromCwds(cwds))?.name;
}

/**
 * The forms a login name takes in a session: itself; each word of a Windows
 * folder named for its person (`Ada Lovelace`), which are names of their own
 * wherever they appear; and its project-folder encoding (`ada.lovelace` →
 * `ada-lovelace` in `-Users-ada-lovelace-x`, in every file name).
 */
export function usernameForms(name: string): string[] {
  const forms = new Set([name, encodeSegment(name)]);
  if (name.includes(' ')) for (const word of name.split(' ')) if (word) forms.add(word);
  return [...forms];
}

/** Claude Code's folder encoding of a path segment: every non-alphanumeric character becomes `-`. */
function encodeSegment(s: string): string {
  return s.replace(/[^A-Za-z0-9]/g, '-');
}

/**
 * Removes the home folder and login name from an encoded project folder name:
 * `-home-ada-work-api` → `-work-api`, `-Users-ada` → `-home`. Known usernames
 * (from `cwd` values) are preferred, since they may hold dashes; without one,
 * the segment after `home`/`Users` is taken as the name. Any distinctive
 * username left elsewhere in the name becomes `user`.
 */
export function redactProjectFolder(folder: string, usernames: readonly string[]): string {
  let out = folder;
  const prefix = FOLDER_HOME_PREFIX.exec(out);
  if (prefix) {
    const rest = out.slice(prefix[1].length);
    const known = splitHomeFolder(out, usernames);
    const name = known === undefined ? rest.split('-')[0] : encodeSegment(known.name);
    if (!NON_PERSONAL_HOMES.has(name)) {
      out = rest.slice(name.length);
      if (out === '') out = '-home';
    }
  }
  for (const u of usernames) {
    if (!isDistinctiveUsername(u)) continue;
    const enc = escapeRegExp(encodeSegment(u));
    out = out.replace(new RegExp(`(?<![A-Za-z0-9])${enc}(?![A-Za-z0-9])`, 'gi'), 'user');
  }
  return out;
}
