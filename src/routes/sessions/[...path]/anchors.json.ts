import type { APIRoute } from 'astro';
import { getCollection } from 'astro:content';
import config from 'virtual:sessionpress/config';
import { anchorMapPageKey, entryDigest } from '../../../lib/build/page-key';
import { createRenderCache } from '../../../lib/build/render-cache';

/**
 * The anchor map of a session too long for page 1 to carry it
 * (`anchorMapFile`, src/lib/build/entry-data.ts), beside its first page: page
 * 1 fetches it only to forward a `#m-`/`#t-` link it does not hold. Written
 * by the loader into the render cache; the key is the entry alone.
 */
export async function getStaticPaths() {
  return (await getCollection('sessions'))
    .filter((entry) => entry.data.anchorMapFile)
    .map((entry) => ({
      params: { path: entry.data.slug },
      props: { cacheKey: String(entry.data.cacheKey) },
      cacheKey: anchorMapPageKey(entryDigest(entry)),
    }));
}

export const GET: APIRoute = ({ props }) =>
  new Response(createRenderCache(config.cacheDir).anchorMapStream(String(props.cacheKey)), {
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
  });
