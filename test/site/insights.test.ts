import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assignSiblingAgents, openSession } from '../../src/lib/build/open-session.js';
import { discoverSources } from '../../src/lib/discover.js';
import { projectSlugOf } from '../../src/lib/site/slug.js';
import { buildSite } from '../helpers/build.js';
import { rawEntries } from '../helpers/shared.js';
import { shareSource } from './share-source.js';

/**
 * The insights pages against figures this test computes itself from the input
 * files: weeks and hours from the raw lines' timestamps, prompts and tool calls
 * from the model, never from the aggregation the pages use.
 */
const out = mkdtempSync(join(tmpdir(), 'sp-insights-'));
let source: string;

interface Expected {
  sessions: number;
  prompts: number;
  toolCalls: number;
  weeks: Map<string, { sessions: number; prompts: number }>;
  hours: number[];
  tools: Map<string, number>;
  projects: Map<string, number>;
}

/** The Monday (UTC) of a time, computed here on its own. */
function monday(iso: string): string {
  const d = new Date(iso);
  const day = d.getUTCDay() === 0 ? 7 : d.getUTCDay();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - (day - 1))).toISOString().slice(0, 10);
}

/** The earliest timestamp of a session's own conversation lines, read straight from the file. */
function firstTime(file: string): string | undefined {
  const times: string[] = [];
  for (const v of rawEntries(file)) {
    if (['user', 'assistant', 'system'].includes(v?.type) && !v.isSidechain && typeof v.timestamp === 'string' && !Number.isNaN(Date.parse(v.timestamp))) times.push(v.timestamp);
  }
  return times.sort()[0];
}

async function expected(root: string, onlyProject?: string): Promise<Expected> {
  const layout = await discoverSources(root);
  const owners = await assignSiblingAgents(layout);
  const e: Expected = { sessions: 0, prompts: 0, toolCalls: 0, weeks: new Map(), hours: Array(24).fill(0), tools: new Map(), projects: new Map() };
  for (const s of layout.sessions) {
    if (onlyProject && projectSlugOf(s.projectFolder) !== onlyProject) continue;
    const opened = await openSession(s, { root, owners, redaction: {} });
    if (!opened.result.ok) continue;
    const session = opened.result.session;
    const prompts = session.turns.filter((t) => t.prompt).length;
    e.sessions++;
    e.prompts += prompts;
    e.projects.set(projectSlugOf(s.projectFolder), (e.projects.get(projectSlugOf(s.projectFolder)) ?? 0) + 1);
    for (const m of session.messages) {
      if (m.kind !== 'assistant') continue;
      for (const c of m.toolCalls) {
        e.toolCalls++;
        e.tools.set(c.name, (e.tools.get(c.name) ?? 0) + 1);
      }
    }
    const t = firstTime(s.path);
    if (t) {
      const w = e.weeks.get(monday(t)) ?? { sessions: 0, prompts: 0 };
      w.sessions++;
      w.prompts += prompts;
      e.weeks.set(monday(t), w);
      e.hours[new Date(t).getUTCHours()]++;
    }
  }
  return e;
}

/** A chart's table as [row heading, numeric values of its cells]. */
function table(doc: Document, id: string): Array<[string, number[]]> {
  const t = doc.querySelector(`table[data-table="${id}"]`);
  if (!t) throw new Error(`no table ${id}`);
  return [...t.querySelectorAll('tbody tr')].map((tr) => [
    tr.querySelector('th')!.textContent!.replace(/ · .*$/, '').trim(),
    [...tr.querySelectorAll('td')].map((td) => Number(td.getAttribute('data-value'))),
  ]);
}

function page(rel: string): Document {
  return new JSDOM(readFileSync(join(out, rel), 'utf8')).window.document;
}

beforeAll(async () => {
  source = shareSource(['-experiments-worktrees', 'sample-project', '-Users-chip-dev-ai-music', '-fixtures-agent-sessions']);
  const run = await buildSite(out, { SESSIONPRESS_SOURCE: source });
  if (run.code !== 0) throw new Error(`build failed:\n${run.log.slice(-3000)}`);
}, 600_000);

afterAll(() => {
  for (const d of [out, `${out}-cache`, source]) if (d) rmSync(d, { recursive: true, force: true });
});

describe('insights page', () => {
  it('shows totals, sessions and prompts per week, tools, projects and hours that match the inputs', async () => {
    const e = await expected(source);
    const doc = page('insights/index.html');
    const total = (k: string) => Number(doc.querySelector(`[data-total="${k}"]`)!.textContent!.replace(/,/g, ''));
    expect(e.sessions).toBeGreaterThan(8);
    expect(total('sessions')).toBe(e.sessions);
    expect(total('prompts')).toBe(e.prompts);
    expect(total('toolCalls')).toBe(e.toolCalls);
    expect(total('projects')).toBe(e.projects.size);

    const perWeek = (id: string) => new Map(table(doc, id).filter(([, v]) => v[0] > 0).map(([w, v]) => [w, v[0]]));
    expect(perWeek('sessions-per-week')).toEqual(new Map([...e.weeks].map(([w, f]) => [w, f.sessions])));
    expect(perWeek('prompts-per-week')).toEqual(new Map([...e.weeks].filter(([, f]) => f.prompts > 0).map(([w, f]) => [w, f.prompts])));
    // Weeks run without gaps, a week apart.
    const weeks = table(doc, 'sessions-per-week').map(([w]) => Date.parse(`${w}T00:00:00Z`));
    for (let i = 1; i < weeks.length; i++) expect(weeks[i] - weeks[i - 1]).toBe(7 * 86_400_000);

    const tools = table(doc, 'tools');
    const top = [...e.tools].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, tools.length);
    expect(tools.map(([t, v]) => [t, v[0]])).toEqual(top);
    // Projects by the slug their link names (a project is a source folder).
    const projects = [...doc.querySelectorAll('table[data-table="projects"] tbody tr')].map((tr) => [
      tr.querySelector('a')!.getAttribute('href')!.replace(/^\/insights\/|\/$/g, ''),
      Number(tr.querySelector('td')!.getAttribute('data-value')),
    ]);
    expect(projects.sort()).toEqual([...e.projects].sort());
    expect(table(doc, 'hours').map(([, v]) => v[0])).toEqual(e.hours);
  });

  it('draws each chart as inline SVG that scales, with its table behind a toggle, and needs no script', () => {
    const doc = page('insights/index.html');
    const charts = [...doc.querySelectorAll('figure.chart')];
    expect(charts.map((c) => c.id)).toEqual(['sessions-per-week', 'prompts-per-week', 'tokens-per-week', 'cost-per-week', 'tools', 'projects', 'hours', 'longest']);
    for (const c of charts) {
      expect(c.querySelector('svg'), c.id).not.toBeNull();
      expect(c.querySelector('details.chart-table table'), c.id).not.toBeNull();
    }
    for (const svg of doc.querySelectorAll('figure.chart > svg')) {
      expect(svg.getAttribute('viewBox')).toMatch(/^0 0 \d+ \d+$/);
      expect(svg.getAttribute('role')).toBe('img');
      expect(svg.getAttribute('aria-labelledby')).toBeTruthy();
    }
    // Tokens per model per week: one column per model, and the weekly totals add up to the total tokens.
    const tokens = table(doc, 'tokens-per-week');
    const sum = tokens.reduce((n, [, v]) => n + v[v.length - 1], 0);
    expect(sum).toBeCloseTo(Number(doc.querySelector('[data-total="tokens"]')!.getAttribute('data-value')), -1);
  });

  it('has a page per project with that project\'s own figures', async () => {
    const slug = projectSlugOf('sample-project');
    const e = await expected(source, slug);
    const doc = page(join('insights', slug, 'index.html').split(sep).join('/'));
    expect(Number(doc.querySelector('[data-total="sessions"]')!.textContent)).toBe(e.sessions);
    expect(Number(doc.querySelector('[data-total="prompts"]')!.textContent!.replace(/,/g, ''))).toBe(e.prompts);
    expect(doc.querySelector('table[data-table="projects"]')).toBeNull();
    expect(new Map(table(doc, 'sessions-per-week').filter(([, v]) => v[0] > 0).map(([w, v]) => [w, v[0]]))).toEqual(new Map([...e.weeks].map(([w, f]) => [w, f.sessions])));
  });
});

describe('computeInsights', () => {
  it('puts a Sunday in the week of the Monday before it, fills empty weeks, and ranks tools and projects', async () => {
    const { computeInsights, weekOf } = await import('../../src/lib/site/insights.js');
    expect(weekOf('2026-03-08T23:59:00Z')).toBe('2026-03-02');
    expect(weekOf('2026-03-09T00:00:00Z')).toBe('2026-03-09');
    expect(weekOf('nonsense')).toBeUndefined();
    const facts = (first: string | undefined, prompts: number, tools: Record<string, number>) => ({
      projectPath: '/p', projectName: 'p', firstTimestamp: first, versions: [], models: [], gitBranches: [], promptCount: prompts, messageCount: 0,
      toolCallCount: Object.values(tools).reduce((a, b) => a + b, 0), toolCounts: tools, usage: [], pullRequests: [], tags: [],
    });
    const entries = [
      { slug: 'a/1', title: 'one', projectSlug: 'a', projectName: 'A', facts: facts('2026-03-02T10:00:00Z', 2, { Bash: 2 }) },
      { slug: 'b/2', title: 'two', projectSlug: 'b', projectName: 'B', facts: facts('2026-03-20T03:00:00Z', 1, { Bash: 1, Read: 4 }) },
      { slug: 'b/3', title: 'three', projectSlug: 'b', projectName: 'B', facts: facts(undefined, 5, {}) },
    ];
    const ins = computeInsights(entries, { asOf: 'x', currency: 'USD', models: [] });
    // Past the limit, the busiest projects are shown and the rest counted: a chart of thousands of projects says nothing.
    const top = computeInsights(entries, { asOf: 'x', currency: 'USD', models: [] }, { projects: 1 });
    expect([top.projects.map((p) => p.slug), top.projectsLeftOut, top.totals.projects]).toEqual([['b'], { projects: 1, sessions: 1 }, 2]);
    expect(ins.projectsLeftOut).toEqual({ projects: 0, sessions: 0 });
    expect(ins.weeks.map((w) => [w.week, w.sessions, w.prompts])).toEqual([['2026-03-02', 1, 2], ['2026-03-09', 0, 0], ['2026-03-16', 1, 1]]);
    expect(ins.totals).toMatchObject({ sessions: 3, prompts: 8, toolCalls: 7, projects: 2, undated: 1 });
    expect(ins.tools).toEqual([{ tool: 'Read', count: 4 }, { tool: 'Bash', count: 3 }]);
    expect(ins.projects.map((p) => [p.slug, p.sessions])).toEqual([['b', 2], ['a', 1]]);
    expect(ins.hours[10]).toBe(1);
    expect(ins.hours[3]).toBe(1);
  });
});
