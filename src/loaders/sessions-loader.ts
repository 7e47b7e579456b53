import { stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderCacheRoot } from '../lib/site/page-data.js';
import type { Loader, LoaderContext } from 'astro/loaders';
import { formatDiagnostic, type Diagnostic } from '../lib/diagnostics.js';
import { discoverSources, toPosix } from '../lib/discover.js';
import { assignSiblingAgents, loadSession } from '../lib/pipeline.js';
import { createRedactor } from '../lib/redact/index.js';
import { usernamesFromFolder } from '../lib/redact/usernames.js';
import {
  countBadLines,
  createRenderCache,
  digestInputs,
  projectSlugOf,
  sessionEntryId,
  toEntryData,
  type SessionEntryData,
} from '../lib/site/build-entries.js';
import { renderSession } from '../lib/site/render-session.js';
import { projectNameFromPath } from '../lib/transcript/build-session.js';
import type { SessionpressConfig } from '../schemas/config.js';

/** Bumped whenever the model or the renderers change what they output, to void old caches. */
export const PIPELINE_VERSION = '1';

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

async function syncSessions(context: LoaderContext, config: SessionpressConfig): Promise<void> {
  const { store, logger, generateDigest } = context;
  const started = performance.now();
  const root = config.sourceDir;
  const cache = createRenderCache(renderCacheRoot(fileURLToPath(context.config.root)));
  const layout = await discoverSources(root);
  const owners = await assignSiblingAgents(layout);
  const agentStats = new Map<string, { size: number; mtimeMs: number }>();
  for (const p of layout.agentPaths) {
    const st = await stat(p).catch(() => undefined);
    if (st) agentStats.set(p, { size: st.size, mtimeMs: st.mtimeMs });
  }
  const redactionSettings = JSON.stringify(config.redaction);
  const renderSettings = JSON.stringify({ pageSize: config.pageSize, search: config.search, base: context.config.base });
  const untouched = new Set(store.keys());
  const keep = new Set<string>();
  const totals = { sessions: 0, reused: 0, skipped: 0, messages: 0, toolCalls: 0, badLines: 0, problems: 0, redactions: 0, bytes: 0 };
  const base = context.config.base.endsWith('/') ? context.config.base : `${context.config.base}/`;
  const claimed = new Set<string>();
  const total = layout.sessions.length;
  let lastProgress = performance.now();

  for (const [i, source] of layout.sessions.entries()) {
    const agentPaths = [...source.subagentPaths, ...(owners.get(source.sessionId) ?? [])];
    agentPaths.forEach((p) => claimed.add(p));
    const digest = generateDigest({
      v: PIPELINE_VERSION,
      files: digestInputs(source, agentPaths.map((p) => toPosix(relative(root, p))), remapStats(agentStats, root)),
      redactionSettings,
      renderSettings,
    });
    const usernames = usernamesFromFolder(source.projectFolder);
    const projectSlug = projectSlugOf(source.projectFolder);
    const id = sessionEntryId(projectSlug, source.sessionId);
    const existing = store.get(id);
    if (existing && existing.digest === digest && cache.has(String(existing.data.cacheKey))) {
      // Unchanged: nothing is parsed again, but its problems are still reported on every build.
      const stored = existing.data as unknown as SessionEntryData;
      report(stored.diagnostics.items.map((d) => (d.file === stored.diagnostics.sourceFile ? { ...d, file: source.relPath } : d)));
      untouched.delete(id);
      keep.add(String(existing.data.cacheKey));
      totals.sessions++;
      totals.reused++;
      continue;
    }
    // A fresh redactor per session: placeholders are numbered per session.
    const redactor = createRedactor({ ...config.redaction, usernames });
    const loaded = await loadSession(source, root, owners, redactor);
    totals.bytes += loaded.bytes;
    if (!loaded.result.ok) {
      totals.skipped++;
      report(loaded.result.diagnostics);
      logger.info(`skipped ${source.relPath}: ${loaded.result.reason === 'empty' ? 'empty file' : 'metadata only, no conversation'}`);
      continue;
    }
    const session = loaded.result.session;
    report(session.diagnostics);
    const rendered = await renderSession(session, {
      pageSize: config.pageSize,
      assetBase: `${base}assets/`,
      indexToolOutput: config.search.indexToolOutput,
      indexThinking: config.search.indexThinking,
    });
    const cacheKey = digest;
    await cache.write(cacheKey, rendered);
    keep.add(cacheKey);
    const projectPath = redactor.redactText(session.facts.projectPath);
    // Diagnostics quote file names and line heads: they go through the same redactor before they are stored.
    const diagnostics = session.diagnostics.map((d) => ({ ...d, file: redactor.redactText(d.file), reason: redactor.redactText(d.reason) }));
    const data = toEntryData({ ...session, file: redactor.redactText(session.file), diagnostics, facts: { ...session.facts, projectPath } }, rendered, loaded, {
      projectSlug,
      projectName: projectNameFromPath(projectPath),
      cacheKey,
    });
    const parsed = await context.parseData({ id, data, filePath: toPosix(relative(fileURLToPath(context.config.root), source.path)) });
    store.set({ id, data: parsed, digest, filePath: toPosix(relative(fileURLToPath(context.config.root), source.path)) });
    untouched.delete(id);
    totals.sessions++;
    totals.messages += session.facts.messageCount;
    totals.toolCalls += session.facts.toolCallCount;
    totals.redactions += loaded.findings.reduce((n, f) => n + f.count, 0);
    if (performance.now() - lastProgress > 2000) {
      lastProgress = performance.now();
      logger.info(`sessions ${i + 1}/${total} (${(totals.bytes / 1e6).toFixed(0)} MB parsed)`);
    }
  }
  for (const id of untouched) store.delete(id);
  await cache.prune(keep);
  for (const p of layout.agentPaths) {
    if (!claimed.has(p)) logger.warn(`${toPosix(relative(root, p))}: agent file whose session is not in the source; not shown`);
  }
  const secs = ((performance.now() - started) / 1000).toFixed(1);
  logger.info(
    `${totals.sessions} sessions (${totals.reused} unchanged, ${totals.skipped} skipped), ${totals.messages} messages, ${totals.toolCalls} tool calls, ` +
      `${totals.badLines} bad lines, ${totals.problems} other problems, ${totals.redactions} redactions, ${(totals.bytes / 1e6).toFixed(1)} MB read in ${secs}s`,
  );

  function report(diagnostics: Diagnostic[]): void {
    totals.badLines += countBadLines(diagnostics);
    totals.problems += diagnostics.length - countBadLines(diagnostics);
    for (const d of diagnostics) {
      const line = formatDiagnostic({ ...d, file: toPosix(relative(fileURLToPath(context.config.root), join(root, d.file))) });
      if (d.code === 'empty-file' || d.code === 'metadata-only') logger.info(line);
      else logger.warn(line);
    }
  }
}

function remapStats(stats: Map<string, { size: number; mtimeMs: number }>, root: string): Map<string, { size: number; mtimeMs: number }> {
  const out = new Map<string, { size: number; mtimeMs: number }>();
  for (const [p, s] of stats) out.set(toPosix(relative(root, p)), s);
  return out;
}
