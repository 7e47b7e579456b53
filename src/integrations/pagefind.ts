import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
// Imported up front: a dynamic import inside a hook goes through Vite's module runner, which
// Astro may already have closed by the time `astro:build:done` runs.
import * as pagefind from 'pagefind';
import type { BuildLogger } from '../lib/build/build-logger.js';
import type { DeferredFinish, SearchIndexJob } from '../lib/build/finish-plan.js';
import { collectGarbage, describeCollection } from '../lib/build/heap-growth.js';
import { createProgress, isInteractive, PROGRESS_LABEL } from '../lib/build/progress.js';
import type { OutputLedger } from '../lib/fs/output-ledger.js';
import { copyTree, isLinkedTree, mapLimit } from '../lib/fs/parallel.js';
import { INTERFACE_LABELS } from '../lib/render/interface-labels.js';
import { bundleDir, SEARCH_MANIFEST, type SearchManifest } from '../lib/search/manifest.js';
import { searchDigest } from '../lib/search/page-digest.js';
import { assignShards, fragmentDates, SEARCH_BODY_ATTR } from '../lib/search/shards.js';

export interface PagefindIntegrationOptions {
  /** About this much searchable HTML goes into one index shard (see src/lib/search/shards.ts). */
  shardBytes: number;
  /** Where the files of the search bundles are recorded as this build's output (see out-dir.ts). */
  ledger: OutputLedger;
  /** Where our pages are below the output folder (`''` or `'sessions/'`): the index and its URLs start there. */
  prefix: string;
  /** The route patterns of our pages: only they are indexed, never a host site's own pages. */
  routes: string[];
  /** Set when the command that started the build finishes it once Astro's process has ended (src/integrations/finish.ts): the index is handed over, not built here. */
  deferred?: DeferredFinish;
}

interface SearchPage {
  path: string;
  /** Path relative to our pages' folder, with `/`: what pagefind turns into the page's URL (below the pages' base). */
  rel: string;
  bytes: number;
  sha: string;
}

/** Bumped when what a cached shard holds changes, so older cache entries are not reused. */
const SHARD_FORMAT = 3;

/**
 * Only the marked content of each page is indexed; chrome and abandoned
 * branches are not, nor the interface text around the messages (the session's
 * facts and crumbs, a message's time and label), so excerpts are message text.
 * Filters and metadata inside an excluded element are still read.
 */
export const EXCLUDE_SELECTORS = [
  '[data-branch="abandoned"]',
  'nav',
  'header.site',
  'footer.site',
  '.session-header .crumbs',
  '.session-header .facts',
  // A tool's name and outcome, hunk headers, "Show N more lines", permalinks... (one list, shared with the page script).
  ...INTERFACE_LABELS,
  // A tool's field names ("Path", "Mode"), result counts ("5 matching lines"), badges ("new file") and notes ("15 lines").
  '.field-label',
  'p.count',
  '.badge',
  '.tool-summary .muted',
];

/**
 * Builds the pagefind search index after Astro has written the site, through
 * pagefind's Node API. Every response's `errors` is checked: an index that
 * failed to build fails the build instead of shipping a silently empty search.
 *
 * Only our pages are indexed (those of our routes), relative to the prefix's
 * folder; the bundles go into `_sessionpress/` there, so a host site's own
 * index is left alone. The browser gives pagefind the pages' base as its
 * `baseUrl` (src/scripts/search-results.ts).
 *
 * Large sites are indexed in shards, one at a time (memory stays at one
 * shard's worth), and each shard is kept in Astro's cache folder under a
 * digest of its pages: a rebuild re-indexes only the shards whose pages
 * changed, and copies the others back.
 */
export function pagefindIntegration(options: PagefindIntegrationOptions): AstroIntegration {
  let cacheDir = '';
  return {
    name: 'sessionpress-pagefind',
    hooks: {
      'astro:config:done': ({ config }) => {
        cacheDir = join(fileURLToPath(config.cacheDir), 'sessionpress-pagefind');
      },
      'astro:build:done': async ({ dir, assets, logger }) => {
        const outDir = join(fileURLToPath(dir), options.prefix).replace(/[\\/]$/, '');
        // The pages of our routes this build produced (rendered or reused), not whatever the kept output folder holds.
        const ours = new Set(options.routes);
        const html = [...assets].filter(([route]) => ours.has(route)).flatMap(([, urls]) => urls.map((u) => fileURLToPath(u))).filter((f) => f.endsWith('.html'));
        const job: SearchIndexJob = { outDir, html, cacheDir, shardBytes: options.shardBytes };
        // A command that finishes the build itself (src/integrations/finish.ts) indexes once Astro's process has ended.
        if (options.deferred) options.deferred.search = job;
        else await indexSearchPages(job, options.ledger, logger, true);
      },
    },
  };
}

/**
 * Builds the search index of `job.html` into `job.outDir` (see
 * `pagefindIntegration`), reusing cached shards, and records the bundles'
 * files in the ledger. `inAstro`: run by the hook, beside Astro's heap, which
 * is compacted first.
 */
export async function indexSearchPages(job: SearchIndexJob, ledger: OutputLedger, logger: BuildLogger, inAstro = false): Promise<void> {
  const { outDir, cacheDir } = job;
  const started = performance.now();
  const version = await pagefindVersion();
  const pages = await searchablePages(outDir, job.html);
  const total = pages.reduce((n, p) => n + p.bytes, 0);
  const { count, shards } = assignShards(pages, job.shardBytes);

  const digests = shards.map((list) =>
    createHash('sha256').update(JSON.stringify([SHARD_FORMAT, version, count, EXCLUDE_SELECTORS, list.map((p) => [p.rel, p.sha])])).digest('hex').slice(0, 24),
  );
  // dates.json is written last: a shard whose build was cut short is built again.
  const isCached = (digest: string) => existsSync(join(cacheDir, digest, 'dates.json'));
  const stale = shards.filter((_, i) => !isCached(digests[i]));
  if (stale.length) {
    logger.info(`building the search index (${pages.length} pages, ${(total / 1e6).toFixed(1)} MB${shards.length > 1 ? `, ${stale.length} of ${shards.length} shards` : ''})…`);
  }
  if (stale.length && inAstro) {
    // Astro's process now mostly waits on pagefind's: what the pages left on its heap goes first (heap-growth.ts).
    logger.debug(`heap before the search index: ${describeCollection(collectGarbage())}`);
  }
  let dates: Array<Record<string, string>>;
  const progress = createProgress(logger.fork(`${logger.label}${PROGRESS_LABEL}`), isInteractive());
  let builtSoFar = 0;
  // A shard to each pagefind process, as many at once as there are processes (see `startServices`).
  const services = await startServices(pagefindProcesses(stale, availableParallelism()));
  const free = [...services];
  if (stale.length > 1) logger.debug(`indexing ${stale.length} shards with ${services.length} pagefind process${services.length === 1 ? '' : 'es'}`);
  try {
    dates = await mapLimit(shards, services.length, async (list, i): Promise<Record<string, string>> => {
      const cached = join(cacheDir, digests[i]);
      const target = join(outDir, bundleDir(i));
      if (isCached(digests[i])) {
        // The output folder is kept between builds: a bundle left there may hold pages since removed,
        // unless it is this very bundle, linked there by the last build.
        if (!(await isLinkedTree(join(cached, 'bundle'), target, (name) => name === SEARCH_MANIFEST))) {
          await rm(target, { recursive: true, force: true });
          await copyTree(join(cached, 'bundle'), target);
        }
        return JSON.parse(await readFile(join(cached, 'dates.json'), 'utf8'));
      }
      const service = free.pop()!;
      try {
        await indexShard(service, outDir, list, target, logger);
      } finally {
        free.push(service);
      }
      progress(`search index: ${++builtSoFar} of ${stale.length} shards built`);
      await rm(cached, { recursive: true, force: true });
      await copyTree(target, join(cached, 'bundle'));
      // Kept for every shard, so a shard cached while it was the only one still serves when others appear.
      const found = await fragmentDates(target);
      await writeFile(join(cached, 'dates.json'), JSON.stringify(found));
      return found;
    });
  } finally {
    await Promise.all(services.map((service) => service.close()));
  }
  const manifest: SearchManifest = {
    pages: pages.length,
    shards: shards.slice(1).map((_, i) => `${bundleDir(i + 1)}/`),
    // Only merged shards need the dates (a single index sorts by date itself).
    dates: shards.length > 1 ? Object.assign({}, ...dates) : {},
  };
  // Bundles of shards this build no longer has (the output folder is kept between builds).
  const bundles = dirname(join(outDir, bundleDir(0)));
  for (const name of await readdir(bundles)) {
    const n = /^pagefind(?:-(\d+))?$/.exec(name);
    if (n && Number(n[1] ?? 1) > shards.length) await rm(join(bundles, name), { recursive: true, force: true });
  }
  const keep = new Set(digests);
  const built = stale.length;
  const indexed = stale.reduce((n, list) => n + list.length, 0);
  await writeFile(join(outDir, bundleDir(0), SEARCH_MANIFEST), JSON.stringify(manifest));
  // Each bundle folder now holds exactly one shard's files (written, copied, or checked link by link).
  for (let i = 0; i < shards.length; i++) await ledger.addTree(join(outDir, bundleDir(i)));
  // The cache keeps the shards of this build only.
  if (existsSync(cacheDir)) for (const name of await readdir(cacheDir)) if (!keep.has(name)) await rm(join(cacheDir, name), { recursive: true, force: true });

  const secs = ((performance.now() - started) / 1000).toFixed(1);
  if (!built) logger.info(`pages unchanged; reused the search index${shards.length > 1 ? ` (${shards.length} shards)` : ''} in ${secs}s`);
  else if (shards.length === 1) logger.info(`indexed ${indexed} pages in ${secs}s`);
  else logger.info(`indexed ${indexed} of ${pages.length} pages in ${secs}s: ${built} of ${shards.length} shards rebuilt, the others reused`);
}

/**
 * Of the given pages, those pagefind would index (with `data-pagefind-body`),
 * with their sizes and search digests, in path order. Every page is read: a
 * page is known by what it holds, never by its modification time, so a page
 * rewritten with the same size in the same instant is still indexed again.
 * The digest leaves out the parts pagefind never indexes that change as a
 * session grows (src/lib/search/page-digest.ts): an append to a long session
 * re-indexes the shards of the pages it added to, not of all its pages.
 */
async function searchablePages(outDir: string, html: string[]): Promise<SearchPage[]> {
  const files = [...new Set(html)].sort();
  const pages: SearchPage[] = [];
  // Read synchronously, one after another: the build has just written them, so they are in the page cache,
  // where a read through libuv's thread pool costs more in hand-offs than the read (1,967 pages: 0.31 s → 0.14 s).
  for (const [i, path] of files.entries()) {
    const buf = readFileSync(path);
    if (buf.includes(SEARCH_BODY_ATTR)) pages.push({ path, rel: relative(outDir, path).split(sep).join('/'), bytes: buf.length, sha: searchDigest(buf) });
    // A progress line or a timer is never held up long.
    if (i % 256 === 255) await new Promise((done) => setImmediate(done));
  }
  return pages;
}

/** Page paths that can stand in a glob as they are: no glob syntax, nothing to escape. */
const GLOB_SAFE = /^[A-Za-z0-9_/-][A-Za-z0-9._/-]*$/;

/**
 * Indexes one shard's pages into a bundle at `target`. pagefind reads the pages
 * itself, in parallel, when given them as one glob of their exact paths (twice
 * as fast as sending each page's text over to it); a page whose path would need
 * escaping is sent as text instead. Every page must be indexed: a count that
 * differs fails the build rather than leaving pages out of search.
 */
async function indexShard(service: PagefindService, outDir: string, list: SearchPage[], target: string, logger: BuildLogger): Promise<void> {
  const { index, errors } = await service.createIndex({ excludeSelectors: EXCLUDE_SELECTORS });
  if (!index || errors.length) throw new Error(`pagefind could not start: ${errors.join('; ')}`);
  try {
    const plain = list.filter((p) => GLOB_SAFE.test(p.rel));
    if (plain.length) {
      const added = await index.addDirectory({ path: outDir, glob: plain.length === 1 ? plain[0].rel : `{${plain.map((p) => p.rel).join(',')}}` });
      if (added.errors.length) throw new Error(`pagefind failed to index ${outDir}: ${added.errors.join('; ')}`);
      if (added.page_count !== plain.length) throw new Error(`pagefind indexed ${added.page_count} pages of ${plain.length} in ${outDir}`);
    }
    for (const p of list) {
      if (GLOB_SAFE.test(p.rel)) continue;
      const added = await index.addHTMLFile({ sourcePath: p.rel, content: await readFile(p.path, 'utf8') });
      if (added.errors.length) throw new Error(`pagefind failed to index ${p.rel}: ${added.errors.join('; ')}`);
    }
    await rm(target, { recursive: true, force: true });
    await mkdir(target, { recursive: true });
    const written = await index.writeFiles({ outputPath: target });
    if (written.errors.length) throw new Error(`pagefind failed to write its index: ${written.errors.join('; ')}`);
    logger.debug(`indexed ${list.length} pages into ${target}`);
  } finally {
    // Frees the shard's index in the pagefind process before the next one is built.
    await index.deleteIndex();
  }
}

type PagefindService = Pick<typeof pagefind, 'createIndex' | 'close'>;

/**
 * How many pagefind processes index shards at once. pagefind's Node API runs
 * one process per instance of its module and answers one request at a time,
 * and a shard's index is written on one core: with two processes one shard is
 * written while the next is read. Measured on 2 cores, four shards one after
 * the other against two processes at once: 26.5 s against 16.5 s (four 90-page
 * shards of the generated 630 MB session), 8.7 s against 7.0 s (the bench
 * corpus's 1,260 pages in eight shards). Two shards sent to one process at
 * once gained nothing (26.2 s): it took them in turn.
 */
export const PAGEFIND_PROCESSES = 2;

/**
 * A shard of more searchable HTML than this is indexed alone. pagefind's
 * memory grows with a shard's HTML: at 16× the bench corpus (16 shards of
 * 77 MB) its process took 1.20 GB, and two such shards at once in one process
 * 1.56 GB, which beside the command's 0.32 GB would have been the build's
 * peak. Shards of this size or less (the bench corpus's are about 19 MB, the
 * generated 630 MB session's 20 MB) are indexed two at once.
 */
export const TWO_AT_ONCE_MAX_BYTES = 32e6;

/** How many pagefind processes index these `stale` shards: two on a machine of two cores or more, unless a shard is too large to share. */
export function pagefindProcesses(stale: ReadonlyArray<ReadonlyArray<{ bytes: number }>>, cores: number): number {
  const largest = Math.max(0, ...stale.map((list) => list.reduce((n, p) => n + p.bytes, 0)));
  return largest > TWO_AT_ONCE_MAX_BYTES ? 1 : Math.max(1, Math.min(stale.length, PAGEFIND_PROCESSES, cores));
}

/**
 * Node's own `import()`, out of reach of Vite's module runner: the runner loads
 * Astro's config and integrations (pagefind with them) and is closed before
 * `astro:build:done`, where a build without our command indexes its pages.
 * Where code runs without Node's dynamic import (a test runner's sandbox), the
 * `import()` as the module runner rewrote it.
 */
function importFresh(url: string): Promise<unknown> {
  let nativeImport: (url: string) => Promise<unknown>;
  try {
    nativeImport = new Function('url', 'return import(url)') as typeof nativeImport;
  } catch {
    // Node run with --disallow-code-generation-from-strings.
    return import(/* @vite-ignore */ url);
  }
  return nativeImport(url).catch(() => import(/* @vite-ignore */ url));
}

/**
 * Up to `count` pagefind services: the module imported up front, then other
 * instances of it, each starting a process of its own when first used (the
 * query makes another instance: Node keys modules by their whole URL). One
 * that cannot be loaded is left out: another process only saves time.
 */
export async function startServices(count: number): Promise<PagefindService[]> {
  const services: PagefindService[] = [pagefind];
  for (let n = 2; n <= count; n++) {
    try {
      services.push((await importFresh(`${import.meta.resolve('pagefind')}?process=${n}`)) as PagefindService);
    } catch {
      break;
    }
  }
  return services;
}

/** pagefind's version: part of every shard's digest, so an upgrade re-indexes. */
async function pagefindVersion(): Promise<string> {
  // pagefind exports only its entry point; its package.json sits one folder above lib/.
  const entry = fileURLToPath(import.meta.resolve('pagefind'));
  return JSON.parse(await readFile(join(dirname(entry), '..', 'package.json'), 'utf8')).version;
}
