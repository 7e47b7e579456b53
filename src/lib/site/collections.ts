import type { SessionEntry } from '../../schemas/session.js';

/** Sessions newest first; ties broken by slug so the order is deterministic. */
export function sortSessions<T extends { data: Pick<SessionEntry, 'facts' | 'slug'> }>(entries: T[]): T[] {
  return [...entries].sort((a, b) => {
    const ta = a.data.facts.lastTimestamp ?? a.data.facts.firstTimestamp ?? '';
    const tb = b.data.facts.lastTimestamp ?? b.data.facts.firstTimestamp ?? '';
    return tb.localeCompare(ta) || a.data.slug.localeCompare(b.data.slug);
  });
}

/** Groups sessions by project, projects ordered by their newest session. */
export function groupByProject<T extends { data: Pick<SessionEntry, 'facts' | 'slug' | 'projectSlug' | 'projectName'> }>(
  entries: T[],
): Array<{ slug: string; name: string; sessions: T[] }> {
  const groups = new Map<string, { slug: string; name: string; sessions: T[] }>();
  for (const e of sortSessions(entries)) {
    const g = groups.get(e.data.projectSlug) ?? { slug: e.data.projectSlug, name: e.data.projectName, sessions: [] };
    g.sessions.push(e);
    groups.set(e.data.projectSlug, g);
  }
  return [...groups.values()];
}

/** Previous (older) and next (newer) session of the same project. */
export function neighbours<T extends { data: Pick<SessionEntry, 'facts' | 'slug' | 'projectSlug'> }>(entries: T[], current: T): { older?: T; newer?: T } {
  const same = sortSessions(entries.filter((e) => e.data.projectSlug === current.data.projectSlug));
  const i = same.findIndex((e) => e.data.slug === current.data.slug);
  return { newer: i > 0 ? same[i - 1] : undefined, older: i >= 0 && i < same.length - 1 ? same[i + 1] : undefined };
}
