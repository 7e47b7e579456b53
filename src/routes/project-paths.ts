import { getCollection } from 'astro:content';
import config from 'virtual:sessionpress/config';
import { groupPageKey, jsonDigest, projectPagePaths } from '../lib/build/page-key';
import { LISTING_CHUNK_ROWS, pageCount } from '../lib/site/listing';
import { siteBase } from '../scripts/site-base';

/**
 * `getStaticPaths` of the pages made per project (its sessions, its insights):
 * one path per project, keyed by its sessions' entries, the config and the
 * base, plus a redirect from each worktree folder's old URL to its
 * repository's project (see `projectPagePaths`). A project's page also gets
 * the number of chunks of the site's JSON listing, which its list script loads.
 * With `kind` "project-page": pages 2, 3, … of each project's list instead.
 */
export async function projectPaths(kind: 'project' | 'insights' | 'project-page') {
  const sessions = await getCollection('sessions');
  const listingChunks = pageCount(sessions.length, LISTING_CHUNK_ROWS);
  const siteDigest = jsonDigest([config, siteBase, listingChunks]);
  const paths = projectPagePaths(kind === 'project-page' ? 'project' : kind, sessions, siteDigest).map((p) => ({ ...p, props: { ...p.props, listingChunks } }));
  if (kind !== 'project-page') return paths;
  return paths.flatMap(({ props }) => {
    if (!('project' in props)) return [];
    const { project } = props;
    return Array.from({ length: pageCount(project.sessions.length, config.indexPageSize) - 1 }, (_, i) => ({
      params: { project: project.slug, page: String(i + 2) },
      props,
      cacheKey: groupPageKey(`${kind}-${i + 2}`, project, project.sessions, siteDigest),
    }));
  });
}
