import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Loader, LoaderContext } from 'astro/loaders';
import { SKIP_CODES, type Diagnostic } from '../lib/diagnostics.js';
import { discoverSources, noSessionsMessage, realPathOf, toPosix, type SessionSource, type SourceLayout } from '../lib/discover.js';
import { mapLimit } from '../lib/fs/parallel.js';
import { digestFilesInside } from '../lib/fs/tree-digest.js';
import { countBadLines, digestInputs, sideFilesOf, type SessionEntryData } from '../lib/build/entry-data.js';
import { readSourceDigests } from '../lib/build/site-inputs.js';
import { pipelineFingerprint } from '../lib/build/fingerprint.js';
import type { SessionJob, SessionJobResult } from '../lib/build/process-session.js';
import { agentPathsOf, assignSiblingAgents } from '../lib/build/sibling-agents.js';
import { createProblemReport, listed, plural, printable } from '../lib/build/problem-report.js';
import { createProgress, isInteractive, isVerbose, PROGRESS_LABEL, sessionsProgressText, type SessionProgress } from '../lib/build/progress.js';
import { createRenderCache, problemsFilePath } from '../lib/build/render-cache.js';
import type { RenderSessionOptions } from '../lib/build/render-session.js';
import { createSessionPool, releasePrestarted, wantsHelperThread } from '../lib/build/worker-pool.js';
import { boundHeapForSession } from '../lib/build/heap-growth.js';
import { entryIdOf } from '../lib/site/slug.js';
import { assetUrl, pagesBase } from '../lib/site/urls.js';
import { keepCollectionKnown } from './empty-collection.js';
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

type Totals = Record<'sessions' | 'reused' | 'skipped' | 'removed' | 'messages' | 'toolCalls' | 'badLines' | 'problems' | 'redactions' | 'bytes', number> & {
  /** Known records read but not shown, by kind, over every session. */
  hidden: Record<string, number>;
  /** Lines of types this version does not know, with no message and no uuid (inert metadata), by type, over every session. */
  unknownMetadata: Record<string, number>;
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
  // Kinds are keys of whatever a file wrote: no prototype, so `constructor` or `__proto__` are plain keys.
  const totals: Totals = { sessions: 0, reused: 0, skipped: 0, removed: 0, messages: 0, toolCalls: 0, badLines: 0, problems: 0, redactions: 0, bytes: 0, hidden: Object.create(null), unknownMetadata: Object.create(null) };
  const reporter = createReporter(projectRoot, config.sourceDir, totals);
  const plan = await planSync(context, config, projectRoot, cacheDir, reporter);
  const results = await runJobs(plan.jobs, cacheDir, context.logger);
  const reusedPages = results.reduce((n, r) => n + (r.ok ? (r.pagesReused ?? 0) : 0), 0);
  if (reusedPages) context.logger.info(`${reusedPages} unchanged page${reusedPages === 1 ? '' : 's'} of changed sessions reused from their last render`);
  await storeResults(context, plan, results, reporter);
  for (const id of plan.untouched) context.store.delete(id);
  totals.removed = plan.untouched.size;
  // No session at all: one line says why (and which folder was probably meant), not Astro once per page.
  if (!plan.layout.sessions.length) keepCollectionKnown(context.store);
  context.meta.set('skipped', JSON.stringify(plan.skippedNow));
  await createRenderCache(cacheDir).prune(plan.keep);
  await reportAgentsWithoutSession(context, config, plan, reporter);
  const secs = ((performance.now() - started) / 1000).toFixed(1);
  await reporter.finish(context.logger, secs, problemsFilePath(cacheDir));
  if (!plan.layout.sessions.length) context.logger.warn(await noSessionsMessage(config.sourceDir));
}

/** Where the last build's agent files without a session are remembered, redacted, with a digest of their paths. */
const ORPHANS_META = 'agents-without-session';

/**
 * Agent files no session of the source claims are problems too, named
 * redacted like every stored one. Redacting loads the redactor, so the
 * redacted list is kept in the meta store and reused while the list of such
 * files (and the redaction settings) stay the same: then they were reported
 * by an earlier build.
 */
async function reportAgentsWithoutSession(context: LoaderContext, config: SessionpressConfig, plan: Plan, reporter: Reporter): Promise<void> {
  const root = config.sourceDir;
  const paths = plan.layout.agentPaths.filter((p) => !plan.claimed.has(p)).map((p) => toPosix(relative(root, p)));
  // Links and unsafe names discovery refused are reported the same way: by file, redacted, on every build.
  const layoutProblems = plan.layout.problems;
  const digest = context.generateDigest({ paths, layoutProblems, redaction: config.redaction });
  const before = JSON.parse(context.meta.get(ORPHANS_META) ?? 'null') as { digest: string; items: Diagnostic[] } | null;
  const known = before?.digest === digest;
  let items: Diagnostic[] = [];
  if (known) items = before.items;
  else if (paths.length || layoutProblems.length) {
    const { agentsWithoutSession, redactLayoutProblems } = await import('../lib/build/agents-without-session.js');
    items = [...(await agentsWithoutSession(paths, config.redaction)), ...(await redactLayoutProblems(layoutProblems, config.redaction))];
  }
  if (!known) context.meta.set(ORPHANS_META, JSON.stringify({ digest, items }));
  const keys = [...paths, ...layoutProblems.map((d) => d.file)];
  items.forEach((d, i) => reporter.problems.add({ key: keys[i], items: [d], shownFile: () => reporter.shownPath(keys[i]), known }));
  reporter.totals.problems += items.length;
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
  // On a rebuild the command that started it has just digested every file below the source: those digests are taken.
  const fileDigests = await digestFiles([...layout.sessions.map((s) => s.path), ...layout.agentPaths, ...layout.sessions.flatMap(sideFilesOf)], root, await readSourceDigests(root));
  const render: RenderSessionOptions = {
    pageSize: config.pageSize,
    assetBase: assetUrl(pagesBase(context.config.base, config.prefix)),
    indexToolOutput: config.search.indexToolOutput,
    indexThinking: config.search.indexThinking,
  };
  const settings = JSON.stringify({ pipeline: pipelineFingerprint(), redaction: config.redaction, render });
  const renderSalt = generateDigest({ settings });
  // Empty and metadata-only files have no entry; the meta store remembers them (redacted, like entries).
  const skippedBefore = JSON.parse(meta.get('skipped') ?? '{}') as Record<string, SkippedRecord>;
  const plan: Plan = { layout, jobs: [], untouched: new Set(store.keys()), keep: new Set(), claimed: new Set(), skippedNow: {} };

  const sessions = layout.sessions.map((source) => {
    const agentPaths = agentPathsOf(source, owners);
    agentPaths.forEach((p) => plan.claimed.add(p));
    const read = [...agentPaths, ...sideFilesOf(source)].map((p) => toPosix(relative(root, p)));
    const digest = generateDigest({ settings, files: digestInputs(source, read, fileDigests) });
    const id = entryIdOf(source);
    plan.untouched.delete(id);
    const entry = store.get(id);
    // What toEntryData returned for this id on the last build (its schema checked it then): typed once, here.
    const existing = entry && { digest: entry.digest, data: entry.data as unknown as SessionEntryData };
    // Its last render, while the cache still holds it (String: a store written by an older version may lack the key).
    const rendered = existing && cache.has(String(existing.data.cacheKey)) ? String(existing.data.cacheKey) : undefined;
    return { source, digest, id, existing, rendered };
  });
  // An unchanged session is not parsed again, but its problems are still reported on every build. They are kept
  // with its render (the store has their count), and read back many at a time: at 16x the bench corpus
  // 4,800 unchanged sessions have some. Undefined for a session that changed, or whose render's details cannot
  // be read (it is rendered again).
  const problemsOf = await mapLimit(sessions, 16, async ({ digest, existing, rendered }): Promise<Diagnostic[] | undefined> => {
    if (!existing || existing.digest !== digest || !rendered) return undefined;
    return existing.data.diagnostics.total > 0 ? cache.readDetails(rendered).then((d) => d.problems, () => undefined) : [];
  });

  for (const [i, { source, digest, id, existing, rendered }] of sessions.entries()) {
    const problems = problemsOf[i];
    if (existing && rendered && problems) {
      reporter.report(existing.data, problems, source, true);
      plan.keep.add(rendered);
      reporter.totals.sessions++;
      reporter.totals.reused++;
      continue;
    }
    const skipped = skippedBefore[id];
    if (!existing && skipped?.digest === digest) {
      plan.skippedNow[id] = skipped;
      reporter.noteSkipped(skipped, source, true);
      continue;
    }
    const siblingAgents = owners.get(source.sessionId) ?? [];
    // A session that changed (Claude Code appends to it) reuses the pages of its last render that show the same.
    plan.jobs.push({ id, digest, job: { source, projectRoot, cacheDir, root, siblingAgents, cacheKey: digest, redaction: config.redaction, render, renderSalt, ...(rendered ? { previousKey: rendered } : {}) } });
  }
  return plan;
}

/** The content digest of each file (undefined where it cannot be read), by its path relative to the source root. */
async function digestFiles(paths: string[], root: string, known?: { get(relPath: string): string | undefined }): Promise<Map<string, string | undefined>> {
  const digests = await digestFilesInside(root, paths, known);
  return new Map(paths.map((p, i) => [toPosix(relative(root, p)), digests[i]]));
}

/**
 * Step 2: processes the jobs, in worker threads (as many as help for a big
 * cold build, one for a few small changed sessions), largest first, with
 * progress (see src/lib/build/progress.ts). Results come back in job order.
 */
async function runJobs(jobs: PlannedJob[], cacheDir: string, logger: LoaderContext['logger']): Promise<SessionJobResult[]> {
  const jobBytes = jobs.reduce((n, j) => n + j.job.source.size, 0);
  // Even one changed session goes to a worker: the worker's bundle loads faster than Vite can transform
  // the reader, redaction, model and renderers for this thread (about 0.5 s less on a rebuild).
  const many = jobs.length > 1 && jobBytes > 4e6;
  const pool = jobs.length ? await createSessionPool(cacheDir, many ? undefined : 1) : undefined;
  // A big session alone on one thread: a second one looks for secrets in a share of its strings and tokenises a share of the code its pages show.
  if (pool && wantsHelperThread(jobs[0].job, jobs.length, pool.size)) jobs[0].job.helper = true;
  // The thread the integration started early is not needed when nothing changed.
  if (!jobs.length) await releasePrestarted(cacheDir);
  if (jobs.length) logger.info(`processing ${jobs.length} session${jobs.length === 1 ? '' : 's'} (${(jobBytes / 1e6).toFixed(1)} MB)${pool && pool.size > 1 ? ` on ${pool.size} threads` : ''}`);
  // Only where no worker can start: imported on demand, so a rebuild with nothing to do loads none of it.
  const processInThisThread = pool || !jobs.length ? undefined : (await import('../lib/build/process-session.js')).processSession;
  let done = 0;
  const progress = createProgress(logger.fork(`${logger.label}${PROGRESS_LABEL}`), isInteractive());
  // Where each session being processed stands: the line names the largest, which is what a long wait is for.
  const running = new Map<number, SessionProgress>();
  const update = () =>
    progress(sessionsProgressText(done, jobs.length, [...running].map(([i, p]) => ({ name: jobs[i].job.source.sessionId.slice(0, 8), bytes: jobs[i].job.source.size, progress: p }))));
  // A step may go long without a report (redacting a huge session, building its conversation): the line
  // is offered again every second, and the throttle shows it when one is due.
  const ticker = setInterval(update, 1000);
  ticker.unref();
  // Largest sessions first: a big one started last would leave one thread working alone at the end.
  const order = jobs.map((_, i) => i).sort((a, b) => jobs[b].job.source.size - jobs[a].job.source.size || a - b);
  // A huge session's thread would otherwise grow its heap to three or four times what it holds alive (heap-growth.ts).
  if (order.length) boundHeapForSession(jobs[order[0]].job.source.size);
  const results: SessionJobResult[] = new Array(jobs.length);
  await Promise.all(
    order.map(async (i) => {
      const { job } = jobs[i];
      const onProgress = (p: SessionProgress) => {
        running.set(i, p);
        update();
      };
      // One session that throws (a bug, a limit met) costs its own page, not the build: it is reported as a problem.
      results[i] = await (pool ? pool.run(job, onProgress) : processInThisThread!(job, undefined, onProgress)).catch(async (err: unknown) => (await import('../lib/build/failed-result.js')).failedResult(job, err));
      running.delete(i);
      done++;
      update();
    }),
  ).finally(() => {
    clearInterval(ticker);
    return pool?.close();
  });
  return results;
}

/** Step 3: stores each result in source order, whatever order the threads finished in, so builds stay deterministic. */
async function storeResults(context: LoaderContext, plan: Plan, results: SessionJobResult[], reporter: Reporter): Promise<void> {
  const { totals } = reporter;
  for (const [i, { id, job, digest }] of plan.jobs.entries()) {
    const result = results[i];
    totals.bytes += result.bytes;
    if (!result.ok) {
      if (result.reason === 'failed') {
        // Not remembered like a skipped file: the next build tries it again (and says so again if it fails).
        reporter.noteFailed(result.sourceFile, result.diagnostics, job.source);
        context.store.delete(id);
        continue;
      }
      const record: SkippedRecord = { digest, reason: result.reason, sourceFile: result.sourceFile, diagnostics: result.diagnostics };
      plan.skippedNow[id] = record;
      reporter.noteSkipped(record, job.source, false);
      context.store.delete(id);
      continue;
    }
    reporter.report(result.data, result.problems, job.source, false);
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

/** Kinds named in a summary line of counts; the others are counted together. */
const KINDS_NAMED = 12;

/**
 * Counts every session's problems and what it read without showing, and says
 * it in a few lines whatever the archive's size (src/lib/build/problem-report.ts):
 * problems new to this build by kind, one line for those an earlier build
 * reported, skipped files and unknown metadata counted. Every problem goes to
 * the problems file beside the cache, and to its session's page.
 * SESSIONPRESS_VERBOSE=1 (or `--verbose`) also prints every problem on its own line.
 */
function createReporter(projectRoot: string, root: string, totals: Totals) {
  const problems = createProblemReport();
  const skipped: Array<{ path: string; why: string }> = [];
  /** How the log names a file of the source: from the project, with the session file's real name (the stored one is redacted). */
  const shownPath = (file: string) => toPosix(relative(projectRoot, join(root, file)));
  function report(data: { diagnostics: { sourceFile: string } } & Partial<Pick<SessionEntryData, 'hiddenCounts' | 'unknownMetadata'>>, items: Diagnostic[], source: SessionSource, known: boolean): void {
    const { sourceFile } = data.diagnostics;
    const badLines = countBadLines(items);
    totals.badLines += badLines;
    totals.problems += items.filter((d) => !SKIP_CODES.has(d.code)).length - badLines;
    for (const [kind, n] of Object.entries(data.hiddenCounts ?? {})) totals.hidden[kind] = (totals.hidden[kind] ?? 0) + n;
    for (const [kind, n] of Object.entries(data.unknownMetadata ?? {})) totals.unknownMetadata[kind] = (totals.unknownMetadata[kind] ?? 0) + n;
    // The stored diagnostics name files redacted; the log names the real files (the session's own, its agents').
    let own: string[] | undefined;
    const candidates = () => (own ??= [...source.subagentPaths, ...source.siblingAgentPaths, ...(source.sidecarPaths ?? []), ...(source.toolResultPaths ?? [])].map((p) => toPosix(relative(root, p))));
    problems.add({ key: source.relPath, items, known, shownFile: (d) => shownPath(d.file === sourceFile ? source.relPath : realPathOf(d.file, candidates)) });
  }
  return {
    totals,
    problems,
    shownPath,
    report,
    noteFailed(sourceFile: string, diagnostics: Diagnostic[], source: SessionSource): void {
      totals.skipped++;
      report({ diagnostics: { sourceFile } }, diagnostics, source, false);
    },
    noteSkipped(record: SkippedRecord, source: SessionSource, known: boolean): void {
      totals.skipped++;
      report({ diagnostics: { sourceFile: record.sourceFile } }, record.diagnostics, source, known);
      const why = record.reason === 'metadata-only' ? 'metadata only' : record.diagnostics.some((d) => d.code === 'not-jsonl') ? 'not JSONL' : 'empty';
      skipped.push({ path: source.relPath, why });
    },
    /** Writes the problems file and logs the summary. */
    async finish(logger: LoaderContext['logger'], secs: string, problemsFile: string): Promise<void> {
      await mkdir(dirname(problemsFile), { recursive: true });
      await writeFile(problemsFile, problems.fileText());
      const removed = totals.removed ? `, ${totals.removed} removed` : '';
      logger.info(
        // Messages and tool calls are counted while processing: an unchanged session adds none, so say what was processed.
        `${totals.sessions} sessions (${totals.reused} unchanged, ${totals.skipped} skipped${removed}), ` +
          (totals.sessions > totals.reused ? `${totals.sessions - totals.reused} processed: ${totals.messages} messages, ${totals.toolCalls} tool calls, ` : 'nothing to process, ') +
          `${totals.badLines} bad lines, ${totals.problems} other problems, ${totals.redactions} redactions, ${(totals.bytes / 1e6).toFixed(1)} MB read in ${secs}s`,
      );
      if (Object.keys(totals.hidden).length) logger.info(`known records not shown: ${countsList(totals.hidden)}`);
      if (Object.keys(totals.unknownMetadata).length) logger.info(`metadata lines not shown, of types this version does not know (no message, no uuid): ${countsList(totals.unknownMetadata)}`);
      if (skipped.length) {
        const why: Record<string, number> = {};
        for (const s of skipped) why[s.why] = (why[s.why] ?? 0) + 1;
        logger.info(`skipped ${plural(skipped.length, 'file')} with nothing to show (${countsList(why)}): ${listed(skipped.slice(0, 3).map((s) => printable(s.path)), skipped.length)}`);
      }
      if (isVerbose(logger.options.level)) for (const line of problems.everyProblem()) logger[line.level](line.text);
      for (const line of problems.summary(shownFromHere(problemsFile))) logger[line.level](line.text);
    },
  };
}

/**
 * Counts by kind as the summary lists them, largest first: `144 progress
 * updates, 62 metadata lines`; past the first few kinds, one count for the
 * rest (kinds can be whatever a file wrote, so there can be any number).
 */
function countsList(counts: Record<string, number>): string {
  const all = Object.entries(counts).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const named = all.slice(0, KINDS_NAMED).map(([kind, n]) => `${n} ${printable(kind.length > 60 ? `${kind.slice(0, 60)}…` : kind)}`);
  const rest = all.slice(KINDS_NAMED);
  return `${named.join(', ')}${rest.length ? `, ${rest.reduce((n, [, c]) => n + c, 0)} of ${plural(rest.length, 'other kind')}` : ''}`;
}

/** A path as the log names it: from the working folder when it is below it, else whole. */
function shownFromHere(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? toPosix(rel) : path;
}
