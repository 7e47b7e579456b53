/**
 * Figures for the insights pages, aggregated from stored session entries only
 * (no transcript is read again): sessions and prompts per week, tokens and
 * estimated cost per model per week, the most used tools, the busiest projects
 * and hours, the longest sessions. Pure and deterministic: the pages draw
 * these, and tests recompute them independently from the inputs.
 */
import type { SessionEntry } from '../../schemas/session.js';
import { usageCost, type PriceTable } from './cost.js';

/** What the aggregation reads of an entry. */
export type InsightInput = Pick<SessionEntry, 'slug' | 'title' | 'projectSlug' | 'projectName' | 'facts'>;

export interface WeekFigures {
  /** Monday of the week (UTC), `YYYY-MM-DD`. */
  week: string;
  sessions: number;
  prompts: number;
  /** Tokens per model (input + output + cache writes + cache reads). */
  tokens: Record<string, number>;
  /** Cost per model, as the records state it or estimated; models with neither are left out. */
  cost: Record<string, number>;
}

export interface Insights {
  totals: { sessions: number; prompts: number; toolCalls: number; tokens: number; cost: number; projects: number; undated: number };
  /** Every week from the first session's to the last one's, empty weeks included (at most `MAX_WEEKS`, the latest). */
  weeks: WeekFigures[];
  /** Weeks with sessions that fell before the first week shown. */
  weeksLeftOut: number;
  /** Models by total tokens, most first. */
  models: string[];
  tools: Array<{ tool: string; count: number }>;
  /** The busiest projects (at most `limits.projects`, 20 by default: a chart of thousands says nothing and weighs a lot). */
  projects: Array<{ slug: string; name: string; sessions: number; prompts: number; tokens: number }>;
  /** The projects beyond those: how many, and their sessions. */
  projectsLeftOut: { projects: number; sessions: number };
  /** Sessions started in each UTC hour of the day (24 values). */
  hours: number[];
  longest: Array<{ slug: string; title: string; projectName: string; durationMs: number; prompts: number }>;
}

/** The most weeks a chart shows: two years; older weeks are counted in `weeksLeftOut`. */
export const MAX_WEEKS = 104;
const DAY = 86_400_000;

/** The Monday (UTC) of the week an ISO time falls in, as `YYYY-MM-DD`; undefined for a missing or bad time. */
export function weekOf(iso: string | undefined): string | undefined {
  if (!iso) return undefined;
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return undefined;
  const d = new Date(t);
  const monday = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) - ((d.getUTCDay() + 6) % 7) * DAY;
  return new Date(monday).toISOString().slice(0, 10);
}

/** A model's usage in tokens: everything it read and wrote, cache included. */
export function usageTokens(u: { inputTokens: number; outputTokens: number; cacheCreationTokens: number; cacheReadTokens: number }): number {
  return u.inputTokens + u.outputTokens + u.cacheCreationTokens + u.cacheReadTokens;
}

/** Aggregates the figures of a set of sessions (the whole site, or one project). */
export function computeInsights(entries: InsightInput[], prices: PriceTable, limits: { tools?: number; longest?: number; projects?: number } = {}): Insights {
  const weeks = new Map<string, WeekFigures>();
  const modelTokens = new Map<string, number>();
  const tools = new Map<string, number>();
  const projects = new Map<string, Insights['projects'][number]>();
  const hours = Array.from({ length: 24 }, () => 0);
  const totals = { sessions: 0, prompts: 0, toolCalls: 0, tokens: 0, cost: 0, projects: 0, undated: 0 };

  for (const e of entries) {
    const f = e.facts;
    totals.sessions++;
    totals.prompts += f.promptCount;
    totals.toolCalls += f.toolCallCount;
    for (const [tool, n] of Object.entries(f.toolCounts)) tools.set(tool, (tools.get(tool) ?? 0) + n);
    const project = projects.get(e.projectSlug) ?? { slug: e.projectSlug, name: e.projectName, sessions: 0, prompts: 0, tokens: 0 };
    project.sessions++;
    project.prompts += f.promptCount;
    projects.set(e.projectSlug, project);

    const week = weekOf(f.firstTimestamp);
    if (!week) totals.undated++;
    else hours[new Date(f.firstTimestamp!).getUTCHours()]++;
    const w = week ? (weeks.get(week) ?? emptyWeek(week)) : undefined;
    if (w) {
      w.sessions++;
      w.prompts += f.promptCount;
      weeks.set(week!, w);
    }
    for (const u of f.usage) {
      if (u.model === '<synthetic>') continue;
      const tokens = usageTokens(u);
      const cost = usageCost(u, prices)?.amount;
      totals.tokens += tokens;
      project.tokens += tokens;
      if (cost !== undefined) totals.cost += cost;
      modelTokens.set(u.model, (modelTokens.get(u.model) ?? 0) + tokens);
      if (w) {
        w.tokens[u.model] = (w.tokens[u.model] ?? 0) + tokens;
        if (cost !== undefined) w.cost[u.model] = (w.cost[u.model] ?? 0) + cost;
      }
    }
  }
  totals.projects = projects.size;
  const { shown, leftOut } = contiguousWeeks(weeks);
  const ranked = [...projects.values()].sort((a, b) => b.sessions - a.sessions || b.prompts - a.prompts || a.name.localeCompare(b.name));
  const rest = ranked.slice(limits.projects ?? 20);
  return {
    totals,
    weeks: shown,
    weeksLeftOut: leftOut,
    models: [...modelTokens].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([m]) => m),
    tools: [...tools].map(([tool, count]) => ({ tool, count })).sort((a, b) => b.count - a.count || a.tool.localeCompare(b.tool)).slice(0, limits.tools ?? 15),
    projects: ranked.slice(0, limits.projects ?? 20),
    projectsLeftOut: { projects: rest.length, sessions: rest.reduce((n, p) => n + p.sessions, 0) },
    hours,
    longest: entries
      .filter((e) => (e.facts.durationMs ?? 0) > 0)
      .map((e) => ({ slug: e.slug, title: e.title, projectName: e.projectName, durationMs: e.facts.durationMs!, prompts: e.facts.promptCount }))
      .sort((a, b) => b.durationMs - a.durationMs || a.slug.localeCompare(b.slug))
      .slice(0, limits.longest ?? 10),
  };
}

function emptyWeek(week: string): WeekFigures {
  return { week, sessions: 0, prompts: 0, tokens: {}, cost: {} };
}

/** Every week between the first and the last with data, empty ones filled in; only the latest `MAX_WEEKS`. */
function contiguousWeeks(weeks: Map<string, WeekFigures>): { shown: WeekFigures[]; leftOut: number } {
  if (!weeks.size) return { shown: [], leftOut: 0 };
  const keys = [...weeks.keys()].sort();
  const last = Date.parse(`${keys[keys.length - 1]}T00:00:00Z`);
  const first = Math.max(Date.parse(`${keys[0]}T00:00:00Z`), last - (MAX_WEEKS - 1) * 7 * DAY);
  const shown: WeekFigures[] = [];
  for (let t = first; t <= last; t += 7 * DAY) {
    const key = new Date(t).toISOString().slice(0, 10);
    shown.push(weeks.get(key) ?? emptyWeek(key));
  }
  const firstKey = shown[0].week;
  return { shown, leftOut: keys.filter((k) => k < firstKey).length };
}
