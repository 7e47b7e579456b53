/**
 * Splitting the search index into shards.
 *
 * pagefind builds an index in memory and has no incremental mode: on a large
 * site one index took ~1.25 GB and every change re-indexed everything. The
 * site's pages are therefore split into shards of at most about `shardBytes` of HTML,
 * each indexed on its own (one at a time, so memory is bounded by one shard)
 * and cached by a digest of its pages, so a change re-indexes one shard only.
 * The browser merges the shards with pagefind's `mergeIndex`. A site smaller
 * than one shard gets exactly one bundle, as before.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { mapLimit } from '../fs/parallel.js';

/** The attribute that marks what pagefind indexes; pages without it are not searched. */
export const SEARCH_BODY_ATTR = 'data-pagefind-body';

/** Never more shards than this, however large the site: each one costs the browser a few requests per query. A power of two (see `shardCount`). */
export const MAX_SHARDS = 16;

/**
 * How many shards a site of `totalBytes` of searchable HTML gets: the fewest
 * of 1, 2, 4, 8 or 16 that keep each under `shardBytes` on average. A change
 * in the number moves nearly every page to another shard, and so re-indexes
 * every shard: by doubling, a growing site pays that four times in its life
 * (one more shard at each `shardBytes` of growth paid it at every step: a
 * 1 MB append that took a site past 110 MB of pages re-indexed all 12 shards).
 */
export function shardCount(totalBytes: number, shardBytes: number): number {
  if (!(shardBytes > 0) || totalBytes <= shardBytes) return 1;
  let count = 2;
  while (count < MAX_SHARDS && count * shardBytes < totalBytes) count *= 2;
  return count;
}

/** The session a page belongs to (`sessions/<project>/<id>`), or the page's own path for any other page. */
export function shardKeyOf(relPath: string): string {
  const parts = relPath.split('/');
  return parts[0] === 'sessions' && parts.length >= 4 ? parts.slice(0, 3).join('/') : relPath;
}

/**
 * How many consecutive pages of a spread session share a shard. An append
 * rewrites a session's last page and adds the pages after it (a 1 MB append
 * to a long session: three or four): in runs of this many pages they nearly
 * always fall in one run. Spread page by page, they fell in two or three shards.
 */
export const SPREAD_RUN_PAGES = 16;

/**
 * The shard of a page, from its path relative to the site root: a number below
 * `shards`, or `shards` itself for the tail shard (see `assignShards`). Every
 * page of one session (`sessions/<project>/<id>/…`) lands in the same shard, so
 * a changed session touches one shard; the hash keeps the assignment stable as
 * sessions come and go (it changes only when the number of shards does).
 *
 * A session in `spread` (one larger than a shard; the map gives its last page)
 * has its pages spread over the shards instead, in runs of `SPREAD_RUN_PAGES`
 * pages, run after run round the shards from one its name picks: pagefind holds
 * a whole shard in memory, and one 630 MB session in one shard took 2.9 GB.
 * Its last run, the one an append rewrites, goes to the tail shard, which holds
 * only such runs: an append re-indexes those few pages, not the sixteenth of the
 * session its run's shard holds (a 1 MB append to the 630 MB session: 103
 * pages in 11 s). A run joins its shard once the session has grown past it, and
 * a page's shard never depends on how many runs come after its own. With
 * `tail` false, the last run goes to its shard like the others.
 */
export function shardOf(relPath: string, shards: number, spread?: ReadonlyMap<string, number>, tail = true): number {
  if (shards <= 1) return 0;
  const session = shardKeyOf(relPath);
  const start = createHash('sha256').update(session).digest().readUInt32BE(0) % shards;
  const last = spread?.get(session);
  if (last === undefined) return start;
  const run = runOf(sessionPageOf(relPath));
  return tail && run === runOf(last) ? shards : (start + run) % shards;
}

const runOf = (page: number) => Math.floor((page - 1) / SPREAD_RUN_PAGES);

/** The 1-based page of a session page's path (`…/<id>/index.html` is 1, `…/<id>/7/index.html` is 7); 1 for any other file of the session. */
function sessionPageOf(relPath: string): number {
  const m = /^sessions\/[^/]+\/[^/]+\/(\d+)\/index\.html$/.exec(relPath);
  return m ? Number(m[1]) : 1;
}

/** The sessions whose pages together hold more than `shardBytes` of HTML, each with its last page: their pages are spread over the shards (see `shardOf`). */
export function oversizedSessions(pages: ReadonlyArray<{ rel: string; bytes: number }>, shardBytes: number): Map<string, number> {
  const totals = new Map<string, { bytes: number; last: number }>();
  for (const p of pages) {
    const key = shardKeyOf(p.rel);
    const t = totals.get(key) ?? { bytes: 0, last: 1 };
    t.bytes += p.bytes;
    t.last = Math.max(t.last, sessionPageOf(p.rel));
    totals.set(key, t);
  }
  return new Map([...totals].filter(([key, t]) => t.bytes > shardBytes && key.startsWith('sessions/')).map(([key, t]) => [key, t.last]));
}

/** The pages of a site in their shards (see `assignShards`). */
export interface ShardPlan<T> {
  /** How many shards the hash spreads sessions over (`shardCount`): part of every shard's digest. */
  count: number;
  /** The shards that hold pages, in order, the tail last; one empty shard when there is nothing to search. */
  shards: T[][];
}

/**
 * Splits a site's searchable pages into shards: `shardCount` shards by
 * `shardOf`, and a tail shard after them with the last run of every spread
 * session. The tail is kept only while it holds no more than an average shard
 * (or `shardBytes`), so it never raises pagefind's memory bound; past that,
 * those runs go to their own shards like the others.
 */
export function assignShards<T extends { rel: string; bytes: number }>(pages: readonly T[], shardBytes: number): ShardPlan<T> {
  const total = pages.reduce((n, p) => n + p.bytes, 0);
  const count = shardCount(total, shardBytes);
  const spread = oversizedSessions(pages, shardBytes);
  const groups = Array.from({ length: count + 1 }, () => [] as T[]);
  for (const p of pages) groups[shardOf(p.rel, count, spread)].push(p);
  const tail = groups[count];
  if (tail.reduce((n, p) => n + p.bytes, 0) > Math.max(shardBytes, total / count)) {
    for (const p of tail.splice(0)) groups[shardOf(p.rel, count, spread, false)].push(p);
  }
  const shards = groups.filter((g) => g.length > 0);
  // A site with nothing searchable still gets one (empty) bundle, so the search box answers "no results" instead of failing.
  if (!shards.length) shards.push([]);
  return { count, shards };
}

/**
 * Reads the sort date of every page in a written bundle from its fragments
 * (gzip, a `pagefind_dcd` signature, then JSON with `meta.date`), keyed by the
 * id pagefind gives results: the fragment's file name.
 */
export async function fragmentDates(bundlePath: string): Promise<Record<string, string>> {
  const dir = join(bundlePath, 'fragment');
  // An index with no pages has no fragment folder.
  if (!existsSync(dir)) return {};
  const names = (await readdir(dir)).filter((n) => n.endsWith('.pf_fragment')).sort();
  const dates = await mapLimit(names, 16, async (name) => {
    const text = gunzipSync(await readFile(join(dir, name))).toString('utf8');
    const json = JSON.parse(text.slice(text.indexOf('{'))) as { meta?: Record<string, string> };
    return json.meta?.date;
  });
  const out: Record<string, string> = {};
  names.forEach((name, i) => {
    if (dates[i]) out[name.slice(0, -'.pf_fragment'.length)] = dates[i]!;
  });
  return out;
}
