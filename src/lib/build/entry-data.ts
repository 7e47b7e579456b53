import { BAD_LINE_CODES, type Diagnostic } from '../diagnostics.js';
import type { SessionSource } from '../discover.js';
import type { SessionEntry } from '../../schemas/session.js';
import type { OpenedSession, SessionIdentity } from './open-session.js';
import { agentsIn } from '../transcript/entries.js';
import type { Message, Session } from '../transcript/types.js';
import type { RenderedSession } from './render-session.js';
import { buildAnchorMap, type AnchorMap } from '../site/anchor-map.js';
import { messageAnchor, toolAnchor } from '../site/urls.js';

/**
 * What the content store keeps for one session: small, serialisable, already
 * redacted. The type is the collection schema's own, so the two cannot drift.
 */
export type SessionEntryData = SessionEntry;

/** Counts the diagnostics that mean a line yielded no entry. */
export function countBadLines(diagnostics: Diagnostic[]): number {
  return diagnostics.filter((d) => BAD_LINE_CODES.has(d.code)).length;
}

/** The store data for a rendered session. */
export function toEntryData(
  session: Session,
  rendered: RenderedSession,
  loaded: Pick<OpenedSession, 'findings'>,
  ids: { identity: SessionIdentity; cacheKey: string },
  anchorMap: AnchorMapPlacement = placeAnchorMap(sessionAnchorMap(rendered)),
): SessionEntryData {
  const subagentCount = countSubagents(session.messages);
  return {
    sessionId: session.sessionId,
    // The URL comes from the session's own folder, whatever project it is listed under: links never break.
    slug: ids.identity.entryId,
    projectSlug: ids.identity.projectSlug,
    projectName: ids.identity.projectName,
    projectPath: ids.identity.projectPath,
    ...(ids.identity.checkout ? { checkout: ids.identity.checkout } : {}),
    title: session.title,
    titleSource: session.titleSource,
    facts: session.facts,
    pageCount: rendered.pageCount,
    // Only a session of several pages has pages after the first, which are keyed by these.
    ...(rendered.pageCount > 1 ? { pageKeys: rendered.pageKeys } : {}),
    ...(anchorMap.inline ? { anchorMap: anchorMap.inline } : anchorMap.file ? { anchorMapFile: true } : {}),
    hasAbandoned: session.abandoned.length > 0,
    abandonedCount: session.abandoned.length,
    assets: rendered.assets.map(({ name, mediaType }) => ({ name, mediaType })),
    cacheKey: ids.cacheKey,
    diagnostics: {
      total: session.diagnostics.length,
      badLines: countBadLines(session.diagnostics),
      sourceFile: session.file,
    },
    redactions: loaded.findings,
    subagentCount,
    hiddenCounts: session.hiddenCounts,
    unknownMetadata: session.unknownMetadata,
  };
}

/**
 * Largest anchor map page 1 carries itself (JSON characters). A longer one (a
 * session of thousands of messages: 55,000 anchors make 400 KB) is written
 * beside page 1 and fetched only when a link must be forwarded, so neither
 * page 1 nor the content store grows with the session.
 */
export const ANCHOR_MAP_INLINE_MAX = 16 * 1024;

/** Where a session's anchor map goes: at most one of the two is set, neither for a session of one page. */
export interface AnchorMapPlacement {
  /** A map small enough for page 1 (and the content store) to carry itself. */
  inline?: AnchorMap;
  /** A map the render writes beside page 1 as `anchors.json`, fetched only when a link must be forwarded. */
  file?: AnchorMap;
}

/**
 * Decides once, by its size, where a session's map goes. The caller hands the
 * one answer to both the render cache's writer (`file`) and `toEntryData`
 * (`inline`, or `anchorMapFile` for a file), so the two never disagree and a
 * large map is serialised once to be measured, not once per reader.
 */
export function placeAnchorMap(map: AnchorMap | undefined): AnchorMapPlacement {
  if (!map) return {};
  return JSON.stringify(map).length <= ANCHOR_MAP_INLINE_MAX ? { inline: map } : { file: map };
}

/** The anchor map of a session of more than one page (undefined for one page). */
export function sessionAnchorMap(rendered: RenderedSession): AnchorMap | undefined {
  return rendered.pageCount > 1 ? anchorMapOf(rendered) : undefined;
}

/** The anchors of every page, messages and tool calls, as the small map page 1 forwards links with. */
function anchorMapOf(rendered: RenderedSession): AnchorMap {
  const messages = Object.entries(rendered.anchors).map(([uuid, page]) => [messageAnchor(uuid), page] as const);
  const calls = Object.entries(rendered.toolAnchors).map(([id, page]) => [toolAnchor(id), page] as const);
  return buildAnchorMap([...messages, ...calls]);
}

/** Subagents shown in a transcript: spawned by the session, by its agents (nested), by a workflow run, or forked. */
function countSubagents(messages: Message[]): number {
  let n = 0;
  for (const m of messages) {
    for (const sub of agentsIn(m, false)) n += 1 + countSubagents(sub.messages);
  }
  return n;
}

/** Files read beside a session other than its agent files: sidecars and whole tool outputs (absolute paths). */
export function sideFilesOf(source: SessionSource): string[] {
  return [...(source.sidecarPaths ?? []), ...(source.toolResultPaths ?? [])];
}

/**
 * The files whose content decides whether a session must be parsed again, as
 * `[path, sha256]`: the session file, then the given files (relative to the
 * source root: its agent files and `sideFilesOf`). A file that could not be
 * read has no digest (`null`), which differs from any content.
 */
export function digestInputs(source: SessionSource, readPaths: string[], digests: Map<string, string | undefined>): Array<[string, string | null]> {
  return [source.relPath, ...readPaths].map((p) => [p, digests.get(p) ?? null]);
}
