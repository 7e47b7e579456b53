import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../scripts/blame.js';
import type { BlameReport } from '../../src/lib/blame/blame.js';
import { gitIn, initRepo, SessionRecorder } from '../helpers/blame-fixture.js';
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
    // Who made each call: the session, a subagent, a teammate, a workflow's agent; and the prompt it served.
    const call = (id: string) => report.files.flatMap((f) => f.lines).find((l) => l.author.type !== 'person' && l.author.call.id === id)!.author as Extract<BlameReport['files'][number]['lines'][number]['author'], { type: 'tool' | 'command' }>;
    expect(call(squash.calls.W1).call.agent).toEqual({ kind: 'main' });
    expect(call(squash.calls.S1).call.agent).toEqual({ kind: 'subagent', name: 'Explore' });
    expect(call(squash.calls.T1).call.agent).toEqual({ kind: 'teammate', name: 'docs-writer' });
    expect(call(squash.calls.D1).call.agent).toEqual({ kind: 'workflow', name: 'doc-writer' });
    expect(call(squash.calls.D1).call.prompt).toEqual({ index: 2, text: 'Make the retry loop back off' });
    expect(call(squash.calls.B1).type).toBe('command');
    expect(call(squash.calls.W1).call.model).toBe('claude-opus-4-5');
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

  it('reads the text format like git blame: the prompt and a short call id in the gutter, the calls below', async () => {
    gitIn(squash.repo, ['checkout', '-q', 'squashed']);
    const r = await run(['--repo', squash.repo, '--base', 'base-old', '--head', 'squashed', 'src/retry.py']);
    expect(r.code, r.err).toBe(0);
    const lines = r.out.split('\n');
    const short = squash.calls.S1.slice('toolu_01'.length, 'toolu_01'.length + 8);
    expect(lines).toContain(`  p2   ${short} 10)     """Call fn until it succeeds."""`);
    expect(lines).toContain('  person         1) # Reviewed by a person.');
    expect(r.out).toMatch(new RegExp(`${short} prompt 2 · Edit · subagent Explore "Make the retry loop back off"`));
    expect(r.out).toContain(`/#t-${squash.calls.S1}`);
    // Only the file asked for.
    expect(r.out).not.toContain('src/config.py');
  });

  it('gives every Agent Trace conversation its call\'s permalink, site-relative without a site address', async () => {
    gitIn(squash.repo, ['checkout', '-q', 'squashed']);
    const r = await run(['--repo', squash.repo, '--base', 'base-old', '--head', 'squashed', '--format', 'agent-trace']);
    const trace = JSON.parse(r.out);
    const urls = trace.files.flatMap((f: { conversations: Array<{ url: string }> }) => f.conversations.map((c) => c.url));
    for (const u of urls) expect(u).toMatch(/^\/sessions\/[^#]+\/#t-toolu_01\w+$/);
    const writers = new Set([...Object.values(squash.expected).flatMap((lines) => lines.map(([, by]) => by)), 'N1']);
    writers.delete('person');
    expect(new Set(urls.map((u: string) => Object.entries(squash.calls).find(([, id]) => u.endsWith(`#t-${id}`))?.[0]))).toEqual(writers);
    expect(trace.metadata['dev.sessionpress'].command_calls.sort()).toEqual([squash.calls.B1, squash.calls.B2].sort());
  });

  it('without originalFile (an imported copy) still attributes every line a tool wrote; what a command did unseen is unknown', async () => {
    const s = buildScenario(join(tmp, 'no-original'), { committed: true, keepOriginal: false });
    gitIn(s.repo, ['checkout', '-q', 'squashed']);
    const report = JSON.parse((await run(['--repo', s.repo, '--base', 'base-old', '--head', 'squashed', '--format', 'json'])).out) as BlameReport;
    for (const [path, expected] of Object.entries(s.expected)) {
      // The sed ran between two edits and nothing read the file whole in between: its line is not known.
      const want = expected.map(([t, by]) => [t.includes(SECRET) ? 'API_KEY' : t, by === 'B1' ? 'person' : by]);
      expect(authors(report, s, path).map(([t, by]) => [t.includes('[REDACTED') ? 'API_KEY' : t, by]), path).toEqual(want);
    }
  });
});

describe('sessionpress blame --format agent-trace, recorded on another machine under another path', () => {
  let s: Scenario;
  let trace: any;
  beforeAll(async () => {
    s = buildScenario(join(tmp, 'elsewhere'), { cwd: '/Users/grace/code/retry-lib' });
    const sessions = join(tmp, 'elsewhere', 'sessions');
    // Decoys: another project's file of the same name in the span, and this project's session long before it.
    const other = new SessionRecorder({ repo: join(tmp, 'elsewhere', 'scratch'), cwd: '/Users/grace/code/other-app', sessionId: '0c1d2e3f-0000-4000-8000-000000000001', start: '2026-01-10T10:00:00Z' });
    other.prompt('Make a config');
    other.write('src/config.py', 'RETRIES = 5\nprint("other app")\nNAME = "other"\nVERSION = 2\n');
    other.save(sessions);
    const old = new SessionRecorder({ repo: join(tmp, 'elsewhere', 'scratch'), cwd: '/Users/grace/code/retry-lib', sessionId: '0c1d2e3f-0000-4000-8000-000000000002', start: '2025-06-01T10:00:00Z' });
    old.prompt('An old idea');
    old.write('src/retry.py', '# Reviewed by a person.\n');
    old.save(sessions);
    gitIn(s.repo, ['checkout', '-q', 'squashed']);
    const cwd = join(tmp, 'elsewhere', 'site');
    rmSync(cwd, { recursive: true, force: true });
    mkdirSync(cwd, { recursive: true });
    writeFileSync(join(cwd, 'sessionpress.config.json'), JSON.stringify({ site: 'https://example.github.io', base: '/demo' }));
    const r = await run(['--repo', s.repo, '--base', 'base-old', '--head', 'squashed', '--source', sessions, '--format', 'agent-trace'], cwd);
    expect(r.code, r.err).toBe(0);
    trace = JSON.parse(r.out);
  });

  it('is an Agent Trace 0.1 record of the head', () => {
    expect(trace.version).toBe('0.1');
    expect(trace.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(trace.vcs).toEqual({ type: 'git', revision: gitIn(s.repo, ['rev-parse', 'squashed']).trim() });
    expect(trace.tool.name).toBe('sessionpress');
    expect(trace.metadata['dev.sessionpress'].sessions.map((x: { id: string }) => x.id)).toEqual([s.sessionId]);
  });

  it('attributes every line a tool call wrote to that call, and claims no line a person wrote', () => {
    const head = (path: string) => gitIn(s.repo, ['show', `squashed:${path}`]).split('\n');
    for (const [path, expected] of Object.entries(s.expected)) {
      const file = trace.files.find((f: { path: string }) => f.path === path);
      expect(file, path).toBeDefined();
      const lines = head(path);
      const byLine = new Map<number, { url?: string; type: string; model?: string }>();
      for (const c of file.conversations) {
        for (const r of c.ranges) {
          expect(r.content_hash).toMatch(/^sha256:[0-9a-f]{16}$/);
          for (let n = r.start_line; n <= r.end_line; n++) {
            expect(byLine.has(n), `${path}:${n} in two ranges`).toBe(false);
            byLine.set(n, { url: c.url, type: c.contributor.type, model: c.contributor.model_id });
          }
        }
      }
      // The head's added lines, in order, as the diff numbers them.
      const unattributed = trace.metadata['dev.sessionpress'].unattributed.filter((u: { path: string }) => u.path === path).flatMap((u: { ranges: Array<{ start_line: number; end_line: number }> }) => u.ranges);
      const personLines = new Set<number>(unattributed.flatMap((r: { start_line: number; end_line: number }) => Array.from({ length: r.end_line - r.start_line + 1 }, (_, i) => r.start_line + i)));
      for (const [text, by] of expected) {
        if (by === 'person') {
          // No conversation claims it; the record lists it as unattributed.
          const n = lines.findIndex((l, i) => l === text && !byLine.has(i + 1)) + 1;
          expect(n, `${path}: ${text}`).toBeGreaterThan(0);
          expect(personLines.has(n), `${path}: ${text}`).toBe(true);
          continue;
        }
        const n = [...byLine.keys()].find((k) => lines[k - 1] === text && byLine.get(k)!.url?.endsWith(`#t-${s.calls[by]}`)) ?? [...byLine.keys()].find((k) => lines[k - 1] === text);
        expect(n, `${path}: ${text}`).toBeDefined();
        const got = byLine.get(n!)!;
        {
          expect(got.type, `${path}: ${text}`).toBe('ai');
          expect(got.model).toBe('anthropic/claude-opus-4-5');
          expect(got.url, `${path}: ${text}`).toMatch(new RegExp(`^https://example\\.github\\.io/demo/sessions/[^#]+/#t-${s.calls[by]}$`));
        }
      }
    }
  });

  it('names the files it only lists', () => {
    const listed = trace.metadata['dev.sessionpress'].not_attributed.map((x: { path: string; reason: string }) => `${x.reason}:${x.path}`);
    expect(listed).toEqual(expect.arrayContaining(['binary:logo.png', 'lockfile:package-lock.json', 'renamed:docs/new.md', 'generated:dist/bundle.min.js']));
    expect(trace.files.map((f: { path: string }) => f.path)).not.toContain('logo.png');
  });
});

describe('sessionpress blame --source, with commits dated apart from the sessions', () => {
  it('takes the sessions that touch the files when none falls within the pull request\'s time span', async () => {
    const s = buildScenario(join(tmp, 'dated-apart'), { cwd: '/home/lin/projects/retry', start: '2024-03-01T09:00:00Z' });
    gitIn(s.repo, ['checkout', '-q', 'squashed']);
    const r = await run(['--repo', s.repo, '--base', 'base-old', '--head', 'squashed', '--source', s.sessionsDir!, '--format', 'json']);
    expect(r.code, r.err).toBe(0);
    const report = JSON.parse(r.out) as BlameReport;
    expect(report.sessions.map((x) => x.id)).toEqual([s.sessionId]);
    checkAll(report, s);
  });
});

describe('sessionpress blame --pr', () => {
  it('finds the sessions whose pr-link names the pull request in the sessions folder', async () => {
    const s = buildScenario(join(tmp, 'pr-link'), { cwd: '/Users/grace/code/retry-lib' });
    gitIn(s.repo, ['checkout', '-q', 'squashed']);
    const blameWith = async (extra: string[]) => {
      const out: string[] = [];
      const err: string[] = [];
      const code = await main(['--repo', s.repo, '--base', 'base-old', '--head', 'squashed', '--format', 'json', ...extra], { out: (l) => out.push(l), err: (l) => err.push(l), cwd: tmp, env: { ...process.env, SESSIONPRESS_SOURCE: s.sessionsDir! } });
      return { code, report: JSON.parse(out.join('\n')) as BlameReport, err: err.join('\n') };
    };
    for (const pr of ['7', 'acme/shop#7', 'https://github.com/acme/shop/pull/7']) {
      const r = await blameWith(['--pr', pr]);
      expect(r.code, r.err).toBe(0);
      expect(r.report.sessions.map((x) => x.id), pr).toEqual([s.sessionId]);
      checkAll(r.report, s);
    }
    const other = await blameWith(['--pr', '8']);
    expect(other.report.sessions).toEqual([]);
    expect(other.err).toContain('No sessions');
    expect(other.report.files.flatMap((f) => f.lines).every((l) => l.author.type === 'person')).toBe(true);
  });
});

describe('sessionpress blame across sessions', () => {
  it('replays a later session from the file an earlier one left, so its edit of part of a line lands', async () => {
    const dir = join(tmp, 'two-sessions');
    rmSync(dir, { recursive: true, force: true });
    const repo = join(dir, 'repo');
    initRepo(repo, { 'README.md': '# two\n' }, '2026-01-09T09:00:00Z');
    gitIn(repo, ['checkout', '-q', '-b', 'feature']);
    const a = new SessionRecorder({ repo, cwd: '/Users/ann/work/two', sessionId: 'aaaaaaaa-0000-4000-8000-000000000001', start: '2026-01-10T09:00:00Z' });
    a.prompt('Write the app');
    const w = a.write('src/app.py', 'import os\nx = 1\nprint(x)\n').id;
    a.save(join(repo, '.claude-sessions'));
    // Another session, an imported copy: no originalFile, no structuredPatch.
    const b = new SessionRecorder({ repo, cwd: '/Users/ann/work/two', sessionId: 'bbbbbbbb-0000-4000-8000-000000000002', start: '2026-01-10T10:00:00Z' });
    b.keepOriginal = false;
    b.keepPatch = false;
    b.prompt('Bump x');
    const e = b.edit('src/app.py', '= 1', '= 2').id;
    b.save(join(repo, '.claude-sessions'));
    gitIn(repo, ['add', '-A']);
    gitIn(repo, ['commit', '-qm', 'work'], '2026-01-10T11:00:00Z');
    const r = await run(['--repo', repo, '--base', 'main', '--head', 'feature', '--format', 'json']);
    expect(r.code, r.err).toBe(0);
    const report = JSON.parse(r.out) as BlameReport;
    const lines = report.files.find((f) => f.path === 'src/app.py')!.lines.map((l) => [l.text, l.author.type === 'person' ? 'person' : l.author.call.id]);
    expect(lines).toEqual([
      ['import os', w],
      ['x = 2', e],
      ['print(x)', w],
    ]);
  });
});
