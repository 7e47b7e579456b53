import { createHash, hash } from 'node:crypto';

/** Base64 characters kept of each string's digest: 132 bits, so two strings of one session never share one by chance. */
const DIGEST_CHARS = 22;

/**
 * The strings of a session that the last redaction found nothing in, kept as
 * keyed digests so that a grown session's next redaction need not look for
 * secrets in them again (see `Redactor.redactSession`'s `clean`). Detection
 * reads one string at a time, with no state, so a string it found nothing in
 * under the same settings and code holds nothing the next time either.
 *
 * The cache must hold no secret or personal string, and holds no string: only
 * digests keyed by the session's own first bytes (`key`). Whoever has the
 * cache and not the session cannot test a guess against them.
 */
export interface CleanStrings {
  /** Whether the last redaction found `s` clean. */
  has(s: string): boolean;
  /** Records `s` as clean in this redaction (what `toBuffer` saves for the next). */
  add(s: string): void;
  /** This redaction's clean strings, for `createCleanStrings`'s `previous` next time. */
  toBuffer(): Buffer;
}

/**
 * The key of a session's digests: its settings and code (`salt`) and its
 * first bytes (`head`), which an append to the session leaves as they were.
 */
export function cleanStringsKey(salt: string, head: string): string {
  return createHash('sha256').update('sessionpress clean strings 1\0').update(salt).update('\0').update(head).digest('hex');
}

/**
 * A session's clean strings: those of its last redaction (`previous`, as
 * `toBuffer` gave them, under the same `key`) to ask about, and an empty set
 * for this redaction to fill.
 */
export function createCleanStrings(key: string, previous?: Buffer): CleanStrings {
  // Short one-byte strings: a Set of them costs a few dozen bytes per string.
  const digest = (s: string) => hash('sha256', key + s, 'base64').slice(0, DIGEST_CHARS);
  const known = new Set<string>();
  if (previous) for (let i = 0; i + DIGEST_CHARS <= previous.length; i += DIGEST_CHARS) known.add(previous.toString('latin1', i, i + DIGEST_CHARS));
  const next = new Set<string>();
  return {
    has: (s) => known.size > 0 && known.has(digest(s)),
    add: (s) => void next.add(digest(s)),
    toBuffer: () => Buffer.from([...next].join(''), 'latin1'),
  };
}
