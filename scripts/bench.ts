/**
 * `npm run bench -- [--copies 20] [--scale N] [--runs N] [--source DIR] [--big [--big-mb 630]] [--skip-build] [--baselines DIR [--peers cct,ccl]]`
 *
 * Builds a corpus of a chosen size and prints figures: redaction throughput,
 * then for a cold build, a rebuild with nothing changed and a rebuild after one
 * session changed: wall time, peak memory (whole process tree), output size,
 * pagefind's share, the index size and the heaviest page, and each phase's
 * wall time and peak memory (start, loader, bundle, pages, search, finish; cut
 * at the first log line of each). Memory is sampled every 100 ms from the
 * process tree only (its /proc children files): about 1 ms of CPU a sample,
 * 1 % of one core, printed with the results; the sampler before this one read
 * all of /proc each time, 45 ms a sample with 135 processes on the machine. The default corpus is
 * `../shared/corpus/projects` copied 20 times into distinct project folders,
 * every uuid rewritten per copy so that no two files are byte-identical.
 *
 * - `--scale N` builds the default corpus and N times it, one after the other.
 * - `--runs N` repeats every size N times (each run cold again) and prints the
 *   median with the spread (lowest–highest) of each figure. A cold run starts
 *   with no cache and no output, every tool's: the last run's are moved aside
 *   into `<out>/trash`, and deleted when the bench ends (scripts/lib/bench/set-aside.ts).
 * - `--big` builds one generated session of `--big-mb` MB (default 630) alone,
 *   with one more phase: the same session with 1 MB of lines appended (target:
 *   under 10 s for the 630 MB session).
 * - `--baselines DIR` (tools set up by `../shared/bench/setup-baselines.sh`):
 *   claude-code-transcripts and claude-code-log (or those `--peers` names) run
 *   on the same corpus in the same run, turn about with each Sessionpress
 *   build, and the ratios are printed.
 */
import { existsSync } from 'node:fs';
import { appendFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { benchRedaction } from './lib/bench-redaction.js';
import { cclBaseline, cctBaseline, findBaselines, type Baseline } from './lib/bench/baselines.js';
import { makeCopies } from './lib/bench/corpus.js';
import { makeLargeSession } from './lib/bench/large-session.js';
import { folderBytes, measureRun, phaseFigures, SAMPLE_MS, type PhaseFigures, type PhaseMarker, type RunFigures } from './lib/bench/measure.js';
import { heaviestPages, type PageWeight } from './lib/bench/page-weight.js';
import { emptyTrash, setAside, trashOf } from './lib/bench/set-aside.js';

const repo = resolve(import.meta.dirname, '..');

interface BuildFigures {
  wallMs: number;
  peakRssMb: number;
  maxRssMb: number;
  pagefindMs?: number;
  loaderMs?: number;
  /** Astro writing the pages (the "generating static routes" step). */
  pagesMs?: number;
  /** Pages Astro copied from its incremental cache instead of rendering. */
  pagesReused?: number;
  /** Pages of changed sessions the loader took from their last render instead of rendering them. */
  renderReused?: number;
  distMb: number;
  indexMb: number;
  /** Wall time and peak memory of each phase of the build (`BUILD_PHASES`). */
  phases: PhaseFigures[];
  sampler: RunFigures['sampler'];
}

/**
 * The phases of a build, each starting with the first line Astro or
 * Sessionpress prints for it: Astro starting and bundling Vite's dependencies;
 * the loader (read, redact, model, render, in worker threads); Astro bundling
 * the page templates; Astro writing the pages; Astro finishing and its process
 * ending; then, in the command that started it, the search index and the rest
 * (pruning the output folder, the output's digest for the next check).
 */
const BUILD_PHASES: PhaseMarker[] = [
  { name: 'start', start: /^/ },
  { name: 'loader', start: /\[content\] Syncing content/ },
  { name: 'bundle', start: /\[content\] Synced content/ },
  { name: 'pages', start: /generating static routes/ },
  { name: 'search', start: /\[sessionpress-pagefind\]/ },
  { name: 'finish', start: /\[build\] \d+ page\(s\) built in/ },
];

/** One tool's run in one phase. */
interface PeerFigures {
  wallMs: number;
  peakRssMb: number;
  maxRssMb: number;
  outMb: number;
}

const PHASES = ['cold', 'unchanged', 'one appended', 'one changed'] as const;
type Phase = (typeof PHASES)[number];
const PHASE_LABEL: Record<Phase, string> = {
  cold: 'cold build',
  unchanged: 'rebuild, nothing changed',
  'one appended': 'rebuild, 1 MB appended to the session',
  'one changed': 'rebuild, one session changed',
};

/** The phases a size was built in (`one appended` only for the generated big session). */
const phasesOf = (r: SizeResult) => PHASES.filter((p) => r.ours[p].length > 0);

/** Everything measured on one corpus: per phase, one entry per run. */
interface SizeResult {
  name: string;
  inputBytes: number;
  ours: Record<Phase, BuildFigures[]>;
  peers: Map<string, Record<Phase, PeerFigures[]>>;
  /** The heaviest pages of the last cold build. */
  pages: { bytes: PageWeight[]; elements: PageWeight[]; over: PageWeight[] };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      copies: { type: 'string', default: '20' },
      scale: { type: 'string' },
      runs: { type: 'string', default: '1' },
      source: { type: 'string' },
      'skip-build': { type: 'boolean', default: false },
      big: { type: 'boolean', default: false },
      'big-mb': { type: 'string', default: '630' },
      out: { type: 'string', default: '.bench' },
      baselines: { type: 'string' },
      peers: { type: 'string', default: 'cct,ccl' },
    },
  });
  const benchDir = resolve(repo, values.out!);
  const shared = resolve(repo, '..', 'shared');
  const runs = positiveInt(values.runs!, '--runs');
  // Checked first: a missing baseline should fail before minutes of building.
  const peersBin = values.baselines ? findBaselines(resolve(values.baselines)) : undefined;
  const peerNames = new Set(values.peers!.split(',').map((p) => p.trim()));
  await mkdir(benchDir, { recursive: true });

  const sources = await benchSources(values, benchDir, shared);
  const results: SizeResult[] = [];
  for (const { name, source } of sources) {
    const input = await folderBytes(source);
    console.log(`\n### ${name}\nsource: ${source}\ninput: ${(input.bytes / 1e6).toFixed(1)} MB in ${input.files} files`);
    if (results.length === 0) {
      const red = await benchRedaction(source);
      console.log(`redaction: ${(red.bytes / 1e6).toFixed(1)} MB in ${(red.ms / 1000).toFixed(2)} s = ${red.mbPerSec.toFixed(1)} MB/s (single thread, parse excluded)`);
    }
    if (values['skip-build']) continue;
    const peers: Baseline[] = [];
    if (peersBin && peerNames.has('cct')) peers.push(cctBaseline(peersBin.cct, source, benchDir));
    if (peersBin && peerNames.has('ccl')) peers.push(cclBaseline(peersBin.ccl, source, benchDir));
    const result = await benchSize(name, source, input.bytes, benchDir, peers, runs, bigSession(values));
    results.push(result);
    printSize(result);
  }
  if (results.length > 1) printScaling(results);
  // Only now, with nothing left to measure, are the earlier runs' files deleted (set-aside.ts).
  await emptyTrash(trashOf(benchDir));
}

/** The corpora to build, in order: `--source`, the generated big session, or the default corpus and its `--scale` multiple (made once each). */
async function benchSources(
  values: { source?: string; big?: boolean; 'big-mb'?: string; copies?: string; scale?: string },
  benchDir: string,
  shared: string,
): Promise<Array<{ name: string; source: string }>> {
  if (values.source) return [{ name: resolve(values.source), source: resolve(values.source) }];
  if (values.big) {
    const mb = positiveInt(values['big-mb']!, '--big-mb');
    const source = join(benchDir, `large-${mb}mb`);
    if (!existsSync(source)) {
      console.log(`making one session of ${mb} MB in ${source} …`);
      const made = await makeLargeSession(source, mb * 1e6);
      console.log(`${made.lines} lines, ${(made.bytes / 1e6).toFixed(0)} MB`);
    }
    return [{ name: `one session of ${mb} MB`, source }];
  }
  const copies = positiveInt(values.copies!, '--copies');
  const sizes = values.scale ? [copies, copies * positiveInt(values.scale, '--scale')] : [copies];
  const out: Array<{ name: string; source: string }> = [];
  for (const [i, n] of sizes.entries()) {
    const source = join(benchDir, `corpus-x${n}`);
    if (!existsSync(source)) {
      console.log(`making ${n} copies of the corpus in ${source} …`);
      await makeCopies(join(shared, 'corpus', 'projects'), source, n);
    }
    out.push({ name: i === 0 ? `bench corpus (${n} copies)` : `${n / copies}× the bench corpus (${n} copies)`, source });
  }
  return out;
}

function positiveInt(text: string, flag: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${flag} takes a whole number from 1, not "${text}"`);
  return n;
}

/**
 * For `--big`: how to put the generated session back as it was made (before each run) and how to append
 * 1 MB of lines to it (the generator is deterministic: a larger target writes the same lines, then more,
 * as Claude Code appends to a session).
 */
interface BigSession {
  restore(dir: string): Promise<void>;
  append(dir: string): Promise<void>;
}

function bigSession(values: { big?: boolean; 'big-mb'?: string }): BigSession | undefined {
  if (!values.big) return undefined;
  const mb = positiveInt(values['big-mb']!, '--big-mb');
  return {
    restore: async (dir) => void (await makeLargeSession(dir, mb * 1e6)),
    append: async (dir) => void (await makeLargeSession(dir, (mb + 1) * 1e6)),
  };
}

/** `runs` rounds of cold, unchanged, (for the big session) appended and one-changed builds on one corpus, each peer right after Sessionpress in every phase. */
async function benchSize(name: string, source: string, inputBytes: number, benchDir: string, peers: Baseline[], runs: number, big?: BigSession): Promise<SizeResult> {
  const dist = join(benchDir, 'dist');
  // Its own cache folder (content store, rendered sessions, Astro's page copies, search shards), emptied for each cold build.
  const cacheDir = join(benchDir, 'cache');
  const env = { SESSIONPRESS_SOURCE: source, SESSIONPRESS_CACHE_DIR: cacheDir };
  const empty = () => ({ cold: [], unchanged: [], 'one appended': [], 'one changed': [] }) as Record<Phase, never[]>;
  const result: SizeResult = { name, inputBytes, ours: empty(), peers: new Map(peers.map((p) => [p.name, empty()])), pages: { bytes: [], elements: [], over: [] } };
  for (let run = 1; run <= runs; run++) {
    // Moved aside, not deleted: a mass deletion makes the next files created cost more (set-aside.ts).
    await setAside(cacheDir, trashOf(benchDir));
    await setAside(dist, trashOf(benchDir));
    for (const p of peers) await p.reset();
    // Every run starts from the session as generated: the last run, or the last bench, appended to it and edited it
    // (had the first run started from an edited file, its append would have rewritten the edited first prompt).
    if (big) for (const dir of new Set([source, ...peers.map((p) => p.source)])) await big.restore(dir);
    for (const phase of PHASES) {
      if (phase === 'one appended' && !big) continue;
      let label = `${PHASE_LABEL[phase]}${runs > 1 ? `, run ${run} of ${runs}` : ''}`;
      if (phase === 'one appended') for (const dir of new Set([source, ...peers.map((p) => p.source)])) await big!.append(dir);
      if (phase === 'one changed') {
        const changed = await touchOneSession(source);
        label += ` (${changed})`;
        // The same edit in every peer's own copy of the corpus.
        for (const p of peers) if (p.source !== source) await touchOneSession(p.source);
      }
      result.ours[phase].push(await build(label, env, dist, benchDir));
      if (phase === 'cold') result.pages = await heaviestPages(dist, 3);
      // Turn about: each peer right after Sessionpress, on the same corpus, in the same state.
      for (const p of peers) result.peers.get(p.name)![phase].push(await runPeer(p, label, benchDir));
    }
  }
  return result;
}

const secs = (ms: number | undefined) => (ms !== undefined ? `${(ms / 1000).toFixed(1)} s` : '?');

/** `median (lowest–highest)` of some figures, formatted by `f`; just the figure when there is one. */
function spread(values: number[], f: (v: number) => string): string {
  if (!values.length) return '?';
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 1 ? f(sorted[0]) : `${f(median(sorted))} (${f(sorted[0])}–${f(sorted[sorted.length - 1])})`;
}
/** The middle value (the mean of the two middle ones for an even count). */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const h = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[h] : (sorted[h - 1] + sorted[h]) / 2;
}
const mb = (v: number) => `${v.toFixed(0)} MB`;
const mb1 = (v: number) => `${v.toFixed(1)} MB`;
const times = (v: number) => `${v.toFixed(2)}×`;
const defined = (list: Array<number | undefined>) => list.filter((v): v is number => v !== undefined);

/** One corpus: Sessionpress's phases, the peers beside it with the ratios run by run, and the heaviest pages. */
function printSize(r: SizeResult): void {
  const runs = r.ours.cold.length;
  console.log(`\n#### ${r.name}: ${(r.inputBytes / 1e6).toFixed(0)} MB input${runs > 1 ? `, ${runs} runs: median (lowest–highest)` : ''}\n`);
  console.log('| build | wall | peak RSS (tree) | largest process | loader | pages (reused) | pagefind | dist | index |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const phase of phasesOf(r)) {
    const list = r.ours[phase];
    const reused = spread(list.map((f) => f.pagesReused ?? 0), (v) => v.toFixed(0));
    console.log(
      `| ${PHASE_LABEL[phase]} | ${spread(list.map((f) => f.wallMs), secs)} | ${spread(list.map((f) => f.peakRssMb), mb)} | ${spread(list.map((f) => f.maxRssMb), mb)} | ${spread(defined(list.map((f) => f.loaderMs)), secs)} | ${spread(defined(list.map((f) => f.pagesMs)), secs)} (${reused}) | ${spread(defined(list.map((f) => f.pagefindMs)), secs)} | ${spread(list.map((f) => f.distMb), mb1)} | ${spread(list.map((f) => f.indexMb), mb1)} |`,
    );
  }
  console.log('\nWhere the time and memory go, phase by phase (wall time; peak RSS of the process tree while the phase ran, and in brackets of its largest single process):\n');
  console.log(`| build | ${BUILD_PHASES.map((p) => p.name).join(' | ')} |`);
  console.log(`|---|${BUILD_PHASES.map(() => '---').join('|')}|`);
  for (const phase of phasesOf(r)) {
    const list = r.ours[phase];
    const cells = BUILD_PHASES.map(({ name }) => {
      const of = list.map((f) => f.phases.find((p) => p.name === name)).filter((p): p is PhaseFigures => !!p);
      return of.length ? `${spread(of.map((p) => p.wallMs), secs)}, ${spread(of.map((p) => p.peakMb), mb)} (${spread(of.map((p) => p.largestMb), mb)})` : '–';
    });
    console.log(`| ${PHASE_LABEL[phase]} | ${cells.join(' | ')} |`);
  }
  const all = phasesOf(r).flatMap((phase) => r.ours[phase]);
  const samples = all.reduce((n, f) => n + f.sampler.samples, 0);
  const cpu = all.reduce((n, f) => n + f.sampler.cpuMs, 0);
  console.log(
    `\nmemory sampler: every ${SAMPLE_MS} ms, the process tree only (up to ${Math.max(...all.map((f) => f.sampler.processes))} processes); ${samples} samples cost ${cpu.toFixed(0)} ms of CPU (${samples ? (cpu / samples).toFixed(2) : '?'} ms each, ${((cpu / Math.max(1, all.reduce((n, f) => n + f.wallMs, 0))) * 100).toFixed(2)} % of one core)`,
  );
  console.log(`\ndist/input: ${spread(r.ours.cold.map((f) => f.distMb / (r.inputBytes / 1e6)), (v) => v.toFixed(2))}`);
  const page = (p: PageWeight) => `${p.path} (${(p.bytes / 1024).toFixed(0)} KB, ${p.elements.toLocaleString('en')} elements)`;
  console.log(`heaviest pages by size: ${r.pages.bytes.map(page).join('; ')}`);
  console.log(`by elements: ${r.pages.elements.map(page).join('; ')}`);
  console.log(`pages over 400 KB or 8,000 elements: ${r.pages.over.length}${r.pages.over.length ? ` (${r.pages.over.slice(0, 5).map(page).join('; ')}${r.pages.over.length > 5 ? '; …' : ''})` : ''}`);
  if (!r.peers.size) return;
  console.log('\nSame corpus, same run, turn about. Ratio = Sessionpress ÷ peer, taken run by run (below 1: Sessionpress is faster or smaller).\n');
  console.log('| phase | tool | wall | peak RSS (tree) | output | output/input | wall ratio | memory ratio | output ratio |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const phase of phasesOf(r)) {
    const ours = r.ours[phase];
    console.log(`| ${phase} | Sessionpress | ${spread(ours.map((f) => f.wallMs), secs)} | ${spread(ours.map((f) => f.peakRssMb), mb)} | ${spread(ours.map((f) => f.distMb), mb1)} | ${spread(ours.map((f) => f.distMb / (r.inputBytes / 1e6)), (v) => v.toFixed(2))} | | | |`);
    for (const [name, byPhase] of r.peers) {
      const list = byPhase[phase];
      const ratio = (pick: (o: BuildFigures) => number, peer: (p: PeerFigures) => number) =>
        spread(
          list.map((p, i) => pick(ours[i]) / peer(p)).filter((v) => Number.isFinite(v)),
          times,
        );
      console.log(
        `| ${phase} | ${name} | ${spread(list.map((p) => p.wallMs), secs)} | ${spread(list.map((p) => p.peakRssMb), mb)} | ${spread(list.map((p) => p.outMb), mb1)} | ${spread(list.map((p) => p.outMb / (r.inputBytes / 1e6)), (v) => v.toFixed(2))} | ${ratio((o) => o.wallMs, (p) => p.wallMs)} | ${ratio((o) => o.peakRssMb, (p) => p.peakRssMb)} | ${ratio((o) => o.distMb, (p) => p.outMb)} |`,
      );
    }
  }
  const cct = r.peers.get('claude-code-transcripts');
  if (cct) console.log(`\ncold build vs claude-code-transcripts: ${spread(r.ours.cold.map((o, i) => o.wallMs / cct.cold[i].wallMs), times)} (target ≤ 1.00×)`);
}

/** How the cold build grows with the corpus, for Sessionpress and each peer. */
function printScaling(results: SizeResult[]): void {
  const first = results[0];
  console.log('\n#### Cold build by corpus size (medians)\n');
  console.log('| corpus | input | tool | wall | ×input | ×wall | peak RSS (tree) |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of results) {
    const rows: Array<[string, number[], number[], number[]]> = [['Sessionpress', r.ours.cold.map((f) => f.wallMs), first.ours.cold.map((f) => f.wallMs), r.ours.cold.map((f) => f.peakRssMb)]];
    for (const [name, byPhase] of r.peers) rows.push([name, byPhase.cold.map((p) => p.wallMs), first.peers.get(name)!.cold.map((p) => p.wallMs), byPhase.cold.map((p) => p.peakRssMb)]);
    for (const [tool, wall, firstWall, peak] of rows) {
      console.log(`| ${r.name} | ${(r.inputBytes / 1e6).toFixed(0)} MB | ${tool} | ${secs(median(wall))} | ${(r.inputBytes / first.inputBytes).toFixed(1)} | ${(median(wall) / median(firstWall)).toFixed(2)} | ${mb(median(peak))} |`);
    }
  }
}

/** Runs `npm run build` with the given environment, measuring wall time and memory. */
async function build(label: string, extraEnv: Record<string, string>, dist: string, benchDir: string): Promise<BuildFigures> {
  console.log(`\n== Sessionpress: ${label}`);
  const run = await measureRun('npm', ['run', 'build', '--silent', '--', '--outDir', dist], { cwd: repo, env: { ...process.env, ...extraEnv } });
  const { log } = run;
  await appendFile(join(benchDir, 'build.log'), `\n== ${label}\n${log}`);
  if (run.code !== 0) {
    console.log(log.slice(-4000));
    throw new Error(`${label}: build failed with exit code ${run.code}`);
  }
  const plain = log.replace(/\x1b\[[0-9;]*m/g, '');
  const pf = /\[sessionpress-pagefind\] (?:indexed|pages unchanged)[^\n]* in ([\d.]+)s/.exec(plain);
  const loader = /MB read in ([\d.]+)s/.exec(plain);
  // Astro's own summary line of the page-writing step: `12:00:00 ✓ Completed in 2.53s.`
  const pages = /generating static routes[\s\S]*?✓ Completed in ([\d.]+)(m?s)\./.exec(plain);
  const distSize = await folderBytes(dist);
  // Every shard's bundle: _sessionpress/pagefind/, _sessionpress/pagefind-2/, …
  let indexBytes = 0;
  const bundles = join(dist, '_sessionpress');
  for (const name of await readdir(bundles)) if (/^pagefind(-\d+)?$/.test(name)) indexBytes += (await folderBytes(join(bundles, name))).bytes;
  const f: BuildFigures = {
    wallMs: run.wallMs,
    peakRssMb: run.peakTreeMb,
    maxRssMb: run.maxRssMb,
    pagefindMs: pf ? Number(pf[1]) * 1000 : undefined,
    loaderMs: loader ? Number(loader[1]) * 1000 : undefined,
    pagesMs: pages ? Number(pages[1]) * (pages[2] === 'ms' ? 1 : 1000) : undefined,
    // The quiet log's count of Astro's page listing (src/integrations/quiet-log.ts): `… N reused from the last build`.
    pagesReused: Number(/\[sessionpress\] \d+ pages: \d+ rendered, (\d+) reused/.exec(plain)?.[1] ?? 0),
    renderReused: Number(/(\d+) unchanged pages? of changed sessions reused/.exec(plain)?.[1] ?? 0),
    distMb: distSize.bytes / 1e6,
    indexMb: indexBytes / 1e6,
    phases: phaseFigures(run, BUILD_PHASES),
    sampler: run.sampler,
  };
  console.log(`${secs(run.wallMs)}, peak ${f.peakRssMb.toFixed(0)} MB, ${f.pagesReused} pages reused${f.renderReused ? `, ${f.renderReused} renders of changed sessions' pages reused` : ''}`);
  console.log(`  ${f.phases.map((p) => `${p.name} ${secs(p.wallMs)} (peak ${mb(p.peakMb)}, largest process ${mb(p.largestMb)})`).join(', ')}`);
  return f;
}

async function runPeer(peer: Baseline, label: string, benchDir: string): Promise<PeerFigures> {
  console.log(`== ${peer.name}: ${label}`);
  const run = await peer.run();
  await appendFile(join(benchDir, 'build.log'), `\n== ${peer.name}: ${label}\n${run.log}`);
  if (run.code !== 0) {
    console.log(run.log.slice(-4000));
    throw new Error(`${peer.name}: ${label} failed with exit code ${run.code}`);
  }
  const f = { wallMs: run.wallMs, peakRssMb: run.peakTreeMb, maxRssMb: run.maxRssMb, outMb: (await peer.outputBytes()) / 1e6 };
  console.log(`${secs(f.wallMs)}, peak ${f.peakRssMb.toFixed(0)} MB`);
  return f;
}

/** Changes one prompt's text in the first session found, as an edit would. */
async function touchOneSession(root: string): Promise<string> {
  for (const project of (await readdir(root)).sort()) {
    // claude-code-log's copy also holds files at the top (its index and cache): only folders are projects.
    const names = await readdir(join(root, project)).catch(() => undefined);
    if (!names) continue;
    const dir = join(root, project);
    for (const f of names.sort()) {
      if (!f.endsWith('.jsonl') || f.startsWith('agent-')) continue;
      const path = join(dir, f);
      // As bytes: a session file can be longer than the longest string V8 holds (about 512 MB).
      const bytes = await readFile(path);
      const at = bytes.indexOf('"text":"');
      if (at === -1) continue;
      await writeFile(path, Buffer.concat([bytes.subarray(0, at + 8), Buffer.from('(edited for the bench) '), bytes.subarray(at + 8)]));
      return `${project}/${f}`;
    }
  }
  throw new Error('no session to change');
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
