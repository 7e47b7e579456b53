import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Loader, LoaderContext } from 'astro/loaders';
import { formatDiagnostic, type Diagnostic } from '../lib/diagnostics.js';
import { discoverSources, toPosix, type SessionSource, type SourceLayout } from '../lib/discover.js';
import { digestFile, mapLimit } from '../lib/fs/parallel.js';
import { countBadLines, digestInputs, sideFilesOf, type SessionEntryData } from '../lib/build/entry-data.js';
import { pipelineFingerprint } from '../lib/build/fingerprint.js';
import type { SessionJob, SessionJobResult } from '../lib/build/process-session.js';
import { agentPathsOf, assignSiblingAgents } from '../lib/build/sibling-agents.js';
import { createRenderCache } from '../lib/build/render-cache.js';
import type { RenderSessionOptions } from '../lib/build/render-session.js';
import { createSessionPool } from '../lib/build/worker-pool.js';
import { projectSlugOf, sessionEntryId } from '../lib/site/slug.js';
import { assetUrl, pagesBase } from '../lib/site/urls.js';
import type { SessionpressConfig } from '../schemas/config.js';

/**
 * The Sessionpress content loader: one entry per session of a folder laid out
 * like `~/.claude/projects`. Like Astro's `glob()` loader it skips sessions
 * whose digest is unchanged, deletes entries whose files are gone, stores a
 * relative `filePath`, and reports through the logger only. The work on each
 * session is `processSession` (src/lib/build/): this file only decides what
 * to process and stores the results.
 */
export function sessionsLoader(config: SessionpressConfig): Loader {
  return {
    name: 'sessionpress-sessions',
    load: async (context) => {
      await syncSessions(context, config);
      const { watcher } = context;
      if (watcher) {
        watcher.add(config.sourceDir);
        let timer: NodeJS.Timeout | undefined;
        const onChange = (path: string) => {
          if (!path.startsWith(config.sourceDir) || !isSessionInput(path)) return;
          clearTimeout(timer);
          // Claude Code appends a line per event; wait for a burst of writes to settle.
          timer = setTimeout(() => {
            context.logger.info(`session files changed; reloading`);
            syncSessions(context, config).catch((err) => context.logger.error(String(err)));
          }, 300);
        };
        watcher.on('add', onChange);
        watcher.on('change', onChange);
        watcher.on('unlink', onChange);
      }
    },
  };
}

/** A file a session page is built from: a transcript, an agent's sidecar, a whole tool output. */
function isSessionInput(path: string): boolean {
  return path.endsWith('.jsonl') || path.endsWith('.meta.json') || /[\\/]tool-results[\\/]/.test(path);
}

/** A session file with nothing to show, remembered so an unchanged one is not read again. */
interface SkippedRecord {
  digest: string;
  reason: 'empty' | 'metadata-only';
  sourceFile: string;
  diagnostics: Diagnostic[];
}

type Totals = Record<'sessions' | 'reused' | 'skipped' | 'messages' | 'toolCalls' | 'badLines' | 'problems' | 'redactions' | 'bytes', number> & {
  /** Known records read but not shown, by kind, over every session. */
  hidden: Record<string, number>;
};

interface PlannedJob {
  id: string;
  digest: string;
  job: SessionJob;
}

/** What one sync decided before processing anything: what to reuse, what to skip, what to process. */
interface Plan {
  layout: SourceLayout;
  jobs: PlannedJob[];
  /** Store ids not seen in the source: their files are gone. */
  untouched: Set<string>;
  /** Render-cache keys still in use. */
  keep: Set<string>;
  /** Agent files some session claimed. */
  claimed: Set<string>;
  skippedNow: Record<string, SkippedRecord>;
}

async function syncSessions(context: LoaderContext, config: SessionpressConfig): Promise<void> {
  const started = performance.now();
  const projectRoot = fileURLToPath(context.config.root);
  const cacheDir = fileURLToPath(context.config.cacheDir);
  const totals: Totals = { sessions: 0, reused: 0, skipped: 0, messages: 0, toolCalls: 0, badLines: 0, problems: 0, redactions: 0, bytes: 0, hidden: {} };
  const reporter = createReporter(context, projectRoot, config.sourceDir, totals);
  const plan = await planSync(context, config, projectRoot, cacheDir, reporter);
  const results = await runJobs(plan.jobs, cacheDir, context.logger);
  await storeResults(context, plan, results, reporter);
  for (const id of plan.untouched) context.store.delete(id);
  context.meta.set('skipped', JSON.stringify(plan.skippedNow));
  await createRenderCache(cacheDir).prune(plan.keep);
  for (const p of plan.layout.agentPaths) {
    if (!plan.claimed.has(p)) context.logger.warn(`${toPosix(relative(config.sourceDir, p))}: agent file whose session is not in the source; not shown`);
  }
  const secs = ((performance.now() - started) / 1000).toFixed(1);
  context.logger.info(
    // Messages and tool calls are counted while processing: an unchanged session adds none, so say what was processed.
    `${totals.sessions} sessions (${totals.reused} unchanged, ${totals.skipped} skipped), ` +
      (totals.sessions > totals.reused ? `${totals.sessions - totals.reused} processed: ${totals.messages} messages, ${totals.toolCalls} tool calls, ` : 'nothing to process, ') +
      `${totals.badLines} bad lines, ${totals.problems} other problems, ${totals.redactions} redactions, ${(totals.bytes / 1e6).toFixed(1)} MB read in ${secs}s`,
  );
  const hidden = Object.entries(totals.hidden).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  if (hidden.length) context.logger.info(`known records not shown: ${hidden.map(([kind, n]) => `${n} ${kind}`).join(', ')}`);
}

/**
 * Step 1: discovers the source and gives each session a digest (its files'
 * contents, the settings, the render code's fingerprint). An unchanged
 * session is reused, an unchanged file with nothing to show stays skipped;
 * everything else becomes a job.
 */
async function planSync(context: LoaderContext, config: SessionpressConfig, projectRoot: string, cacheDir: string, reporter: Reporter): Promise<Plan> {
  const { store, generateDigest, meta } = context;
  const root = config.sourceDir;
  const cache = createRenderCache(cacheDir);
  const layout = await discoverSources(root);
  const owners = await assignSiblingAgents(layout);
  // Sidecars and whole tool outputs change what a page shows too: they are part of the digest.
  const fileDigests = await digestFiles([...layout.sessions.map((s) => s.path), ...layout.agentPaths, ...layout.sessions.flatMap(sideFilesOf)], root);
  const render: RenderSessionOptions = {
    pageSize: config.pageSize,
    assetBase: assetUrl(pagesBase(context.config.base, config.prefix)),
    indexToolOutput: config.search.indexToolOutput,
    indexThinking: config.search.indexThinking,
  };
  const settings = JSON.stringify({ pipeline: pipelineFingerprint(), redaction: config.redaction, render });
  // Empty and metadata-only files have no entry; the meta store remembers them (redacted, like entries).
  const skippedBefore = JSON.parse(meta.get('skipped') ?? '{}') as Record<string, SkippedRecord>;
  const plan: Plan = { layout, jobs: [], untouched: new Set(store.keys()), keep: new Set(), claimed: new Set(), skippedNow: {} };

  for (const source of layout.sessions) {
    const agentPaths = agentPathsOf(source, owners);
    agentPaths.forEach((p) => plan.claimed.add(p));
    const read = [...agentPaths, ...sideFilesOf(source)].map((p) => toPosix(relative(root, p)));
    const digest = generateDigest({ settings, files: digestInputs(source, read, fileDigests) });
    const projectSlug = projectSlugOf(source.projectFolder);
    const id = sessionEntryId(projectSlug, source.sessionId);
    plan.untouched.delete(id);
    const existing = store.get(id);
    if (existing && existing.digest === digest && cache.has(String(existing.data.cacheKey))) {
      // Unchanged: nothing is parsed again, but its problems are still reported on every build.
      const data = existing.data as unknown as SessionEntryData;
      reporter.report(data, source);
      plan.keep.add(data.cacheKey);
      reporter.totals.sessions++;
      reporter.totals.reused++;
      continue;
    }
    const skipped = skippedBefore[id];
    if (!existing && skipped?.digest === digest) {
      plan.skippedNow[id] = skipped;
      reporter.noteSkipped(skipped, source);
      continue;
    }
    const siblingAgents = owners.get(source.sessionId) ?? [];
    plan.jobs.push({ id, digest, job: { source, projectRoot, cacheDir, root, siblingAgents, cacheKey: digest, projectSlug, redaction: config.redaction, render } });
  }
  return plan;
}

/** The content digest of each file, by its path relative to the source root (read a few at a time). */
async function digestFiles(paths: string[], root: string): Promise<Map<string, string | undefined>> {
  const digests = await mapLimit(paths, 8, digestFile);
  return new Map(paths.map((p, i) => [toPosix(relative(root, p)), digests[i]]));
}

/**
 * Step 2: processes the jobs, in worker threads (as many as help for a big
 * cold build, one for a few small changed sessions), largest first, with a
 * progress line every two seconds. Results come back in job order.
 */
async function runJobs(jobs: PlannedJob[], cacheDir: string, logger: LoaderContext['logger']): Promise<SessionJobResult[]> {
  const jobBytes = jobs.reduce((n, j) => n + j.job.source.size, 0);
  // Even one changed session goes to a worker: the worker's bundle loads faster than Vite can transform
  // the reader, redaction, model and renderers for this thread (about 0.5 s less on a rebuild).
  const many = jobs.length > 1 && jobBytes > 4e6;
  const pool = jobs.length ? await createSessionPool(cacheDir, many ? undefined : 1) : undefined;
  if (jobs.length) logger.info(`processing ${jobs.length} session${jobs.length === 1 ? '' : 's'} (${(jobBytes / 1e6).toFixed(1)} MB)${pool && pool.size > 1 ? ` on ${pool.size} threads` : ''}`);
  // Only where no worker can start: imported on demand, so a rebuild with nothing to do loads none of it.
  const processInThisThread = pool || !jobs.length ? undefined : (await import('../lib/build/process-session.js')).processSession;
  let done = 0;
  let lastProgress = performance.now();
  // Largest sessions first: a big one started last would leave one thread working alone at the end.
  const order = jobs.map((_, i) => i).sort((a, b) => jobs[b].job.source.size - jobs[a].job.source.size || a - b);
  const results: SessionJobResult[] = new Array(jobs.length);
  await Promise.all(
    order.map(async (i) => {
      const { job } = jobs[i];
      results[i] = await (pool ? pool.run(job) : processInThisThread!(job));
      done++;
      if (performance.now() - lastProgress > 2000) {
        lastProgress = performance.now();
        logger.info(`sessions ${done}/${jobs.length} processed`);
      }
    }),
  ).finally(() => pool?.close());
  return results;
}

/** Step 3: stores each result in source order, whatever order the threads finished in, so builds stay deterministic. */
async function storeResults(context: LoaderContext, plan: Plan, results: SessionJobResult[], reporter: Reporter): Promise<void> {
  const { totals } = reporter;
  for (const [i, { id, job, digest }] of plan.jobs.entries()) {
    const result = results[i];
    totals.bytes += result.bytes;
    if (!result.ok) {
      const record: SkippedRecord = { digest, reason: result.reason, sourceFile: result.sourceFile, diagnostics: result.diagnostics };
      plan.skippedNow[id] = record;
      reporter.noteSkipped(record, job.source);
      context.store.delete(id);
      continue;
    }
    reporter.report(result.data, job.source);
    plan.keep.add(job.cacheKey);
    const { filePath } = result;
    const data = await context.parseData({ id, data: result.data, filePath });
    context.store.set({ id, data, digest, ...(filePath ? { filePath } : {}) });
    totals.sessions++;
    totals.messages += result.data.facts.messageCount;
    totals.toolCalls += result.data.facts.toolCallCount;
    totals.redactions += result.data.redactions.reduce((n, f) => n + f.count, 0);
  }
}

type Reporter = ReturnType<typeof createReporter>;

/** Line numbers quoted for a group of problems of one kind in one file. */
const LINES_QUOTED = 5;

/**
 * Counts and logs every session's problems, with the real path of its file
 * (the stored copy names it redacted). The log stays quiet: one line per file
 * per kind of problem, with a count and the first few line numbers;
 * SESSIONPRESS_VERBOSE=1 prints every problem. The session page lists them all.
 */
function createReporter(context: LoaderContext, projectRoot: string, root: string, totals: Totals) {
  const { logger } = context;
  const verbose = process.env.SESSIONPRESS_VERBOSE === '1';
  const shownPath = (file: string) => toPosix(relative(projectRoot, join(root, file)));
  function report(data: { diagnostics: { sourceFile: string; items: Diagnostic[] }; hiddenCounts?: Record<string, number> }, source: SessionSource): void {
    const items = data.diagnostics.items.map((d) => (d.file === data.diagnostics.sourceFile ? { ...d, file: source.relPath } : d));
    totals.badLines += countBadLines(items);
    totals.problems += items.filter((d) => d.code !== 'empty-file' && d.code !== 'metadata-only').length - countBadLines(items);
    for (const [kind, n] of Object.entries(data.hiddenCounts ?? {})) totals.hidden[kind] = (totals.hidden[kind] ?? 0) + n;
    for (const group of groupDiagnostics(items, verbose)) {
      const line = formatGroup(group, shownPath);
      if (group[0].code === 'empty-file' || group[0].code === 'metadata-only') logger.info(line);
      else logger.warn(line);
    }
  }
  return {
    totals,
    report,
    noteSkipped(record: SkippedRecord, source: SessionSource): void {
      totals.skipped++;
      report({ diagnostics: { sourceFile: record.sourceFile, items: record.diagnostics } }, source);
      const why = record.reason === 'metadata-only' ? 'metadata only, no conversation' : record.diagnostics.some((d) => d.code === 'not-jsonl') ? 'not a JSONL file' : 'empty file';
      logger.info(`skipped ${source.relPath}: ${why}`);
    },
  };
}

/** Diagnostics grouped by file and code, in order of first appearance; one group per diagnostic when verbose. */
function groupDiagnostics(items: Diagnostic[], verbose: boolean): Diagnostic[][] {
  if (verbose) return items.map((d) => [d]);
  const groups = new Map<string, Diagnostic[]>();
  for (const d of items) {
    const key = `${d.file}\u0000${d.code}`;
    const g = groups.get(key);
    if (g) g.push(d);
    else groups.set(key, [d]);
  }
  return [...groups.values()];
}

/**
 * One log line for a group: the first diagnostic as compilers print it (so
 * editors can jump to it), then how many of this kind the file holds and on
 * which lines.
 */
function formatGroup(group: Diagnostic[], shownPath: (file: string) => string): string {
  const first = formatDiagnostic({ ...group[0], file: shownPath(group[0].file) });
  if (group.length === 1) return first;
  const lines = [...new Set(group.map((d) => d.line).filter((n) => n > 0))];
  const quoted = lines.length ? ` (lines ${lines.slice(0, LINES_QUOTED).join(', ')}${lines.length > LINES_QUOTED ? ', …' : ''})` : '';
  return `${first} — ${group.length} of this kind in this file${quoted}`;
}
