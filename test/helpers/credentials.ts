/**
 * Generated credentials: more than a hundred formats, each with a fresh random
 * value on every run (crypto random, the format's charset, length and, where
 * the format has one, checksum), written the way they turn up in real work,
 * and a session tree that puts each one in several places (prose, a command,
 * a `.env` or config file read back, JSON, a header, a URL, a kept output past
 * the 30,000-character cut, a subagent file), in the on-disk layout Claude
 * Code writes.
 */
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;
const HEX = '0123456789abcdef';
const B64 = `${ALNUM}+/`;
const B64URL = `${ALNUM}-_`;
const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

/** `n` characters drawn uniformly from `charset` with a crypto random source. */
export function rand(charset: string, n: number): string {
  let out = '';
  for (let i = 0; i < n; i++) out += charset[randomInt(charset.length)];
  return out;
}

/** Random alphanumerics with at least one digit, one upper- and one lower-case letter (what real tokens of that length have). */
function mixed(n: number, charset = ALNUM): string {
  for (;;) {
    const v = rand(charset, n);
    if (/[0-9]/.test(v) && /[a-z]/.test(v) && (!/[A-Z]/.test(charset) || /[A-Z]/.test(v))) return v;
  }
}

const b64 = (bytes: number): string => randomBytes(bytes).toString('base64');
const b64url = (bytes: number): string => randomBytes(bytes).toString('base64url');
const hex = (n: number): string => rand(HEX, n);

/** Base62 of a CRC32, six characters: the checksum GitHub and npm tokens end with. */
function crcBase62(body: string): string {
  let n = crc32(body);
  let out = '';
  for (let i = 0; i < 6; i++) {
    out = ALNUM[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}
const github = (prefix: string): string => {
  const body = mixed(30);
  return `${prefix}${body}${crcBase62(body)}`;
};

/** A made-up password as people pick them: words, digits, a symbol. */
function password(): string {
  return `${rand(UPPER, 1)}${rand(LOWER, 5)}-${rand(DIGITS, 3)}${rand('!#%+', 1)}${rand(LOWER, 4)}`;
}
/** A letters-only pass phrase (`correcthorsebatterystaple`-like). */
function letters(): string {
  const words = ['amber', 'quill', 'harbor', 'lantern', 'meadow', 'cobalt', 'thistle', 'walnut', 'ember', 'falcon', 'juniper', 'saffron', 'pebble', 'otter', 'violet'];
  return Array.from({ length: 4 }, () => words[randomInt(words.length)]).join('') + rand(LOWER, 3);
}
const pemBody = (): string => Array.from({ length: 6 }, () => b64(48)).join('\n');

/** One credential as it is written, with the values that must never be published. */
export interface Credential {
  /** Format id (`github-pat`, `netrc`, …). */
  format: string;
  /** The text as it would appear: the token, a `NAME=value` line, a command, a file line. */
  snippet: string;
  /** Secret values: none of them may reach any output. */
  secrets: string[];
  /** A bare token (no name in the snippet): also placed in a header, a URL and JSON. */
  bare: boolean;
}

type Maker = () => { snippet: string; secrets: string[] } | string;

/** The formats: a bare token is given as a string, anything else as its snippet and secrets. */
const FORMATS: Record<string, Maker> = {
  // Provider tokens with a shape of their own.
  'github-pat': () => github('ghp_'),
  'github-oauth': () => github('gho_'),
  'github-user-to-server': () => github('ghu_'),
  'github-server-to-server': () => github('ghs_'),
  'github-refresh': () => github('ghr_'),
  'github-fine-grained': () => `github_pat_${mixed(22)}_${mixed(59)}`,
  'gitlab-pat': () => `glpat-${rand(B64URL, 20)}`,
  'gitlab-pipeline-trigger': () => `glptt-${hex(40)}`,
  'gitlab-deploy': () => `gldt-${mixed(20)}`,
  'gitlab-runner': () => `glrt-${mixed(20)}`,
  'gitlab-runner-registration': () => `GR1348941${mixed(20)}`,
  'anthropic-api': () => `sk-ant-api03-${rand(B64URL, 93)}AA`,
  'anthropic-admin': () => `sk-ant-admin01-${rand(B64URL, 93)}AA`,
  'openai-project': () => `sk-proj-${rand(B64URL, 74)}T3BlbkFJ${rand(B64URL, 74)}`,
  'openai-legacy': () => `sk-${mixed(20)}T3BlbkFJ${mixed(20)}`,
  'aws-access-key-id': () => `AKIA${rand(UPPER + '234567', 16)}`,
  'aws-secret-access-key': () => {
    const v = rand(B64, 40);
    return { snippet: `aws_secret_access_key = ${v}`, secrets: [v] };
  },
  'google-api-key': () => `AIza${rand(B64URL, 35)}`,
  'google-oauth-secret': () => `GOCSPX-${rand(B64URL, 28)}`,
  'google-oauth-access': () => `ya29.${rand(B64URL, 120)}`,
  'slack-bot': () => `xoxb-${rand(DIGITS, 12)}-${rand(DIGITS, 13)}-${mixed(24)}`,
  'slack-user': () => `xoxp-${rand(DIGITS, 12)}-${rand(DIGITS, 12)}-${rand(DIGITS, 13)}-${hex(32)}`,
  'slack-app': () => `xapp-1-A${rand(UPPER + DIGITS, 10)}-${rand(DIGITS, 13)}-${hex(64)}`,
  'slack-webhook': () => {
    const v = `https://hooks.slack.com/services/T${rand(UPPER + DIGITS, 8)}/B${rand(UPPER + DIGITS, 8)}/${mixed(24)}`;
    return { snippet: v, secrets: [v.split('/').slice(-1)[0]] };
  },
  'discord-webhook': () => {
    const secret = rand(B64URL, 68);
    return { snippet: `https://discord.com/api/webhooks/${rand(DIGITS, 18)}/${secret}`, secrets: [secret] };
  },
  'discord-bot': () => `M${mixed(25)}.${rand(B64URL, 6)}.${rand(B64URL, 38)}`,
  'telegram-bot': () => `${randomInt(100000000, 999999999)}:AA${rand(B64URL, 33)}`,
  'stripe-live-secret': () => `sk_live_${mixed(99)}`,
  'stripe-test-secret': () => `sk_test_${mixed(99)}`,
  'stripe-restricted': () => `rk_live_${mixed(99)}`,
  'stripe-webhook-secret': () => `whsec_${mixed(32)}`,
  'npm-token': () => {
    const body = mixed(30);
    return `npm_${body}${crcBase62(body)}`;
  },
  'pypi-token': () => `pypi-AgEIcHlwaS5vcmc${rand(B64URL, 70)}`,
  'rubygems-token': () => `rubygems_${hex(48)}`,
  'clojars-token': () => `CLOJARS_${rand(LOWER + DIGITS, 60)}`,
  'digitalocean-pat': () => `dop_v1_${hex(64)}`,
  'digitalocean-oauth': () => `doo_v1_${hex(64)}`,
  'heroku-v2': () => `HRKU-AA${rand(B64URL, 58)}`,
  'terraform-cloud': () => `${mixed(14)}.atlasv1.${rand(B64URL, 67)}`,
  'vault-service': () => `hvs.${mixed(90)}`,
  'vault-batch': () => `hvb.${mixed(138)}`,
  'airtable-pat': () => `pat${mixed(14)}.${hex(64)}`,
  'atlassian-api': () => `ATATT3${rand(B64URL, 183)}=${hex(8).toUpperCase()}`,
  'dynatrace': () => `dt0c01.${rand(UPPER + DIGITS, 24)}.${rand(UPPER + DIGITS, 64)}`,
  'easypost': () => `EZAK${mixed(54)}`,
  'frameio': () => `fio-u-${rand(B64URL, 64)}`,
  'huggingface': () => `hf_${mixed(34)}`,
  'huggingface-org': () => `api_org_${mixed(34)}`,
  'infracost': () => `ico-${mixed(32)}`,
  'mapbox-secret': () => `sk.eyJ1Ijoi${mixed(20)}.${rand(B64URL, 22)}`,
  'newrelic-user': () => `NRAK-${rand(UPPER + DIGITS, 27)}`,
  'newrelic-insert': () => `NRII-${rand(B64URL, 32)}`,
  'octopus': () => `API-${rand(UPPER, 10)}${rand(DIGITS, 6)}${rand(UPPER + DIGITS, 10)}`,
  'openshift': () => `sha256~${rand(B64URL, 43)}`,
  'perplexity': () => `pplx-${mixed(48)}`,
  'planetscale-token': () => `pscale_tkn_${rand(B64URL, 43)}`,
  'planetscale-password': () => `pscale_pw_${rand(B64URL, 43)}`,
  'prefect': () => `pnu_${mixed(36)}`,
  'pulumi': () => `pul-${hex(40)}`,
  'readme': () => `rdme_${rand(LOWER + DIGITS, 70)}`,
  'scalingo': () => `tk-us-${rand(B64URL, 48)}`,
  'brevo': () => `xkeysib-${hex(64)}-${mixed(16)}`,
  'sentry-user': () => `sntryu_${hex(64)}`,
  'sentry-dsn': () => {
    const key = hex(32);
    return { snippet: `https://${key}@o${rand(DIGITS, 6)}.ingest.sentry.io/${rand(DIGITS, 7)}`, secrets: [key] };
  },
  'shippo': () => `shippo_live_${hex(40)}`,
  'shopify-access': () => `shpat_${hex(32)}`,
  'shopify-shared-secret': () => `shpss_${hex(32)}`,
  'sourcegraph': () => `sgp_${hex(16)}_${hex(40)}`,
  'square-access': () => `sq0atp-${rand(B64URL, 22)}`,
  'square-oauth-secret': () => `sq0csp-${rand(B64URL, 43)}`,
  'twilio-api-key': () => `SK${hex(32)}`,
  'typeform': () => `tfp_${rand(B64URL, 59)}`,
  'yandex-api': () => `AQVN${rand(B64URL, 36)}`,
  'alibaba-access-key': () => `LTAI${mixed(20)}`,
  'azure-ad-client-secret': () => `${rand(ALNUM, 3)}${randomInt(10)}Q~${rand(ALNUM + '_~.-', 34)}`,
  'cloudflare-origin-ca': () => `v1.0-${hex(24)}-${hex(146)}`,
  'duffel': () => `duffel_live_${rand(B64URL, 43)}`,
  'dropbox-short-lived': () => `sl.${rand(B64URL, 135)}`,
  'facebook-access': () => `EAAC${mixed(120)}`,
  'flutterwave-secret': () => `FLWSECK_TEST-${rand('abcdefgh0123456789', 32)}-X`,
  'maxmind': () => `${mixed(6)}_${mixed(29)}_mmk`,
  'teams-webhook': () => {
    const key = hex(32);
    return { snippet: `https://contoso.webhook.office.com/webhookb2/${randomUUID()}@${randomUUID()}/IncomingWebhook/${key}/${randomUUID()}`, secrets: [key] };
  },
  'settlemint': () => `sm_pat_${mixed(16)}`,
  '1password-secret-key': () => `A3-${rand(UPPER + DIGITS, 6)}-${rand(UPPER + DIGITS, 11)}-${rand(UPPER + DIGITS, 5)}-${rand(UPPER + DIGITS, 5)}-${rand(UPPER + DIGITS, 5)}`,
  'artifactory': () => `AKCp${mixed(69)}`,
  'defined-networking': () => `dnkey-${rand(B64URL, 26)}-${rand(B64URL, 52)}`,
  'linear': () => `lin_api_${mixed(40)}`,
  'notion': () => `ntn_${mixed(46)}`,
  'groq': () => `gsk_${mixed(52)}`,
  'xai': () => `xai-${mixed(80)}`,
  'replicate': () => `r8_${mixed(37)}`,
  'databricks': () => `dapi${hex(32)}`,
  'grafana-cloud': () => `glc_${rand(B64, 60)}`,
  'grafana-service-account': () => `glsa_${mixed(32)}_${hex(8)}`,
  'sendgrid': () => `SG.${rand(B64URL, 22)}.${rand(B64URL, 43)}`,
  'tailscale': () => `tskey-auth-${mixed(10)}-${mixed(30)}`,
  'vercel': () => `vcp_${mixed(56)}`,
  'figma': () => `figd_${rand(B64URL, 40)}`,
  'docker-hub-pat': () => `dckr_pat_${rand(B64URL, 27)}`,
  'contentful': () => `CFPAT-${rand(B64URL, 43)}`,
  'buildkite': () => `bkua_${hex(40)}`,
  'netlify': () => `nfp_${mixed(36)}`,
  'supabase': () => `sbp_${hex(40)}`,
  'langsmith': () => `lsv2_pt_${hex(32)}_${hex(10)}`,
  'posthog-personal': () => `phx_${mixed(43)}`,
  'age-secret-key': () => `AGE-SECRET-KEY-1${rand(BECH32, 58).toUpperCase()}`,
  'postman': () => `PMAK-${hex(24)}-${hex(34)}`,
  'mailgun-private': () => `key-${hex(32)}`,
  'mailchimp': () => `${hex(32)}-us${randomInt(1, 21)}`,
  'jwt': () => {
    const head = Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url');
    const body = Buffer.from(JSON.stringify({ sub: randomUUID(), iat: randomInt(1.7e9, 1.8e9) })).toString('base64url');
    const sig = b64url(32);
    return { snippet: `${head}.${body}.${sig}`, secrets: [`${head}.${body}.${sig}`, body, sig] };
  },
  'private-key-pem': () => {
    const body = pemBody();
    return { snippet: `-----BEGIN PRIVATE KEY-----\n${body}\n-----END PRIVATE KEY-----`, secrets: body.split('\n') };
  },
  // Secrets known only by their name.
  'env-secret-key': () => named('SECRET_KEY=', b64url(24)),
  'env-db-pass': () => named('DB_PASS=', password()),
  'env-encryption-key': () => named('ENCRYPTION_KEY=', hex(64)),
  'yaml-jwt-secret-key': () => named('JWT_SECRET_KEY: "', mixed(32), '"'),
  'toml-api-key': () => named('api_key = "', mixed(32), '"'),
  'ini-password': () => named('password = ', password()),
  'shell-export-token': () => named("export SERVICE_AUTH_TOKEN='", mixed(40), "'"),
  'json-client-secret': () => named('{"client_secret": "', rand(B64URL, 40), '"}'),
  'json-escaped-api-key': () => named('{\\"apiKey\\": \\"', mixed(32), '\\"}'),
  'yaml-access-key': () => named('access_key: ', rand(UPPER + DIGITS, 20)),
  'yaml-private-key-value': () => named('privateKey: ', b64(32)),
  'env-credentials': () => named('SMTP_CREDENTIALS=', `${mixed(12)}:${mixed(20)}`),
  'python-kwarg-password': () => named('connect(host="db", password="', password(), '")'),
  'go-struct-password': () => named('Password: "', password(), '",'),
  'letters-only-password': () => named('password: ', letters()),
  'letters-only-passwd-env': () => named('MYSQL_ROOT_PASSWD=', letters()),
  'xml-password': () => named('<password>', password(), '</password>'),
  'nuget-cleartext-password': () => named('<add key="ClearTextPassword" value="', password(), '" />'),
  'x-api-key-header': () => named('X-Api-Key: ', mixed(40)),
  'private-token-header': () => named('PRIVATE-TOKEN: ', mixed(20)),
  'heroku-api-key-uuid': () => named('HEROKU_API_KEY=', randomUUID()),
  // Long values: a base64 service account key (about 3 KB) in a variable, JSON and YAML, an opaque token past 2 KB.
  'env-base64-service-account': () => named('GCP_SA_KEY=', b64(2300)),
  'json-long-client-secret': () => named('{"client_secret": "', b64url(1600), '"}'),
  'yaml-long-credentials': () => named('google_credentials: ', b64(4000)),
  'long-opaque-bearer': () => {
    // Its tail on its own too: a cap at 2 KB replaced the head and published the rest.
    const v = mixed(3000, B64URL);
    return { snippet: `Authorization: Bearer ${v}`, secrets: [v, v.slice(2100)] };
  },
  // Cookies, variables given as a name and a value, a URL with no user, more login commands.
  'cookie-header': () => named('curl -H "Cookie: theme=dark; session_id=', mixed(40), '" https://app.qux.io/me'),
  'set-cookie-header': () => named('Set-Cookie: sid=', mixed(32), '; Path=/; HttpOnly; Secure'),
  'curl-cookie-flag': () => named("curl -b 'lang=en; auth=", mixed(36), "' https://app.qux.io"),
  'k8s-env-name-value': () => named('env:\n  - name: DB_PASSWORD\n    value: "', password(), '"'),
  'json-name-value': () => named('[{"name": "API_TOKEN", "value": "', mixed(40), '"}]'),
  'url-empty-user': () => named('REDIS_URL=redis://:', mixed(24), '@cache.internal:6379/0'),
  'az-login-p': () => named('az login -u ci@qux.io -p ', password()),
  'mongosh-p': () => named('mongosh "mongodb://db.internal/shop" -u admin -p ', password()),
  'nmcli-wifi-password': () => named('nmcli dev wifi connect Harbor-5G password ', password()),
  'wpa-passphrase': () => named('wpa_passphrase "Harbor 5G" ', password(), ' > /etc/wpa.conf'),
  'htpasswd-b': () => named('htpasswd -b -c /etc/nginx/.htpasswd admin ', password()),
  'aws-configure-set': () => named('aws configure set aws_secret_access_key ', rand(B64, 40)),
  'yarn-config-set-token': () => named('yarn config set npmAuthToken ', mixed(40)),
  // Objects marked secret, and pairs named by Key or by the key of an object.
  'aws-ssm-securestring': () => named('{\n  "Parameter": {\n    "Name": "/prod/shop/db",\n    "Type": "SecureString",\n    "Value": "', password(), '",\n    "Version": 3\n  }\n}'),
  '1password-concealed': () => named('{"id": "password", "type": "CONCEALED", "purpose": "PASSWORD", "label": "password", "value": "', letters(), '"}'),
  'terraform-sensitive-output': () => named('{"db_url": {"sensitive": true, "type": "string", "value": "', mixed(28), '"}}'),
  'key-value-pair': () => named('[{"Key": "DB_PASSWORD", "Value": "', password(), '"}]'),
  'pipeline-secret-variable': () => named('{"variables": {"API_TOKEN": {"value": "', mixed(32), '", "isSecret": true}}}'),
  'putty-ppk': () => {
    const lines = Array.from({ length: 3 }, () => b64(48));
    return { snippet: `PuTTY-User-Key-File-3: ssh-rsa\nEncryption: none\nComment: deploy\nPublic-Lines: 1\n${b64(36)}\nPrivate-Lines: 3\n${lines.join('\n')}\nPrivate-MAC: ${hex(64)}`, secrets: lines };
  },
  // Command lines.
  'curl-user': () => named('curl -u admin:', password(), ' https://api.internal.qux.io/v1/status'),
  'curl-user-quoted': () => named("curl --user 'deploy:", password(), "' https://ci.qux.io"),
  'mysql-p': () => named('mysql -uroot -p', password(), ' shop_db'),
  'mysqldump-p': () => named("mysqldump -u app -p'", password(), "' shop > dump.sql"),
  'sshpass': () => named('sshpass -p ', password(), ' ssh deploy@10.0.0.7'),
  'sshpass-glued': () => named('sshpass -p', password(), ' scp a.tgz deploy@10.0.0.7:'),
  'password-flag': () => named('./manage --password ', password(), ' --yes'),
  'password-flag-equals': () => named('pg_ctl --db-password=', password(), ' start'),
  'token-flag': () => named('gh-release --token ', mixed(40), ' v1.2.0'),
  'redis-cli': () => named('redis-cli -h cache.local -a ', password(), ' PING'),
  'docker-login': () => named('docker login registry.qux.io -u ci -p ', password()),
  'openssl-pass': () => named('openssl enc -aes-256-cbc -pass pass:', password(), ' -in a -out b'),
  // Credential files.
  'netrc': () => named('machine api.qux.io login deploy password ', password()),
  'pgpass': () => named('db.internal.qux.io:5432:shop:app_rw:', password()),
  'kubeconfig-client-key-data': () => {
    const v = Buffer.from(`-----BEGIN RSA PRIVATE KEY-----\n${pemBody()}\n-----END RSA PRIVATE KEY-----\n`).toString('base64');
    return { snippet: `    client-key-data: ${v}`, secrets: [v] };
  },
  'kubeconfig-token': () => named('    token: ', `kubeconfig-u-${rand(LOWER + DIGITS, 5)}:${rand(LOWER + DIGITS, 52)}`),
  'docker-config-auth': () => {
    const v = Buffer.from(`ci:${password()}`).toString('base64');
    return { snippet: `{"auths": {"registry.qux.io": {"auth": "${v}"}}}`, secrets: [v, Buffer.from(v, 'base64').toString().slice(3)] };
  },
  'azure-storage-connection': () => {
    const v = b64(64);
    return { snippet: `DefaultEndpointsProtocol=https;AccountName=quxstore;AccountKey=${v};EndpointSuffix=core.windows.net`, secrets: [v] };
  },
  'azure-sas-url': () => {
    const sig = encodeURIComponent(b64(32));
    return { snippet: `https://quxstore.blob.core.windows.net/backups/db.bak?sv=2022-11-02&ss=b&srt=o&sp=r&se=2030-01-01T00:00:00Z&sig=${sig}`, secrets: [sig, decodeURIComponent(sig)] };
  },
  'git-extraheader-basic': () => {
    const v = Buffer.from(`x-access-token:${github('ghs_')}`).toString('base64');
    return { snippet: `git -c http.extraheader="AUTHORIZATION: basic ${v}" fetch origin`, secrets: [v] };
  },
  'url-credentials': () => named('postgres://app_rw:', password(), '@db.internal.qux.io:5432/shop'),
  // Headers of any case and scheme.
  'authorization-token-lowercase': () => named('authorization: token ', hex(40)),
  'authorization-basic': () => {
    const v = Buffer.from(`admin:${password()}`).toString('base64');
    return { snippet: `Authorization: Basic ${v}`, secrets: [v] };
  },
  'authorization-bearer': () => named('Authorization: Bearer ', rand(B64URL, 48)),
  'okta-ssws': () => named('Authorization: SSWS 00', rand(B64URL, 40)),
  'discord-bot-header': () => named('Authorization: Bot ', `N${mixed(25)}.${rand(B64URL, 6)}.${rand(B64URL, 38)}`),
  'proxy-authorization': () => named('Proxy-Authorization: Bearer ', mixed(40)),
  // Secrets in URL query strings.
  'url-query-token': () => named('https://api.qux.io/v1/export?format=csv&token=', mixed(32)),
  'url-query-access-token': () => named('https://graph.qux.io/me?access_token=', rand(B64URL, 48)),
  'url-query-api-key': () => named('https://maps.qux.io/geocode?address=x&api_key=', mixed(32)),
  'url-query-key': () => named('https://search.qux.io/v1?key=', mixed(39), '&q=ramen'),
  'url-query-signature': () => named('https://cdn.qux.io/f.zip?Expires=1700000000&Signature=', rand(B64URL, 64)),
};

/** A secret written after a name or in a command: the snippet and the value. */
function named(before: string, value: string, after = ''): { snippet: string; secrets: string[] } {
  return { snippet: `${before}${value}${after}`, secrets: [value] };
}

/** Every format, each with a fresh random value. */
export function generateCredentials(): Credential[] {
  return Object.entries(FORMATS).map(([format, make]) => {
    const made = make();
    if (typeof made === 'string') return { format, snippet: made, secrets: [made], bare: true };
    return { format, snippet: made.snippet, secrets: made.secrets.filter((s) => s.length >= 6), bare: false };
  });
}

/** How many formats the generator knows. */
export const FORMAT_COUNT = Object.keys(FORMATS).length;

/**
 * The text a credential is written in for one context: a sentence, a shell
 * command, a line of a `.env` or config file, a JSON document, a curl call
 * with a header, a URL, a line of a kept output, a subagent's sentence.
 */
export function placeInContext(c: Credential, ctx: Context): string {
  const token = c.secrets[0];
  switch (ctx) {
    case 'prose':
      return `Found this in the notes (${c.format}): ${c.snippet} — it has to be rotated.`;
    case 'command':
      if (c.bare) return `printf '%s\\n' "${c.snippet}" | vault-demo store --name ${c.format}`;
      return c.snippet.includes('\n') ? `cat <<'EOF' > cred.txt\n${c.snippet}\nEOF` : c.snippet;
    case 'file-read':
      return c.snippet;
    case 'json':
      return JSON.stringify({ name: c.format, value: token, created: '2026-10-01' }, null, 2);
    case 'header':
      return `curl -sS -H "Authorization: Bearer ${token}" https://api.qux.io/v1/whoami`;
    case 'url':
      return `The export link was https://api.qux.io/v1/export?format=json&access_token=${encodeURIComponent(token)} (expired).`;
    case 'kept-output':
      return `${c.format}\t${c.snippet}`;
    case 'subagent':
      return `Still in use: ${c.snippet}`;
  }
}

/** The places a credential is put in a generated session. */
export const CONTEXTS = ['prose', 'command', 'file-read', 'json', 'header', 'url', 'kept-output', 'subagent'] as const;
export type Context = (typeof CONTEXTS)[number];

/** The contexts each credential gets: every one for bare tokens; prose, a command, a file, a kept output and a subagent for the rest. */
export function contextsOf(c: Credential): Context[] {
  return c.bare ? [...CONTEXTS] : ['prose', 'command', 'file-read', 'kept-output', 'subagent'];
}

const HOME = '/home/qzvenbot';
const CWD = `${HOME}/work/vault-demo`;
export const GENERATED_PROJECT = '-home-qzvenbot-work-vault-demo';

/** Builds the JSONL lines of a session (and of its subagent) that hold the credentials. */
class SessionWriter {
  lines: string[] = [];
  private parent: string | null = null;
  private n = 0;
  readonly sessionId: string;
  private readonly agentId?: string;
  constructor(sessionId: string, agentId?: string) {
    this.sessionId = sessionId;
    this.agentId = agentId;
  }

  private base(type: string): Record<string, unknown> {
    const uuid = randomUUID();
    const entry: Record<string, unknown> = {
      isSidechain: this.agentId !== undefined,
      userType: 'external',
      cwd: CWD,
      sessionId: this.sessionId,
      version: '2.1.100',
      gitBranch: 'main',
      type,
      uuid,
      parentUuid: this.parent,
      timestamp: new Date(Date.UTC(2026, 9, 5, 9, 0, this.n++)).toISOString(),
    };
    if (this.agentId) entry.agentId = this.agentId;
    this.parent = uuid;
    return entry;
  }

  user(content: unknown, extra: Record<string, unknown> = {}): void {
    this.lines.push(JSON.stringify({ ...this.base('user'), message: { role: 'user', content }, ...extra }));
  }

  assistant(content: unknown[]): void {
    const id = `msg_${rand(ALNUM, 24)}`;
    this.lines.push(
      JSON.stringify({
        ...this.base('assistant'),
        message: { id, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content, stop_reason: 'end_turn', usage: { input_tokens: 10, output_tokens: 10 } },
      }),
    );
  }

  /** A tool call and its result. */
  tool(name: string, input: Record<string, unknown>, result: string, toolUseResult?: unknown): string {
    const id = `toolu_${rand(ALNUM, 24)}`;
    this.assistant([{ type: 'tool_use', id, name, input }]);
    this.user([{ type: 'tool_result', tool_use_id: id, content: result }], toolUseResult === undefined ? {} : { toolUseResult });
    return id;
  }
}

/** Where a generated tree is and what it holds. */
export interface GeneratedTree {
  root: string;
  sessionId: string;
  agentId: string;
  credentials: Credential[];
  /** Every secret value, longest first. */
  secrets: string[];
  /** Placements made: format → contexts. */
  placements: Map<string, Context[]>;
  /** The last line of the kept output, after every credential: seen only when the whole output was read. */
  keptMarker: string;
}

/**
 * Writes a `~/.claude/projects`-like tree under `root` with one session that
 * holds every credential in its contexts: the session file, its kept output
 * in `<session>/tool-results/<id>.txt` (referenced by a `<persisted-output>`
 * result, every credential past the first 30,000 characters), and a subagent
 * file in `<session>/subagents/`.
 */
export function writeCredentialTree(root: string, credentials = generateCredentials()): GeneratedTree {
  const sessionId = randomUUID();
  const agentId = `a${hex(16)}`;
  const dir = join(root, GENERATED_PROJECT);
  const sessionDir = join(dir, sessionId);
  mkdirSync(join(sessionDir, 'subagents'), { recursive: true });
  mkdirSync(join(sessionDir, 'tool-results'), { recursive: true });
  const placements = new Map<string, Context[]>();
  const w = new SessionWriter(sessionId);
  const sub = new SessionWriter(sessionId, agentId);
  const prompt = 'Check every credential in the vault demo configuration and report which are still in use.';
  sub.user(prompt);

  // The first prompt (a page title, a pull request comment's summary) holds three of them too.
  const inPrompt = credentials.filter((c) => c.bare).slice(0, 3);
  w.user(`Rotate the credentials of the vault demo (the old ones were ${inPrompt.map((c) => c.snippet).join(', ')}): list what is configured first.`);
  const envLines: string[] = [];
  const kept: string[] = [];
  for (const c of credentials) {
    const contexts = contextsOf(c);
    placements.set(c.format, contexts);
    const token = c.secrets[0];
    for (const ctx of contexts) {
      const text = placeInContext(c, ctx);
      switch (ctx) {
        case 'prose':
        case 'url':
          w.assistant([{ type: 'text', text }]);
          break;
        case 'command':
          w.tool('Bash', { command: text, description: `Check ${c.format}` }, `ok: ${c.format}`, { stdout: `ok: ${c.format}`, stderr: '', interrupted: false });
          break;
        case 'file-read':
          envLines.push(text);
          break;
        case 'json':
          w.tool('Bash', { command: `cat secrets/${c.format}.json` }, text);
          break;
        case 'header':
          w.tool('Bash', { command: text }, '{"ok":true}');
          break;
        case 'kept-output':
          kept.push(text);
          break;
        case 'subagent':
          sub.assistant([{ type: 'text', text }]);
          break;
      }
    }
  }

  // A config file read back, as the Read tool returns it (numbered lines).
  const fileText = envLines.map((l) => l.split('\n')).flat();
  const numbered = fileText.map((l, i) => `${String(i + 1).padStart(6)}→${l}`).join('\n');
  w.tool('Read', { file_path: `${CWD}/.env` }, numbered, { type: 'text', file: { filePath: `${CWD}/.env`, content: fileText.join('\n'), numLines: fileText.length, startLine: 1, totalLines: fileText.length } });

  // A kept output: the credentials after 30,000 characters of build log, in tool-results/, with a preview in the session.
  const filler = Array.from({ length: 800 }, (_, i) => `build step ${i + 1} of 800: compiled module-${i}.js`).join('\n');
  const keptMarker = `kept-output-end-${hex(12)}`;
  const whole = `${filler}\n${kept.join('\n')}\n${keptMarker}\n`;
  const keptId = `toolu_${rand(ALNUM, 24)}`;
  writeFileSync(join(sessionDir, 'tool-results', `${keptId}.txt`), whole);
  const preview = `<persisted-output>\nOutput too large (${(whole.length / 1024).toFixed(1)}KB). Full output saved to: ${HOME}/.claude/projects/${GENERATED_PROJECT}/${sessionId}/tool-results/${keptId}.txt\n\nPreview (first 2KB):\n${whole.slice(0, 2000)}\n...\n</persisted-output>`;
  w.assistant([{ type: 'tool_use', id: keptId, name: 'Bash', input: { command: 'npm run build:all 2>&1', description: 'Build everything' } }]);
  w.user([{ type: 'tool_result', tool_use_id: keptId, content: preview }], { toolUseResult: { stdout: whole.slice(0, 30000), stderr: '', interrupted: false, persistedOutputPath: `${HOME}/.claude/projects/${GENERATED_PROJECT}/${sessionId}/tool-results/${keptId}.txt`, persistedOutputSize: whole.length } });

  // The subagent, spawned by a Task call whose prompt is its first message.
  w.tool('Task', { description: 'Audit credentials', prompt, subagent_type: 'general-purpose' }, `Done.\nagentId: ${agentId} (for resuming)`);
  w.assistant([{ type: 'text', text: 'All credentials listed; rotate them next.' }]);

  writeFileSync(join(dir, `${sessionId}.jsonl`), `${w.lines.join('\n')}\n`);
  writeFileSync(join(sessionDir, 'subagents', `agent-${agentId}.jsonl`), `${sub.lines.join('\n')}\n`);
  const secrets = [...new Set(credentials.flatMap((c) => c.secrets))].sort((a, b) => b.length - a.length);
  return { root, sessionId, agentId, credentials, secrets, placements, keptMarker };
}
