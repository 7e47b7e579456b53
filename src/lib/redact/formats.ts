/**
 * Secrets known by where they sit rather than by their name: command lines
 * (`curl -u`, `mysql -p…`, `sshpass -p`), credential files (`.netrc`,
 * `.pgpass`), authorization headers of any case and scheme, URL query
 * parameters, and base64 wrappers (decoded and scanned again). Provider
 * formats with a fixed shape are in `providers.ts`.
 */
import { isPlaceholderValue, isSecretValue, readValue, secretNameKind, type Sink } from './key-value.js';
import { escapeRegExp } from '../escape-regexp.js';

/** A value after a command's password flag: anything but a placeholder or a variable. */
function passwordArg(v: string | undefined): v is string {
  if (!v || v.length < 3 || v.length > 256 || isPlaceholderValue(v)) return false;
  return !/^[$%<{-]/.test(v) && !v.includes('${');
}

/** `curl -u user:pass`, `curl --user 'user:pass'`, httpie `-a user:pass`. Group 2 is the password. */
const USER_PASS_FLAG = /(?<![\w-])(?:-u[ \t]*|(?:--user|-a|--auth|--proxy-user|-U)(?:[ \t]+|[ \t]*=[ \t]*))(["']?)([\w.@+-]{1,128}):([^\s'"]{3,256})\1/g;
/** `mysql -uroot -pXXX`, `mysqldump -p'XXX'` (a password glued to `-p`). Group 2. */
const MYSQL_P = /\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlshow|mysqlcheck|mysqlsh|mariadb(?:-dump|-admin)?)\b[^\n|;&]*?[ \t]-p(["']?)([^\s'"]{3,256})\1/g;
/** `sshpass -p X`, `sshpass -pX`. */
const SSHPASS = /\bsshpass\b[^\n|;&]*?[ \t]-p[ \t]*(["']?)([^\s'"]{3,256})\1/g;
/**
 * Other tools' password flags: `redis-cli -a X`, `docker login -p X` (`az`, `oc`, `cf login` too), `zip -P X`, `7z -pX`,
 * `smbclient -U user%pass`, `mongosh -p X`, and passwords given as a word after a word. Each with the words its regex
 * cannot match without, all of which a string must hold for the regex to run: one pass of a regex over a long output
 * costs far more than a few `includes`, and a word such as `login` or `zip` is common in code.
 */
const TOOL_FLAGS: Array<{ needs: Array<readonly string[]>; regex: RegExp }> = [
  { needs: [['redis-cli'], ['-a']], regex: /\bredis-cli\b[^\n|;&]*?[ \t]-a[ \t]+(["']?)([^\s'"]{3,256})\1/g },
  { needs: [['login'], ['-p']], regex: /\b(?:docker|podman|nerdctl|helm|oras|buildah|skopeo|az|cf|oc)\b[^\n|;&]*?\blogin\b[^\n|;&]*?[ \t]-p[ \t]+(["']?)([^\s'"]{3,256})\1/g },
  { needs: [['zip', '7z', 'rar'], ['-p', '-P']], regex: /\b(?:zip|unzip|7z|7za|rar|unrar)\b[^\n|;&]*?[ \t]-[pP][ \t]*(["']?)([^\s'"-][^\s'"]{2,255})\1/g },
  { needs: [['openssl'], ['pass:']], regex: /\bopenssl\b[^\n|;&]*?[ \t]-(?:pass|passin|passout|k)[ \t]+(["']?)pass:([^\s'"]{3,256})\1/g },
  { needs: [['smbclient'], ['%']], regex: /\bsmbclient\b[^\n|;&]*?[ \t](?:-U|--user)[ \t]*(["']?)[^\s%'"]+%([^\s'"]{3,256})\1/g },
  { needs: [['psql', 'pg_'], ['password=']], regex: /\b(?:psql|pg_dump|pg_restore)\b[^\n|;&]*?\bpassword=([^\s'"]{3,256})()/g },
  { needs: [['mongo'], ['-p']], regex: /\b(?:mongo|mongosh|mongodump|mongorestore|mongoexport|mongoimport)\b[^\n|;&]*?[ \t]-p[ \t]+(["']?)([^\s'"-][^\s'"]{2,255})\1/g },
  // Passwords given as a word after a word: `nmcli … password X`, `wpa_passphrase SSID X`, `htpasswd -b file user X`.
  { needs: [['nmcli']], regex: /\bnmcli\b[^\n|;&]*?[ \t](?:password|wifi-sec\.psk)[ \t]+(["']?)([^\s'"]{3,256})\1/g },
  { needs: [['wpa_passphrase']], regex: /\bwpa_passphrase[ \t]+(?:"[^"\n]*"|'[^'\n]*'|\S+)[ \t]+(["']?)([^\s'"]{3,256})\1/g },
  { needs: [['htpasswd']], regex: /\bhtpasswd\b[ \t]+-\w*b\w*(?:[ \t]+-\w+)*[ \t]+\S+[ \t]+\S+[ \t]+(["']?)([^\s'"]{3,256})\1/g },
];

/** The first word each of {@link TOOL_FLAGS} needs, in one regex. */
const TOOL_WORDS = new RegExp([...new Set(TOOL_FLAGS.flatMap(({ needs }) => needs[0]))].map(escapeRegExp).join('|'));

/** Whether `s` holds, for each list of words, one of them. */
function holdsAll(s: string, needs: ReadonlyArray<readonly string[]>): boolean {
  return needs.every((words) => words.some((w) => s.includes(w)));
}

/** Command lines that carry a password in a flag. */
export function detectCommandLines(s: string, sink: Sink): void {
  if (s.includes('-u') || s.includes('--user') || s.includes('-a') || s.includes('-U')) {
    for (const m of s.matchAll(USER_PASS_FLAG)) {
      const pass = m[3];
      if (!passwordArg(pass) || /^\d+$/.test(m[2]) && /^\d+$/.test(pass)) continue;
      sink('password', pass);
    }
  }
  if (/mysql|mariadb/.test(s)) for (const m of s.matchAll(MYSQL_P)) if (passwordArg(m[2])) sink('password', m[2]);
  if (s.includes('sshpass')) for (const m of s.matchAll(SSHPASS)) if (passwordArg(m[2])) sink('password', m[2]);
  // One pass for the words of them all first: most strings hold none, and a regex's pass costs less than ten `includes`.
  if (TOOL_WORDS.test(s)) {
    for (const { needs, regex } of TOOL_FLAGS) {
      if (!holdsAll(s, needs)) continue;
      for (const m of s.matchAll(regex)) {
        const v = regex.source.includes('password=') ? m[1] : m[2];
        if (passwordArg(v)) sink('password', v);
      }
    }
  }
}

/** `.netrc`: `machine h login u password p`, on one line or several. */
const NETRC = /\b(?:machine[ \t]+\S+|default)(?:\s+(?:login|account|port)[ \t]+\S+)*\s+password[ \t]+(\S{3,256})/g;
/** `.pgpass`: `host:port:database:user:password`, a whole line or a word of its own. */
const PGPASS = /:(\d{1,5}|\*):([^:\s'"`]+):([^:\s'"`]+):((?:\\:|[^:\s'"`]){3,256})(?![^\s'"`])/g;
/** The host field before a pgpass line's port, found backwards from the first `:`. */
const PGPASS_HOST = /(?:^|[\s'"`])([A-Za-z0-9_.*-]+|\[[0-9a-fA-F:]+\])$/;
/** XML elements and attributes: `<password>x</password>`, `<add key="ClearTextPassword" value="x"/>`. */
const XML_ELEMENT = /<([A-Za-z][\w.-]{0,40})>([^<>\s]{3,256})<\/\1>/g;
const XML_KEY_VALUE = /\bkey=(["'])([\w.-]{1,64})\1\s+value=(["'])([^"'\s]{3,256})\3/g;

/** `aws configure set aws_secret_access_key X`, `yarn config set npmAuthToken X`: a name, a blank, its value. Group 1 the name, group 3 the value. */
const CONFIG_SET = /\bconfig(?:ure)?[ \t]+set[ \t]+(?:--[\w-]+[ \t]+)*([\w./:@-]{1,128})[ \t]+(["']?)([^\s'"]{6,16384})\2/g;
/**
 * A PuTTY key file's body: the base64 lines after `Public-Lines: N` and
 * `Private-Lines: N` (real lines, or `\n` as JSON writes them), and the
 * `Private-MAC`, which for a key with a passphrase lets anyone test guesses
 * offline. The public lines go too: nothing of the file is worth showing.
 */
const PPK_LINES = /(?:Public|Private)-Lines:[ \t]*\d+(?:\r?\n|\\(?:r\\)?n)((?:[A-Za-z0-9+/=]{4,}(?:\r?\n|\\(?:r\\)?n|$))+)|Private-MAC:[ \t]*([0-9a-fA-F]{16,})/g;

/** A value given under a name: a secret when the name is a secret's and the value reads as one of that kind. */
function sinkNamed(sink: Sink, name: string, value: string, quoted = true): void {
  const kind = secretNameKind(name);
  if (kind && isSecretValue(value, kind, quoted)) sink(kind, value);
}

/** Credential files: `.netrc`, `.pgpass`, XML configs, PuTTY keys; and settings given by name on a command line. */
export function detectCredentialFiles(s: string, sink: Sink): void {
  if (s.includes('password') && (s.includes('machine') || s.includes('default'))) {
    for (const m of s.matchAll(NETRC)) if (passwordArg(m[1])) sink('password', m[1]);
  }
  if (s.includes(':')) {
    for (const m of s.matchAll(PGPASS)) {
      const host = PGPASS_HOST.exec(s.slice(Math.max(0, m.index - 256), m.index))?.[1];
      const pass = m[4];
      // Five fields of a log line or a time (`12:30:00:…`) are not a pgpass line.
      if (!host || !passwordArg(pass) || /^\d+$/.test(host) || /^\d{4}-\d\d-\d\d/.test(host) || !/[A-Za-z]/.test(host + m[2] + m[3])) continue;
      sink('password', pass);
    }
  }
  if (s.includes('</')) {
    for (const m of s.matchAll(XML_ELEMENT)) sinkNamed(sink, m[1], m[2]);
  }
  if (s.includes('config')) {
    for (const m of s.matchAll(CONFIG_SET)) sinkNamed(sink, m[1].split(/[/:]/).pop() ?? '', m[3], m[2] !== '');
  }
  if (s.includes('Private-Lines') || s.includes('Private-MAC')) {
    const lines = [...s.matchAll(PPK_LINES)].flatMap((m) => (m[2] !== undefined ? [m[2]] : m[1].split(/\r?\n|\\(?:r\\)?n/))).filter((l) => l.length >= 8);
    // One placeholder for the whole key, as for a PEM block. A line under 8 characters (a block's last) is left:
    // as a value it would be replaced wherever those few characters appear, and it gives away nothing.
    for (const line of lines) sink('private-key', line, `ppk:${lines[0]}`);
  }
  if (s.includes('value=')) {
    for (const m of s.matchAll(XML_KEY_VALUE)) sinkNamed(sink, m[2], m[4]);
  }
}

/**
 * `Authorization: <scheme> <credentials>` in any case, any scheme (`Bearer`,
 * `Basic`, `token`, `SSWS`, `Bot`, `ApiKey`, …), or the credentials alone;
 * also `Proxy-Authorization`. Group 1 is the rest of the line.
 */
const AUTH_HEADER = /\b(?:proxy-)?authorization\b(?:\\?["'])?[ \t]*[:=][ \t]*(?:\\?["'])?([^\r\n"'`\\]{4,16384})/gi;
/** A scheme and its credentials standing alone: `Bearer abc…`, `Basic dXNl…`, `SSWS 00ab…`. */
const SCHEME_TOKEN = /\b(?:Bearer|bearer|BEARER|Basic|basic|BASIC|SSWS|Bot|GenieKey|Splunk)[ \t]+([A-Za-z0-9._~+/-]{8,16384}=*)/g;

/** Header credentials. */
export function detectAuthorization(s: string, sink: Sink): void {
  if (/authorization/i.test(s)) {
    for (const m of s.matchAll(AUTH_HEADER)) {
      const parts = m[1].trim().split(/[ \t]+/);
      const [first, second] = parts;
      if (!first) continue;
      // `Digest`, `AWS4-HMAC-SHA256` and the like: `k=v` pairs, of which the signature and credential are secret.
      if (parts.length > 1 && /=/.test(parts.slice(1).join(' '))) {
        for (const kv of m[1].matchAll(/\b(Signature|signature|response|Credential|nonce|cnonce)=(["']?)([^\s,"']{8,})\2/g)) sink('authorization', kv[3]);
        continue;
      }
      const value = parts.length > 1 && /^[A-Za-z][\w-]{1,20}$/.test(first) ? second : first;
      if (!value || isPlaceholderValue(value) || /^[$%<{]/.test(value) || value.length < 8) continue;
      if (!/[0-9]/.test(value) && !/[A-Z].*[a-z]|[a-z].*[A-Z]/.test(value) && !decodesToCredentials(value)) continue;
      sink('authorization', value.replace(/[,;.)]+$/, ''));
    }
  }
  if (/Bearer|bearer|BEARER|Basic|basic|BASIC|SSWS|Bot |GenieKey|Splunk/.test(s)) {
    for (const m of s.matchAll(SCHEME_TOKEN)) {
      const v = m[1];
      if (isPlaceholderValue(v)) continue;
      if (/[0-9]/.test(v) && /[A-Za-z]/.test(v) && v.length >= 12) sink('bearer-token', v);
      else if (v.length >= 16 && /[a-z]/.test(v) && /[A-Z]/.test(v)) sink('bearer-token', v);
      else if (decodesToCredentials(v)) sink('bearer-token', v);
    }
  }
}

/** A `Cookie:` or `Set-Cookie:` header, to the end of its line or quote. Group 1: its `name=value` pairs. */
const COOKIE_HEADER = /\b(?:set-)?cookie\b(?:\\?["'])?[ \t]*:[ \t]*([^\r\n"'`\\]{4,16384})/gi;
/** curl's `-b` / `--cookie` with pairs (not a file name): group 2. */
const COOKIE_FLAG = /(?:^|[ \t])(?:-b|--cookie)[ \t]+(["'])([^"'\r\n]*=[^"'\r\n]*)\1/g;

/**
 * Cookie values that look like credentials (a session id, a token): long and
 * random, letters and digits. `lang=en`, `theme=dark` and the attributes of a
 * `Set-Cookie` (`Path=/`, `Expires=…`) stay.
 */
export function detectCookies(s: string, sink: Sink): void {
  if (!/cookie|-b[ \t]/i.test(s)) return;
  const pairs = (text: string) => {
    for (const pair of text.split(';')) {
      const eq = pair.indexOf('=');
      if (eq < 1) continue;
      const value = pair.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1');
      if (value.length >= 16 && /^[A-Za-z0-9%._~+/=:-]+$/.test(value) && /[0-9]/.test(value) && /[A-Za-z]/.test(value) && !isPlaceholderValue(value)) sink('cookie', value);
    }
  };
  for (const m of s.matchAll(COOKIE_HEADER)) pairs(m[1]);
  for (const m of s.matchAll(COOKIE_FLAG)) pairs(m[2]);
}

/**
 * A variable given as a name and a value in the next field: Kubernetes and
 * Compose `env` lists (`- name: DB_PASSWORD` / `value: …`), ECS task
 * definitions and APIs (`{"name": "API_TOKEN", "value": "…"}`, `Key`/`Value`
 * pairs). Group 1 the name, group 2 the value's quote, group 3 the value. The
 * blanks between them are matched one way only: a run of spaces must not
 * backtrack.
 */
const NAME_THEN_VALUE = /\b(?:[nN]ame|[kK]ey)(?:\\?["'])?[ \t]*[:=][ \t]*(?:\\?["'])?([A-Za-z_][\w.-]{0,63})(?:\\?["'])?[ \t]*(?:,[ \t]*)?(?:(?:\r?\n|\\n)[ \t-]*)?(?:\\?["'])?[vV]alue(?:\\?["'])?[ \t]*[:=][ \t]*(\\?["'])?([^\s"'`,}\\]{6,16384})/g;

/** A secret-named key whose value is an object that opens with its value: `"DB_PASSWORD": {"value": "…", "isSecret": true}`. */
const NAMED_VALUE_OBJECT = /\\?"([A-Za-z_][\w.-]{0,63})\\?"[ \t]*:[ \t]*\{[ \t\r\n]*\\?"[vV]alue\\?"[ \t]*:[ \t]*\\?"([^"\\\s]{6,16384})\\?"/g;

/** Secrets of variables given as a name and a value (see {@link NAME_THEN_VALUE}). */
export function detectNameValuePairs(s: string, sink: Sink): void {
  if (!/[vV]alue/.test(s)) return;
  if (/[nN]ame|[kK]ey/.test(s)) {
    for (const m of s.matchAll(NAME_THEN_VALUE)) sinkNamed(sink, m[1], m[3], m[2] !== undefined);
  }
  if (s.includes('{')) {
    for (const m of s.matchAll(NAMED_VALUE_OBJECT)) sinkNamed(sink, m[1], m[2]);
  }
}

/** What marks a JSON object as a secret that its `value` holds: AWS SSM's SecureString, 1Password's concealed fields, `isSecret`, Terraform's `sensitive`. */
const SECRET_MARKER = /\\?"(?:[tT]ype)\\?"[ \t]*:[ \t]*\\?"(?:SecureString|CONCEALED)\\?"|\\?"(?:isSecret|is_secret|sensitive|secret)\\?"[ \t]*:[ \t]*true/;
/** An object with no object inside: where a marker and the value it marks sit side by side. */
const FLAT_OBJECT = /\{[^{}]{0,8192}\}/g;
const VALUE_FIELD = /\\?"[vV]alue\\?"[ \t]*:[ \t]*\\?"((?:[^"\\]|\\[^"]){1,16384})\\?"/g;

/**
 * Values of objects marked secret by a field beside them: `aws ssm
 * get-parameter --with-decryption`, `op item get --format json`, pipeline
 * variables with `"isSecret": true`, `terraform output -json`. The value is
 * secret whatever it looks like.
 */
export function detectMarkedSecrets(s: string, sink: Sink): void {
  if (!/SecureString|CONCEALED|isSecret|is_secret|sensitive|"secret/.test(s)) return;
  for (const m of s.matchAll(FLAT_OBJECT)) {
    if (!SECRET_MARKER.test(m[0])) continue;
    for (const v of m[0].matchAll(VALUE_FIELD)) if (v[1].length >= 4 && !isPlaceholderValue(v[1])) sink('secret', v[1]);
  }
}

/** Whether a base64 string decodes to `user:password` (a Basic credential). */
export function decodesToCredentials(v: string): boolean {
  if (!/^[A-Za-z0-9+/]{6,}={0,2}$/.test(v)) return false;
  const text = decodeBase64Text(v);
  return text !== undefined && /^[\w.@+~-]{1,128}:[^\s"'{}]{1,256}$/.test(text);
}

/** URL query parameters that carry a secret: `?token=`, `&access_token=`, `&sig=`, `?key=`, `X-Amz-Signature=`. */
const QUERY_PARAM = /[?&;]([A-Za-z][\w.-]{0,40})=([^&#\s"'<>`\\]{6,16384})/g;
const QUERY_SECRET_NAMES = /^(?:sig|signature|key|code|auth|pass|pwd|apikey|api_key|access_token|refresh_token|id_token|client_secret|private_token|x-amz-signature|x-amz-credential|x-amz-security-token|x-goog-signature|x-goog-credential|sas|sv_sig|st|se|skoid|sktid|skt|ske|sks|skv)$/i;

/** Secrets in URL query strings (and `;`-joined connection strings: `SharedAccessSignature=…;sig=…`). */
export function detectQueryStrings(s: string, sink: Sink): void {
  if (!s.includes('=') || (!s.includes('?') && !s.includes('&') && !s.includes(';'))) return;
  for (const m of s.matchAll(QUERY_PARAM)) {
    const name = m[1];
    let value = m[2];
    const lower = name.toLowerCase();
    const byName = secretNameKind(name);
    const named = QUERY_SECRET_NAMES.test(name) && !/^(?:code|st|se|sv|skt|ske|sks|skv|skoid|sktid)$/i.test(lower);
    if (!byName && !named) continue;
    value = value.replace(/[.,)]+$/, '');
    const decoded = safeDecode(value);
    if (isPlaceholderValue(value) || isPlaceholderValue(decoded) || /^[$%{<]/.test(decoded)) continue;
    if (decoded.length < 8 || !/[A-Za-z]/.test(decoded) && !/^\d{8,}$/.test(decoded)) continue;
    if (!/[0-9]/.test(decoded) && !/[+/=%_-]/.test(value) && !(/[a-z]/.test(decoded) && /[A-Z]/.test(decoded) && decoded.length >= 16)) continue;
    sink(byName ?? (lower === 'sig' || lower.includes('signature') ? 'signature' : 'api-key'), value);
    if (decoded !== value && decoded.length >= 8) sink(byName ?? 'signature', decoded, value);
  }
}

function safeDecode(v: string): string {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}

/** Decodes base64 (or base64url) when the result is text; undefined otherwise. */
export function decodeBase64Text(v: string): string | undefined {
  const buf = Buffer.from(v.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (buf.length < 4) return undefined;
  let printable = 0;
  for (const b of buf) if ((b >= 0x20 && b < 0x7f) || b === 0x0a || b === 0x0d || b === 0x09) printable++;
  if (printable / buf.length < 0.97) return undefined;
  return buf.toString('utf8');
}

/** The base64 characters (`A-Za-z0-9+/`) by their code, 1 for one. */
const BASE64_CODES = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/') BASE64_CODES[c.charCodeAt(0)] = 1;
const isBase64Code = (code: number): boolean => code < 128 && BASE64_CODES[code] === 1;
/** The fewest base64 characters a run needs to be looked at: a credential wrapped is longer. */
const BASE64_MIN_RUN = 16;
const EQUALS = 0x3d;

/**
 * The next run of base64 in `s` that starts at or after `from` and is long
 * enough to wrap a credential, with up to two `=` of padding after it: its
 * start and end. What `/(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{16,}={0,2}/g`
 * matches, found by one loop over the characters: the regex tried every
 * position of every string, at about twice the cost (this runs on every
 * string of a session).
 */
export function nextBase64Run(s: string, from: number): [number, number] | undefined {
  const n = s.length;
  let i = from;
  while (i < n) {
    if (!isBase64Code(s.charCodeAt(i))) {
      i++;
      continue;
    }
    // A run starts where the character before is not base64 (only `from` can be inside a run).
    const inside = i > 0 && isBase64Code(s.charCodeAt(i - 1));
    const start = i;
    while (i < n && isBase64Code(s.charCodeAt(i))) i++;
    if (inside || i - start < BASE64_MIN_RUN) continue;
    let end = i;
    while (end < n && end - i < 2 && s.charCodeAt(end) === EQUALS) end++;
    return [start, end];
  }
  return undefined;
}

const BASE64_CHAR = /[A-Za-z0-9+/=_-]/;
/** Cap on decoded runs per string: a megabyte of base64 is data, not a wrapper. */
const MAX_RUNS = 2000;

/**
 * Base64 wrappers: decodes each base64 run that decodes to text and scans the
 * text with `scan`; when anything is found inside, the whole run is a secret
 * (git's `extraheader AUTHORIZATION: basic <base64>`, kubeconfig data, a
 * Docker `auth`). Returns nothing; reports through `sink`.
 */
export function detectBase64(s: string, sink: Sink, scan: (text: string, sink: Sink) => void, depth = 0): void {
  if (depth > 1 || s.length < 16) return;
  let runs = 0;
  for (let at = nextBase64Run(s, 0); at !== undefined; at = nextBase64Run(s, at[1])) {
    if (++runs > MAX_RUNS) break;
    const [index, end] = at;
    const run = s.slice(index, end);
    // Not part of a longer token (`-` and `_` join base64url and identifiers); checked here, as a lookbehind at every position cost more.
    if ((index > 0 && BASE64_CHAR.test(s[index - 1])) || BASE64_CHAR.test(s[end] ?? '')) continue;
    // Hex (hashes, ids) and plain words are base64 characters too, but never a wrapper worth decoding.
    if (/^[0-9a-f]+$/i.test(run) || /^[a-z]+$/.test(run) || /^[A-Z]+$/.test(run) || run.length % 4 === 1) continue;
    // Words in CamelCase and paths of words (`src/lib/redact`) are base64 characters too.
    if (/^[A-Z]?[a-z]+(?:[A-Z][a-z]+)*$/.test(run) || /^[A-Za-z0-9]{0,24}(?:\/[A-Za-z0-9]{1,24}){2,}\/?$/.test(run) && !/[+=]/.test(run)) continue;
    const text = decodeBase64Text(run);
    if (text === undefined || text.length < 6) continue;
    let found = false;
    const inner: Sink = (rule, value, group) => {
      found = true;
      sink(rule, value, group);
    };
    if (/^[\w.@+~-]{1,128}:[^\s"'{}]{3,256}$/.test(text) && /[A-Za-z]/.test(text)) {
      // `user:password` (Docker `auth`, HTTP Basic): the password is a secret in its own right.
      const pass = text.slice(text.indexOf(':') + 1);
      if (!isPlaceholderValue(pass)) inner('password', pass);
    }
    scan(text, inner);
    detectBase64(text, inner, scan, depth + 1);
    if (found) sink('base64-secret', run);
  }
}
