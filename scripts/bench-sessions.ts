/**
 * Measures the cold build's per-session path (read → redact → model → render →
 * render cache, `processSession`) over every session of a source folder, in
 * this one thread, the way a loader worker runs it. Prints wall and CPU time
 * (user + system, `process.cpuUsage`: steadier than wall time on a busy machine)
 * for the whole pass, after a warm-up pass over the first sessions so that the
 * first-use costs (grammars, secretlint's rules) are not counted.
 *
 * With `--phases`, the same steps are timed one by one (open: read, redact and
 * model; render; write: the Markdown twin, the render cache and the entry data),
 * and each run's minimum over the runs is printed too: on a busy machine the
 * least CPU time a run took is the steadiest figure.
 *
 * Run: npm exec -- tsx scripts/bench-sessions.ts [source folder] [--runs N] [--no-warmup] [--phases]
 * (default source: ../shared/corpus/projects). To profile it, bundle it with
 * esbuild (packages left external) and run the bundle with `node --cpu-prof`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { discoverSources } from '../src/lib/discover.js';
import { assignSiblingAgents } from '../src/lib/build/sibling-agents.js';
import { processSession, type SessionJob } from '../src/lib/build/process-session.js';
import { openSession } from '../src/lib/build/open-session.js';
import { renderSession } from '../src/lib/build/render-session.js';
import { createRenderCache } from '../src/lib/build/render-cache.js';
import { placeAnchorMap, sessionAnchorMap, toEntryData } from '../src/lib/build/entry-data.js';
import { markdownTwin } from '../src/lib/export/twin.js';
import { loadConfig } from '../src/schemas/config.js';

const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args.splice(i, 2)[1] : undefined;
};
const runs = Number(flag('--runs') ?? 1);
const warmup = !args.includes('--no-warmup');
const phases = args.includes('--phases');
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

const cpuNow = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1e6;
};
const best: Record<string, number> = {};
const keep = (name: string, v: number) => (best[name] = Math.min(best[name] ?? Infinity, v));
for (let run = 1; run <= runs; run++) {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const spent = { open: 0, render: 0, write: 0 };
  for (const job of jobs) {
    const cacheKey = `r${run}-${job.cacheKey}`;
    if (!phases) {
      await processSession({ ...job, cacheKey });
      continue;
    }
    // The steps of processSession, one by one.
    let c = cpuNow();
    const opened = await openSession(job.source, { root: job.root, owners: new Map([[job.source.sessionId, job.siblingAgents]]), redaction: job.redaction });
    spent.open += cpuNow() - c;
    if (!opened.result.ok) continue;
    c = cpuNow();
    const rendered = await renderSession(opened.result.session, job.render, { salt: job.renderSalt ?? '' });
    spent.render += cpuNow() - c;
    c = cpuNow();
    const twin = markdownTwin(opened.result.session, rendered.anchors);
    const anchorMap = placeAnchorMap(sessionAnchorMap(rendered));
    await createRenderCache(job.cacheDir).write(cacheKey, rendered, twin, { problems: opened.result.session.diagnostics, anchorMap: anchorMap.file });
    toEntryData(opened.result.session, rendered, opened, { identity: opened.identity, cacheKey }, anchorMap);
    spent.write += cpuNow() - c;
  }
  const cpu = process.cpuUsage(cpu0);
  const total = (cpu.user + cpu.system) / 1e6;
  const counted = run > 1 || runs === 1;
  if (counted) keep('cpu', total);
  const parts = phases ? `; open ${spent.open.toFixed(2)}, render ${spent.render.toFixed(2)}, write ${spent.write.toFixed(2)}` : '';
  if (phases && counted) for (const [k, v] of Object.entries(spent)) keep(k, v);
  console.log(`run ${run}: wall ${((performance.now() - t0) / 1000).toFixed(2)} s, cpu ${total.toFixed(2)} s (user ${(cpu.user / 1e6).toFixed(2)}, sys ${(cpu.system / 1e6).toFixed(2)})${parts}`);
}
if (runs > 1) console.log(`least: ${Object.entries(best).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ')}`);
await rm(cacheDir, { recursive: true, force: true });
