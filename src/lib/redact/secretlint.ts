import { lintSource } from '@secretlint/core';
import { creator as recommendPreset } from '@secretlint/secretlint-rule-preset-recommend';
import type { SecretLintCoreConfig } from '@secretlint/types';

/** A secret value found by secretlint, with the rule name used in its placeholder. */
export interface SecretlintHit {
  rule: string;
  value: string;
}

const config: SecretLintCoreConfig = {
  rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: recommendPreset }],
};

/**
 * Messages whose secret our own rules handle better: a private key block is
 * rewritten as a whole (and secretlint's match can span several of our joined
 * strings), URLs keep their host, and an AWS account id is not a secret.
 */
const SKIPPED_MESSAGES = new Set(['PrivateKey', 'AWSAccountID', 'BasicAuth', 'PostgreSQLConnection', 'MySQLConnection', 'MongoDBConnection']);

/** Data fields of secretlint messages that hold a file name, not a secret. */
const NON_SECRET_DATA = new Set(['FILE_NAME', 'typeName']);

/**
 * Size of one secretlint call. secretlint's rules are regexes over the whole
 * source; a few MB per call keeps memory flat without paying per-call setup.
 */
export const SECRETLINT_CHUNK = 4 << 20;

/**
 * Runs secretlint's recommended preset once over a text (in chunks of a few
 * MB, cut on separator boundaries) and returns the secret values it found.
 *
 * @param text strings of one session joined by `separator`
 * @param separator a string no secret contains; chunks are cut only there
 */
export async function secretlintValues(text: string, separator: string): Promise<SecretlintHit[]> {
  const hits: SecretlintHit[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + SECRETLINT_CHUNK);
    if (end < text.length) {
      const cut = text.lastIndexOf(separator, end);
      end = cut > start ? cut : text.indexOf(separator, end) === -1 ? text.length : text.indexOf(separator, end);
    }
    const content = text.slice(start, end);
    start = end + separator.length;
    const result = await lintSource({
      source: { filePath: '/session.txt', content, contentType: 'text' },
      options: { config, noPhysicFilePath: true },
    });
    for (const message of result.messages) {
      if (SKIPPED_MESSAGES.has(message.messageId)) continue;
      const data = (message.data ?? {}) as Record<string, unknown>;
      for (const [key, value] of Object.entries(data)) {
        if (NON_SECRET_DATA.has(key) || typeof value !== 'string' || value.length < 8) continue;
        // A value that crosses a separator is a match between two strings, not a secret.
        if (value.includes(separator)) continue;
        hits.push({ rule: ruleName(message.messageId), value });
      }
    }
  }
  return hits;
}

/** `GITHUB_TOKEN` → `github-token`, `AWSSecretAccessKey` → `aws-secret-access-key`. */
export function ruleName(messageId: string): string {
  return messageId
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1-$2')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .toLowerCase()
    .replace(/^-|-$/g, '');
}
