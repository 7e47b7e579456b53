/**
 * `tsx scripts/bench-blame.ts [--sessions 50] [--files 40] [--lines 50] [--runs 3]`
 *
 * Times `sessionpress blame` on a pull request of files × lines added lines
 * against a `--source` folder of that many sessions, each writing and editing
 * several of the files (and running a formatter): a git repository and the
 * sessions are built in a temporary folder, then blame runs `--runs` times in
 * this process. Prints each run and the median.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gitIn, initRepo, put, read, SessionRecorder } from '../test/helpers/blame-fixture.js';
import { main } from './blame.js';

const { values } = parseArgs({ options: { sessions: { type: 'string', default: '50' }, files: { type: 'string', default: '40' }, lines: { type: 'string', default: '50' }, runs: { type: 'string', default: '3' } } });
const SESSIONS = Number(values.sessions);
const FILES = Number(values.files);
const LINES = Number(values.lines);
const RUNS = Number(values.runs);

const tmp = mkdtempSync(join(tmpdir(), 'sp-bench-blame-'));
const repo = join(tmp, 'repo');
const sources = join(tmp, 'sessions');
const pathOf = (f: number) => `src/mod${f}/file${f}.ts`;
const body = (f: number, v: number) => Array.from({ length: LINES }, (_, i) => `export const v${f}_${i} = ${v * 1000 + i}; // line ${i} of file ${f}`).join('\n') + '\n';

const t0 = performance.now();
initRepo(repo, { 'README.md': '# bench\n' }, '2026-01-09T09:00:00Z');
gitIn(repo, ['checkout', '-q', '-b', 'feature']);
for (let s = 0; s < SESSIONS; s++) {
  const rec = new SessionRecorder({ repo, cwd: `/Users/bench/work/repo`, sessionId: `00000000-0000-4000-8000-${String(s).padStart(12, '0')}`, start: new Date(Date.parse('2026-01-10T00:00:00Z') + s * 3_600_000).toISOString() });
  rec.prompt(`Session ${s}: change a few modules`);
  for (let j = 0; j < 4; j++) {
    const f = (s * 4 + j) % FILES;
    rec.write(pathOf(f), body(f, s));
    for (let e = 0; e < 5; e++) {
      const i = (s + e * 7) % LINES;
      const before = read(repo, pathOf(f)).split('\n')[i];
      rec.edit(pathOf(f), before, `${before} // edited by session ${s}`);
    }
  }
  rec.bash('npx prettier --write src', () => undefined);
  rec.save(sources);
}
// A person's lines in every file.
for (let f = 0; f < FILES; f++) put(repo, pathOf(f), `// reviewed ${f}\n${read(repo, pathOf(f))}`);
gitIn(repo, ['add', '-A']);
gitIn(repo, ['commit', '-qm', 'work'], '2026-01-12T09:00:00Z');
const added = gitIn(repo, ['diff', '--numstat', 'main', 'feature']).trim().split('\n').reduce((n, l) => n + Number(l.split('\t')[0]), 0);
console.log(`built a repository with ${added} added lines in ${FILES} files and ${SESSIONS} sessions in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

const times: number[] = [];
for (let r = 0; r < RUNS; r++) {
  let out = '';
  const start = performance.now();
  const code = await main(['--repo', repo, '--base', 'main', '--head', 'feature', '--source', sources, '--format', 'json'], { out: (l) => (out += l), err: () => undefined, cwd: tmp, env: {} });
  const ms = performance.now() - start;
  times.push(ms);
  const report = JSON.parse(out);
  const lines = report.files.flatMap((f: { lines: Array<{ author: { type: string } }> }) => f.lines);
  console.log(`run ${r + 1}: ${(ms / 1000).toFixed(2)} s (exit ${code}; ${lines.length} lines, ${lines.filter((l: { author: { type: string } }) => l.author.type !== 'person').length} by tools, ${report.sessions.length} sessions named)`);
}
times.sort((a, b) => a - b);
console.log(`median ${(times[Math.floor(times.length / 2)] / 1000).toFixed(2)} s over ${RUNS} runs`);
rmSync(tmp, { recursive: true, force: true });
