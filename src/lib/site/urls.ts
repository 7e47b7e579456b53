/**
 * Every URL of the site, in one module: pages, components, embeds and scripts
 * build links only through these, so a link can never disagree with the page
 * it points at. Each takes the base path (`/`, `/my-repo` or `/my-repo/`)
 * and returns a path ending in `/` (plus an anchor). No imports: the page
 * script in the browser uses this module too.
 */

/** A base path with exactly one trailing slash (`/` stays `/`), ready to prefix site paths. */
export function withTrailingSlash(base: string): string {
  return base.endsWith('/') ? base : `${base}/`;
}

/**
 * The base of Sessionpress's pages, which every function below takes as `base`:
 * the site's base path and the integration's prefix (`''` or `'sessions/'`),
 * e.g. `/repo/sessions/`.
 */
export function pagesBase(siteBase: string, prefix = ''): string {
  return `${withTrailingSlash(siteBase)}${prefix}`;
}

/** Where inside a session a link lands: a page of it, and a message's permanent anchor. */
export interface SessionTarget {
  /** 1-based page; page 1 is the session's own URL. */
  page?: number;
  /** A message uuid: the link ends in `#m-<uuid>`, the anchor that never changes. */
  message?: string;
  /** A tool call's `tool_use` id: the link ends in `#t-<id>` (instead of the message's anchor). */
  tool?: string;
}

/** The anchor id of a message on its session page. */
export function messageAnchor(uuid: string): string {
  return `m-${uuid}`;
}

/** The anchor id of a tool call (by its `tool_use` id) on its session page. */
export function toolAnchor(toolUseId: string): string {
  return `t-${toolUseId}`;
}

/** A session page: `<base>sessions/<project>/<session>/[<page>/][#m-<uuid> | #t-<tool id>]`; `slug` is `<project slug>/<session slug>`. */
export function sessionUrl(base: string, slug: string, target: SessionTarget = {}): string {
  return `${withTrailingSlash(base)}sessions/${slug}/${inSession(target)}`;
}

/** The part of a session link after the session's own folder: `[<page>/][#m-<uuid> | #t-<tool id>]`. */
function inSession(target: SessionTarget): string {
  const page = target.page && target.page > 1 ? `${target.page}/` : '';
  const anchor = target.tool ? `#${toolAnchor(target.tool)}` : target.message ? `#${messageAnchor(target.message)}` : '';
  return `${page}${anchor}`;
}

/** A session as Markdown, beside its first page: `<base>sessions/<project>/<session>/index.md`. */
export function sessionMarkdownUrl(base: string, slug: string): string {
  return `${sessionUrl(base, slug)}index.md`;
}

/** The anchor map of a long session, beside its first page (`anchors.json`, see src/lib/build/entry-data.ts). */
export function sessionAnchorMapUrl(base: string, slug: string): string {
  return `${sessionUrl(base, slug)}anchors.json`;
}

/**
 * A link from a session's Markdown (`sessionMarkdownUrl`) to a place on its
 * pages, relative to the Markdown file: `./#m-<uuid>`, `2/#m-<uuid>`. It holds
 * whatever the site's address and base, so the text is the same on every deploy.
 */
export function sessionUrlFromMarkdown(target: SessionTarget = {}): string {
  return inSession(target).replace(/^(?=#|$)/, './');
}

/** A project's list of sessions. */
export function projectUrl(base: string, projectSlug: string): string {
  return `${withTrailingSlash(base)}projects/${projectSlug}/`;
}

/** A note page, or the list of notes when `id` is left out. */
export function noteUrl(base: string, id?: string): string {
  return `${withTrailingSlash(base)}notes/${id ? `${id}/` : ''}`;
}

/** An image or other file from a transcript, under its content-hashed name. */
export function assetUrl(base: string, name = ''): string {
  return `${withTrailingSlash(base)}assets/${name}`;
}

/** The search page, optionally with a query filled in (`?q=`). */
export function searchUrl(base: string, query = ''): string {
  return `${withTrailingSlash(base)}search/${query ? `?q=${encodeURIComponent(query)}` : ''}`;
}

/** An absolute URL when the site's address is known, else the root-relative path as it is. */
export function absoluteUrl(path: string, site: string | undefined): string {
  return site ? new URL(path, site).href : path;
}

/** The list of pull requests that sessions opened or updated. */
export function pullRequestsUrl(base: string): string {
  return `${withTrailingSlash(base)}pull-requests/`;
}

/** One pull request's page: its sessions, and who wrote its added lines when the build has the repository. */
export function pullRequestUrl(base: string, number: number): string {
  return `${pullRequestsUrl(base)}${number}/`;
}

/** The insights page of the whole site, or of one project when `projectSlug` is given. */
export function insightsUrl(base: string, projectSlug?: string): string {
  return `${withTrailingSlash(base)}insights/${projectSlug ? `${projectSlug}/` : ''}`;
}

/** Page `page` of the site's session list: page 1 is the index itself, the others `<base>page/<n>/`. */
export function listPageUrl(base: string, page: number): string {
  return `${withTrailingSlash(base)}${page > 1 ? `page/${page}/` : ''}`;
}

/** Page `page` of a project's session list: page 1 is the project's page, the others `…/projects/<slug>/page/<n>/`. */
export function projectPageUrl(base: string, projectSlug: string, page: number): string {
  return `${projectUrl(base, projectSlug)}${page > 1 ? `page/${page}/` : ''}`;
}

/** Chunk `n` (1-based) of the JSON listing of every session. */
export function listingUrl(base: string, n: number): string {
  return `${withTrailingSlash(base)}list/${n}.json`;
}
