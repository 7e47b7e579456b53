import { lintSource } from '@secretlint/core';
import { rules as recommendedRules } from '@secretlint/secretlint-rule-preset-recommend';
import type { SecretLintCoreConfig } from '@secretlint/types';
import { pieceOffsets } from '../piece-offsets.js';

/** A secret value found by secretlint, with the rule name used in its placeholder. */
export interface SecretlintHit {
  rule: string;
  value: string;
  /** Where it was found: the index of its string in the chunk given to `secretlintChunk`. */
  source: number;
}

/**
 * Rules of the preset we switch off. `filter-comments` honours
 * `secretlint-disable` comments, which a transcript could contain: text must
 * not be able to turn detection off. Private keys, basic auth and database
 * URLs are our own rules' job (a whole key block across strings; a URL keeps
 * its host), so running them here would only cost time.
 */
const DISABLED_RULES = [
  '@secretlint/secretlint-rule-filter-comments',
  '@secretlint/secretlint-rule-privatekey',
  '@secretlint/secretlint-rule-basicauth',
  '@secretlint/secretlint-rule-database-connection-string',
];

/**
 * The preset's rules, registered one by one: secretlint 13 ignores `disabled`
 * on rules inside a preset. Only scanners are kept (a future filter-type rule
 * could again let text turn detection off).
 * Built once per process: the rule objects are plain data.
 */
const config: SecretLintCoreConfig = {
  rules: recommendedRules
    .filter((rule) => rule.meta.type === 'scanner' && !DISABLED_RULES.includes(rule.meta.id))
    .map((rule) => ({ id: rule.meta.id, rule })),
};

/** Ids of the secretlint rules in use, for reports and tests. */
export const SECRETLINT_RULE_IDS: readonly string[] = config.rules.map((r) => r.id);

/**
 * Messages whose secret our own rules handle better: a private key block is
 * rewritten as a whole (and secretlint's match could span two of the joined
 * strings), URLs keep their host, and an AWS account id is not a secret.
 */
const SKIPPED_MESSAGES = new Set([
  'PrivateKey',
  'AWSAccountID',
  'BasicAuth',
  'PostgreSQLConnection',
  'MySQLConnection',
  'MongoDBConnection',
]);

/** Data fields of secretlint messages that hold a file name or a label, not a secret. */
const NON_SECRET_DATA = new Set(['FILE_NAME', 'typeName']);

/**
 * Text per secretlint call. Its rules are regexes over the whole source; a few
 * MB per call keeps memory flat without paying the per-call setup often.
 */
export const SECRETLINT_CHUNK = 4 << 20;

/**
 * Joins strings between a separator that no rule matches across (no token
 * character, no `@`), so one secretlint call covers thousands of strings.
 */
export const SEPARATOR = '\n\u0000\n';

/**
 * secretlint's profiler is on unless switched off: every `lintSource` call
 * leaves about a hundred `performance.mark` entries (one per rule's start and
 * end), kept by the profiler and by Node's global timeline for the life of the
 * process, and a PerformanceObserver callback for each. That is memory growing
 * with the archive in every worker (68 MB after 2,000 calls, one or more per
 * session) and CPU spent on timings nobody reads. It is @secretlint/core's own
 * dependency, imported here only to switch it off (the instance core imports,
 * where npm hoists it; where it cannot be found nothing changes but the cost).
 */
const profilerOff: Promise<void> = import('@secretlint/profiler').then(
  ({ secretLintProfiler }) => secretLintProfiler.setEnabled(false),
  () => undefined,
);

/**
 * The strings cut into secretlint's calls, in order: each chunk joins to about
 * {@link SECRETLINT_CHUNK} characters (a longer string is a chunk of its own).
 * What a chunk's call finds depends on the chunk alone, so chunks can be looked
 * at in any order, on any thread, and give what one pass over them all gives.
 */
export function secretlintChunks<T extends { readonly length: number }>(strings: readonly T[]): T[][] {
  const chunks: T[][] = [];
  let chunk: T[] = [];
  let size = 0;
  for (const s of strings) {
    if (chunk.length && size + s.length > SECRETLINT_CHUNK) {
      chunks.push(chunk);
      chunk = [];
      size = 0;
    }
    chunk.push(s);
    size += s.length + SEPARATOR.length;
  }
  if (chunk.length) chunks.push(chunk);
  return chunks;
}

/**
 * Runs secretlint's recommended preset over one chunk of strings (see
 * {@link secretlintChunks}) in one call and returns the secret values it
 * found, in the order it reports them; a hit's `source` is its string's index
 * in `chunk`.
 */
export async function secretlintChunk(chunk: readonly string[]): Promise<SecretlintHit[]> {
  await profilerOff;
  if (!chunk.length) return [];
  const hits: SecretlintHit[] = [];
  // Which string of the chunk a match lies in.
  const { pieceAt } = pieceOffsets(chunk.map((s) => s.length), SEPARATOR.length);
  const result = await lintSource({
    source: { filePath: '/session.txt', content: chunk.join(SEPARATOR), contentType: 'text' },
    options: { config, noPhysicFilePath: true },
  });
  for (const message of result.messages) {
    if (SKIPPED_MESSAGES.has(message.messageId)) continue;
    const data = (message.data ?? {}) as Record<string, unknown>;
    for (const [key, value] of Object.entries(data)) {
      if (NON_SECRET_DATA.has(key) || typeof value !== 'string' || value.length < 8) continue;
      // A value that crosses a separator is a match between two strings, not a secret.
      if (value.includes('\u0000')) continue;
      hits.push({ rule: ruleName(message.messageId), value, source: pieceAt(message.range[0]) });
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
