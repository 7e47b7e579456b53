import type { Diagnostic } from '../diagnostics.js';
import { relative } from 'node:path';
import { toPosix, type SessionSource } from '../discover.js';
import { loadSession } from '../pipeline.js';
import { createRedactor, type RedactionOptions } from '../redact/index.js';
import { usernamesFromFolder } from '../redact/usernames.js';
import { projectNameFromPath } from '../transcript/build-session.js';
import { createRenderCache, toEntryData, type SessionEntryData } from './build-entries.js';
import { renderSession, type RenderSessionOptions } from './render-session.js';

/** Everything needed to turn one session into a store entry; plain data, so it can cross to a worker. */
export interface SessionJob {
  source: SessionSource;
  /** The Astro project root, for the entry's relative `filePath`. */
  projectRoot: string;
  root: string;
  /** Sibling `agent-*.jsonl` files that name this session. */
  siblingAgents: string[];
  cacheRoot: string;
  cacheKey: string;
  projectSlug: string;
  redaction: RedactionOptions;
  render: RenderSessionOptions;
}

export type SessionJobResult =
  | { ok: true; data: SessionEntryData; bytes: number; ms: number; filePath?: string }
  | {
      ok: false;
      reason: 'empty' | 'metadata-only';
      /** Already redacted, file names included, like a stored entry's; `sourceFile` is how they name the session file. */
      diagnostics: Diagnostic[];
      sourceFile: string;
      bytes: number;
      ms: number;
    };

/**
 * Reads, redacts, models and renders one session, writes its pages to the
 * render cache, and returns the (redacted) store data. Pure of Astro, so the
 * loader can run it in-process or in a worker thread.
 */
export async function processSession(job: SessionJob): Promise<SessionJobResult> {
  const started = performance.now();
  const { source } = job;
  // A fresh redactor per session: placeholders are numbered per session.
  const redactor = createRedactor({ ...job.redaction, usernames: usernamesFromFolder(source.projectFolder) });
  const loaded = await loadSession(source, job.root, new Map([[source.sessionId, job.siblingAgents]]), redactor);
  if (!loaded.result.ok) {
    const diagnostics = loaded.result.diagnostics.map((d) => ({ ...d, file: redactor.redactText(d.file), reason: redactor.redactText(d.reason) }));
    const sourceFile = redactor.redactText(source.relPath);
    return { ok: false, reason: loaded.result.reason, diagnostics, sourceFile, bytes: loaded.bytes, ms: performance.now() - started };
  }
  const session = loaded.result.session;
  const rendered = await renderSession(session, job.render);
  await createRenderCache(job.cacheRoot).write(job.cacheKey, rendered);
  const projectPath = redactor.redactText(session.facts.projectPath);
  // Diagnostics quote file names and line heads: they go through the same redactor before they are stored.
  const diagnostics = session.diagnostics.map((d) => ({ ...d, file: redactor.redactText(d.file), reason: redactor.redactText(d.reason) }));
  const data = toEntryData(
    { ...session, file: redactor.redactText(session.file), diagnostics, facts: { ...session.facts, projectPath } },
    rendered,
    loaded,
    { projectSlug: job.projectSlug, projectName: projectNameFromPath(projectPath), cacheKey: job.cacheKey },
  );
  // The store keeps the source path relative to the project, like glob(); a path that
  // names a user (a build straight from ~/.claude/projects) is left out of the store.
  const filePath = toPosix(relative(job.projectRoot, source.path));
  const safePath = redactor.redactText(filePath) === filePath ? filePath : undefined;
  return { ok: true, data, bytes: loaded.bytes, ms: performance.now() - started, filePath: safePath };
}
