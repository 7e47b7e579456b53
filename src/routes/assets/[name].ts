import type { APIRoute } from 'astro';
import { getCollection } from 'astro:content';
import config from 'virtual:sessionpress/config';
import { createRenderCache } from '../../lib/build/render-cache';

/** Images from transcripts, written once under content-hashed names. */
export async function getStaticPaths() {
  const seen = new Map<string, string>();
  for (const s of await getCollection('sessions')) for (const a of s.data.assets) seen.set(a.name, a.mediaType);
  return [...seen].map(([name, mediaType]) => ({ params: { name }, props: { mediaType } }));
}

export const GET: APIRoute = async ({ params, props }) =>
  new Response(new Uint8Array(await createRenderCache(config.cacheDir).readAsset(String(params.name))), {
    headers: { 'Content-Type': String(props.mediaType) },
  });
