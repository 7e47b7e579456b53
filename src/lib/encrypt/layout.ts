/**
 * Where the files of an encrypted site are, for the build and the browser:
 * every file of the site as built is published sealed under
 * `x/<name>` (crypto.ts names it); only the unlock page and the code that
 * decrypts are published as they are, at the fixed paths below. None of those
 * carries anything of the sessions.
 */

/** The folder of the sealed files, below the site's base. */
export const SEALED_DIR = 'x';
/** The folder of the unlock page and its code. */
export const UNLOCK_DIR = 'unlock';
/** The service worker: at the base, so its scope is the whole site. */
export const SERVICE_WORKER = 'sw.js';
/** The published key slots. */
export const KEYS_FILE = `${UNLOCK_DIR}/keys.json`;
/** The unlock page's script, the guard every decrypted page loads first, and the Argon2id worker. */
export const UNLOCK_SCRIPT = `${UNLOCK_DIR}/unlock.js`;
export const GUARD_SCRIPT = `${UNLOCK_DIR}/guard.js`;
export const ARGON2_WORKER = `${UNLOCK_DIR}/argon2.js`;
/** The unlock page, at its own address and where a host answers the base and unknown paths before the worker runs. */
export const UNLOCK_PAGES = ['index.html', '404.html', `${UNLOCK_DIR}/index.html`];

/**
 * The session storage item the site key lives in (base64url), for this tab only. One per base: sites under
 * one origin (GitHub Pages project sites share `you.github.io`) each keep their own key.
 */
export function keyItem(base: string): string {
  return `sessionpress-site-key:${base}`;
}

/** Every file published in plaintext, relative to the base. */
export const PLAIN_FILES = [...UNLOCK_PAGES, SERVICE_WORKER, KEYS_FILE, UNLOCK_SCRIPT, GUARD_SCRIPT, ARGON2_WORKER];

/** Whether the service worker lets a request for this path (relative to the base) through untouched. */
export function isPassThrough(path: string): boolean {
  return path === SERVICE_WORKER || path.startsWith(`${UNLOCK_DIR}/`) || path.startsWith(`${SEALED_DIR}/`);
}

/**
 * The file a request path asks for (relative to the base, decoded): `''` and
 * `a/` are folders whose `index.html` answers, as a static host serves them.
 * Undefined for a path outside the base or one that climbs out of it.
 */
export function fileOfRequest(pathname: string, base: string): string | undefined {
  if (!pathname.startsWith(base)) return undefined;
  let rel: string;
  try {
    rel = decodeURIComponent(pathname.slice(base.length));
  } catch {
    return undefined;
  }
  if (rel.split('/').some((s) => s === '..' || s === '.')) return undefined;
  return rel === '' || rel.endsWith('/') ? `${rel}index.html` : rel;
}

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  json: 'application/json',
  md: 'text/markdown; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  xml: 'application/xml',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  ico: 'image/x-icon',
  wasm: 'application/wasm',
  woff2: 'font/woff2',
  woff: 'font/woff',
  webmanifest: 'application/manifest+json',
};

/** The content type a static host would send for a path (pagefind's own files are binary). */
export function contentTypeOf(path: string): string {
  const ext = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase() ?? '';
  return TYPES[ext] ?? 'application/octet-stream';
}

/** Whether deflating a file of this path is worth trying (text; pagefind's index is gzip already, images are compressed). */
export function isCompressible(path: string): boolean {
  return /\.(html|js|mjs|css|json|md|txt|xml|svg|webmanifest)$/i.test(path) || /\.pagefind$/.test(path);
}
