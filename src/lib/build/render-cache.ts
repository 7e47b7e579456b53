import { constants, existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { reviveCachedHtml, type SafeHtml } from '../render/sanitize.js';
import type { RenderedSession, TocItem } from './render-session.js';
import type { SessionOverview } from './session-overview.js';
import type { AnchorMap } from '../site/anchor-map.js';
import type { Diagnostic } from '../diagnostics.js';

/**
 * Where a build lists every problem it found, one per line as compilers print
 * them: in Astro's cache folder (`cacheDir`), redacted like everything in it.
 */
export function problemsFilePath(astroCacheDir: string): string {
  return join(astroCacheDir, 'problems.txt');
}

export type RenderCache = ReturnType<typeof createRenderCache>;

/**
 * What a session's own pages show beside the transcript, and nothing else
 * needs: the overview's prompts and lists, and every problem found reading
 * the session. It is kept with the render, not in the content store: Astro
 * compiles the whole store into the site's bundle and every page's process
 * holds it, so there it cost memory with every session of the archive (58 %
 * of the store's 41.6 MB at 16× the bench corpus).
 */
export interface SessionDetails {
  toc: TocItem[];
  overview: SessionOverview;
  /** Already redacted, like everything in the cache. */
  problems: Diagnostic[];
}

/**
 * The details read last: the pages of one session are made one after the
 * other, so each of a 150-page session's pages would read the same file.
 * One entry, so memory does not grow with the archive.
 */
let lastDetails: { path: string; details: Promise<SessionDetails> } | undefined;

/**
 * The on-disk render cache, and the only code that knows its layout: one
 * folder per content digest holding the pages (`page-<n>.html`), abandoned
 * branches (`abandoned.html`), the session as Markdown (`session.md`), the
 * digest of each page (`page-digests.json`: a grown session's next render
 * reuses the pages whose digest is the same), the keyed digests of its clean
 * strings (`clean-strings.bin`: its next redaction skips them), its `SessionDetails`
 * (`details.json`) and, for a long session, its
 * anchor map (`anchors.json`), plus content-hashed assets shared by all
 * sessions (`assets/<name>`). The loader writes it, the pages read it.
 * Everything in it is rendered from redacted data.
 *
 * Pages go in as `SafeHtml` (the renderer's output: `html` and the sanitiser)
 * and come out as `SafeHtml` again through `reviveCachedHtml`, which no other
 * module may call (test/lib/render/safe-html.test.ts): a file cannot carry the
 * brand, and sanitising every page again at page time would bring back the
 * whole-page pass the brand exists to remove. What this module reads back is
 * only ever what `write` wrote, under Astro's cache folder, which is as trusted
 * as `dist/` (whoever can write one can write the other).
 *
 * @param astroCacheDir Astro's cache folder (`cacheDir`): the render cache is its `sessionpress/`, so it is cleared with it
 */
export function createRenderCache(astroCacheDir: string) {
  const root = join(astroCacheDir, 'sessionpress');
  const assetsDir = join(root, 'assets');
  const pageFile = (key: string, page: number) => join(root, key, `page-${page}.html`);
  const markdownFile = (key: string) => join(root, key, 'session.md');
  const anchorsFile = (key: string) => join(root, key, 'anchors.json');
  const digestsFile = (key: string) => join(root, key, 'page-digests.json');
  const detailsFile = (key: string) => join(root, key, 'details.json');
  const cleanFile = (key: string) => join(root, key, 'clean-strings.bin');
  return {
    root,
    has(key: string): boolean {
      // details.json too: a render folder of a version that kept the details in the store lacks it.
      return existsSync(pageFile(key, 1)) && existsSync(markdownFile(key)) && existsSync(detailsFile(key));
    },
    /**
     * Starts a render's folder afresh and returns a writer of its pages, for
     * `renderSession` to hand each page to as it is made; `write` completes it.
     */
    async startWrite(key: string): Promise<(page: number, html: SafeHtml) => Promise<void>> {
      const dir = join(root, key);
      await rm(dir, { recursive: true, force: true });
      await mkdir(dir, { recursive: true });
      return (page, html) => writeFile(pageFile(key, page), html.value);
    },
    /**
     * Completes a render's folder: the pages still in `rendered` (none when
     * they went through `startWrite`'s writer), its branches, digests,
     * details (its overview and `problems`), anchor map and assets, and the
     * Markdown last, which `has` looks for: a folder cut short is never taken
     * for a whole render. `anchorMap`: a map too large for page 1, written
     * beside the pages (`anchors.json`).
     */
    async write(key: string, rendered: RenderedSession, markdown: string, extra: { problems: Diagnostic[]; anchorMap?: AnchorMap; clean?: Buffer }): Promise<void> {
      const { anchorMap } = extra;
      const dir = join(root, key);
      if (rendered.pages.length) {
        await rm(dir, { recursive: true, force: true });
        await mkdir(dir, { recursive: true });
        await Promise.all(rendered.pages.map((html, i) => writeFile(pageFile(key, i + 1), html.value)));
      }
      await mkdir(assetsDir, { recursive: true });
      await writeFile(join(dir, 'abandoned.html'), rendered.abandoned.value);
      const details: SessionDetails = { toc: rendered.toc, overview: rendered.overview, problems: extra.problems };
      await writeFile(detailsFile(key), JSON.stringify(details));
      if (anchorMap) await writeFile(anchorsFile(key), JSON.stringify(anchorMap));
      if (rendered.pageDigests) await writeFile(digestsFile(key), JSON.stringify(rendered.pageDigests));
      if (extra.clean) await writeFile(cleanFile(key), extra.clean);
      for (const a of rendered.assets) {
        const path = join(assetsDir, a.name);
        if (!existsSync(path)) await writeFile(path, a.bytes);
      }
      await writeFile(markdownFile(key), markdown);
    },
    /** One rendered page of a session, and its abandoned branches on page 1. */
    async readPage(key: string, page: number): Promise<{ transcript: SafeHtml; abandoned: SafeHtml }> {
      const [transcript, abandoned] = await Promise.all([
        readFile(pageFile(key, page), 'utf8'),
        page === 1 ? readFile(join(root, key, 'abandoned.html'), 'utf8') : Promise.resolve(''),
      ]);
      return { transcript: reviveCachedHtml(transcript), abandoned: reviveCachedHtml(abandoned) };
    },
    /**
     * Takes page `page` of render `from` as the same page of render `to`
     * (started by `startWrite`): a copy of the file, never a link, so that no
     * later write to one can change the other, and never over a page already there.
     */
    copyPage(from: string, page: number, to: string): Promise<void> {
      return copyFile(pageFile(from, page), pageFile(to, page), constants.COPYFILE_EXCL);
    },
    /** A render's `SessionDetails` (its overview's data and its problems), as `write` was given them. */
    readDetails(key: string): Promise<SessionDetails> {
      const path = detailsFile(key);
      if (lastDetails?.path !== path) {
        const details = readFile(path, 'utf8').then((text) => JSON.parse(text) as SessionDetails);
        // A failed read is not kept: the next page asks again (and fails with its own error).
        details.catch(() => lastDetails?.details === details && (lastDetails = undefined));
        lastDetails = { path, details };
      }
      return lastDetails.details;
    },
    /** The whole session as Markdown (`markdownTwin`), served beside its first page. */
    readMarkdown(key: string): Promise<string> {
      return readFile(markdownFile(key), 'utf8');
    },
    /** The page digests of a render (`RenderedSession.pageDigests`), or none when it has none or is gone. */
    async readPageDigests(key: string): Promise<string[]> {
      try {
        const list: unknown = JSON.parse(await readFile(digestsFile(key), 'utf8'));
        return Array.isArray(list) && list.every((d) => typeof d === 'string') ? list : [];
      } catch {
        return [];
      }
    },
    /** A render's clean strings (`CleanStrings.toBuffer`), or none when it kept none or is gone. */
    async readCleanStrings(key: string): Promise<Buffer | undefined> {
      try {
        return await readFile(cleanFile(key));
      } catch {
        return undefined;
      }
    },
    /** The anchor map of a long session, as `write` was given it (JSON text). */
    readAnchorMap(key: string): Promise<string> {
      return readFile(anchorsFile(key), 'utf8');
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
