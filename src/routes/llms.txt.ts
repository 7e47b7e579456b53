import type { APIRoute } from 'astro';
import { getCollection } from 'astro:content';
import config from 'virtual:sessionpress/config';
import { llmsTxt } from '../lib/site/llms-txt';
import { siteBase } from '../scripts/site-base';

/** The site's sessions for language models and agents (llmstxt.org), each linked to its Markdown. */
export const GET: APIRoute = async () =>
  new Response(llmsTxt(await getCollection('sessions'), { title: config.title, base: siteBase, site: config.site }), {
    headers: { 'Content-Type': 'text/plain; charset=utf-8' },
  });
