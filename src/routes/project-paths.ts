import { getCollection } from 'astro:content';
import config from 'virtual:sessionpress/config';
import { jsonDigest, projectPagePaths } from '../lib/build/page-key';
import { siteBase } from '../scripts/site-base';

/**
 * `getStaticPaths` of the pages made per project (its sessions, its insights):
 * one path per project, keyed by its sessions' entries, the config and the
 * base, plus a redirect from each worktree folder's old URL to its
 * repository's project (see `projectPagePaths`).
 */
export async function projectPaths(kind: 'project' | 'insights') {
  return projectPagePaths(kind, await getCollection('sessions'), jsonDigest([config, siteBase]));
}
