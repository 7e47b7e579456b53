import { detectAuthorization, detectBase64, detectCommandLines, detectCookies, detectCredentialFiles, detectMarkedSecrets, detectNameValuePairs, detectQueryStrings } from './formats.js';
import { detectKeyValues, isSecretValue } from './key-value.js';
import { detectProviders } from './providers.js';

/**
 * Our own detection rules, next to secretlint's: the things secretlint does not
 * look for (e-mail addresses, home paths, credentials in any URL, assignments
 * to secret-looking names, JWTs, AWS key ids, Google API keys, private key
 * blocks split across strings). Each rule has a cheap pre-check so that the
 * regex only runs on strings that can match.
 */

/**
 * Called for each secret value found: the value is later replaced wherever it
 * occurs. Values with the same `group` (the lines of one private key) share
 * one placeholder.
 */
export type ValueSink = (rule: string, value: string, group?: string) => void;

/** Rule name used for rewritten home paths (`/home/ada` → `~`). */
export const HOME_PATH_RULE = 'home-path';
export const USERNAME_RULE = 'username';
export const NAME_RULE = 'name';
export const PRIVATE_KEY_RULE = 'private-key';

/** A placeholder written by the redactor; never redacted again. */
export const PLACEHOLDER_SOURCE = String.raw`\[REDACTED:[a-z0-9-]+(?:#\d+)?\]`;
const PLACEHOLDER = new RegExp(`^${PLACEHOLDER_SOURCE}$`);

/**
 * A terminal escape sequence (a colour, say) ending right before a match, as in
 * `ESC[90m/home/ada`: its last character is a letter, but the match after it is
 * no part of a longer word. Also written out, as shells and JSON text have it:
 * `\u001b[`, `\x1b[`, `\033[`, `\e[`.
 */
const TERMINAL_ESCAPE_SOURCE = String.raw`(?:\x1b|\\u001[bB]|\\x1[bB]|\\033|\\e)\[[0-9;?]*[A-Za-z]`;
const TERMINAL_ESCAPE_AT_END = new RegExp(`${TERMINAL_ESCAPE_SOURCE}$`);

/** Whether a terminal escape sequence ends at `index` of `s`. */
export function terminalEscapeEndsAt(s: string, index: number): boolean {
  return TERMINAL_ESCAPE_AT_END.test(s.slice(Math.max(0, index - 24), index));
}

/**
 * Where a home folder sits below another folder: Windows' under WSL
 * (`/mnt/c/Users/<name>`), Cygwin and Git Bash (`/cygdrive/c/Users`,
 * `/c/Users`), macOS's data volume and other volumes
 * (`/System/Volumes/Data/Users/<name>`, `/Volumes/Backup/Users/<name>`),
 * Fedora Atomic's `/var/home`, Solaris's `/export/home`, FreeBSD's `/usr/home`
 * (where `/home` links to it, so resolved paths print it), a WSL distribution
 * seen from Windows (`//wsl$/Ubuntu/home/<name>`, `//wsl.localhost/…`).
 */
const MOUNT_PREFIX = String.raw`(?:/mnt/[a-z]|/cygdrive/[a-z]|/[a-z](?=/Users/)|/var|/export|/usr|/System/Volumes/Data|/Volumes/[^/\n"'\\]{1,64}|//wsl(?:\$|\.localhost)/[^/\s"'\\]{1,64})?`;

/**
 * Homes behind a word character, which the path rule leaves for that reason:
 * VS Code's remote authorities (`vscode-remote://wsl+Ubuntu/home/<name>`,
 * `ssh-remote+host`, `dev-container+…`), a WSL distribution's share with
 * backslashes (`\\wsl$\Ubuntu\home\<name>`, doubled in JSON text) and a
 * Windows network home (`\\server\home\<name>`, `\\nas\users\<name>`, the
 * share a home drive maps). Their names are learnt, and replaced wherever
 * they appear; in the replacement pass these prefixes made the home rule
 * three times as slow.
 */
const HIDDEN_HOME = new RegExp(String.raw`(?:(?:wsl|ssh-remote|dev-container|attached-container|codespaces|tunnel|k8s-container)\+[^/\s"'\\]{1,256}/(?:home|Users)/|\\{2,8}wsl(?:\$|\.localhost)\\{1,4}[^\\/\s"']{1,64}\\{1,4}home\\{1,4}|(?<![\w:.$\\-])\\{2,8}[A-Za-z0-9][A-Za-z0-9.-]{0,62}\\{1,4}(?:[Hh]omes?|[Uu]sers)\$?\\{1,4})([A-Za-z0-9_](?:[A-Za-z0-9._-]*[A-Za-z0-9_])?)`, 'g');

/** The name part of a home path. */
const HOME_NAME_PART = String.raw`[A-Za-z0-9_](?:[A-Za-z0-9._-]*[A-Za-z0-9_])?`;
const HOME_NAME = `(${HOME_NAME_PART})`;
/**
 * A Windows user folder's name, which may hold blanks (`C:\Users\Ada
 * Lovelace\`, a local account's name): up to three more capitalised words,
 * and only when a separator follows, so that `C:\Users\ada is …` in a
 * sentence stays a one-word name.
 */
const WINDOWS_HOME_NAME = String.raw`(${HOME_NAME_PART}(?: [A-Z][A-Za-z0-9._-]*){1,3}(?=\\|/)|${HOME_NAME_PART})`;
const WINDOWS_HOME_PREFIX = String.raw`[A-Za-z]:(?:\\{1,4}|/)Users(?:\\{1,4}|/)`;

/**
 * `/home/<name>`, `/Users/<name>`, `C:\Users\<name>` (also with the doubled
 * backslashes of JSON text and with forward slashes), also below a
 * {@link MOUNT_PREFIX}. Group 1 is a Unix name, group 2 a
 * Windows one. Not after a word character, so `https://host/home/x` stays,
 * unless that character ends a terminal escape sequence.
 */
export const HOME_PATH_SOURCE = String.raw`(?:(?:(?<![\w.~-])|(?<=${TERMINAL_ESCAPE_SOURCE}))${MOUNT_PREFIX}/(?:home|Users)/${HOME_NAME}|(?:(?<![A-Za-z0-9])|(?<=${TERMINAL_ESCAPE_SOURCE}))${WINDOWS_HOME_PREFIX}${WINDOWS_HOME_NAME})`;

const HOME_PATH = new RegExp(HOME_PATH_SOURCE, 'g');

/**
 * Another user's home in the shell's notation, as a path: `~ada/notes`,
 * `https://host/~ada/` (`~/`, `HEAD~2/` and `~1.5 s` name nobody). Only before
 * a slash: `~half done` is prose, not a home.
 */
const TILDE_HOME = /(?<![\w~])~([A-Za-z_][A-Za-z0-9_.-]{0,31})(?=\/)/g;

/** What the lines of {@link LOGIN_LINE} hold, cheaply: most strings have none of it. */
const LOGIN_HINT = /ogged in|uid=\d|uccessfully authenticated|Welcome to GitLab|ssh-|ecdsa-/;
/**
 * Lines that name the account at the keyboard, which need not be the home's
 * name: `gh auth status` (`Logged in to github.com account ada`, older `as
 * ada`), `npm login` (`Logged in as ada on https://…`), GitHub's and GitLab's
 * answers to `ssh -T` (`Hi ada! You've successfully authenticated`, `Welcome
 * to GitLab, @ada!`), `id` (`uid=1000(ada)`), and the `user@host` comment
 * that ends a public key line. The login is the first group that matched.
 */
const LOGIN_LINE = new RegExp(
  [
    String.raw`\bLogged in to [\w.-]+ (?:account|as) ([A-Za-z0-9][A-Za-z0-9_.-]{0,38})\b`,
    String.raw`\bLogged in as ([A-Za-z0-9][A-Za-z0-9_.-]{0,38}) on https?://`,
    String.raw`\bHi ([A-Za-z0-9][A-Za-z0-9_.-]{0,38})! You've successfully authenticated`,
    String.raw`\bWelcome to GitLab, @([A-Za-z0-9][A-Za-z0-9_.-]{0,254})!`,
    // A person's account only: from 1000 on Linux, 501 on macOS (a service's, such as postgres at 999 in its image, names no one).
    String.raw`\buid=(?:5\d\d|[1-9]\d{3}|[1-5]\d{4})\(([A-Za-z_][A-Za-z0-9_.-]{0,31})\)`,
    String.raw`\b(?:ssh-(?:ed25519|rsa|dss)|ecdsa-sha2-nistp\d{3}|sk-ssh-ed25519@openssh\.com) AAAA[A-Za-z0-9+/]{40,}={0,2} ([A-Za-z_][A-Za-z0-9_.-]{0,31})@[A-Za-z0-9.-]+`,
  ].join('|'),
  'g',
);

/**
 * An escaped character: percent-encoded (once or twice: `%2F`, `%252F`), a
 * JSON or code escape (`\n`, `\"`, `\/`, `\u002F`, `\x2F`), an HTML
 * character reference (`&#x2F;`, `&#47;`).
 */
const ESCAPE = /%(?:25)?[0-9A-Fa-f]{2}|\\(?:u[0-9A-Fa-f]{4}|x[0-9A-Fa-f]{2}|[nrtbf"'/\\])|&#(?:[xX][0-9A-Fa-f]{1,6}|\d{1,7});/g;
const SIMPLE_ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', '"': '"', "'": "'", '/': '/', '\\': '\\' };

function unescapeOne(m: string): string {
  if (m[0] === '%') return String.fromCharCode(parseInt(m.slice(-2), 16));
  if (m[0] === '&') {
    const code = m[2] === 'x' || m[2] === 'X' ? parseInt(m.slice(3, -1), 16) : parseInt(m.slice(2, -1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
  }
  if (m[1] === 'u' || m[1] === 'x') return String.fromCharCode(parseInt(m.slice(2), 16));
  return SIMPLE_ESCAPES[m[1]] ?? m;
}

/**
 * The text with its escaped characters written plainly, or undefined when it
 * has none. A value right after an escape (`token%3Dghp_…`, `\nghp_…`,
 * `%2FUsers%2Fada`) reads as the tail of a word in the text as it is, and
 * every rule that wants a word to start would pass it by; in this view it
 * starts one. Only for finding values: they are then replaced in the text as
 * it is.
 */
export function unescapedView(s: string): string | undefined {
  if (!s.includes('%') && !s.includes('\\') && !s.includes('&#')) return undefined;
  let changed = false;
  const out = s.replace(ESCAPE, (m) => {
    const c = unescapeOne(m);
    if (c !== m) changed = true;
    return c;
  });
  return changed ? out : undefined;
}

/**
 * {@link HOME_PATH_SOURCE} split in two and without the lookbehinds, for the
 * replacement pass, which checks the character before a match itself: a
 * lookbehind at every position made that pass twice as slow.
 */
export const UNIX_HOME_SOURCE = String.raw`${MOUNT_PREFIX}/(?:home|Users)/${HOME_NAME}`;
export const WINDOWS_HOME_SOURCE = `${WINDOWS_HOME_PREFIX}${WINDOWS_HOME_NAME}`;

/** A private key block: BEGIN … END, or BEGIN and the base64 lines that follow when the END is in another string. */
const PEM_BLOCK =
  /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----(?:(?:(?!-----BEGIN )[\s\S]){0,16384}?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|(?:(?:\r?\n|\\+r?\\+n|[ \t]+)(?:[A-Za-z0-9+/=]{16,}(?=\r?\n|\\+[rn]|["'`\s]|$)|[A-Za-z0-9+/=]+$))*)/g;

/** The tail of a block whose BEGIN is in another string: base64 lines up to END. */
const PEM_TAIL =
  /(?<![A-Za-z0-9+/=])(?:[A-Za-z0-9+/=]{4,}(?:\r?\n|\\+r?\\+n))+-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/g;

const BASE64_LINE = /[A-Za-z0-9+/=]{20,}/g;

/**
 * Finds private key blocks (and tails of blocks) in a string.
 * Returns `[start, end]` ranges and the base64 lines of each, which are
 * secrets wherever else they show up.
 */
export function findPrivateKeyBlocks(s: string): Array<{ start: number; end: number; lines: string[] }> {
  if (!s.includes('PRIVATE KEY')) return [];
  const out: Array<{ start: number; end: number; lines: string[] }> = [];
  const add = (start: number, text: string): void => {
    const body = text.replace(/-----(?:BEGIN|END) [A-Z0-9 ]*-----/g, ' ').replace(/\\+[rn]/g, ' ');
    const lines = body.match(BASE64_LINE) ?? [];
    // A bare header (in code or docs that merely name the format) holds no key.
    if (!lines.length) return;
    out.push({ start, end: start + text.length, lines });
  };
  for (const m of s.matchAll(PEM_BLOCK)) add(m.index, m[0]);
  for (const m of s.matchAll(PEM_TAIL)) {
    if (out.some((b) => m.index < b.end && m.index + m[0].length > b.start)) continue;
    add(m.index, m[0]);
  }
  return out.sort((a, b) => a.start - b.start);
}

/** A Remote Control session link, `https://claude.ai/code/<session id>`: group 1 is the id (and any query after it). */
const REMOTE_CONTROL_URL = /claude\.ai\/code\/((?:session_)?[A-Za-z0-9_-]{12,}(?:\?[^\s"'<>]*)?)/g;
const JWT = /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.ey[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{10,}/g;
const AWS_KEY_ID = /(?<![A-Z0-9])(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9])/g;
const GOOGLE_API_KEY = /(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])/g;

/** The domain of an address, matched at the position after `@` (sticky). */
const EMAIL_DOMAIN = /(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24}(?![A-Za-z0-9-])/y;

/** Characters of an address's local part: `A-Z a-z 0-9 . _ % + -`. */
const LOCAL_CHAR = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._%+-') LOCAL_CHAR[c.charCodeAt(0)] = 1;
const isAlnum = (code: number): boolean => (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);

/**
 * E-mail addresses in a string: `local@domain.tld` with a local part of at
 * most 64 characters starting with a letter or digit. Works outward from each
 * `@` instead of running a regex from every letter, which was the costliest
 * of our rules on real sessions.
 */
export function findEmails(s: string): Array<{ index: number; value: string }> {
  const out: Array<{ index: number; value: string }> = [];
  for (let at = s.indexOf('@'); at !== -1; at = s.indexOf('@', at + 1)) {
    let start = at;
    while (start > 0 && at - start <= 64) {
      const code = s.charCodeAt(start - 1);
      if (code >= 128 || !LOCAL_CHAR[code]) break;
      start--;
    }
    // The whole run of local-part characters must be the local part (as a lookbehind would demand).
    if (start === at || at - start > 64 || !isAlnum(s.charCodeAt(start))) continue;
    if (start > 0) {
      const before = s.charCodeAt(start - 1);
      if (before < 128 && LOCAL_CHAR[before]) continue;
    }
    EMAIL_DOMAIN.lastIndex = at + 1;
    const m = EMAIL_DOMAIN.exec(s);
    if (m) out.push({ index: start, value: s.slice(start, at + 1 + m[0].length) });
  }
  return out;
}

/** Domains that only appear in examples and addresses that belong to tools, not people. */
const EMAIL_IGNORED_DOMAINS = /(?:^|\.)(?:example\.(?:com|org|net)|example|test|invalid|localhost|local)$/i;
const EMAIL_IGNORED_ADDRESSES = new Set(['noreply@anthropic.com', 'noreply@github.com']);
/** `icon@2x.png`, `file@v2.json`: file names, not addresses. */
const FILE_EXTENSION_TLD =
  /\.(?:png|jpe?g|gif|svg|webp|avif|ico|bmp|js|mjs|cjs|ts|mts|cts|tsx|jsx|css|scss|sass|less|json|jsonl|md|mdx|html?|txt|py|rb|go|rs|java|kt|swift|lock|ya?ml|toml|map|woff2?|ttf|otf|wasm|zip|gz|tar|pdf|csv|log|sh|vue|svelte|astro)$/i;

/** `scheme://user:password@host` (the user may be empty: `redis://:password@host`): group 1 is `user:password`, group 3 the password. */
const URL_CREDENTIALS = /\b[a-zA-Z][a-zA-Z0-9+.-]{1,30}:\/\/(([^\s:/@'"`<>()[\]{}\\]*):([^\s/@'"`<>()[\]{}\\]+))@(?=[A-Za-z0-9[])/g;

/**
 * Whether a value assigned to a secret-looking name looks like a secret and
 * not like code (`process.env.TOKEN`, `string`, `${{ secrets.X }}`) or a
 * placeholder. Kept for callers; the name-based scan is in `key-value.ts`.
 */
export function looksLikeSecretValue(v: string): boolean {
  return isSecretValue(v, 'token');
}

/** An extra pattern from the configuration, compiled. */
export interface CompiledPattern {
  name: string;
  regex: RegExp;
}

/**
 * Runs our value rules over one string and reports each secret value found.
 * Home paths, usernames and people's names are handled separately (they are
 * rewritten as words, not looked up as values): `onPerson` receives the login
 * names seen in home paths and the names people give with their e-mail
 * address or as git's author.
 */
export function detectValues(
  s: string,
  sink: ValueSink,
  onPerson: (kind: 'username' | 'name', value: string) => void,
  extra: readonly CompiledPattern[] = [],
  unescaped = false,
): void {
  if (s.length < 7) return;
  if (s.includes('PRIVATE KEY')) {
    for (const block of findPrivateKeyBlocks(s)) {
      for (const line of block.lines) sink(PRIVATE_KEY_RULE, line, block.lines[0]);
    }
  }
  if (s.includes('/home/') || s.includes('Users')) {
    for (const m of s.matchAll(HOME_PATH)) onPerson('username', m[1] ?? m[2]);
  }
  if (s.includes('+') || s.includes('\\\\')) {
    for (const m of s.matchAll(HIDDEN_HOME)) onPerson('username', m[1]);
  }
  if (s.includes('~')) {
    for (const m of s.matchAll(TILDE_HOME)) onPerson('username', m[1]);
  }
  if (LOGIN_HINT.test(s)) {
    for (const m of s.matchAll(LOGIN_LINE)) onPerson('username', m.slice(1).find((g) => g !== undefined) as string);
  }
  if (s.includes('eyJ')) {
    for (const m of s.matchAll(JWT)) {
      // Payload and signature are secrets on their own (a payload names its user).
      sink('jwt', m[0], m[0]);
      const [, payload, signature] = m[0].split('.');
      sink('jwt', payload, m[0]);
      if (signature.length >= 16) sink('jwt', signature, m[0]);
    }
  }
  if (s.includes('A')) {
    for (const m of s.matchAll(AWS_KEY_ID)) sink('aws-access-key-id', m[0]);
    if (s.includes('AIza')) for (const m of s.matchAll(GOOGLE_API_KEY)) sink('google-api-key', m[0]);
  }
  if (s.includes('claude.ai/code/')) {
    // A Remote Control link (`bridge_status` lines, 2.1.2xx): whoever holds it can reach the live session.
    for (const m of s.matchAll(REMOTE_CONTROL_URL)) sink('remote-control-url', m[1]);
  }
  // Spans of `scheme://user:password@`, where neither an address nor an assignment starts.
  let urlSpans: Array<[number, number]> | null = null;
  const inUrl = (i: number): boolean => urlSpans !== null && urlSpans.some(([a, b]) => i >= a && i < b);
  if (s.includes('@')) {
    if (s.includes('://')) {
      urlSpans = [];
      for (const m of s.matchAll(URL_CREDENTIALS)) {
        urlSpans.push([m.index, m.index + m[0].length + 1]);
        const password = m[3];
        if (!looksLikeUrlPassword(password)) continue;
        sink('url-credentials', m[1], m[1]);
        if (password.length >= 6) sink('url-credentials', password, m[1]);
      }
    }
    for (const { index, value } of findEmails(s)) {
      if (inUrl(index) || isIgnoredEmail(value)) continue;
      sink('email', value);
      if (s[index - 1] === '<') namesBeforeAddress(s.slice(Math.max(0, index - 81), index - 1), onPerson);
    }
  }
  if (MAC_HOSTNAME_HINT.test(s)) for (const m of s.matchAll(MAC_HOSTNAME)) sink('hostname', m[0]);
  if (MAC_COMPUTER_NAME_HINT.test(s)) for (const m of s.matchAll(MAC_COMPUTER_NAME)) sink('hostname', m[0]);
  if (s.includes('name') || s.includes('NAME')) {
    for (const m of s.matchAll(GIT_AUTHOR_NAME)) {
      const name = m[2] ?? m[3];
      if (isPersonName(name)) onPerson('name', name);
    }
    if (s.includes('[user]')) {
      for (const m of s.matchAll(GITCONFIG_USER_NAME)) {
        const name = m[1] ?? m[2];
        if (isPersonName(name)) onPerson('name', name);
      }
    }
    if (s.includes('email')) {
      for (const m of s.matchAll(JSON_NAME_EMAIL)) if (!isIgnoredEmail(m[2]) && isPersonName(m[1])) onPerson('name', m[1]);
    }
  }
  detectSecretsIn(s, sink, inUrl);
  for (const { name, regex } of extra) {
    regex.lastIndex = 0;
    for (const m of s.matchAll(regex)) {
      const value = m[1] ?? m[0];
      if (value && !PLACEHOLDER.test(value)) sink(name, value);
    }
  }
  // The same rules over the text unescaped (see unescapedView), after the text's own values took their numbers; once: the view's escapes, if any, were written twice.
  if (!unescaped) {
    const view = unescapedView(s);
    if (view !== undefined) detectValues(view, sink, onPerson, extra, true);
  }
}

function looksLikeUrlPassword(p: string): boolean {
  if (p.length < 3 || PLACEHOLDER.test(p)) return false;
  if (/^[$%<{[*]/.test(p) || p.includes('${')) return false;
  if (/^(?:password|passwd|pass|secret|pwd|x+|\*+|token|changeme)$/i.test(p)) return false;
  return true;
}

/** The name right before `<address>`, either way round: `Ada Lovelace`, `"Lovelace, Ada"` (a directory's display name). */
function namesBeforeAddress(before: string, onPerson: (kind: 'username' | 'name', value: string) => void): void {
  const name = NAME_BEFORE_ADDRESS.exec(before)?.[2];
  if (name) {
    if (isPersonName(name)) onPerson('name', name);
    return;
  }
  const reversed = REVERSED_NAME_BEFORE_ADDRESS.exec(before);
  if (reversed && isPersonName(`${reversed[3]} ${reversed[2]}`)) {
    onPerson('name', `${reversed[2]}, ${reversed[3]}`);
    onPerson('name', `${reversed[3]} ${reversed[2]}`);
  }
}

/** A name right before `<address>` (`Author: Ada Lovelace <ada@…>`, `Signed-off-by:`, `From: "Ada Lovelace" <…>`): group 2. */
const NAME_BEFORE_ADDRESS = /(?:^|[\s:,=(\["'])(["']?)(\p{Lu}[\p{L}'’.-]*(?: \p{Lu}[\p{L}'’.-]*){1,3})\1 ?$/u;
/** `"Lovelace, Ada" <address>`: quoted, as a display name with a comma must be; the last name in group 2, the first in 3. */
const REVERSED_NAME_BEFORE_ADDRESS = /(?:^|[\s:,=(\[])(["'])(\p{Lu}[\p{L}'’.-]*(?: \p{Lu}[\p{L}'’.-]*)?), (\p{Lu}[\p{L}'’.-]*(?: \p{Lu}[\p{L}'’.-]*)?)\1 ?$/u;
/**
 * A Mac's name as macOS makes it from its owner's: `Adas-MacBook-Pro`,
 * `Ada-Lovelaces-MacBook-Air-2` (in prompts, `uname -a`, ssh and Bonjour's
 * `.local`), and as System Settings shows it, `Ada’s MacBook Pro`. The whole
 * name is the value: the owner's part alone may be a common word.
 */
const MAC_HOSTNAME =
  /(?<![\w.-])(?:(?:[A-Z][a-z]+-){0,2}[A-Z][a-z]+s-(?:MacBook(?:-Pro|-Air)?|iMac(?:-Pro)?|Mac-mini|Mac-Pro|Mac-Studio|MBP|MBA)|(?:[a-z]+-){0,2}[a-z]+s-(?:macbook(?:-pro|-air)?|imac(?:-pro)?|mac-mini|mac-pro|mac-studio))(?:-\d{1,2})?(?![\w-])/g;
const MAC_COMPUTER_NAME = /(?<![\w.-])\p{Lu}\p{Ll}+(?: \p{Lu}\p{Ll}+){0,2}[’']s (?:MacBook(?: Pro| Air)?|iMac(?: Pro)?|Mac mini|Mac Pro|Mac Studio)(?: \(\d{1,2}\))?/gu;
/**
 * What each of the two needs besides its owner's part, looked for first: the
 * regexes are long (a lookbehind and up to three words before the model), and
 * `mac` alone is in every `machine` and `format`.
 */
const MAC_HOSTNAME_HINT = /s-(?:MacBook|iMac|Mac-|MB[PA]|macbook|imac|mac-)/;
const MAC_COMPUTER_NAME_HINT = /s (?:MacBook|iMac|Mac )/;

/**
 * git's author set by command or environment, or listed: `git config
 * user.name "Ada Lovelace"`, `GIT_AUTHOR_NAME=…`, `git config --list`'s
 * `user.name=Ada Lovelace` (unquoted: the value runs to the end of the line or
 * command). Group 2 when quoted, 3 when not.
 */
const GIT_AUTHOR_NAME = /(?:\buser\.name|\bGIT_(?:AUTHOR|COMMITTER)_NAME)(?:[ \t]*=[ \t]*|[ \t]+)(?:(["'])([^"'\r\n]{3,64}?)\1|([^"'\s=;&|][^"'\r\n=;&|]{2,63}?)(?=[ \t]*(?:["'\r\n;&|]|$)))/g;
/** The same in a git config file: `name = Ada Lovelace` within its `[user]` section (`~/.gitconfig` read or printed). Group 1 when quoted, 2 when not. */
const GITCONFIG_USER_NAME = /^[ \t]*\[user\][ \t]*\r?\n(?:[ \t]*(?!\[)[^\r\n]*\r?\n){0,16}?[ \t]*name[ \t]*=[ \t]*(?:"([^"\r\n]{3,64})"|([^"\r\n;#]{3,64}?))[ \t]*(?:[;#][^\r\n]*)?$/gm;
/** A name beside its address in JSON: `"name": "Ada Lovelace", "email": "ada@…"` (package.json's author, git APIs). */
const JSON_NAME_EMAIL = /\\?"name\\?"[ \t]*:[ \t]*\\?"([^"\\]{3,64})\\?"[ \t]*,[ \t\r\n]*\\?"email\\?"[ \t]*:[ \t]*\\?"([^"\\\s]{1,128}@[^"\\\s]{3,128})\\?"/g;
/** Words that make a two-word name a tool's or a role's, not a person's. */
const NOT_A_PERSON = /^(?:bot|bots|actions?|team|support|service|admin|administrator|notifications?|claude|anthropic|github|gitlab|code|cloud|ci|build|builds|release|releases|deploy|no|reply|noreply|the|git|dev|developers?|security|help|info|sales|system|automation|renovate|dependabot|copilot)$/i;

/**
 * Whether a name reads as a person's: two to four capitalised words, none of
 * them a tool's or a role's (`GitHub Actions`, `Release Bot`). One word is
 * never taken: `Mark` or `Will` would blank those words everywhere.
 */
export function isPersonName(name: string): boolean {
  const words = name.trim().split(' ');
  return words.length >= 2 && words.length <= 4 && name.length <= 64 && words.every((w) => /^\p{Lu}[\p{L}'’.-]*$/u.test(w) && !NOT_A_PERSON.test(w.replace(/[.'’-]/g, '')));
}

/** E-mail look-alikes that are not a person's address. */
export function isIgnoredEmail(email: string): boolean {
  const at = email.lastIndexOf('@');
  const local = email.slice(0, at).toLowerCase();
  const domain = email.slice(at + 1);
  if (local === 'git') return true; // `git@github.com:owner/repo` is an ssh host
  if (EMAIL_IGNORED_ADDRESSES.has(email.toLowerCase())) return true;
  if (EMAIL_IGNORED_DOMAINS.test(domain)) return true;
  if (FILE_EXTENSION_TLD.test(domain)) return true;
  return false;
}

/**
 * The credential rules that need no username or URL bookkeeping: provider
 * formats, names (`SECRET_KEY=…`), command lines, credential files, headers,
 * URL query strings, and base64 wrappers decoded and scanned with all of
 * them again. `inUrl` tells positions inside `scheme://user:pass@`, where no
 * assignment starts.
 */
export function detectSecretsIn(s: string, sink: ValueSink, inUrl: (i: number) => boolean = () => false, decode = true): void {
  detectProviders(s, sink);
  detectKeyValues(s, (rule, value, group) => {
    const at = s.indexOf(value);
    if (at === -1 || !inUrl(at)) sink(rule, value, group);
  });
  detectCommandLines(s, sink);
  detectCredentialFiles(s, sink);
  detectAuthorization(s, sink);
  detectCookies(s, sink);
  detectNameValuePairs(s, sink);
  detectMarkedSecrets(s, sink);
  detectQueryStrings(s, sink);
  if (!decode) return;
  detectBase64(s, sink, (text, inner) => {
    detectSecretsIn(text, inner, undefined, false);
    if (text.includes('PRIVATE KEY')) for (const block of findPrivateKeyBlocks(text)) for (const line of block.lines) inner(PRIVATE_KEY_RULE, line, block.lines[0]);
    if (text.includes('eyJ')) for (const m of text.matchAll(JWT)) inner('jwt', m[0], m[0]);
    if (text.includes('A')) for (const m of text.matchAll(AWS_KEY_ID)) inner('aws-access-key-id', m[0]);
  });
}

/** Compiles extra patterns; a bad one throws with its name, so the config error is clear. */
export function compilePatterns(patterns: ReadonlyArray<{ name: string; pattern: string; flags?: string }>): CompiledPattern[] {
  return patterns.map(({ name, pattern, flags }) => {
    const f = [...new Set(`${flags ?? ''}g`)].join('');
    try {
      return { name: slugRule(name), regex: new RegExp(pattern, f) };
    } catch (err) {
      throw new Error(`redaction pattern "${name}" is not a valid regular expression: ${(err as Error).message}`);
    }
  });
}

/** Rule names appear in placeholders, which must match {@link PLACEHOLDER_SOURCE}. */
export function slugRule(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'custom';
}
