import { closeSync, constants, copyFileSync, createReadStream, existsSync, linkSync, mkdirSync, openSync, readSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
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
 * A session's Markdown twin as the render cache writes it: its header, then
 * each page's Markdown (see `twinParts`). `page(i)` (0-based) gives it, or
 * `undefined` for a page whose Markdown is that of the same page of render
 * `from.key`: then its bytes are copied from that render's twin, at the
 * offsets `readTwinPages(from.key)` gave (`from.pages`).
 */
export interface TwinWrite {
  header: string;
  pageCount: number;
  page(i: number): string | undefined;
  from?: { key: string; pages: readonly number[] };
}

/** Bytes copied at a time from the last render's twin. */
const COPY_BLOCK = 8 << 20;
/** Bytes read at a time when a cached file is served (Node's default is 64 KiB: 2,000 chunks for a 132 MB twin). */
const SERVED_CHUNK = 1 << 20;

/** A cached file's bytes as a web stream, for a route to return as its body (see `markdownStream`). */
function servedFile(path: string): ReadableStream<Uint8Array> {
  return Readable.toWeb(createReadStream(path, { highWaterMark: SERVED_CHUNK })) as ReadableStream<Uint8Array>;
}

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
 * How a page file is written: created, never opened if it exists (`wx`). A
 * kept page is a hard link to the last render's (`keepPage`), so a write into
 * an existing file could change both; this makes such a write fail instead.
 */
const NEW_FILE = { flag: 'wx' } as const;

/**
 * The on-disk render cache, and the only code that knows its layout: one
 * folder per content digest holding the pages (`page-<n>.html`), abandoned
 * branches (`abandoned.html`), the session as Markdown (`session.md`, and
 * where each page's Markdown starts in it: `twin-pages.json`), the
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
 * A render is written with synchronous calls, by the thread that made it,
 * which has nothing else to do meanwhile: each call through libuv's thread
 * pool left that thread idle about 0.2 ms longer, and a session takes some
 * thirty of them. The pages read it asynchronously, many at once.
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
  const twinPagesFile = (key: string) => join(root, key, 'twin-pages.json');
  /**
   * Writes the twin (to a new file, renamed into place) and where each page's
   * Markdown starts in it, in bytes (`twin-pages.json`: one offset per page,
   * then the end), so that the next render can copy the pages it keeps.
   */
  const writeTwin = (key: string, twin: TwinWrite) => {
    const path = markdownFile(key);
    const from = twin.from?.pages;
    const out = openSync(`${path}.part`, 'w');
    let source: number | undefined;
    try {
      source = twin.from ? openSync(markdownFile(twin.from.key), 'r') : undefined;
      const offsets: number[] = [];
      let at = 0;
      const put = (bytes: Buffer) => {
        for (let done = 0; done < bytes.length; ) done += writeSync(out, bytes, done);
        at += bytes.length;
      };
      put(Buffer.from(twin.header));
      // Pages taken from the last render's twin in runs: consecutive pages are consecutive bytes there.
      let run: { start: number; end: number } | undefined;
      const flush = () => {
        for (let pos = run!.start; pos < run!.end; ) {
          const buffer = Buffer.allocUnsafe(Math.min(COPY_BLOCK, run!.end - pos));
          const bytesRead = readSync(source!, buffer, 0, buffer.length, pos);
          if (bytesRead === 0) throw new Error(`the last render's Markdown (${twin.from!.key}) ends early`);
          put(buffer.subarray(0, bytesRead));
          pos += bytesRead;
        }
        run = undefined;
      };
      for (let i = 0; i < twin.pageCount; i++) {
        offsets.push(at + (run ? run.end - run.start : 0));
        const text = twin.page(i);
        if (text === undefined) {
          if (!from || i + 1 >= from.length || !source) throw new Error(`page ${i + 1} of the last render's Markdown (${twin.from?.key}) is not known`);
          if (run && run.end === from[i]) run.end = from[i + 1];
          else {
            if (run) flush();
            run = { start: from[i], end: from[i + 1] };
          }
          continue;
        }
        if (run) flush();
        put(Buffer.from(text));
      }
      if (run) flush();
      offsets.push(at);
      writeFileSync(twinPagesFile(key), JSON.stringify(offsets));
    } finally {
      closeSync(out);
      if (source !== undefined) closeSync(source);
    }
    renameSync(`${path}.part`, path);
  };
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
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      return async (page, html) => writeFileSync(pageFile(key, page), html.value, NEW_FILE);
    },
    /**
     * Completes a render's folder: the pages still in `rendered` (none when
     * they went through `startWrite`'s writer), its branches, digests,
     * details (its overview and `problems`), anchor map and assets, and the
     * Markdown last, which `has` looks for: a folder cut short is never taken
     * for a whole render. `anchorMap`: a map too large for page 1, written
     * beside the pages (`anchors.json`).
     */
    async write(key: string, rendered: RenderedSession, markdown: string | TwinWrite, extra: { problems: Diagnostic[]; anchorMap?: AnchorMap; clean?: Buffer }): Promise<void> {
      const { anchorMap } = extra;
      const dir = join(root, key);
      if (rendered.pages.length) {
        rmSync(dir, { recursive: true, force: true });
        mkdirSync(dir, { recursive: true });
        rendered.pages.forEach((html, i) => writeFileSync(pageFile(key, i + 1), html.value, NEW_FILE));
      }
      mkdirSync(assetsDir, { recursive: true });
      writeFileSync(join(dir, 'abandoned.html'), rendered.abandoned.value);
      const details: SessionDetails = { toc: rendered.toc, overview: rendered.overview, problems: extra.problems };
      writeFileSync(detailsFile(key), JSON.stringify(details));
      if (anchorMap) writeFileSync(anchorsFile(key), JSON.stringify(anchorMap));
      if (rendered.pageDigests) writeFileSync(digestsFile(key), JSON.stringify(rendered.pageDigests));
      if (extra.clean) writeFileSync(cleanFile(key), extra.clean);
      for (const a of rendered.assets) {
        const path = join(assetsDir, a.name);
        if (!existsSync(path)) writeFileSync(path, a.bytes);
      }
      if (typeof markdown === 'string') {
        // Not page by page: no offsets may be left from another write.
        rmSync(twinPagesFile(key), { force: true });
        writeFileSync(markdownFile(key), markdown);
      } else writeTwin(key, markdown);
    },
    /**
     * Where each page's Markdown starts in a render's twin, in bytes, then
     * where it ends (see `TwinWrite`); none when it was not written page by
     * page, is gone, or is not as long as they say (then nothing is copied
     * from it: its pages are written anew).
     */
    async readTwinPages(key: string): Promise<number[] | undefined> {
      try {
        const list: unknown = JSON.parse(await readFile(twinPagesFile(key), 'utf8'));
        if (!Array.isArray(list) || list.length < 2 || !list.every((n, i) => Number.isSafeInteger(n) && n >= (i ? list[i - 1] : 0))) return undefined;
        return (await stat(markdownFile(key))).size === list.at(-1) ? (list as number[]) : undefined;
      } catch {
        return undefined;
      }
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
     * (started by `startWrite`), never over a page already there: a hard link
     * where the file system allows, else a copy. A link is safe because a page
     * file is only ever created, never written into (`NEW_FILE`), and a render
     * starts in an emptied folder: no write to one render can reach another.
     * A 1 MB append to the 630 MB session keeps 1,538 pages (346 MB): copying
     * them, the whole build took 21.9 s against 20.9 s linking them (three
     * runs each, alternating).
     */
    async keepPage(from: string, page: number, to: string): Promise<void> {
      try {
        linkSync(pageFile(from, page), pageFile(to, page));
      } catch (error) {
        // A page already there is an error, as with a copy; a file system without links copies.
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw error;
        copyFileSync(pageFile(from, page), pageFile(to, page), constants.COPYFILE_EXCL);
      }
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
    /**
     * The whole session as Markdown (`markdownTwin`), served beside its first
     * page: the file's bytes as a stream, never decoded. Astro holds an
     * endpoint's whole body before writing it; given the text as a string, it
     * held the string, its encoding and their copies at once. For the 630 MB
     * bench session's 132 MB twin, measured alone: 541 MB over the process's
     * start and 0.72 s from a string, 427 MB and 0.20 s from this stream.
     */
    markdownStream(key: string): ReadableStream<Uint8Array> {
      return servedFile(markdownFile(key));
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
    /** The anchor map of a long session, as `write` was given it (JSON text), served as the twin is: its bytes as a stream. */
    anchorMapStream(key: string): ReadableStream<Uint8Array> {
      return servedFile(anchorsFile(key));
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
