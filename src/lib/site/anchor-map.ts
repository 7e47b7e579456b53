/**
 * The anchor map of a long session: which page holds each message
 * (`#m-<uuid>`) and each tool call (`#t-<tool_use_id>`), so that page 1 can
 * forward a link whose anchor lives on a later page. Only page 1 carries it,
 * so it is kept small: each anchor is a short key (a prefix of its id, just
 * long enough that no two pages share a key), the keys are grouped by page,
 * and page 1's own anchors are left out (the browser finds those itself).
 * No imports: the page script bundles this module too.
 */

/** Where the anchors of pages 2, 3, … are: what page 1 sends, as data. */
export interface AnchorMap {
  /** Characters in each key. */
  keyLength: number;
  /** The keys of page 2, 3, …, each list space-separated. */
  pages: string[];
}

/** Shortest key tried: 6 hex digits of a uuid tell ~16 million apart. */
const MIN_KEY = 6;

/**
 * The part of an anchor id that tells it apart: a message's uuid, a tool
 * call's id without the `toolu_01` every Claude call id starts with (or
 * `toolu_vrtx_01`…). Undefined for any other anchor, and for ids with
 * characters a space-separated key list cannot hold.
 */
function anchorBody(id: string): string | undefined {
  const body = id.startsWith('m-') ? id.slice(2) : id.startsWith('t-') ? id.slice(2).replace(/^toolu_(?:[a-z]+_)?01(?=.)/, '') : undefined;
  return body && /^[\w-]+$/.test(body) ? body : undefined;
}

/** The key of an anchor id (`m-<uuid>`, `t-<tool_use_id>`) in a map with keys of `length` characters. */
export function anchorKey(id: string, length: number): string | undefined {
  return anchorBody(id)?.slice(0, length);
}

/**
 * Makes the map from every anchor of the session and its page (1-based).
 * The key length is the shortest from `MIN_KEY` up at which no key names
 * two pages; an anchor listed twice keeps its first page.
 */
export function buildAnchorMap(anchors: Iterable<readonly [id: string, page: number]>): AnchorMap {
  const pageOf = new Map<string, number>();
  for (const [id, page] of anchors) {
    const body = anchorBody(id);
    if (body !== undefined && !pageOf.has(body)) pageOf.set(body, page);
  }
  const keyLength = shortestKey(pageOf);
  const lists: Array<Set<string>> = [];
  for (const [body, page] of pageOf) {
    if (page < 2) continue;
    (lists[page - 2] ??= new Set()).add(body.slice(0, keyLength));
  }
  return { keyLength, pages: Array.from(lists, (keys) => [...(keys ?? [])].join(' ')) };
}

/** The shortest key length at which every key names one page. Full length always does: bodies are distinct. */
function shortestKey(pageOf: Map<string, number>): number {
  let longest = MIN_KEY;
  for (const body of pageOf.keys()) longest = Math.max(longest, body.length);
  for (let length = MIN_KEY; length < longest; length++) {
    if (keysNameOnePage(pageOf, length)) return length;
  }
  return longest;
}

function keysNameOnePage(pageOf: Map<string, number>, length: number): boolean {
  const seen = new Map<string, number>();
  for (const [body, page] of pageOf) {
    const key = body.slice(0, length);
    const known = seen.get(key);
    if (known !== undefined && known !== page) return false;
    seen.set(key, page);
  }
  return true;
}

/**
 * The page (2 or later) whose key list holds the anchor `id`, or undefined.
 * Only asked for an anchor page 1 does not have, so page 1 is never the answer.
 */
export function pageOfAnchor(map: AnchorMap, id: string): number | undefined {
  // A page built by an older version may carry a map in another form: then nothing is forwarded.
  if (!Array.isArray(map.pages) || !(map.keyLength > 0)) return undefined;
  const key = anchorKey(id, map.keyLength);
  if (!key) return undefined;
  const at = map.pages.findIndex((list) => ` ${list} `.includes(` ${key} `));
  return at === -1 ? undefined : at + 2;
}
