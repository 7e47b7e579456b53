import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../../src/lib/redact/index.js';
import { findSuspects } from '../../../scripts/lib/audit-detector.js';

/**
 * Things that look like secrets and are not: each must come out of redaction
 * exactly as it went in, with nothing reported, and the audit's independent
 * detector must not call it a secret either (or `audit --strict` would fail
 * every site that shows one). One kind per entry; the label says which.
 */
const LOOK_ALIKES: Array<[kind: string, text: string]> = [
  ['commit SHA', 'commit c38fdd42a3c037c5ac11b249e534a325237a5b45 (HEAD -> main)'],
  ['short SHA in a log', 'a1b2c3d fix: token refresh on 401'],
  ['UUID', 'session 206a233b-cb9c-430e-a2a1-3982704a4361 resumed'],
  ['message and tool ids', 'msg_01GI6CmqhKEfWJ5SZnSvTGyq toolu_01LQ19jVGOBejnMRFG83BHtg req_011CUj7xQ2aZ8p3mQe4yL9kT'],
  ['npm integrity hash', '"integrity": "sha512-2vmmGJKmBDpOk1fV3tGFbkRadEgE1YfjlgNRmgk8ISl6P9XYS6buiLt7f6Cw20kSq6J2OySF9lcN3RfGcxa3gA=="'],
  ['image digest', 'FROM node:22@sha256:4f3a9c2b1d0e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a'],
  ['sha256 checksum line', '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08  dist/app.tar.gz'],
  ['tokenizer setting', 'tokenizer: cl100k_base'],
  ['passwordField identifier', 'const passwordField = form.querySelector("input[type=password]");'],
  ['max_tokens', 'max_tokens: 4096, input_tokens: 12345678, cache_read_input_tokens: 99'],
  ['getToken() call', 'const token = getToken(); const t2 = await auth.getAccessToken(scope);'],
  ['token from the environment', 'const token = process.env.GITHUB_TOKEN;'],
  ['GitHub Actions expression', 'token: ${{ secrets.GITHUB_TOKEN }}'],
  ['environment lookup in Python', 'api_key = os.environ["API_KEY"]'],
  ['variable placeholder', 'password: ${DB_PASS}'],
  ['angle-bracket placeholder', 'Authorization: Bearer <your-token>'],
  ['xxx placeholder', 'PASSWORD=xxxxxxxx'],
  ['changeme placeholder', 'password: changeme'],
  ['asterisks', 'password: ********'],
  ['type annotation', 'password: string; token?: string | undefined;'],
  ['Python type hint', 'password: Optional[str] = None'],
  ['length setting', 'PASSWORD_MIN_LENGTH=12'],
  ['URL without credentials', 'see https://github.com/acme/shop/pull/42?tab=files&page=2 and postgres://localhost:5432/dev_db'],
  ['URL query without a secret', 'https://example.com/search?q=token+refresh&sort=desc&key_format=pem'],
  ['package at version', 'npm i pagefind@1.2.0 @scope/pkg@2.0.1'],
  ['prose about passwords', 'The password reset form no longer echoes the session token back to the browser.'],
  ['prose about bearer tokens', 'Send it as a bearer token in the Authorization header.'],
  ['header name only', 'missing Authorization header'],
  ['cookies that are settings', 'curl -H "Cookie: theme=dark; lang=en-US; consent=1" https://app.example.org'],
  ['Set-Cookie attributes', 'Set-Cookie: theme=dark; Path=/; Expires=Wed, 21 Oct 2026 07:28:00 GMT; SameSite=Lax'],
  ['a variable given by name that holds no secret', 'env:\n  - name: LOG_LEVEL\n    value: debug\n  - name: PASSWORD_MIN_LENGTH\n    value: "12"'],
  ['settings set on a command line', 'aws configure set region eu-west-1 && npm config set registry https://registry.npmjs.org/ && nmcli con show --active'],
  ['parameters and outputs that are not secret', '{"Parameter": {"Name": "/prod/shop/db-host", "Type": "String", "Value": "db.internal.example"}} {"vpc_id": {"sensitive": false, "type": "string", "value": "vpc-0a1b2c3d4e5f60718"}} [{"Key": "region", "Value": "eu-west-1"}]'],
  ['key names in a schema', '"secretName": "db-credentials", "tokenUrl": "https://auth.example.com/token"'],
  ['key reference in Kubernetes', 'secretKeyRef:\n  name: app-secrets\n  key: password'],
  ['file names', 'client_secret.json token.txt id_ed25519 ~/.ssh/id_rsa.pub'],
  ['camelCase argument', 'login({ username, password: newPassword })'],
  ['property path', 'password = settings.DATABASE_PASSWORD'],
  ['author field', 'author: Jane Doe <jane@example.com>'],
  ['auth flag', 'auth: true, authMode: "oauth"'],
  ['timestamp and ports', '2024-12-01T09:00:00 listening on 0.0.0.0:5432:5433'],
  ['model name', 'HuggingFaceTB/SmolLM3-3B and meta-llama/Llama-3.1-8B-Instruct'],
  ['base64 of plain text', 'echo aGVsbG8gd29ybGQsIHRoZSBidWlsZCBmaW5pc2hlZCBpbiA0MiBzZWNvbmRz | base64 -d'],
  ['CSS and colours', 'color: #1f2937; background: rgba(15, 23, 42, 0.8); --token-spacing: 4px;'],
  ['JWT-shaped words', 'header.payload.signature is the JWT layout'],
  ['git ssh remote', 'git@github.com:acme/shop.git'],
  ['cache key', 'Cache restored from key: node-modules-Linux-x64-3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c'],
  ['private key header in docs', '-----BEGIN RSA PRIVATE KEY----- is the header the parser looks for'],
];

async function redact(text: string): Promise<{ out: string; total: number }> {
  const values: unknown[] = [{ text }];
  const report = await createRedactor().redactSession(values);
  return { out: (values[0] as { text: string }).text, total: report.total };
}

describe('look-alikes stay as they are', () => {
  it(`has at least 30 kinds (${LOOK_ALIKES.length})`, () => {
    expect(new Set(LOOK_ALIKES.map(([k]) => k)).size).toBeGreaterThanOrEqual(30);
  });

  for (const [kind, text] of LOOK_ALIKES) {
    it(`${kind}: unchanged by redaction, no finding, no audit suspect`, async () => {
      const { out, total } = await redact(text);
      expect(out).toBe(text);
      expect(total).toBe(0);
      expect(findSuspects(text).map((s) => `${s.kind} ${s.value}`)).toEqual([]);
    });
  }
});
