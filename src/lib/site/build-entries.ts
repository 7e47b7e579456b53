import { existsSync } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BAD_LINE_CODES, type Diagnostic } from '../diagnostics.js';
import type { SessionSource } from '../discover.js';
import type { LoadedSession } from '../pipeline.js';
import type { Session, SessionFacts } from '../transcript/types.js';
import type { RenderedSession, TocItem } from './render-session.js';
import { redactProjectFolder, usernamesFromFolder } from '../redact/usernames.js';
import { sessionSlug, slugify } from './slug.js';

/** What the content store keeps for one session: small, serialisable, already redacted. */
export interface SessionEntryData {
  [key: string]: unknown;
  sessionId: string;
  /** `<project slug>/<session id>`: unique, and the session's URL path. */
  slug: string;
  projectSlug: string;
  projectName: string;
  projectPath: string;
  title: string;
  titleSource: string;
  facts: SessionFacts;
  toc: TocItem[];
  pageCount: number;
  /** Message uuid → page, only for sessions of more than one page. */
  anchors: Record<string, number>;
  hasAbandoned: boolean;
  abandonedCount: number;
  assets: Array<{ name: string; mediaType: string }>;
  /** Cache folder holding the rendered pages, relative to the cache root. */
  cacheKey: string;
  /** Every problem found (already redacted); `sourceFile` is how the session file itself is named in them. */
  diagnostics: { total: number; badLines: number; sourceFile: string; items: Diagnostic[] };
  redactions: Array<{ rule: string; count: number }>;
  subagentCount: number;
}

/**
 * The project slug of an encoded project folder: the login name is removed
 * first (it must never reach a URL), then the rest is made URL-safe.
 */
export function projectSlugOf(projectFolder: string): string {
  return slugify(redactProjectFolder(projectFolder, usernamesFromFolder(projectFolder)), 'sessions');
}

/** Session page slug; stable across builds, so links never break. */
export function sessionEntryId(projectSlug: string, sessionId: string): string {
  return `${projectSlug}/${sessionSlug(sessionId)}`;
}

/** Counts the diagnostics that mean a line yielded no entry. */
export function countBadLines(diagnostics: Diagnostic[]): number {
  return diagnostics.filter((d) => BAD_LINE_CODES.has(d.code)).length;
}

/** The store data for a rendered session. */
export function toEntryData(
  session: Session,
  rendered: RenderedSession,
  loaded: LoadedSession,
  ids: { projectSlug: string; projectName: string; cacheKey: string },
): SessionEntryData {
  let subagentCount = 0;
  for (const m of session.messages) if (m.kind === 'assistant') for (const c of m.toolCalls) if (c.subagent) subagentCount++;
  return {
    sessionId: session.sessionId,
    slug: sessionEntryId(ids.projectSlug, session.sessionId),
    projectSlug: ids.projectSlug,
    projectName: ids.projectName,
    projectPath: session.facts.projectPath,
    title: session.title,
    titleSource: session.titleSource,
    facts: session.facts,
    toc: rendered.toc,
    pageCount: rendered.pages.length,
    anchors: rendered.pages.length > 1 ? rendered.anchors : {},
    hasAbandoned: session.abandoned.length > 0,
    abandonedCount: session.abandoned.length,
    assets: rendered.assets.map(({ name, mediaType }) => ({ name, mediaType })),
    cacheKey: ids.cacheKey,
    diagnostics: {
      total: session.diagnostics.length,
      badLines: countBadLines(session.diagnostics),
      sourceFile: session.file,
      items: session.diagnostics,
    },
    redactions: loaded.findings,
    subagentCount,
  };
}

/**
 * The on-disk render cache: one folder per content digest holding the pages
 * and abandoned branches, plus content-hashed assets shared by all sessions.
 * Everything in it is rendered from redacted data.
 */
export function createRenderCache(root: string) {
  const assetsDir = join(root, 'assets');
  return {
    root,
    assetsDir,
    has(key: string): boolean {
      return existsSync(join(root, key, 'page-1.html'));
    },
    async write(key: string, rendered: RenderedSession): Promise<void> {
      const dir = join(root, key);
      await rm(dir, { recursive: true, force: true });
      await mkdir(dir, { recursive: true });
      await mkdir(assetsDir, { recursive: true });
      await Promise.all(rendered.pages.map((html, i) => writeFile(join(dir, `page-${i + 1}.html`), html)));
      await writeFile(join(dir, 'abandoned.html'), rendered.abandoned);
      for (const a of rendered.assets) {
        const path = join(assetsDir, a.name);
        if (!existsSync(path)) await writeFile(path, a.bytes);
      }
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

/** Files whose size and mtime decide whether a session must be parsed again. */
export function digestInputs(source: SessionSource, agentPaths: string[], stats: Map<string, { size: number; mtimeMs: number }>): Array<[string, number, number]> {
  const out: Array<[string, number, number]> = [[source.relPath, source.size, Math.round(source.mtimeMs)]];
  for (const p of agentPaths) {
    const st = stats.get(p);
    out.push([p, st?.size ?? -1, Math.round(st?.mtimeMs ?? -1)]);
  }
  return out;
}
