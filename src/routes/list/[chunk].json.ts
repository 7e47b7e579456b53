import type { APIRoute } from 'astro';
import { getCollection } from 'astro:content';
import prices from '../../data/prices.json';
import { groupByProject, sortSessions } from '../../lib/site/collections';
import { cardRow, LISTING_CHUNK_ROWS, pageCount, pageSlice, type ListingChunk } from '../../lib/site/listing';

/**
 * The whole session listing as JSON (`list/1.json`, `list/2.json`, …), newest
 * first, in chunks of `LISTING_CHUNK_ROWS` rows: what the index's and the
 * project pages' script loads when a reader filters, groups, sorts or asks
 * for more than the page shows. The first chunk also names every project.
 */
export async function getStaticPaths() {
  const sessions = sortSessions(await getCollection('sessions'));
  const chunks = pageCount(sessions.length, LISTING_CHUNK_ROWS);
  const projects = groupByProject(sessions).map((p): [string, string] => [p.slug, p.name]);
  return Array.from({ length: chunks }, (_, i) => {
    const body: ListingChunk = { total: sessions.length, chunks, ...(i === 0 ? { projects } : {}), rows: pageSlice(sessions, i + 1, LISTING_CHUNK_ROWS).map((s) => cardRow(s.data, prices)) };
    return { params: { chunk: String(i + 1) }, props: { body } };
  });
}

export const GET: APIRoute = ({ props }) => new Response(JSON.stringify(props.body), { headers: { 'Content-Type': 'application/json' } });
