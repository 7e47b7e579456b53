import { stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Loader, LoaderContext } from 'astro/loaders';
import { formatDiagnostic, type Diagnostic } from '../lib/diagnostics.js';
import { discoverSources, toPosix, type SessionSource } from '../lib/discover.js';
import { assignSiblingAgents } from '../lib/pipeline.js';
import {
  countBadLines,
  createRenderCache,
  digestInputs,
  projectSlugOf,
  sessionEntryId,
  type SessionEntryData,
} from '../lib/site/build-entries.js';
import { renderCacheRoot } from '../lib/site/page-data.js';
import { processSession, type SessionJob, type SessionJobResult } from '../lib/site/process-session.js';
import { createSessionPool } from '../lib/site/worker-pool.js';
import { pipelineFingerprint } from '../lib/site/fingerprint.js';
import type { SessionpressConfig } from '../schemas/config.js';
import { withTrailingSlash } from '../lib/site/slug.js';

/**
 * The Sessionpress content loader: one entry per session of a folder laid out
 * like `~/.claude/projects`. Like Astro's `glob()` loader it skips sessions
 * whose digest is unchanged, deletes entries whose files are gone, stores a
 * relative `filePath`, and reports through the logger only. Each session is
 * read, redacted, modelled and rendered once per digest; the pages are cached on
 * disk, so a rebuild costs only what changed.
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
          if (!path.startsWith(config.sourceDir) || !path.endsWith('.jsonl')) return;
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

/** A session file with nothing to show, remembered so an unchanged one is not read again. */
interface SkippedRecord {
  digest: string;
  reason: 'empty' | 'metadata-only';
  sourceFile: string;
  diagnostics: Diagnostic[];
}

async function syncSessions(context: LoaderContext, config: SessionpressConfig): Promise<void> {
  const { store, logger, generateDigest, meta } = context;
  const started = performance.now();
  const root = config.sourceDir;
  const projectRoot = fileURLToPath(context.config.root);
  const cacheRoot = renderCacheRoot(projectRoot);
  const cache = createRenderCache(cacheRoot);
  const layout = await discoverSources(root);
  const owners = await assignSiblingAgents(layout);
  const agentStats = new Map<string, { size: number; mtimeMs: number }>();
  for (const p of layout.agentPaths) {
    const st = await stat(p).catch(() => undefined);
    if (st) agentStats.set(toPosix(relative(root, p)), { size: st.size, mtimeMs: st.mtimeMs });
  }
  const base = withTrailingSlash(context.config.base);
  const render = { pageSize: config.pageSize, assetBase: `${base}assets/`, indexToolOutput: config.search.indexToolOutput, indexThinking: config.search.indexThinking };
  const settings = JSON.stringify({ pipeline: pipelineFingerprint(), redaction: config.redaction, render });
  const untouched = new Set(store.keys());
  const keep = new Set<string>();
  const totals = { sessions: 0, reused: 0, skipped: 0, messages: 0, toolCalls: 0, badLines: 0, problems: 0, redactions: 0, bytes: 0 };
  const claimed = new Set<string>();
  const jobs: Array<{ id: string; job: SessionJob; digest: string }> = [];
  // Empty and metadata-only files have no entry; the meta store remembers them (redacted, like entries).
  const skippedBefore = JSON.parse(meta.get('skipped') ?? '{}') as Record<string, SkippedRecord>;
  const skippedNow: Record<string, SkippedRecord> = {};

  for (const source of layout.sessions) {
    const siblingAgents = owners.get(source.sessionId) ?? [];
    const agentPaths = [...source.subagentPaths, ...siblingAgents];
    agentPaths.forEach((p) => claimed.add(p));
    const digest = generateDigest({ settings, files: digestInputs(source, agentPaths.map((p) => toPosix(relative(root, p))), agentStats) });
    const projectSlug = projectSlugOf(source.projectFolder);
    const id = sessionEntryId(projectSlug, source.sessionId);
    untouched.delete(id);
    const existing = store.get(id);
    if (existing && existing.digest === digest && cache.has(String(existing.data.cacheKey))) {
      // Unchanged: nothing is parsed again, but its problems are still reported on every build.
      const data = existing.data as unknown as SessionEntryData;
      report(data, source);
      keep.add(data.cacheKey);
      totals.sessions++;
      totals.reused++;
      continue;
    }
    const skipped = skippedBefore[id];
    if (!existing && skipped?.digest === digest) {
      skippedNow[id] = skipped;
      noteSkipped(skipped, source);
      continue;
    }
    jobs.push({ id, digest, job: { source, projectRoot, root, siblingAgents, cacheRoot, cacheKey: digest, projectSlug, redaction: config.redaction, render } });
  }

  // Big cold builds run in worker threads; a few small changed sessions are quicker in-process.
  const jobBytes = jobs.reduce((n, j) => n + j.job.source.size, 0);
  const pool = jobs.length > 1 && jobBytes > 4e6 ? await createSessionPool(projectRoot) : undefined;
  if (jobs.length) logger.info(`processing ${jobs.length} session${jobs.length === 1 ? '' : 's'} (${(jobBytes / 1e6).toFixed(1)} MB)${pool ? ` on ${pool.size} threads` : ''}`);
  let done = 0;
  let lastProgress = performance.now();
  // Largest sessions first: a big one started last would leave one thread working alone at the end.
  const order = jobs.map((_, i) => i).sort((a, b) => jobs[b].job.source.size - jobs[a].job.source.size || a - b);
  const results: SessionJobResult[] = new Array(jobs.length);
  await Promise.all(
    order.map(async (i) => {
      const { job } = jobs[i];
      results[i] = await (pool ? pool.run(job) : processSession(job));
      done++;
      if (performance.now() - lastProgress > 2000) {
        lastProgress = performance.now();
        logger.info(`sessions ${done}/${jobs.length} processed`);
      }
    }),
  ).finally(() => pool?.close());

  // Stored in source order, whatever order the threads finished in: builds stay deterministic.
  for (const [i, { id, job, digest }] of jobs.entries()) {
    const result = results[i];
    totals.bytes += result.bytes;
    if (!result.ok) {
      const record: SkippedRecord = { digest, reason: result.reason, sourceFile: result.sourceFile, diagnostics: result.diagnostics };
      skippedNow[id] = record;
      noteSkipped(record, job.source);
      store.delete(id);
      continue;
    }
    report(result.data, job.source);
    keep.add(job.cacheKey);
    const { filePath } = result;
    const data = await context.parseData({ id, data: result.data, filePath });
    store.set({ id, data, digest, ...(filePath ? { filePath } : {}) });
    totals.sessions++;
    totals.messages += result.data.facts.messageCount;
    totals.toolCalls += result.data.facts.toolCallCount;
    totals.redactions += result.data.redactions.reduce((n, f) => n + f.count, 0);
  }
  for (const id of untouched) store.delete(id);
  meta.set('skipped', JSON.stringify(skippedNow));
  await cache.prune(keep);
  for (const p of layout.agentPaths) {
    if (!claimed.has(p)) logger.warn(`${toPosix(relative(root, p))}: agent file whose session is not in the source; not shown`);
  }
  const secs = ((performance.now() - started) / 1000).toFixed(1);
  logger.info(
    `${totals.sessions} sessions (${totals.reused} unchanged, ${totals.skipped} skipped), ${totals.messages} messages, ${totals.toolCalls} tool calls, ` +
      `${totals.badLines} bad lines, ${totals.problems} other problems, ${totals.redactions} redactions, ${(totals.bytes / 1e6).toFixed(1)} MB read in ${secs}s`,
  );

  function noteSkipped(record: SkippedRecord, source: SessionSource): void {
    totals.skipped++;
    report({ diagnostics: { sourceFile: record.sourceFile, items: record.diagnostics } }, source);
    logger.info(`skipped ${source.relPath}: ${record.reason === 'empty' ? 'empty file' : 'metadata only, no conversation'}`);
  }

  /** Logs a session's problems with the real path of its file (the stored copy names it redacted). */
  function report(data: { diagnostics: { sourceFile: string; items: Diagnostic[] } }, source: SessionSource): void {
    const items = data.diagnostics.items.map((d) => (d.file === data.diagnostics.sourceFile ? { ...d, file: source.relPath } : d));
    totals.badLines += countBadLines(items);
    totals.problems += items.filter((d) => d.code !== 'empty-file' && d.code !== 'metadata-only').length - countBadLines(items);
    for (const d of items) {
      const line = formatDiagnostic({ ...d, file: toPosix(relative(projectRoot, join(root, d.file))) });
      if (d.code === 'empty-file' || d.code === 'metadata-only') logger.info(line);
      else logger.warn(line);
    }
  }
}

