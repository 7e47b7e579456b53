/**
 * The search manifest the build writes beside the primary pagefind bundle, and
 * the browser reads to merge a sharded index. No Node imports: the page script
 * bundles this file too.
 */

/**
 * The bundle folder of a shard, relative to the base of Sessionpress's pages:
 * `_sessionpress/pagefind`, then `_sessionpress/pagefind-2`, … Inside our own
 * folder, so that a host site's own search index (Starlight's `pagefind/`) is
 * never overwritten, whatever the prefix.
 */
export function bundleDir(shard: number): string {
  return `_sessionpress/${shard === 0 ? 'pagefind' : `pagefind-${shard + 1}`}`;
}

/** File name of the manifest, inside the primary bundle folder (`_sessionpress/pagefind/`). */
export const SEARCH_MANIFEST = 'sessionpress-search.json';

export interface SearchManifest {
  /** Pages in the index; 0 on a site with nothing to search (pagefind cannot open an empty index). */
  pages: number;
  /** Bundle folders to merge into the primary one, relative to the pages' base, e.g. `_sessionpress/pagefind-2/`. */
  shards: string[];
  /**
   * pagefind result id → the page's sort date, for sites with more than one shard:
   * pagefind orders merged results by score, so a date-sorted search is re-sorted with these.
   */
  dates: Record<string, string>;
}
