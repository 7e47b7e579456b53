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

/** A base path with exactly one trailing slash (`/` stays `/`), ready to prefix site paths. */
export function withTrailingSlash(base: string): string {
  return base.endsWith('/') ? base : `${base}/`;
}

/** A session id that is safe in a URL; real ids are uuids and pass unchanged. */
export function sessionSlug(sessionId: string): string {
  return /^[A-Za-z0-9_-]+$/.test(sessionId) ? sessionId : slugify(sessionId, 'session');
}
