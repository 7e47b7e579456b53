/**
 * What a command prints bare, with nothing around it to know it by. Secrets:
 * `gh auth token`, `security find-generic-password -w`, `op read`, `vault kv
 * get -field=…`, `doppler secrets get --plain`, `kubectl get secret … |
 * base64 -d`, `printenv DB_PASSWORD`. A person: `git config user.name`, `git
 * log --format=%an`, `id -F` print a name; `whoami`, `id -un`, `echo $USER`
 * a login. A session holds the command (a tool call's input) and, apart from
 * it, its output (the result that names the call); each line of that output
 * that could be such a value is one.
 */
import { isPersonName } from './rules.js';
import { isPlaceholderValue, secretNameKind } from './key-value.js';

/** What a command's output is, line by line. */
export type PrintedKind = 'secret' | 'name' | 'username';

/** Commands whose output is a secret, whatever it looks like. */
const PRINTS_SECRET = new RegExp(
  [
    String.raw`\bgh\s+auth\s+token\b`,
    String.raw`\bsecurity\s+find-(?:generic|internet)-password\b[^|;&\n]*\s-w\b`,
    String.raw`\bop\s+read\b`,
    String.raw`\bop\s+item\s+get\b[^|;&\n]*--(?:reveal|fields)`,
    String.raw`\bvault\s+(?:kv\s+get|read)\b[^|;&\n]*-field[=\s]`,
    String.raw`\bdoppler\s+secrets\s+get\b[^|;&\n]*--plain`,
    String.raw`\bkubectl\b[^;&\n]*\bsecrets?\b[^;&\n]*\|\s*base64\s+(?:-d|--decode|-D)\b`,
    String.raw`\baws\s+secretsmanager\s+get-secret-value\b[^|;&\n]*--output\s+text`,
    String.raw`\baws\s+ssm\s+get-parameters?\b[^|;&\n]*--with-decryption[^|;&\n]*--output\s+text`,
    String.raw`\bgcloud\s+secrets\s+versions\s+access\b`,
    String.raw`\baz\s+keyvault\s+secret\s+show\b[^|;&\n]*(?:-o|--output)\s+tsv`,
    String.raw`\bpass\s+show\b`,
    String.raw`\bbw\s+get\s+(?:password|notes)\b`,
  ].join('|'),
);
/** `printenv NAME`, `echo $NAME`, `echo "${NAME}"`: the variable's name decides (see {@link secretNameKind}). */
const PRINTS_VARIABLE = /\bprintenv[ \t]+([A-Za-z_]\w*)|\becho\b[^|;&\n]*?\$\{?([A-Za-z_]\w*)/g;

const MIN_LENGTH = 6;
const MAX_LENGTH = 16_384;

/** Variables that hold the login. */
const LOGIN_VARIABLES: ReadonlySet<string> = new Set(['USER', 'LOGNAME', 'USERNAME']);

/**
 * Commands whose output is a person's name: git's configured author read back
 * (a value after `user.name` sets it instead, and is known by its look), git's
 * author and committer names alone (`%an`; `%an <%ae>` is known by the
 * address), `git shortlog -s`, macOS's `id -F`.
 */
const PRINTS_NAME = new RegExp(
  [
    String.raw`\bgit\s+config\b(?:\s+--?[\w-]+)*\s+user\.name[ \t]*(?:$|[|;&)\n])`,
    String.raw`\bgit\s+(?:log|show)\b[^|;&\n]*--(?:format|pretty)[=\s](?:t?format:)?(["']?)%[ac][nN]\1(?=[\s|;&)]|$)`,
    String.raw`\bgit\s+shortlog\b[^|;&\n]*\s-[a-zA-Z]*s`,
    String.raw`\bid\s+-F\b`,
  ].join('|'),
  'm',
);
/** Commands whose output is the login: `whoami`, `id -un`, `logname`, GitHub's `gh api user -q .login`. */
const PRINTS_LOGIN = /\bwhoami\b|\bid\s+-(?:un|nu|u\s+-n|n\s+-u)\b|\blogname\b|\bgh\s+api\s+user\b[^|;&\n]*(?:--jq|-q)[ \t]+['"]?\.login\b/;

/** Whether a shell command prints a secret and nothing else worth keeping. */
export function printsSecret(command: string): boolean {
  return printedKinds(command).has('secret');
}

/** What a shell command prints bare: a secret, a person's name, a login (several, for `whoami; git config user.name`). */
export function printedKinds(command: string): Set<PrintedKind> {
  const kinds = new Set<PrintedKind>();
  if (PRINTS_SECRET.test(command)) kinds.add('secret');
  if (PRINTS_NAME.test(command)) kinds.add('name');
  if (PRINTS_LOGIN.test(command)) kinds.add('username');
  for (const m of command.matchAll(PRINTS_VARIABLE)) {
    const name = m[1] ?? m[2];
    if (LOGIN_VARIABLES.has(name)) kinds.add('username');
    else if (secretNameKind(name) !== undefined) kinds.add('secret');
  }
  return kinds;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The lines printed by the commands of `values` (session entries, any depth)
 * that print a secret, a name or a login (see {@link printedKinds}): in the
 * results of those tool calls, and in Claude Code's copy of their standard
 * output beside them. Each line is taken only if it reads as its kind: a line
 * with a blank inside (a message, a table) is no secret, a name is two to
 * four capitalised words, a login one word.
 */
export function printedValues(values: unknown[]): Record<PrintedKind, string[]> {
  const calls = new Map<string, Set<PrintedKind>>();
  const records: Obj[] = [];
  // Iterative: entries nest a few levels, but nothing here may recurse per level of a hostile line.
  const stack: unknown[] = [...values];
  while (stack.length) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      for (const v of node) if (v !== null && typeof v === 'object') stack.push(v);
      continue;
    }
    if (!isObj(node)) continue;
    if (node.type === 'tool_use' && typeof node.id === 'string' && isObj(node.input) && typeof node.input.command === 'string') {
      const kinds = printedKinds(node.input.command);
      if (kinds.size) calls.set(node.id, kinds);
    }
    if (node.type === 'tool_result' || 'toolUseResult' in node) records.push(node);
    for (const v of Object.values(node)) if (v !== null && typeof v === 'object') stack.push(v);
  }
  const out: Record<PrintedKind, Set<string>> = { secret: new Set(), name: new Set(), username: new Set() };
  if (calls.size) {
    const take = (text: unknown, kinds: Set<PrintedKind>) => {
      if (typeof text === 'string') for (const line of text.split(/\r?\n/)) for (const kind of kinds) addLine(out[kind], kind, line.trim());
      else if (Array.isArray(text)) for (const block of text) if (isObj(block) && typeof block.text === 'string') take(block.text, kinds);
    };
    for (const r of records) {
      const own = r.type === 'tool_result' && typeof r.tool_use_id === 'string' ? calls.get(r.tool_use_id) : undefined;
      if (own) take(r.content, own);
      // A user entry: its results, and toolUseResult's stdout when one of them is such a call's.
      const content = isObj(r.message) && Array.isArray(r.message.content) ? r.message.content : [];
      if (!isObj(r.toolUseResult)) continue;
      for (const b of content) {
        const kinds = isObj(b) && b.type === 'tool_result' && typeof b.tool_use_id === 'string' ? calls.get(b.tool_use_id) : undefined;
        if (kinds) take(r.toolUseResult.stdout, kinds);
      }
    }
  }
  return { secret: [...out.secret], name: [...out.name], username: [...out.username] };
}

/** The lines printed by the commands of `values` that print a secret (see {@link printedValues}). */
export function printedSecrets(values: unknown[]): string[] {
  return printedValues(values).secret;
}

/** `git shortlog -s` puts a count before each name. */
const SHORTLOG_COUNT = /^\d+\s+/;
/** A login as systems allow it. */
const LOGIN = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,31}$/;

function addLine(out: Set<string>, kind: PrintedKind, line: string): void {
  if (kind === 'name') {
    const name = line.replace(SHORTLOG_COUNT, '');
    if (isPersonName(name)) out.add(name);
    return;
  }
  if (kind === 'username') {
    if (LOGIN.test(line)) out.add(line);
    return;
  }
  if (line.length < MIN_LENGTH || line.length > MAX_LENGTH || /\s/.test(line) || isPlaceholderValue(line)) return;
  out.add(line);
}
