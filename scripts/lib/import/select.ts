import { readSessionText } from '../../../src/lib/build/open-session.js';
import type { SessionSource } from '../../../src/lib/discover.js';

/** When a transcript's own lines say it was active: its first and last timestamps (ms). */
export interface TimeSpan {
  first: number;
  last: number;
}

export interface SelectionCriteria {
  /** Project folder names or parts of them (case-insensitive); any may match. */
  projects?: string[];
  /** Session ids or id prefixes; any may match. */
  sessions?: string[];
  /** Keep sessions last written at or after this time. */
  since?: Date;
  /** Keep sessions last written before the end of this time (a bare date includes that whole day). */
  until?: Date;
  /**
   * Each session's span by file path, from its own timestamps (`transcriptSpan`):
   * `since` keeps a session whose last message is at or after it, `until` one
   * whose first message is before it. Given spans, a session without one (no
   * timestamp at all) cannot be dated and is left out by a date criterion;
   * without spans, sessions are judged by their files' modification times.
   */
  spans?: Map<string, TimeSpan>;
}

/**
 * Filters discovered sessions by project, id (or prefix) and date. A session's
 * dates are its transcript's own timestamps when `spans` has them (a copied or
 * touched file keeps them, unlike its modification time), else its file's
 * modification time. Criteria combine with AND; values within one criterion
 * with OR. No criteria: every session.
 */
export function selectSessions(sessions: readonly SessionSource[], criteria: SelectionCriteria): SessionSource[] {
  const projects = (criteria.projects ?? []).map((p) => p.toLowerCase());
  const ids = (criteria.sessions ?? []).map((s) => s.toLowerCase());
  return sessions.filter((s) => {
    if (projects.length && !projects.some((p) => s.projectFolder.toLowerCase() === p || s.projectFolder.toLowerCase().includes(p))) {
      return false;
    }
    if (ids.length && !ids.some((id) => s.sessionId.toLowerCase().startsWith(id))) return false;
    if ((criteria.since || criteria.until) && criteria.spans && !criteria.spans.has(s.path)) return false;
    const span = criteria.spans?.get(s.path) ?? { first: s.mtimeMs, last: s.mtimeMs };
    if (criteria.since && span.last < criteria.since.getTime()) return false;
    if (criteria.until && span.first >= criteria.until.getTime()) return false;
    return true;
  });
}

/**
 * Parses `--since`/`--until` values: `YYYY-MM-DD` (local midnight; for an
 * upper bound the day after, so the named day is included) or any ISO date-time.
 *
 * @throws on a value that is not a date, so a typo does not select everything
 */
export function parseDateBound(value: string, bound: 'since' | 'until'): Date {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
  if (day) {
    const d = new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3]));
    if (bound === 'until') d.setDate(d.getDate() + 1);
    return d;
  }
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) throw new Error(`--${bound}: "${value}" is not a date (use YYYY-MM-DD or an ISO date-time)`);
  return d;
}

const TIMESTAMP = /"timestamp"\s*:\s*"([^"]{10,40})"/g;

/**
 * The first and last timestamps written in a session file (any line that has
 * one), or undefined when it has none. A plain scan of the text: the import
 * must not parse every file just to date it.
 */
export async function transcriptSpan(path: string): Promise<TimeSpan | undefined> {
  const text = await readSessionText(path);
  let first = Infinity;
  let last = -Infinity;
  for (const m of text.matchAll(TIMESTAMP)) {
    const t = Date.parse(m[1]);
    if (Number.isNaN(t)) continue;
    if (t < first) first = t;
    if (t > last) last = t;
  }
  return Number.isFinite(first) ? { first, last } : undefined;
}

/** Spans of the given sessions by file path (see `transcriptSpan`). */
export async function transcriptSpans(sessions: readonly SessionSource[]): Promise<Map<string, TimeSpan>> {
  const spans = new Map<string, TimeSpan>();
  for (const s of sessions) {
    const span = await transcriptSpan(s.path).catch(() => undefined);
    if (span) spans.set(s.path, span);
  }
  return spans;
}
