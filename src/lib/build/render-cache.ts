import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RenderedSession } from './render-session.js';

/**
 * Where a build lists every problem it found, one per line as compilers print
 * them: in Astro's cache folder (`cacheDir`), redacted like everything in it.
 */
export function problemsFilePath(astroCacheDir: string): string {
  return join(astroCacheDir, 'problems.txt');
}

export type RenderCache = ReturnType<typeof createRenderCache>;

/**
 * The on-disk render cache, and the only code that knows its layout: one
 * folder per content digest holding the pages (`page-<n>.html`), abandoned
 * branches (`abandoned.html`) and the session as Markdown (`session.md`), plus content-hashed assets shared by all
 * sessions (`assets/<name>`). The loader writes it, the pages read it.
 * Everything in it is rendered from redacted data.
 *
 * @param astroCacheDir Astro's cache folder (`cacheDir`): the render cache is its `sessionpress/`, so it is cleared with it
 */
export function createRenderCache(astroCacheDir: string) {
  const root = join(astroCacheDir, 'sessionpress');
  const assetsDir = join(root, 'assets');
  const pageFile = (key: string, page: number) => join(root, key, `page-${page}.html`);
  const markdownFile = (key: string) => join(root, key, 'session.md');
  return {
    root,
    has(key: string): boolean {
      return existsSync(pageFile(key, 1)) && existsSync(markdownFile(key));
    },
    async write(key: string, rendered: RenderedSession, markdown: string): Promise<void> {
      const dir = join(root, key);
      await rm(dir, { recursive: true, force: true });
      await mkdir(dir, { recursive: true });
      await mkdir(assetsDir, { recursive: true });
      await Promise.all(rendered.pages.map((html, i) => writeFile(pageFile(key, i + 1), html)));
      await writeFile(join(dir, 'abandoned.html'), rendered.abandoned);
      await writeFile(markdownFile(key), markdown);
      for (const a of rendered.assets) {
        const path = join(assetsDir, a.name);
        if (!existsSync(path)) await writeFile(path, a.bytes);
      }
    },
    /** One rendered page of a session, and its abandoned branches on page 1. */
    async readPage(key: string, page: number): Promise<{ transcript: string; abandoned: string }> {
      const [transcript, abandoned] = await Promise.all([
        readFile(pageFile(key, page), 'utf8'),
        page === 1 ? readFile(join(root, key, 'abandoned.html'), 'utf8') : Promise.resolve(''),
      ]);
      return { transcript, abandoned };
    },
    /** The whole session as Markdown (`markdownTwin`), served beside its first page. */
    readMarkdown(key: string): Promise<string> {
      return readFile(markdownFile(key), 'utf8');
    },
    /** An asset (an image from a transcript) written by the renderer. */
    readAsset(name: string): Promise<Buffer> {
      return readFile(join(assetsDir, name));
    },
    /** Removes cache folders no entry uses any more, so the cache does not grow without bound. */
    async prune(keep: Set<string>): Promise<void> {
      if (!existsSync(root)) return;
      for (const name of await readdir(root)) {
        if (name !== 'assets' && !keep.has(name)) await rm(join(root, name), { recursive: true, force: true });
      }
    },
  };
}
