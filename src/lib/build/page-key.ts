/**
 * Keys for Astro's incremental static builds (`experimental.incrementalBuild`).
 *
 * Astro copies a page from its previous build when the page's module graph
 * (templates, components, CSS, client scripts, the virtual config module) is
 * unchanged AND the `cacheKey` returned with it from `getStaticPaths()` is the
 * same. The module graph is Astro's to hash; the key must cover every piece of
 * DATA the page shows. For a session's first page that is:
 * - the whole stored entry (its digest covers the session's files, the settings
 *   and the render code; hashing the data itself also covers any field another
 *   page section adds to the entry later),
 * - the page number,
 * - the chrome drawn from other entries: the previous and next session links,
 * - the site config (title, base, search settings) as the page sees it.
 * A page after the first shows less (`laterPageData`, src/lib/site/later-page.ts):
 * its key is that view of the entry, the page's own digest from the render
 * (its transcript, prompts and the abandoned branches), the same chrome and
 * config (`laterPageKey`), and nothing that grows as the session does.
 * Whatever else a session page starts to show from outside its own entry must
 * be added to these keys, or a rebuild would serve it stale. Project and
 * insights pages are keyed by their sessions' entries (`groupPageKey`).
 */
import { createHash } from 'node:crypto';
import type { SessionEntry } from '../../schemas/session.js';
import { groupByProject, movedProjects, type ProjectGroup } from '../site/collections.js';

/** Bumped when the meaning of the key changes, so older cached pages are not reused. */
const PAGE_KEY_VERSION = 2;

/** A short hex digest of a JSON value (key order as given: callers pass values built the same way every time). */
export function jsonDigest(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value) ?? 'undefined').digest('hex').slice(0, 32);
}

const entryDigests = new WeakMap<object, string>();

/**
 * `jsonDigest` of a stored session's data, computed once per entry per build
 * however many routes ask (the session pages, the project and insights pages).
 */
export function entryDigest(entry: { data: object }): string {
  let d = entryDigests.get(entry.data);
  if (d === undefined) {
    d = jsonDigest(entry.data);
    entryDigests.set(entry.data, d);
  }
  return d;
}

/**
 * The cache key of a page that lists or sums a group of sessions (a project
 * page, a project's insights): it shows nothing but the group's name and
 * what its sessions' entries hold, in the given order, under the site config.
 *
 * @param kind which page (so two kinds of page over the same group never share a key)
 * @param group the group's slug and name
 * @param entries the group's sessions, in the order the page shows them
 * @param siteDigest `jsonDigest` of the site config and base
 */
export function groupPageKey(kind: string, group: { slug: string; name: string }, entries: readonly { data: object }[], siteDigest: string): string {
  return jsonDigest([PAGE_KEY_VERSION, kind, group.slug, group.name, entries.map(entryDigest), siteDigest]);
}

/**
 * The cache key of a session's Markdown (`…/<session>/index.md`): it shows its
 * own entry's render and nothing else (its links are relative to itself).
 */
export function markdownPageKey(entryDigest: string): string {
  return jsonDigest([PAGE_KEY_VERSION, 'markdown', entryDigest]);
}

/** The cache key of a long session's anchor map (`…/<session>/anchors.json`): its own entry's render alone. */
export function anchorMapPageKey(entryDigest: string): string {
  return jsonDigest([PAGE_KEY_VERSION, 'anchors', entryDigest]);
}

/** The link to another session a page shows: its slug and title. */
export interface NeighbourLink {
  slug: string;
  title: string;
}

/**
 * The cache key of one page of a session.
 *
 * @param entryDigest `jsonDigest(entry.data)`, computed once per session
 * @param page 1-based page number
 * @param chrome what the page shows from outside its entry
 * @param siteDigest `jsonDigest` of the site config and base, computed once per build
 */
export function sessionPageKey(entryDigest: string, page: number, chrome: { older?: NeighbourLink; newer?: NeighbourLink }, siteDigest: string): string {
  return jsonDigest([PAGE_KEY_VERSION, entryDigest, page, neighbourLink(chrome.older), neighbourLink(chrome.newer), siteDigest]);
}

/**
 * The cache key of a page after the first of a session: what it shows of its
 * entry (`laterPageData`, which holds whether a next page exists), its own
 * digest from the render, the chrome and the config. A session that grew by
 * appended lines keeps the keys of the pages before the one the lines landed on.
 *
 * @param view `laterPageData(entry.data, page)`: the page is rendered from it
 * @param page 1-based page number, 2 or more
 * @param pageKey the page's `RenderedSession.pageKeys` entry (`entry.data.pageKeys[page - 1]`)
 * @param chrome what the page shows from outside its entry
 * @param siteDigest `jsonDigest` of the site config and base, computed once per build
 */
export function laterPageKey(view: SessionEntry, page: number, pageKey: string, chrome: { older?: NeighbourLink; newer?: NeighbourLink }, siteDigest: string): string {
  return jsonDigest([PAGE_KEY_VERSION, 'later', view, page, pageKey, neighbourLink(chrome.older), neighbourLink(chrome.newer), siteDigest]);
}

function neighbourLink(n?: NeighbourLink): [string, string] | null {
  return n ? [n.slug, n.title] : null;
}

/**
 * Previous (older) and next (newer) session of the same project for every
 * entry, from one list sorted newest first (as `sortSessions` gives it): one
 * pass, where asking `neighbours()` per session costs a filter and a sort each.
 */
export function neighbourIndex<T extends { data: { slug: string; projectSlug: string } }>(sortedNewestFirst: readonly T[]): Map<string, { older?: T; newer?: T }> {
  const byProject = new Map<string, T[]>();
  for (const e of sortedNewestFirst) {
    const list = byProject.get(e.data.projectSlug) ?? [];
    list.push(e);
    byProject.set(e.data.projectSlug, list);
  }
  const out = new Map<string, { older?: T; newer?: T }>();
  for (const list of byProject.values()) {
    list.forEach((e, i) => out.set(e.data.slug, { newer: list[i - 1], older: list[i + 1] }));
  }
  return out;
}

/**
 * The routes of a page per project (`projects/[project]`, `insights/[project]`):
 * one per project, keyed by `groupPageKey`, and one per moved project URL (a
 * worktree's folder, see `movedProjects`) with the project to redirect to.
 */
export function projectPagePaths<T extends { data: SessionEntry }>(
  kind: string,
  sessions: T[],
  siteDigest: string,
): Array<{ params: { project: string }; props: { project: ProjectGroup<T> } | { movedTo: string }; cacheKey?: string }> {
  return [
    ...groupByProject(sessions).map((project) => ({
      params: { project: project.slug },
      props: { project },
      cacheKey: groupPageKey(kind, project, project.sessions, siteDigest),
    })),
    ...[...movedProjects(sessions)].map(([from, to]) => ({ params: { project: from }, props: { movedTo: to } })),
  ];
}
