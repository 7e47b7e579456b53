/**
 * Secrets known by the name they are given, wherever the name appears: a
 * variable in a `.env` file or a shell, a key in JSON, YAML, TOML or INI, an
 * argument in code, a header, a command-line flag, an XML element. The scan
 * starts at a secret word (`token`, `pass`, `secret`, `key`, …), widens to the
 * whole name around it, and reads the separator and value after it by hand:
 * one cheap regex for the words, no backtracking over every identifier.
 */

/** Called for each secret value found, with the rule that names it in the placeholder. */
export type Sink = (rule: string, value: string, group?: string) => void;

/** Words that make a name a secret's name (substrings; the name is then split into words to check). */
const TRIGGER = /secret|token|pass|pwd|credential|auth|key|creds/gi;

const NAME_CHAR = /[A-Za-z0-9_.-]/;
const MAX_NAME = 64;
/**
 * The longest value read as one secret. Base64 credentials run long: a
 * service account key is about 3 KB, a kubeconfig or a certificate bundle
 * more; a cap of 1 KB let them through whole.
 */
const MAX_VALUE = 16_384;

/** Whole words (of a name split at `_`, `-`, `.` and camelCase) that hold a secret. */
const SECRET_WORDS = new Set([
  'secret', 'secrets', 'token', 'tokens', 'password', 'passwords', 'passwd', 'passphrase', 'pass', 'pwd', 'pw',
  'credential', 'credentials', 'creds', 'cred', 'auth', 'authorization', 'apikey', 'accesskey', 'privatekey',
  'secretkey', 'authkey', 'accountkey', 'masterkey', 'signingkey', 'encryptionkey', 'sharedkey', 'clientsecret',
]);
/** Word suffixes that make a compound word secret (`PGPASSWORD`, `accesstoken`, `dbpass`, `basicauth`). */
const SECRET_SUFFIX = /(?:secret|token|password|passwd|passphrase|pwd|credentials?|apikey|accesskey|privatekey|secretkey|authkey|pass|auth)$/;
/** Words that contain a secret word but are something else. */
const NOT_SECRET_WORDS = new Set([
  'tokenizer', 'tokenizers', 'tokenize', 'tokenized', 'tokenizing', 'tokenization', 'detokenize', 'detokenizer',
  'passenger', 'passengers', 'passage', 'passages', 'compass', 'bypass', 'bypassed', 'passive', 'passed', 'passes',
  'passing', 'passthrough', 'surpass', 'overpass', 'underpass', 'encompass', 'impass', 'trespass', 'classpass',
  'author', 'authors', 'authored', 'authority', 'authorities', 'authoring', 'authorship', 'authenticity',
  'keyboard', 'keyword', 'keywords', 'keystroke', 'keystrokes', 'keyframe', 'keyframes', 'keychain', 'monkey',
  'hockey', 'turkey', 'donkey', 'whiskey', 'jockey', 'keynote', 'keypad', 'keyspace', 'keymap', 'keymaps',
]);
/** The word before `key` that makes `<word> key` a secret (`api key`, `access key`, `client-key-data`). */
const KEY_PAIRS = new Set([
  'api', 'access', 'private', 'secret', 'account', 'encryption', 'encrypt', 'signing', 'master', 'client', 'shared',
  'auth', 'license', 'licence', 'deploy', 'sas', 'sa', 'subscription', 'admin', 'hmac', 'jwt', 'cookie', 'session',
  'service', 'app', 'application', 'webhook', 'consumer', 'storage', 'primary', 'secondary', 'root', 'ssh', 'gpg',
  'pgp', 'decryption', 'server', 'write', 'read', 'ingest', 'routing', 'integration', 'dev', 'prod', 'live', 'test',
]);
/** A name whose last word is one of these names something about a secret, not the secret (`TOKEN_URL`, `password_min_length`). */
const NOT_SECRET_TAIL = new Set([
  'id', 'ids', 'type', 'types', 'name', 'names', 'url', 'urls', 'uri', 'endpoint', 'path', 'paths', 'file', 'files',
  'filename', 'dir', 'directory', 'count', 'counts', 'length', 'len', 'size', 'limit', 'limits', 'max', 'min',
  'expiry', 'expires', 'expiration', 'expire', 'ttl', 'at', 'ms', 'seconds', 'secs', 'timeout', 'field', 'fields',
  'label', 'placeholder', 'hint', 'regex', 'pattern', 'format', 'policy', 'mode', 'method', 'methods', 'required',
  'enabled', 'disabled', 'enable', 'disable', 'hash', 'hashed', 'digest', 'reset', 'prompt', 'input', 'env', 'var',
  'vars', 'variable', 'location', 'source', 'provider', 'providers', 'scheme', 'scope', 'scopes', 'usage', 'kind',
  'version', 'header', 'prefix', 'suffix', 'ref', 'arn', 'manager', 'store', 'service', 'handler', 'helper', 'class',
  'status', 'state', 'error', 'errors', 'message', 'description', 'desc', 'help', 'title', 'text', 'strength', 'rule',
  'rules', 'validator', 'validation', 'index', 'indices', 'budget', 'estimate', 'ratio', 'rate', 'cost', 'price',
  'flow', 'flows', 'step', 'page', 'screen', 'form', 'view', 'test', 'tests', 'spec', 'component', 'module', 'plugin',
  'lifetime', 'duration', 'interval', 'window', 'level', 'levels', 'log', 'logs', 'length', 'position', 'pos',
  'offset', 'start', 'end', 'range', 'utils', 'util', 'config', 'cfg', 'options', 'opts', 'settings', 'set', 'list',
  'map', 'callback', 'cb', 'fn', 'func', 'function', 'key', 'keys', 'issuer', 'audience', 'algorithm', 'alg',
  'encoding', 'charset', 'command', 'cmd', 'script', 'display', 'char', 'chars', 'mask', 'masked', 'visible',
  'shown', 'changed', 'updated', 'created', 'hint', 'generator', 'exists', 'present', 'valid', 'invalid', 'ok',
  'only', 'allowed', 'used', 'spent', 'remaining', 'left', 'window', 'count', 'total', 'cached', 'cache', 'created',
]);

/** Splits a name into lower-case words: `X-Api-Key` → x, api, key; `dbPassword2` → db, password. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

/** What kind of secret a name holds, or undefined when it holds none. */
export function secretNameKind(name: string): 'password' | 'token' | 'secret' | 'api-key' | 'credential' | undefined {
  const words = nameWords(name);
  if (!words.length) return undefined;
  if (words.some((w) => NOT_SECRET_WORDS.has(w))) return undefined;
  const last = words[words.length - 1];
  // `key` alone ends `api key`, `client-key`; other tails name a property of the secret.
  if (NOT_SECRET_TAIL.has(last) && !(last === 'key' && words.length > 1 && KEY_PAIRS.has(words[words.length - 2]))) return undefined;
  let hit = false;
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (SECRET_WORDS.has(w) || SECRET_SUFFIX.test(w)) hit = true;
    else if (w === 'key' && i > 0 && KEY_PAIRS.has(words[i - 1])) hit = true;
  }
  if (!hit) return undefined;
  const joined = words.join('');
  if (/pass|pwd|pw$/.test(joined) && !/bypass|compass/.test(joined)) return 'password';
  if (/token/.test(joined)) return 'token';
  if (/secret/.test(joined)) return 'secret';
  if (/cred/.test(joined)) return 'credential';
  if (/auth/.test(joined) && !/key/.test(joined)) return 'token';
  return 'api-key';
}

/** Words that are never a password, though letters only (types, code words, placeholders). */
const NOT_PASSWORDS = new Set([
  'password', 'passwords', 'passwd', 'required', 'optional', 'undefined', 'nullable', 'string', 'strings', 'boolean',
  'integer', 'number', 'hidden', 'masked', 'redacted', 'example', 'examples', 'placeholder', 'secret', 'secrets',
  'default', 'defaults', 'disabled', 'enabled', 'none', 'null', 'empty', 'invalid', 'incorrect', 'missing', 'unknown',
  'random', 'generated', 'sensitive', 'encrypted', 'plaintext', 'hashed', 'required', 'provided', 'supplied',
  'correct', 'changeme', 'changeit', 'letmein', 'username', 'protected', 'private', 'public', 'internal',
  'readonly', 'writeonly', 'optional', 'notset', 'unset', 'unchanged', 'inherit', 'inherited', 'prompt', 'interactive',
  'keychain', 'keyring', 'environment', 'variable', 'variables', 'function', 'callback', 'promise', 'object',
  'anything', 'whatever', 'something', 'nothing', 'yourpassword', 'mypassword', 'newpassword', 'oldpassword',
  'secretpassword', 'supersecret', 'topsecret', 'password', 'credentials', 'credential', 'token', 'tokens',
  'authorization', 'authenticated', 'authentication', 'unauthorized', 'forbidden', 'expired', 'revoked', 'rotated',
  'bearer', 'basic', 'digest', 'oauth', 'session', 'cookie', 'cookies', 'header', 'headers', 'include', 'exclude',
  'omitted', 'removed', 'stripped', 'filtered', 'specified', 'configured', 'available', 'unavailable', 'reset',
  'required', 'mandatory', 'validate', 'validated', 'verified', 'confirmed', 'matches', 'mismatch', 'accepted',
  'rejected', 'success', 'failure', 'failed', 'succeeded', 'skipped', 'pending', 'ignored', 'allowed', 'denied',
]);

/** Placeholders written where a secret would be: kept as they are (they are not secrets, and showing them helps). */
export function isPlaceholderValue(v: string): boolean {
  // A placeholder, also one that a GitHub export broke up (`#\u200b2`) or cut short.
  if (v.includes('[REDACTED:') || /^\[?REDACTED\b/.test(v)) return true;
  if (/^(?:\$\{|\$\(|\{\{|<|%\(|%[A-Z_]+%$|\$[A-Za-z_]|#\{|@[A-Za-z_]+@$)/.test(v)) return true;
  // `xxx-…`, `XXXX1234`, `***…`; not a random value that happens to open `Xxxs…`.
  if (/^(.)\1+$/.test(v) || /^x+$/i.test(v) || /^[*•.·_-]+$/.test(v) || /^(?:x{3,}|\*{3,})(?![a-wyz])/i.test(v) || /(?:x{4,}|\*{4,}|\.{3}|…)$/i.test(v)) return true;
  // `your_token`, `YOUR-KEY`, `Example_…`: a word in one case; `bAr_eV…` is a random token's start.
  const word = /^(your|my|some|the|example|placeholder|changeme|redacted|dummy|fake|sample|insert|enter|put|replace|fill|todo|tbd|foo|bar|xxx)[_-]/i.exec(v)?.[1];
  if (word && /^(?:[a-z]+|[A-Z]+|[A-Z][a-z]+)$/.test(word)) return true;
  if (/[_-](?:here|goes[_-]?here|placeholder|example|redacted)$/i.test(v)) return true;
  if (/^(?:changeme|changeit|password\d*|passw0rd|secret\d*|example|placeholder|redacted|dummy|none|null|nil|undefined|true|false|empty|todo|tbd|n\/a|hunter2)$/i.test(v)) return true;
  return false;
}

/**
 * Whether a run of letters in one case reads as words run together
 * (`INTERNATIONALIZATION`, `correcthorsebattery`): about a third vowels and
 * never four consonants in a row. Random letters have a fifth vowels and long
 * consonant runs.
 */
function readsAsWords(v: string): boolean {
  const vowels = v.match(/[aeiouy]/gi)?.length ?? 0;
  return vowels / v.length >= 0.3 && !/[^aeiouy]{4}/i.test(v);
}

/**
 * Whether a value that opens with `/` is a base64 key and not a path: one
 * random base64 key in 64 opens with `/`, and `privateKey: /v…M=` is as secret
 * as any other. Base64 throughout (a file name's dot or a folder's `_` or `-`
 * is not), mixed case, and either padded, holding a `+`, or with a piece
 * between its slashes that reads as no name (`/opt/Ada/Projects2` and
 * `/Applications` are paths).
 */
function isSlashOpenedKey(v: string): boolean {
  if (v.length < 16 || !/^[A-Za-z0-9+/]+={0,2}$/.test(v)) return false;
  if (!/[a-z]/.test(v) || !/[A-Z]/.test(v)) return false;
  if ((v.endsWith('=') && v.length % 4 === 0) || v.includes('+')) return true;
  // A path is made of names; a key has at least one random piece, though a short one may read as a name by chance
  // (`/hlKt/`): one piece that is no name makes it a key.
  return !v.split('/').filter(Boolean).every(readsAsName);
}

/**
 * Whether a piece of a path reads as a name (`Projects2`, `Deploy2Key`,
 * `dataAbc`, `HTTP`): runs of digits, capitals and small letters, none a
 * single small letter, which random base64 nearly always has. Runs, not one
 * regex with alternatives, so no piece can make it backtrack.
 */
function readsAsName(piece: string): boolean {
  const runs = piece.match(/[0-9]+|[A-Z]+|[a-z]+/g) ?? [];
  return runs.join('') === piece && runs.every((r) => r.length > 1 || !/[a-z]/.test(r));
}

/**
 * Whether a value given to a secret-looking name looks like a secret and not
 * like code (`process.env.TOKEN`, `string`, `${{ secrets.X }}`), a file, a
 * placeholder or a number. Passwords may be letters only.
 */
export function isSecretValue(v: string, kind: string, quoted = true): boolean {
  if (v.length < 6 || v.length > MAX_VALUE || isPlaceholderValue(v)) return false;
  if (/^[$%<{[#*@~.&]/.test(v) || v.startsWith('\\')) return false;
  if (v.startsWith('/') && !isSlashOpenedKey(v)) return false;
  if (/[({]|\$\{|:\/\/|\s/.test(v)) return false;
  // Integrity hashes and image digests are public.
  if (/^(?:sha(?:1|224|256|384|512)[-:]|md5[-:])/i.test(v)) return false;
  // A property path or a call: `config.db.password`, `settings.SECRET_KEY`, `os.environ`.
  if (/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(v) && !/\d/.test(v)) return false;
  if (/^(?:process|os|env|self|this|config|settings|secrets|args|options|import|window|ctx|req|request|context|vars|inputs|params)\./i.test(v)) return false;
  // A file name: `client_secret.json`, `token.txt`, `id_ed25519`.
  if (/^[\w.-]+\.(?:json|ya?ml|txt|pem|key|pub|env|toml|ini|cfg|conf|crt|cer|p12|pfx|jks|js|mjs|ts|py|rb|go|sh|gpg|asc|kdbx|md)$/i.test(v)) return false;
  if (/^id_(?:rsa|dsa|ecdsa|ed25519)(?:_sk)?$/.test(v)) return false;
  const letters = /[A-Za-z]/.test(v);
  const digits = /[0-9]/.test(v);
  const symbols = /[^A-Za-z0-9]/.test(v);
  if (!letters && !digits) return false;
  // A constant's name or a reference to one: `DB_PASSWORD`, `MY_SECRET`.
  if (/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(v) && /(?:PASS|PWD|SECRET|TOKEN|KEY|CRED|AUTH)/.test(v)) return false;
  if (kind === 'password') {
    if (!letters) return v.length >= 6 && v.length <= 64;
    if (letters && !digits && !symbols) {
      // Letters only: a word that is no code word, placeholder or identifier (`newPassword`).
      return v.length >= 8 && !NOT_PASSWORDS.has(v.toLowerCase()) && !/[a-z][A-Z]/.test(v);
    }
    // snake_case words: a variable in code unless quoted.
    if (/^[a-z]+(?:[_-][a-z]+)+$/.test(v)) return quoted && !/pass|secret|token|key|cred/.test(v);
    return v.length >= 6;
  }
  if (v.length < 8) return false;
  if (!letters) return false;
  if (letters && digits) return true;
  // Letters (and symbols) only: long and mixed case, as random tokens are, or one long run that reads as no word (`UMCHKXEBMGJXQEZKGOFE`).
  if (/^[a-z]{16,}$|^[A-Z]{16,}$/.test(v)) return !readsAsWords(v);
  if (/^[a-z]+(?:[_-][a-z]+)*$/.test(v) || /^[A-Z]+(?:[_-][A-Z]+)*$/.test(v)) return false;
  return v.length >= 16 && /[a-z]/.test(v) && /[A-Z]/.test(v);
}

/** Characters that end an unquoted value. */
const UNQUOTED_END = /[\s"'`,;&<>\\|[({]/;

interface ReadValue {
  value: string;
  quoted: boolean;
  /** Index after the value. */
  end: number;
}

/**
 * Reads the value at `i`: quoted (`"…"`, `'…'`, `` `…` ``, `\"…\"` as JSON text
 * has it) up to its closing quote, or bare up to a space or delimiter.
 */
export function readValue(s: string, i: number): ReadValue | undefined {
  let j = i;
  let quote = '';
  if (s[j] === '\\' && (s[j + 1] === '"' || s[j + 1] === "'")) {
    let k = j;
    while (s[k] === '\\') k++;
    quote = s.slice(j, k + 1);
    j = k + 1;
  } else if (s[j] === '"' || s[j] === "'" || s[j] === '`') {
    quote = s[j];
    j++;
  }
  const start = j;
  if (quote) {
    const close = s.indexOf(quote, start);
    const lineEnd = s.indexOf('\n', start);
    if (close === -1 || (lineEnd !== -1 && lineEnd < close) || close - start > MAX_VALUE) return undefined;
    return { value: s.slice(start, close), quoted: true, end: close + quote.length };
  }
  while (j < s.length && j - start <= MAX_VALUE && !UNQUOTED_END.test(s[j])) j++;
  // Punctuation that closes the surrounding code rather than the value.
  let end = j;
  while (end > start && /[)\]}.:!?]/.test(s[end - 1])) end--;
  return { value: s.slice(start, end), quoted: false, end: j };
}

/**
 * Reads the separator after a name at `i`: a closing quote of a quoted key,
 * then `=`, `:`, `:=`, `=>` (not `==`, `::` or `://`), or — after a
 * command-line flag (`--password X`) or a netrc word — blanks. Returns the
 * index of the value, or -1.
 */
function afterSeparator(s: string, i: number, flag: boolean): number {
  let j = i;
  // The closing quote (or escaped quote) of a quoted key, and `]` of `ENV["TOKEN"]`.
  while (j < s.length && j - i < 4 && (s[j] === '\\' || s[j] === '"' || s[j] === "'" || s[j] === '`')) j++;
  if (s[j] === ']') j++;
  if (s[j] === '?') j++; // `password?: string`
  const blankStart = j;
  while (s[j] === ' ' || s[j] === '\t') j++;
  const c = s[j];
  if (c === '=') {
    if (s[j + 1] === '=' || s[j + 1] === '~') return -1;
    const p = s[blankStart - 1];
    if (p === '!' || p === '<' || p === '>') return -1;
    j += s[j + 1] === '>' ? 2 : 1;
  } else if (c === ':') {
    if (s[j + 1] === ':' || (s[j + 1] === '/' && s[j + 2] === '/')) return -1;
    j += s[j + 1] === '=' ? 2 : 1;
  } else if (flag && j > blankStart && c !== undefined && c !== '\n' && c !== '-') {
    return j;
  } else return -1;
  while (s[j] === ' ' || s[j] === '\t') j++;
  return j;
}

/** Value-kind rule name in the placeholder. */
function ruleOf(kind: string): string {
  return kind;
}

/**
 * Finds `name <sep> value` pairs whose name holds a secret word and whose
 * value looks like a secret; reports each value once.
 */
export function detectKeyValues(s: string, sink: Sink): void {
  TRIGGER.lastIndex = 0;
  let skipTo = 0;
  for (let m = TRIGGER.exec(s); m !== null; m = TRIGGER.exec(s)) {
    if (m.index < skipTo) continue;
    let a = m.index;
    while (a > 0 && m.index - a < MAX_NAME && NAME_CHAR.test(s[a - 1])) a--;
    let b = m.index + m[0].length;
    while (b < s.length && b - m.index < MAX_NAME && NAME_CHAR.test(s[b])) b++;
    skipTo = b;
    TRIGGER.lastIndex = b;
    let name = s.slice(a, b);
    // A flag: `--db-password`, `-password` after a blank or at the start.
    const flag = /^--?[A-Za-z]/.test(name) && (a === 0 || /[\s'"=]/.test(s[a - 1]));
    name = name.replace(/^[-.]+|[-.]+$/g, '');
    // `$TOKEN` / `${TOKEN}` read a variable; a name in a path (`/run/secrets/token`) is no assignment.
    if (a > 0 && s[a - 1] === '/') continue;
    const kind = secretNameKind(name);
    if (!kind) continue;
    const at = afterSeparator(s, b, flag);
    if (at < 0) continue;
    const read = readValue(s, at);
    if (!read) continue;
    // A call, index or member access right after a bare value is code: `token = getToken()`.
    if (!read.quoted && /[([{.]/.test(s[read.end] ?? '')) continue;
    if (isSecretValue(read.value, kind, read.quoted)) {
      sink(ruleOf(kind), read.value);
      skipTo = read.end;
      TRIGGER.lastIndex = read.end;
    }
  }
}
