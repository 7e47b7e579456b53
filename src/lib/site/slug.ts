import { redactProjectFolder, usernamesFromFolder } from '../redact/usernames.js';

/**
 * Turns any text into a URL path segment: lowercase ASCII letters, digits and
 * dashes. Used for project folders, whose names come from user paths and may
 * hold anything (the fixtures even hold HTML).
 */
export function slugify(text: string, fallback = 'untitled'): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
  return slug || fallback;
}

/** A session id that is safe in a URL; real ids are uuids and pass unchanged. */
export function sessionSlug(sessionId: string): string {
  return /^[A-Za-z0-9_-]+$/.test(sessionId) ? sessionId : slugify(sessionId, 'session');
}

/**
 * The project slug of an encoded project folder: the login name is removed
 * first (it must never reach a URL), then the rest is made URL-safe. Its
 * sessions' URLs start with it (`sessionEntryId`), even when they are listed
 * under another project (a worktree's sessions, under their repository's).
 * `homeName` is the folder's login name as its sessions' `cwd` gives it
 * (`SessionSource.homeName`); without it, the first segment after `home` or
 * `Users` is taken.
 */
export function projectSlugOf(projectFolder: string, homeName?: string): string {
  return slugify(redactProjectFolder(projectFolder, [...(homeName === undefined ? [] : [homeName]), ...usernamesFromFolder(projectFolder)]), 'sessions');
}

/** Session page slug; stable across builds, so links never break. */
export function sessionEntryId(projectSlug: string, sessionId: string): string {
  return `${projectSlug}/${sessionSlug(sessionId)}`;
}

/**
 * The entry id (and URL path) of a session found on disk: its own project
 * folder's slug and its id. The one place a session's id is made; everything
 * else reads it from the session's identity (`openSession`) or the store.
 */
export function entryIdOf(source: { projectFolder: string; sessionId: string; homeName?: string }): string {
  return sessionEntryId(projectSlugOf(source.projectFolder, source.homeName), source.sessionId);
}

/** The folder slug a session page slug starts with (`sessionEntryId`'s first argument). */
export function folderSlugOf(entryId: string): string {
  return entryId.slice(0, entryId.indexOf('/'));
}
