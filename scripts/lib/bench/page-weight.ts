/**
 * How heavy the built pages are: bytes and element count of every HTML page
 * in a site, the heaviest few of each, and how many pass the limits the
 * session pages are held to (400 KB, 8,000 elements).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';

export interface PageWeight {
  /** The page's path inside the site. */
  path: string;
  bytes: number;
  elements: number;
}

export const PAGE_LIMITS = { bytes: 400 * 1024, elements: 8000 };

/** Start tags of a page, counted the way a parser would make elements: script and style bodies are text, comments are not elements. */
export function countElements(page: string): number {
  const text = page.replace(/<!--[\s\S]*?-->/g, '').replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '<$1>');
  return (text.match(/<[A-Za-z][^\s/>]*/g) ?? []).length;
}

/** Every HTML page of `dist`, weighed; the `n` heaviest by bytes and by elements, and the count over the limits. */
export async function heaviestPages(dist: string, n: number): Promise<{ bytes: PageWeight[]; elements: PageWeight[]; over: PageWeight[] }> {
  const pages: PageWeight[] = [];
  for (const e of await readdir(dist, { recursive: true, withFileTypes: true })) {
    if (!e.isFile() || !e.name.endsWith('.html')) continue;
    const file = join(e.parentPath, e.name);
    const text = await readFile(file, 'utf8');
    pages.push({ path: relative(dist, file), bytes: Buffer.byteLength(text), elements: countElements(text) });
  }
  return {
    bytes: [...pages].sort((a, b) => b.bytes - a.bytes).slice(0, n),
    elements: [...pages].sort((a, b) => b.elements - a.elements).slice(0, n),
    over: pages.filter((p) => p.bytes > PAGE_LIMITS.bytes || p.elements > PAGE_LIMITS.elements),
  };
}
