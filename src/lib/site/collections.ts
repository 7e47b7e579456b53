import type { SessionEntry } from '../../schemas/session.js';
import { folderSlugOf } from './slug.js';

/** Sessions newest first; ties broken by slug so the order is deterministic. */
export function sortSessions<T extends { data: Pick<SessionEntry, 'facts' | 'slug'> }>(entries: T[]): T[] {
  return [...entries].sort((a, b) => {
    const ta = a.data.facts.lastTimestamp ?? a.data.facts.firstTimestamp ?? '';
    const tb = b.data.facts.lastTimestamp ?? b.data.facts.firstTimestamp ?? '';
    return tb.localeCompare(ta) || a.data.slug.localeCompare(b.data.slug);
  });
}

/**
 * One name per project: the name most of its sessions carry (ties go to the
 * newest session's). Sessions of one folder are named alike unless one lacks a
 * working directory; this keeps such a session from renaming its project.
 */
export function projectNames<T extends { data: Pick<SessionEntry, 'facts' | 'slug' | 'projectSlug' | 'projectName'> }>(entries: T[]): Map<string, string> {
  const votes = new Map<string, Map<string, number>>();
  for (const e of sortSessions(entries)) {
    const counts = votes.get(e.data.projectSlug) ?? new Map<string, number>();
    counts.set(e.data.projectName, (counts.get(e.data.projectName) ?? 0) + 1);
    votes.set(e.data.projectSlug, counts);
  }
  // Maps keep insertion order, and sessions came newest first: the first of the most voted wins a tie.
  const names = new Map<string, string>();
  for (const [slug, counts] of votes) names.set(slug, [...counts].reduce((best, c) => (c[1] > best[1] ? c : best))[0]);
  return names;
}

/** A project: its slug, its one name and its sessions, newest first. */
export interface ProjectGroup<T> {
  slug: string;
  name: string;
  sessions: T[];
}

/** Groups sessions by project, projects ordered by their newest session, each under its one name. */
export function groupByProject<T extends { data: Pick<SessionEntry, 'facts' | 'slug' | 'projectSlug' | 'projectName'> }>(entries: T[]): Array<ProjectGroup<T>> {
  const names = projectNames(entries);
  const groups = new Map<string, ProjectGroup<T>>();
  for (const e of sortSessions(entries)) {
    const g = groups.get(e.data.projectSlug) ?? { slug: e.data.projectSlug, name: names.get(e.data.projectSlug)!, sessions: [] };
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

/**
 * Project URLs that no longer name a project, each with the project their
 * sessions are listed under now: the folder of a worktree, whose sessions moved
 * to their repository's project, keeps its old `/projects/<slug>/` (and
 * insights) URL as a redirect. When a folder's sessions went to more than one
 * project, the newest session's wins.
 */
export function movedProjects<T extends { data: Pick<SessionEntry, 'facts' | 'slug' | 'projectSlug'> }>(entries: T[]): Map<string, string> {
  const projects = new Set(entries.map((e) => e.data.projectSlug));
  const moved = new Map<string, string>();
  for (const e of sortSessions(entries)) {
    const folder = folderSlugOf(e.data.slug);
    if (!projects.has(folder) && !moved.has(folder)) moved.set(folder, e.data.projectSlug);
  }
  return moved;
}
