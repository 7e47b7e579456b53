import { createHash, hash } from 'node:crypto';

/** Base64 characters kept of each string's digest: 132 bits, so two strings of one session never share one by chance. */
const DIGEST_CHARS = 22;

/**
 * The strings of a session that the last redaction found nothing in, kept as
 * keyed digests so that a grown session's next redaction need not look for
 * secrets in them again (see `Redactor.redactSession`'s `clean`). Detection
 * reads one string at a time, with no state, so a string it found nothing in
 * under the same settings and code holds nothing the next time either. Nor
 * was anything replaced in it: the replacement pass can only change it if it
 * holds a value, login or name learnt since, so the digests of those replaced
 * are kept too, and a string that holds none of the new ones is left as it is.
 *
 * The cache must hold no secret or personal string, and holds no string: only
 * digests keyed by the session's own first bytes (`key`). Whoever has the
 * cache and not the session cannot test a guess against them.
 */
export interface CleanStrings {
  /** Whether the last redaction found `s` clean (a query: nothing is recorded). */
  has(s: string): boolean;
  /**
   * Whether the last redaction found `s` clean; if it did, `s` counts as clean
   * in this redaction too (unless `lose` says otherwise), and `carried(s)` is
   * true unless `hold` is false (for a string made each time it is read, which
   * the set of carried strings would hold: the caller keeps track of it).
   */
  carry(s: string, hold?: boolean): boolean;
  /** Whether `carry(s)` found `s` clean. */
  carried(s: string): boolean;
  /** A carried string that this redaction changed after all (something learnt since was replaced in it): not clean. */
  lose(s: string): void;
  /** Records `s` as clean in this redaction (what `toBuffer` saves for the next). */
  add(s: string): void;
  /**
   * Records what this redaction replaces (secret values, logins, names, each
   * tagged by its kind), for the next one, and returns those the last one did
   * not know; `undefined` when the last one knew one that this one does not
   * (then a string clean last time may not be clean now: see `Redactor.redactSession`).
   */
  learntSince(replaced: readonly string[]): string[] | undefined;
  /** This redaction's clean strings and what it replaced, for `createCleanStrings`'s `previous` next time. */
  toBuffer(): Buffer;
}

/**
 * The key of a session's digests: its settings and code (`salt`) and its
 * first bytes (`head`), which an append to the session leaves as they were.
 */
export function cleanStringsKey(salt: string, head: string): string {
  return createHash('sha256').update('sessionpress clean strings 2\0').update(salt).update('\0').update(head).digest('hex');
}

/**
 * A session's clean strings: those of its last redaction (`previous`, as
 * `toBuffer` gave them, under the same `key`) to ask about, and an empty set
 * for this redaction to fill. The buffer: the number of replaced values' digests
 * (4 bytes), those digests, then the clean strings' digests.
 */
export function createCleanStrings(key: string, previous?: Buffer): CleanStrings {
  // Short one-byte strings: a Set of them costs a few dozen bytes per string.
  const digest = (s: string) => hash('sha256', key + s, 'base64').slice(0, DIGEST_CHARS);
  const readDigests = (from: number, to: number, into: Set<string>) => {
    for (let i = from; i + DIGEST_CHARS <= to; i += DIGEST_CHARS) into.add(previous!.toString('latin1', i, i + DIGEST_CHARS));
  };
  const known = new Set<string>();
  const replacedBefore = new Set<string>();
  if (previous && previous.length >= 4) {
    const end = Math.min(previous.length, 4 + previous.readUInt32BE(0) * DIGEST_CHARS);
    readDigests(4, end, replacedBefore);
    readDigests(end, previous.length, known);
  }
  const next = new Set<string>();
  const carried = new Set<string>();
  let replacedNow: string[] = [];
  return {
    has: (s) => known.size > 0 && known.has(digest(s)),
    carry: (s, hold = true) => {
      if (known.size === 0) return false;
      const d = digest(s);
      if (!known.has(d)) return false;
      next.add(d);
      if (hold) carried.add(s);
      return true;
    },
    carried: (s) => carried.has(s),
    lose: (s) => void next.delete(digest(s)),
    add: (s) => void next.add(digest(s)),
    learntSince: (replaced) => {
      const digests = replaced.map(digest);
      replacedNow = digests;
      const now = new Set(digests);
      for (const d of replacedBefore) if (!now.has(d)) return undefined;
      return replaced.filter((_, i) => !replacedBefore.has(digests[i]));
    },
    toBuffer: () => {
      const head = Buffer.alloc(4);
      head.writeUInt32BE(replacedNow.length);
      return Buffer.concat([head, Buffer.from(replacedNow.join('') + [...next].join(''), 'latin1')]);
    },
  };
}
