/**
 * Measures the cold build's per-session path (read → redact → model → render →
 * render cache, `processSession`) over every session of a source folder, in
 * this one thread, the way a loader worker runs it. Prints wall and CPU time
 * (user + system, `process.cpuUsage`: steadier than wall time on a busy machine)
 * for the whole pass, after a warm-up pass over the first sessions so that the
 * first-use costs (grammars, secretlint's rules) are not counted.
 *
 * Run: npm exec -- tsx scripts/bench-sessions.ts [source folder] [--runs N] [--no-warmup]
 * (default source: ../shared/corpus/projects). Add `node --cpu-prof` through
 * NODE_OPTIONS to profile it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { discoverSources } from '../src/lib/discover.js';
import { assignSiblingAgents } from '../src/lib/build/sibling-agents.js';
import { processSession, type SessionJob } from '../src/lib/build/process-session.js';
import { loadConfig } from '../src/schemas/config.js';

const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args.splice(i, 2)[1] : undefined;
};
const runs = Number(flag('--runs') ?? 1);
const warmup = !args.includes('--no-warmup');
const source = resolve(args.find((a) => !a.startsWith('--')) ?? '../shared/corpus/projects');

const config = loadConfig(process.cwd(), { SESSIONPRESS_SOURCE: source });
const layout = await discoverSources(source);
const owners = await assignSiblingAgents(layout);
const cacheDir = await mkdtemp(join(tmpdir(), 'sp-bench-sessions-'));
const jobs: SessionJob[] = layout.sessions.map((s, i) => ({
  source: s,
  projectRoot: process.cwd(),
  cacheDir,
  root: source,
  siblingAgents: owners.get(s.sessionId) ?? [],
  cacheKey: `k${i}`,
  redaction: config.redaction,
  render: { pageSize: config.pageSize, assetBase: '/assets/', indexToolOutput: config.search.indexToolOutput, indexThinking: config.search.indexThinking },
  renderSalt: 'bench',
}));
const bytes = jobs.reduce((n, j) => n + j.source.size, 0);
console.log(`${jobs.length} sessions, ${(bytes / 1e6).toFixed(1)} MB`);

if (warmup) for (const job of jobs.slice(0, 3)) await processSession({ ...job, cacheKey: `warm-${job.cacheKey}` });

for (let run = 1; run <= runs; run++) {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (const job of jobs) await processSession({ ...job, cacheKey: `r${run}-${job.cacheKey}` });
  const cpu = process.cpuUsage(cpu0);
  console.log(`run ${run}: wall ${((performance.now() - t0) / 1000).toFixed(2)} s, cpu ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s (user ${(cpu.user / 1e6).toFixed(2)}, sys ${(cpu.system / 1e6).toFixed(2)})`);
}
await rm(cacheDir, { recursive: true, force: true });
