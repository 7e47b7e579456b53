import type { Diagnostic } from '../diagnostics.js';
import { relative } from 'node:path';
import { toPosix, type SessionSource } from '../discover.js';
import { twinParts } from '../export/twin.js';
import type { RedactionOptions, Redactor } from '../redact/types.js';
import type { HelperThread } from './helper-thread.js';
import { placeAnchorMap, sessionAnchorMap, toEntryData, type SessionEntryData } from './entry-data.js';
import { openSession } from './open-session.js';
import { readHead } from '../fs/read-head.js';
import { cleanStringsKey, createCleanStrings, type CleanStrings } from '../redact/clean-strings.js';
import type { SessionProgress } from './progress.js';
import { createRenderCache, type RenderCache } from './render-cache.js';
import { renderSession, type RenderSessionOptions } from './render-session.js';

/** Everything needed to turn one session into a store entry; plain data, so it can cross to a worker. */
export interface SessionJob {
  source: SessionSource;
  /** The Astro project root: the entry's `filePath` is relative to it. */
  projectRoot: string;
  /** Astro's cache folder, which holds the render cache. */
  cacheDir: string;
  root: string;
  /** Sibling `agent-*.jsonl` files that name this session. */
  siblingAgents: string[];
  cacheKey: string;
  redaction: RedactionOptions;
  render: RenderSessionOptions;
  /** A digest of the settings and code a render depends on: pages carry it, so a later render may reuse them. */
  renderSalt?: string;
  /** The render cache key of this session's last render (it changed since): its unchanged pages are reused. */
  previousKey?: string;
  /** Look for secrets and tokenise the code its pages show on a second thread too (helper-thread.ts): set for a big session processed alone, with a core to spare. */
  helper?: boolean;
}

export type SessionJobResult =
  | {
      ok: true;
      data: SessionEntryData;
      /** Every problem found reading the session, redacted (the store keeps their count; the render cache keeps them). */
      problems: Diagnostic[];
      bytes: number;
      ms: number;
      filePath?: string;
      /** Pages taken from the session's last render. */
      pagesReused?: number;
    }
  | {
      ok: false;
      /** `failed`: processing threw (see failed-result.ts); the others: nothing to show. */
      reason: 'empty' | 'metadata-only' | 'failed';
      /** Already redacted, file names included, like a stored entry's; `sourceFile` is how they name the session file. */
      diagnostics: Diagnostic[];
      sourceFile: string;
      bytes: number;
      ms: number;
    };

/**
 * The per-session build path: opens one session (read → redact → model),
 * renders it, writes its pages and its Markdown to the render cache, and returns the
 * (redacted) store data. Pure of Astro, so the loader can run it in-process
 * or in a worker thread. `helper`: the session's helper thread (`job.helper`).
 * `progress` is told each step as it goes (see progress.ts).
 */
export async function processSession(job: SessionJob, helper?: Pick<HelperThread, 'tokenizer' | 'detector'>, progress?: (p: SessionProgress) => void): Promise<SessionJobResult> {
  const started = performance.now();
  const { source } = job;
  const cache = createRenderCache(job.cacheDir);
  const previous = job.previousKey && job.previousKey !== job.cacheKey ? job.previousKey : undefined;
  const clean = await cleanStringsOf(job, cache, previous);
  const opened = await openSession(source, { root: job.root, owners: new Map([[source.sessionId, job.siblingAgents]]), redaction: job.redaction, ...(clean ? { clean } : {}), ...(progress ? { progress } : {}), ...(helper ? { detector: helper.detector } : {}) });
  const redactor = opened.redactor!;
  const elapsed = () => performance.now() - started;
  if (!opened.result.ok) {
    return { ok: false, reason: opened.result.reason, diagnostics: opened.result.diagnostics, sourceFile: redactor.redactText(source.relPath), bytes: opened.bytes, ms: elapsed() };
  }
  // Redacted whole by openSession: file name, diagnostics, and the project's path and name from its identity.
  const session = opened.result.session;
  const digests = previous ? await cache.readPageDigests(previous) : [];
  const read = async (page: number) => (await cache.readPage(previous!, page)).transcript;
  const keep = (page: number) => cache.keepPage(previous!, page, job.cacheKey);
  // Each page goes to the cache as soon as it is made: a huge session's pages are never all in memory.
  const writePage = await cache.startWrite(job.cacheKey);
  const rendered = await renderSession(session, job.render, job.renderSalt === undefined ? undefined : { salt: job.renderSalt, ...(digests.length ? { previous: { digests, read, keep } } : {}) }, writePage, helper?.tokenizer, progress && ((pages, total) => progress({ stage: 'render', pages, total })));
  // The twin page by page: a page the render kept has the Markdown it had (its turns and its prompts' page are the same), copied from the last twin.
  // A session of one page is written whole: its page is the one an append changes.
  const parts = twinParts(session, rendered.anchors);
  const lastTwin = previous ? await cache.readTwinPages(previous) : undefined;
  const kept = (i: number) => lastTwin !== undefined && i + 1 < lastTwin.length && rendered.reused[i];
  const twin =
    rendered.pageCount > 1
      ? { header: parts.header, pageCount: rendered.pageCount, page: (i: number) => (kept(i) ? undefined : parts.turns(rendered.pageTurns[i])), ...(previous && lastTwin ? { from: { key: previous, pages: lastTwin } } : {}) }
      : parts.header + parts.turns(session.turns);
  const anchorMap = placeAnchorMap(sessionAnchorMap(rendered));
  await cache.write(job.cacheKey, rendered, twin, { problems: session.diagnostics, anchorMap: anchorMap.file, ...(clean ? { clean: clean.toBuffer() } : {}) });
  const data = toEntryData(session, rendered, opened, { identity: opened.identity, cacheKey: job.cacheKey }, anchorMap);
  const pagesReused = rendered.reused.filter(Boolean).length;
  return { ok: true, data, problems: session.diagnostics, bytes: opened.bytes, ms: elapsed(), filePath: storeFilePath(job.projectRoot, source.path, redactor), ...(pagesReused ? { pagesReused } : {}) };
}

/**
 * Session files at least this large keep their clean strings with their render
 * (clean-strings.ts): Claude Code appends to a session, and the next build of
 * a grown session then looks for secrets in its new lines only. Below it,
 * looking again costs less than keeping them.
 */
export const CLEAN_STRINGS_MIN_BYTES = 1 << 20;

/** How much of a session file keys its clean strings: an append leaves it as it was. */
const CLEAN_KEY_BYTES = 64 * 1024;

/** The clean strings of a large session: those kept by its last render (`previous`), to fill for this one. */
async function cleanStringsOf(job: SessionJob, cache: RenderCache, previous: string | undefined): Promise<CleanStrings | undefined> {
  if (job.renderSalt === undefined || job.source.size < CLEAN_STRINGS_MIN_BYTES) return undefined;
  const key = cleanStringsKey(job.renderSalt, await readHead(job.source.path, CLEAN_KEY_BYTES));
  return createCleanStrings(key, previous ? await cache.readCleanStrings(previous) : undefined);
}

/**
 * The store keeps the source path relative to the project, like glob(); a path
 * that names a user (a build straight from ~/.claude/projects) is left out.
 */
function storeFilePath(projectRoot: string, path: string, redactor: Redactor): string | undefined {
  const filePath = toPosix(relative(projectRoot, path));
  return redactor.redactText(filePath) === filePath ? filePath : undefined;
}
