import { closeSync, constants, copyFileSync, createReadStream, existsSync, fstatSync, linkSync, mkdirSync, openSync, readSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { open, readdir, readFile, rm, type FileHandle } from 'node:fs/promises';
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
 * Where each part of a render is in its file, in bytes (`[start, end)`), as
 * the file's end records it (see `createRenderCache`), and how many pages it
 * has (files of their own). `twinPages`: where each page's Markdown starts in
 * the twin, relative to the twin's start, then where it ends (a twin written
 * page by page only).
 */
interface RenderIndex {
  pageCount: number;
  /** The page of a session of one page, kept in this file (see `createRenderCache`). */
  onlyPage?: [number, number];
  abandoned: [number, number];
  details: [number, number];
  markdown: [number, number];
  anchors?: [number, number];
  clean?: [number, number];
  digests?: string[];
  twinPages?: number[];
}

/** The last bytes of a render file: the index's length in bytes (UInt32, big-endian), then this mark. */
const TRAILER_MARK = 'SPR1';
const TRAILER_BYTES = 8;

/**
 * How a page file is written: created, never opened if it exists (`wx`). A
 * kept page is a hard link to the last render's (`keepPage`), so a write into
 * an existing file could change both; this makes such a write fail instead.
 */
const NEW_FILE = { flag: 'wx' } as const;

/** Where a render file's index is, from the file's last bytes (`trailer`) and its size; a file without one is refused. */
function indexPlace(trailer: Buffer, size: number): { start: number; length: number } {
  if (size < TRAILER_BYTES || trailer.toString('latin1', 4, 8) !== TRAILER_MARK) throw new Error('not a whole render file (no index at its end)');
  const length = trailer.readUInt32BE(0);
  const start = size - TRAILER_BYTES - length;
  if (start < 0) throw new Error('not a whole render file (its index is longer than the file)');
  return { start, length };
}

/** A render file's index, checked: every part lies before the index, so a file cut short or written over is refused, not misread. */
function parseIndex(bytes: Buffer, indexStart: number): RenderIndex {
  const index = JSON.parse(bytes.toString('utf8')) as RenderIndex;
  const inside = (r: unknown) => Array.isArray(r) && r.length === 2 && Number.isSafeInteger(r[0]) && Number.isSafeInteger(r[1]) && 0 <= r[0] && r[0] <= r[1] && r[1] <= indexStart;
  if (!Number.isSafeInteger(index.pageCount) || index.pageCount < 0 || ![index.abandoned, index.details, index.markdown].every(inside)) throw new Error('not a whole render file (a part lies outside it)');
  if ([index.onlyPage, index.anchors, index.clean].some((r) => r !== undefined && !inside(r))) throw new Error('not a whole render file (a part lies outside it)');
  return index;
}

/**
 * Render files whose index was read last, by path, with the file's identity
 * (inode, size and change time) when it was read: the pages of one session are
 * read one after the other, and a file replaced since (the same key rendered
 * again, here or by another thread) is read anew. A few entries, so memory
 * does not grow with the archive.
 */
const indexes = new Map<string, { ino: number; size: number; ctimeMs: number; index: RenderIndex; details?: Promise<SessionDetails> }>();
const INDEXES_KEPT = 8;

/** An open render file and its index: the one way parts of a render are read. */
async function openRender(path: string): Promise<{ handle: FileHandle; index: RenderIndex; entry: NonNullable<ReturnType<typeof indexes.get>> }> {
  const handle = await open(path, 'r');
  try {
    const { ino, size, ctimeMs } = await handle.stat();
    let entry = indexes.get(path);
    if (!entry || entry.ino !== ino || entry.size !== size || entry.ctimeMs !== ctimeMs) {
      const trailer = await readRange(handle, [Math.max(0, size - TRAILER_BYTES), size]);
      const { start, length } = indexPlace(trailer, size);
      entry = { ino, size, ctimeMs, index: parseIndex(await readRange(handle, [start, start + length]), start) };
      indexes.delete(path);
      indexes.set(path, entry);
      if (indexes.size > INDEXES_KEPT) indexes.delete(indexes.keys().next().value!);
    }
    return { handle, index: entry.index, entry };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** A render file's index alone (see `openRender`), the file closed again. */
async function readIndex(path: string): Promise<RenderIndex> {
  const { handle, index } = await openRender(path);
  await handle.close();
  return index;
}

/** The bytes of one part of a render file. */
async function readRange(handle: FileHandle, [start, end]: [number, number]): Promise<Buffer> {
  const bytes = Buffer.alloc(end - start);
  for (let done = 0; done < bytes.length; ) {
    const { bytesRead } = await handle.read(bytes, done, bytes.length - done, start + done);
    if (bytesRead === 0) throw new Error('a render file ended early');
    done += bytesRead;
  }
  return bytes;
}

/**
 * One part of a render file as a web stream, for a route to return as its
 * body: its bytes, never decoded. A render without that part fails the stream.
 */
function servedPart(path: string, part: (index: RenderIndex) => [number, number] | undefined, what: string): ReadableStream<Uint8Array> {
  async function* bytes() {
    const { handle, index } = await openRender(path);
    const range = part(index);
    if (!range) {
      await handle.close();
      throw new Error(`${path} holds no ${what}`);
    }
    if (range[1] === range[0]) return void (await handle.close());
    yield* createReadStream('', { fd: handle, start: range[0], end: range[1] - 1, highWaterMark: SERVED_CHUNK });
  }
  return Readable.toWeb(Readable.from(bytes())) as ReadableStream<Uint8Array>;
}

/** A render being written: its file (`<key>.render.part` until it is whole), where the next byte goes there, and which pages are written. */
interface RenderWriter {
  fd: number;
  at: number;
  written: boolean[];
  /** Page 1, held until the render has a second page (then it is a file of its own) or is completed with one (then it goes into the render's file). */
  first?: Buffer;
}

/**
 * The on-disk render cache, and the only code that knows its layout, all in
 * one folder: per content digest, each page as a file (`<key>.<n>.html`) and
 * one file for the rest (`<key>.render`): the abandoned branches, its
 * `SessionDetails`, the session as Markdown (and where each page's Markdown
 * starts in it), the digest of each page (a grown session's next render reuses
 * the pages whose digest is the same), the keyed digests of its clean strings
 * (its next redaction skips them) and, for a long session, its anchor map; at
 * its end an index says where each part is. Content-hashed assets shared by
 * all sessions are files of their own (`assets/<name>`). The loader writes it,
 * the pages read it. Everything in it is rendered from redacted data.
 *
 * No folder a render and no small file a part: creating a file is what a
 * write costs on some file systems. On this project's ext4 machines a new file
 * took 0.4 to 1.3 ms of the kernel's time (a link to an existing one 0.02 ms).
 * A cold build of the bench corpus made 6,767 of them for its 1,060 sessions
 * (a folder, the pages and five small files each), and its two session
 * threads each spent 3.7 to 4.6 s of a 19 to 22 s loader on those writes; it
 * now makes 1,407. The pages of a longer session stay files of their own so
 * that its next render, once it grew, takes those it keeps as hard links, not
 * copies: copying them made the 1 MB append to the 630 MB session 1.4 s
 * slower (9.3 → 10.7 s, one thread). A session of one page (920 of the 1,060)
 * keeps it in the render's file: an append always changes that page.
 *
 * A page file is only ever created, never opened if it exists (`wx`): a kept
 * page is a hard link to the last render's, so a write into an existing file
 * could change both. The rest is written to `<key>.render.part`, created the
 * same way, and renamed into place once whole, last: a render is whole once
 * that file has its name, and a render cut short is never taken for one.
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
 * pool left that thread idle about 0.2 ms longer. The pages read it
 * asynchronously, many at once.
 *
 * @param astroCacheDir Astro's cache folder (`cacheDir`): the render cache is its `sessionpress/`, so it is cleared with it
 */
export function createRenderCache(astroCacheDir: string) {
  const root = join(astroCacheDir, 'sessionpress');
  const assetsDir = join(root, 'assets');
  const renderFile = (key: string) => join(root, `${key}.render`);
  const pageFile = (key: string, page: number) => join(root, `${key}.${page}.html`);
  const writers = new Map<string, RenderWriter>();

  const put = (w: RenderWriter, bytes: Buffer): [number, number] => {
    for (let done = 0; done < bytes.length; ) done += writeSync(w.fd, bytes, done);
    const range: [number, number] = [w.at, w.at + bytes.length];
    w.at += bytes.length;
    return range;
  };
  const closeWriter = (key: string) => {
    const w = writers.get(key);
    if (!w) return;
    writers.delete(key);
    closeSync(w.fd);
  };
  /**
   * Starts render `key` afresh: nothing of an earlier render of that key is
   * left, whole or cut short. Its pages are numbered from 1 without a gap (they
   * are written in order), so they are removed until one is missing.
   */
  const begin = (key: string): RenderWriter => {
    closeWriter(key);
    indexes.delete(renderFile(key));
    mkdirSync(root, { recursive: true });
    rmSync(renderFile(key), { force: true });
    rmSync(`${renderFile(key)}.part`, { force: true });
    for (let page = 1; existsSync(pageFile(key, page)); page++) rmSync(pageFile(key, page));
    const w: RenderWriter = { fd: openSync(`${renderFile(key)}.part`, 'wx'), at: 0, written: [] };
    writers.set(key, w);
    return w;
  };
  /** The writer of render `key`, for page `page`, which must not be written yet: a page is written once. */
  const claim = (key: string, page: number): RenderWriter => {
    const w = writers.get(key);
    if (!w) throw new Error(`render ${key} was not started (startWrite)`);
    if (w.written[page - 1]) throw new Error(`page ${page} of render ${key} is already written`);
    return w;
  };
  /** Page 1, held back, becomes a file of its own: the render has another page. */
  const settleFirst = (key: string, w: RenderWriter) => {
    if (!w.first) return;
    writeFileSync(pageFile(key, 1), w.first, NEW_FILE);
    w.first = undefined;
  };
  const writePage = (key: string, page: number, bytes: Buffer) => {
    const w = claim(key, page);
    if (page === 1) w.first = bytes;
    else {
      settleFirst(key, w);
      writeFileSync(pageFile(key, page), bytes, NEW_FILE);
    }
    w.written[page - 1] = true;
  };
  /**
   * Writes the twin where the render's file is at: its header, then each page's
   * Markdown, taken for the pages `twin.page` leaves out from the last render's
   * twin (`twin.from`), in runs of consecutive pages. Returns where each page's
   * Markdown starts in the twin, then where it ends.
   */
  const writeTwin = async (w: RenderWriter, twin: TwinWrite): Promise<number[]> => {
    const from = twin.from?.pages;
    const source = twin.from ? await openRender(renderFile(twin.from.key)).catch(() => undefined) : undefined;
    try {
      const start = w.at;
      const offsets: number[] = [];
      put(w, Buffer.from(twin.header));
      let run: { start: number; end: number } | undefined;
      const flush = () => {
        const [base] = source!.index.markdown;
        for (let pos = run!.start; pos < run!.end; ) {
          const buffer = Buffer.allocUnsafe(Math.min(COPY_BLOCK, run!.end - pos));
          const bytesRead = readSync(source!.handle.fd, buffer, 0, buffer.length, base + pos);
          if (bytesRead === 0) throw new Error(`the last render's Markdown (${twin.from!.key}) ends early`);
          put(w, buffer.subarray(0, bytesRead));
          pos += bytesRead;
        }
        run = undefined;
      };
      for (let i = 0; i < twin.pageCount; i++) {
        offsets.push(w.at - start + (run ? run.end - run.start : 0));
        const text = twin.page(i);
        if (text === undefined) {
          if (!from || i + 1 >= from.length || !source || from[i + 1] > source.index.markdown[1] - source.index.markdown[0]) throw new Error(`page ${i + 1} of the last render's Markdown (${twin.from?.key}) is not known`);
          if (run && run.end === from[i]) run.end = from[i + 1];
          else {
            if (run) flush();
            run = { start: from[i], end: from[i + 1] };
          }
          continue;
        }
        if (run) flush();
        put(w, Buffer.from(text));
      }
      if (run) flush();
      offsets.push(w.at - start);
      return offsets;
    } finally {
      await source?.handle.close();
    }
  };

  /** One rendered page of a session, and its abandoned branches on page 1. */
  const readPage = async (key: string, page: number): Promise<{ transcript: SafeHtml; abandoned: SafeHtml }> => {
    if (page !== 1) return { transcript: reviveCachedHtml(await readFile(pageFile(key, page), 'utf8')), abandoned: reviveCachedHtml('') };
    const { handle, index } = await openRender(renderFile(key));
    try {
      const [transcript, branches] = await Promise.all([index.onlyPage ? readRange(handle, index.onlyPage) : readFile(pageFile(key, 1)), readRange(handle, index.abandoned)]);
      return { transcript: reviveCachedHtml(transcript.toString('utf8')), abandoned: reviveCachedHtml(branches.toString('utf8')) };
    } finally {
      await handle.close();
    }
  };

  return {
    root,
    /**
     * Whether render `key` is whole: its file has its name only once everything
     * is in it, its pages included, and ends with its index (a file cut short
     * since is rendered again).
     */
    has(key: string): boolean {
      let fd: number | undefined;
      try {
        fd = openSync(renderFile(key), 'r');
        const { size } = fstatSync(fd);
        const trailer = Buffer.alloc(TRAILER_BYTES);
        readSync(fd, trailer, 0, TRAILER_BYTES, Math.max(0, size - TRAILER_BYTES));
        indexPlace(trailer, size);
        return true;
      } catch {
        return false;
      } finally {
        if (fd !== undefined) closeSync(fd);
      }
    },
    /**
     * Starts render `key` afresh and returns a writer of its pages, for
     * `renderSession` to hand each page to as it is made (each is written at
     * once); `write` completes it. A page is written once.
     */
    async startWrite(key: string): Promise<(page: number, html: SafeHtml) => Promise<void>> {
      begin(key);
      return async (page, html) => writePage(key, page, Buffer.from(html.value));
    },
    /**
     * Completes render `key`: the pages still in `rendered` (none when they
     * went through `startWrite`'s writer; given here, they replace any), then
     * its branches, details (its overview and `problems`), digests, anchor map,
     * clean strings and Markdown, and the index, and gives that file its name.
     * Assets go to the shared folder. `anchorMap`: a map too large for page 1,
     * served beside the pages (`anchorMapStream`). A write that fails leaves
     * no whole render of that key.
     */
    async write(key: string, rendered: RenderedSession, markdown: string | TwinWrite, extra: { problems: Diagnostic[]; anchorMap?: AnchorMap; clean?: Buffer }): Promise<void> {
      const w = rendered.pages.length || !writers.has(key) ? begin(key) : writers.get(key)!;
      try {
        rendered.pages.forEach((html, i) => writePage(key, i + 1, Buffer.from(html.value)));
        const missing = Array.from({ length: rendered.pageCount }, (_, i) => i + 1).find((page) => !w.written[page - 1]);
        if (missing) throw new Error(`page ${missing} of render ${key} was not written`);
        if (rendered.pageCount > 1) settleFirst(key, w);
        const details: SessionDetails = { toc: rendered.toc, overview: rendered.overview, problems: extra.problems };
        const index: RenderIndex = {
          pageCount: rendered.pageCount,
          ...(w.first ? { onlyPage: put(w, w.first) } : {}),
          abandoned: put(w, Buffer.from(rendered.abandoned.value)),
          details: put(w, Buffer.from(JSON.stringify(details))),
          ...(extra.anchorMap ? { anchors: put(w, Buffer.from(JSON.stringify(extra.anchorMap))) } : {}),
          ...(extra.clean ? { clean: put(w, extra.clean) } : {}),
          ...(rendered.pageDigests ? { digests: rendered.pageDigests } : {}),
          markdown: [0, 0],
        };
        const twinStart = w.at;
        if (typeof markdown === 'string') put(w, Buffer.from(markdown));
        else index.twinPages = await writeTwin(w, markdown);
        index.markdown = [twinStart, w.at];
        const bytes = Buffer.from(JSON.stringify(index));
        put(w, bytes);
        const trailer = Buffer.alloc(TRAILER_BYTES);
        trailer.writeUInt32BE(bytes.length, 0);
        trailer.write(TRAILER_MARK, 4, 'latin1');
        put(w, trailer);
        mkdirSync(assetsDir, { recursive: true });
        for (const a of rendered.assets) {
          const path = join(assetsDir, a.name);
          if (!existsSync(path)) writeFileSync(path, a.bytes);
        }
        closeWriter(key);
        renameSync(`${renderFile(key)}.part`, renderFile(key));
        indexes.delete(renderFile(key));
      } catch (error) {
        closeWriter(key);
        rmSync(`${renderFile(key)}.part`, { force: true });
        throw error;
      }
    },
    /**
     * Where each page's Markdown starts in a render's twin, in bytes, then
     * where it ends (see `TwinWrite`); none when it was not written page by
     * page or cannot be read (then nothing is copied from it: its pages are
     * written anew).
     */
    async readTwinPages(key: string): Promise<number[] | undefined> {
      try {
        const index = await readIndex(renderFile(key));
        const list = index.twinPages;
        const length = index.markdown[1] - index.markdown[0];
        if (!Array.isArray(list) || list.length < 2 || !list.every((n, i) => Number.isSafeInteger(n) && n >= (i ? list[i - 1] : 0))) return undefined;
        return list.at(-1) === length ? list : undefined;
      } catch {
        return undefined;
      }
    },
    /** One rendered page of a session, and its abandoned branches on page 1. */
    readPage,
    /**
     * Takes page `page` of render `from` as the same page of render `to`
     * (started by `startWrite`), never over a page already there: a hard link
     * where the file system allows, else a copy. A link is safe because a page
     * file is only ever created, never written into (`NEW_FILE`), and a render
     * starts with its pages removed: no write to one render can reach another.
     * A 1 MB append to the 630 MB session keeps 1,538 pages (346 MB).
     */
    async keepPage(from: string, page: number, to: string): Promise<void> {
      if (page === 1) {
        // Held back like a page written here (it may be this render's only page); a page of a session of one page is in its render's file.
        const bytes = Buffer.from((await readPage(from, 1)).transcript.value);
        return writePage(to, 1, bytes);
      }
      const w = claim(to, page);
      settleFirst(to, w);
      try {
        linkSync(pageFile(from, page), pageFile(to, page));
      } catch (error) {
        // A page already there is an error, as with a copy; a file system without links copies.
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw error;
        copyFileSync(pageFile(from, page), pageFile(to, page), constants.COPYFILE_EXCL);
      }
      w.written[page - 1] = true;
    },
    /** A render's `SessionDetails` (its overview's data and its problems), as `write` was given them. */
    async readDetails(key: string): Promise<SessionDetails> {
      const { handle, index, entry } = await openRender(renderFile(key));
      if (!entry.details) {
        const details = readRange(handle, index.details).then((bytes) => JSON.parse(bytes.toString('utf8')) as SessionDetails);
        // A failed read is not kept: the next page asks again (and fails with its own error).
        details.catch(() => entry.details === details && (entry.details = undefined));
        entry.details = details;
      }
      try {
        return await entry.details;
      } finally {
        await handle.close();
      }
    },
    /**
     * The whole session as Markdown (`markdownTwin`), served beside its first
     * page: the bytes as a stream, never decoded. Astro holds an endpoint's
     * whole body before writing it; given the text as a string, it held the
     * string, its encoding and their copies at once. For the 630 MB bench
     * session's 132 MB twin, measured alone: 541 MB over the process's start
     * and 0.72 s from a string, 427 MB and 0.20 s from a stream of the file.
     */
    markdownStream(key: string): ReadableStream<Uint8Array> {
      return servedPart(renderFile(key), (index) => index.markdown, 'Markdown');
    },
    /** The page digests of a render (`RenderedSession.pageDigests`), or none when it has none or is gone. */
    async readPageDigests(key: string): Promise<string[]> {
      try {
        const list = (await readIndex(renderFile(key))).digests;
        return Array.isArray(list) && list.every((d) => typeof d === 'string') ? list : [];
      } catch {
        return [];
      }
    },
    /** A render's clean strings (`CleanStrings.toBuffer`), or none when it kept none or is gone. */
    async readCleanStrings(key: string): Promise<Buffer | undefined> {
      try {
        const { handle, index } = await openRender(renderFile(key));
        try {
          return index.clean ? await readRange(handle, index.clean) : undefined;
        } finally {
          await handle.close();
        }
      } catch {
        return undefined;
      }
    },
    /** The anchor map of a long session, as `write` was given it (JSON text), served as the twin is: its bytes as a stream. */
    anchorMapStream(key: string): ReadableStream<Uint8Array> {
      return servedPart(renderFile(key), (index) => index.anchors, 'anchor map');
    },
    /** An asset (an image from a transcript) written by the renderer. */
    readAsset(name: string): Promise<Buffer> {
      return readFile(join(assetsDir, name));
    },
    /** Removes the files of renders no entry uses any more (and anything else but the assets), so the cache does not grow without bound. */
    async prune(keep: Set<string>): Promise<void> {
      if (!existsSync(root)) return;
      for (const name of await readdir(root)) {
        // A render's files are named by its key (a digest, without a dot) and what follows the first dot.
        const dot = name.indexOf('.');
        if (name !== 'assets' && !(dot > 0 && keep.has(name.slice(0, dot)))) await rm(join(root, name), { recursive: true, force: true });
      }
    },
  };
}
