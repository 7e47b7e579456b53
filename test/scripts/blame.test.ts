import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../scripts/blame.js';
import type { BlameReport } from '../../scripts/lib/blame/blame.js';
import { gitIn } from '../helpers/blame-fixture.js';
import { buildScenario, SECRET, type Scenario } from '../helpers/blame-scenario.js';

const tmp = mkdtempSync(join(tmpdir(), 'sessionpress-blame-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function run(args: string[], cwd = tmp): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  // An empty config: no sessionpress.config.json in the temporary folder, the default source does not exist.
  const code = await main(args, { out: (l) => out.push(l), err: (l) => err.push(l), cwd, env: { ...process.env, SESSIONPRESS_SOURCE: '' } });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** Who the report says wrote each added line of a file: a call name of the scenario, or `person`. */
function authors(report: BlameReport, s: Scenario, path: string): Array<[string, string]> {
  const names = new Map(Object.entries(s.calls).map(([k, v]) => [v, k]));
  const file = report.files.find((f) => f.path === path);
  if (!file) throw new Error(`no ${path} in the report`);
  return file.lines.map((l) => [l.text, l.author.type === 'person' ? 'person' : (names.get(l.author.call.id) ?? l.author.call.id)]);
}

/** The expected list with the secret as the report shows it: redacted. */
function shown(expected: Array<[string, string]>): Array<[string, string]> {
  return expected.map(([t, by]) => [t.includes(SECRET) ? t : t, by]);
}

function checkAll(report: BlameReport, s: Scenario) {
  for (const [path, expected] of Object.entries(s.expected)) {
    const got = authors(report, s, path);
    expect(got.map(([t, by]) => [t.includes('[REDACTED') ? 'API_KEY' : t, by]), path).toEqual(shown(expected).map(([t, by]) => [t.includes(SECRET) ? 'API_KEY' : t, by]));
  }
  const nb = authors(report, s, 'notes.ipynb');
  expect(nb.length).toBeGreaterThan(4);
  expect(nb.every(([, by]) => by === 'N1'), JSON.stringify(nb)).toBe(true);
  const kinds = Object.fromEntries(report.files.filter((f) => f.kind !== 'text').map((f) => [f.path, f.kind]));
  expect(kinds).toMatchObject({ 'logo.png': 'binary', 'package-lock.json': 'lockfile', 'docs/new.md': 'renamed', 'dist/bundle.min.js': 'generated' });
  for (const f of report.files) if (f.kind !== 'text') expect(f.lines).toEqual([]);
}

describe('sessionpress blame', () => {
  let squash: Scenario;
  beforeAll(() => {
    squash = buildScenario(join(tmp, 'squash'), { committed: true });
  });

  it('attributes every added line of a squashed pull request to its call, command or person', async () => {
    // As in the Action: the pull request's head is checked out (its session files with it).
    gitIn(squash.repo, ['checkout', '-q', 'squashed']);
    const r = await run(['--repo', squash.repo, '--base', 'base-old', '--head', 'squashed', '--format', 'json']);
    expect(r.code, r.err).toBe(0);
    const report = JSON.parse(r.out) as BlameReport;
    expect(report.sessions.map((x) => x.id)).toEqual([squash.sessionId]);
    checkAll(report, squash);
    expect(report.files.filter((f) => f.path.startsWith('.claude-sessions/')).every((f) => f.kind === 'session')).toBe(true);
  });

  it('shows a line holding a secret redacted, still attributed to the call that wrote it', async () => {
    const r = await run(['--repo', squash.repo, '--base', 'base-old', '--head', 'squashed', '--format', 'json']);
    expect(r.out).not.toContain(SECRET);
    const report = JSON.parse(r.out) as BlameReport;
    const line = report.files.find((f) => f.path === 'src/config.py')!.lines.find((l) => l.text.startsWith('API_KEY'))!;
    expect(line.text).toMatch(/\[REDACTED:/);
    expect(line.author.type === 'tool' && line.author.call.id).toBe(squash.calls.W2);
  });

  it('attributes the same lines on a branch rebased onto a base that moved', async () => {
    gitIn(squash.repo, ['checkout', '-q', 'rebased']);
    const r = await run(['--repo', squash.repo, '--base', 'main', '--head', 'rebased', '--format', 'json']);
    expect(r.code, r.err).toBe(0);
    checkAll(JSON.parse(r.out) as BlameReport, squash);
  });
});
