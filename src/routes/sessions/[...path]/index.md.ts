import type { APIRoute } from 'astro';
import { getCollection } from 'astro:content';
import config from 'virtual:sessionpress/config';
import { entryDigest, markdownPageKey } from '../../../lib/build/page-key';
import { createRenderCache } from '../../../lib/build/render-cache';

/**
 * Each session as Markdown beside its first page (`…/<session>/index.md`),
 * written by the build path with the pages (src/lib/export/twin.ts). The text
 * holds only links relative to itself, so its `cacheKey` is the entry alone.
 */
export async function getStaticPaths() {
  return (await getCollection('sessions')).map((entry) => ({
    params: { path: entry.data.slug },
    props: { cacheKey: String(entry.data.cacheKey) },
    cacheKey: markdownPageKey(entryDigest(entry)),
  }));
}

export const GET: APIRoute = ({ props }) =>
  new Response(createRenderCache(config.cacheDir).markdownStream(String(props.cacheKey)), {
    headers: { 'Content-Type': 'text/markdown; charset=utf-8' },
  });
