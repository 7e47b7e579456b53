/**
 * What decides whether a page's search record can be reused.
 *
 * A session's pages all carry its running totals: counts and times in the
 * header, "page 7 of 52" in the pager and the overview, the description in
 * the head. Claude Code appends to a session, so every append changed every
 * page's bytes, and every search shard holding one of them was indexed again
 * (178 s of the 285 s an append to the 630 MB session took), though what
 * pagefind records of those pages had not changed at all.
 *
 * The templates therefore mark such parts, which pagefind never indexes (they
 * sit in the head, or inside an element pagefind is told to skip, and hold no
 * filter, sort or meta attribute), between two comments; a page's search
 * digest is the digest of its bytes with the marked parts left out. Transcript
 * text cannot forge a marker: it is escaped, and the sanitiser drops comments.
 * A marker that opens without closing leaves the rest of the page in the
 * digest, so a damaged page is indexed again rather than reused.
 */
import { createHash } from 'node:crypto';

/** Opens a part of a page that is never indexed (see the module's comment). */
export const UNINDEXED_OPEN = '<!--sp:unindexed-->';
/** Closes it. */
export const UNINDEXED_CLOSE = '<!--/sp:unindexed-->';

const OPEN = Buffer.from(UNINDEXED_OPEN);
const CLOSE = Buffer.from(UNINDEXED_CLOSE);

/**
 * The sha-256 (hex) of a page's bytes without its marked, never-indexed
 * parts: equal for two pages whose search records are equal except for what
 * the marked parts held. Works on the bytes (no decoding: the site's pages
 * are hundreds of MB at the largest).
 */
export function searchDigest(page: Uint8Array): string {
  const bytes = Buffer.isBuffer(page) ? page : Buffer.from(page.buffer, page.byteOffset, page.byteLength);
  const hash = createHash('sha256');
  let at = 0;
  for (;;) {
    const open = bytes.indexOf(OPEN, at);
    if (open < 0) break;
    const close = bytes.indexOf(CLOSE, open + OPEN.length);
    if (close < 0) break;
    hash.update(bytes.subarray(at, open));
    // Where a part was left out stays in the digest: moving a marked part is a change.
    hash.update(OPEN);
    at = close + CLOSE.length;
  }
  hash.update(bytes.subarray(at));
  return hash.digest('hex');
}
