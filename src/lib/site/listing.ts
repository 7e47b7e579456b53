/**
 * The session listing: what a session card shows, as plain data, made once
 * for the server-rendered cards (SessionList.astro) and for the JSON chunks
 * the list script loads when a reader filters, groups, sorts or asks for more
 * (src/scripts/session-list.ts renders the same card from it). Only what a
 * card shows goes in: a list of thousands of sessions stays a few hundred KB.
 * Pure: no Astro imports; the browser script imports its types only.
 */
import type { SessionEntry } from '../../schemas/session.js';
import type { PriceTable } from './cost.js';
import { sessionCostText, shortModel } from './summary.js';
import { pullRequestLabel } from './pull-requests.js';
import { checkoutParts } from './session-project.js';

/** One session card. Short keys: the JSON listing holds thousands of these. */
export interface CardRow {
  /** The entry slug (`<project>/<session>`): the card's link. */
  s: string;
  /** Title (transcript text: the script sets it as text, never as HTML). */
  t: string;
  /** Project slug. */
  p: string;
  /** Sort key: last (else first) timestamp, ISO. */
  k: string;
  /** First timestamp, ISO (shown with `formatTimestamp`, its day with `sessionDay`), or empty. */
  i: string;
  /** Duration in ms (shown with `formatDuration`), when known. */
  ms?: number;
  /** Prompts, tool calls, subagents. */
  n: number;
  c: number;
  a: number;
  /** Cost as shown, and whether part of it is stated by the records. */
  $: string;
  st?: 1;
  /** Models as shown (`opus-4-5`). */
  m: string[];
  /** Pull requests: label and URL. */
  r?: Array<[string, string]>;
  /** The worktree and branch the session ran in, as the label shows them (`checkoutParts`). */
  wt?: Array<{ label: 'worktree' | 'branch'; value: string }>;
}

/** One chunk of the JSON listing: every project (in the first chunk) and a slice of the rows, newest first. */
export interface ListingChunk {
  /** Every session of the site. */
  total: number;
  chunks: number;
  /** `[slug, name]` of every project, ordered by their newest session (first chunk only). */
  projects?: Array<[string, string]>;
  rows: CardRow[];
}

/** Rows per JSON chunk: about 220 KB of JSON (the first chunk also names every project), 30 KB gzipped, at the corpus's titles. */
export const LISTING_CHUNK_ROWS = 800;

/** The card of one stored session. */
export function cardRow(data: SessionEntry, prices: PriceTable): CardRow {
  const f = data.facts;
  const row: CardRow = {
    s: data.slug,
    t: data.title,
    p: data.projectSlug,
    k: f.lastTimestamp ?? f.firstTimestamp ?? '',
    i: f.firstTimestamp ?? '',
    ms: f.durationMs,
    n: f.promptCount,
    c: f.toolCallCount,
    a: data.subagentCount,
    $: sessionCostText(f, prices),
    m: f.models.filter((m) => m !== '<synthetic>').map(shortModel),
  };
  if (f.usage.some((u) => u.statedCost !== undefined)) row.st = 1;
  if (f.pullRequests?.length) row.r = f.pullRequests.map((pr) => [pullRequestLabel(pr), pr.url]);
  if (data.checkout) row.wt = checkoutParts(data.checkout);
  return row;
}

/** How many pages a list of `total` sessions takes at `pageSize` a page (at least one, even when empty). */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / Math.max(1, pageSize)));
}

/** The sessions of 1-based page `page`. */
export function pageSlice<T>(items: readonly T[], page: number, pageSize: number): T[] {
  return items.slice((page - 1) * pageSize, page * pageSize);
}
