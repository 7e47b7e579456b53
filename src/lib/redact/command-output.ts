/**
 * Secrets a command prints bare, with nothing around them to know them by:
 * `gh auth token`, `security find-generic-password -w`, `op read`, `vault kv
 * get -field=…`, `doppler secrets get --plain`, `kubectl get secret … |
 * base64 -d`, `printenv DB_PASSWORD`. A session holds the command (a tool
 * call's input) and, apart from it, its output (the result that names the
 * call); each line of that output that could be a secret is one.
 */
import { isPlaceholderValue, secretNameKind } from './key-value.js';

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

/** Whether a shell command prints a secret and nothing else worth keeping. */
export function printsSecret(command: string): boolean {
  if (PRINTS_SECRET.test(command)) return true;
  for (const m of command.matchAll(PRINTS_VARIABLE)) if (secretNameKind(m[1] ?? m[2]) !== undefined) return true;
  return false;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The lines printed by the commands of `values` (session entries, any depth)
 * that print a secret: the results of those tool calls, and Claude Code's copy
 * of their standard output beside them. A line with a blank inside (a message,
 * a table) is no secret.
 */
export function printedSecrets(values: unknown[]): string[] {
  const calls = new Set<string>();
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
    if (node.type === 'tool_use' && typeof node.id === 'string' && isObj(node.input) && typeof node.input.command === 'string' && printsSecret(node.input.command)) calls.add(node.id);
    if (node.type === 'tool_result' || 'toolUseResult' in node) records.push(node);
    for (const v of Object.values(node)) if (v !== null && typeof v === 'object') stack.push(v);
  }
  if (!calls.size) return [];
  const out = new Set<string>();
  const take = (text: unknown) => {
    if (typeof text === 'string') for (const line of text.split(/\r?\n/)) addLine(out, line.trim());
    else if (Array.isArray(text)) for (const block of text) if (isObj(block) && typeof block.text === 'string') take(block.text);
  };
  for (const r of records) {
    if (r.type === 'tool_result' && typeof r.tool_use_id === 'string' && calls.has(r.tool_use_id)) take(r.content);
    // A user entry: its results, and toolUseResult's stdout when one of them is such a call's.
    const content = isObj(r.message) && Array.isArray(r.message.content) ? r.message.content : [];
    if (content.some((b) => isObj(b) && b.type === 'tool_result' && typeof b.tool_use_id === 'string' && calls.has(b.tool_use_id)) && isObj(r.toolUseResult)) take(r.toolUseResult.stdout);
  }
  return [...out];
}

function addLine(out: Set<string>, line: string): void {
  if (line.length < MIN_LENGTH || line.length > MAX_LENGTH || /\s/.test(line) || isPlaceholderValue(line)) return;
  out.add(line);
}
