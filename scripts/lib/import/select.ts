import type { SessionSource } from '../../../src/lib/discover.js';

export interface SelectionCriteria {
  /** Project folder names or parts of them (case-insensitive); any may match. */
  projects?: string[];
  /** Session ids or id prefixes; any may match. */
  sessions?: string[];
  /** Keep sessions last written at or after this time. */
  since?: Date;
  /** Keep sessions last written before the end of this time (a bare date includes that whole day). */
  until?: Date;
}

/**
 * Filters discovered sessions by project, id (or prefix) and date. A session's
 * date is its file's modification time, i.e. its last activity, which is what
 * `ls -lt ~/.claude/projects/*` shows too. Criteria combine with AND; values
 * within one criterion with OR. No criteria: every session.
 */
export function selectSessions(sessions: readonly SessionSource[], criteria: SelectionCriteria): SessionSource[] {
  const projects = (criteria.projects ?? []).map((p) => p.toLowerCase());
  const ids = (criteria.sessions ?? []).map((s) => s.toLowerCase());
  return sessions.filter((s) => {
    if (projects.length && !projects.some((p) => s.projectFolder.toLowerCase() === p || s.projectFolder.toLowerCase().includes(p))) {
      return false;
    }
    if (ids.length && !ids.some((id) => s.sessionId.toLowerCase().startsWith(id))) return false;
    if (criteria.since && s.mtimeMs < criteria.since.getTime()) return false;
    if (criteria.until && s.mtimeMs >= criteria.until.getTime()) return false;
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
