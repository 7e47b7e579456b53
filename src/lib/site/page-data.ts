import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/**
 * Astro's cache folder: `node_modules/.astro` unless SESSIONPRESS_CACHE_DIR
 * names another (tests and the bench use their own, so builds of different
 * sources never share a content store).
 */
export function astroCacheDir(projectRoot: string, env: NodeJS.ProcessEnv = process.env): string {
  return env.SESSIONPRESS_CACHE_DIR ? resolve(projectRoot, env.SESSIONPRESS_CACHE_DIR) : join(projectRoot, 'node_modules', '.astro');
}

/** Where the render cache lives: inside Astro's own cache folder, so it is cleared with it. */
export function renderCacheRoot(projectRoot: string): string {
  return join(astroCacheDir(projectRoot), 'sessionpress');
}

/** Reads one rendered page of a session and its abandoned branches from the render cache. */
export async function readRenderedPage(projectRoot: string, cacheKey: string, page: number): Promise<{ transcript: string; abandoned: string }> {
  const dir = join(renderCacheRoot(projectRoot), cacheKey);
  const [transcript, abandoned] = await Promise.all([
    readFile(join(dir, `page-${page}.html`), 'utf8'),
    page === 1 ? readFile(join(dir, 'abandoned.html'), 'utf8') : Promise.resolve(''),
  ]);
  return { transcript, abandoned };
}

/** Reads an asset (an image from a transcript) written by the renderer. */
export async function readAsset(projectRoot: string, name: string): Promise<Buffer> {
  return readFile(join(renderCacheRoot(projectRoot), 'assets', name));
}

/** Formats a duration for people: `42 s`, `12 min`, `3 h 05 min`. */
export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms) || ms < 0) return '';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
}

/** ISO timestamp → `2026-01-21 15:30 UTC` (UTC keeps builds deterministic on every machine). */
export function formatTimestamp(iso: string | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 16)} UTC`;
}

/** Compact token count: 1234 → `1.2k`. */
export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(1)}k`;
  return `${(n / 1_000_000).toFixed(2)}M`;
}
