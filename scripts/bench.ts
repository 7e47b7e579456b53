/**
 * `npm run bench -- [--copies 20] [--source DIR] [--skip-build] [--big] [--baselines DIR]`
 *
 * Builds a corpus of a chosen size and prints figures: redaction throughput,
 * then for a cold build, a rebuild with nothing changed and a rebuild after one
 * session changed: wall time, peak memory (whole process tree), output size,
 * pagefind's share and the index size. The default corpus is
 * `../shared/corpus/projects` copied 20 times into distinct project folders,
 * every uuid rewritten per copy so that no two files are byte-identical.
 *
 * With `--baselines DIR` (tools set up by `../shared/bench/setup-baselines.sh`),
 * claude-code-transcripts and claude-code-log run on the same corpus in the
 * same run, turn about with each Sessionpress build, and the ratios are
 * printed pair by pair.
 */
import { existsSync } from 'node:fs';
import { appendFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { benchRedaction } from './lib/bench-redaction.js';
import { cclBaseline, cctBaseline, findBaselines, type Baseline } from './lib/bench/baselines.js';
import { makeCopies, makeBigSession } from './lib/bench/corpus.js';
import { folderBytes, measureRun } from './lib/bench/measure.js';

const repo = resolve(import.meta.dirname, '..');

interface BuildFigures {
  label: string;
  wallMs: number;
  peakRssMb: number;
  maxRssMb: number;
  pagefindMs?: number;
  loaderMs?: number;
  /** Astro writing the pages (the "generating static routes" step). */
  pagesMs?: number;
  /** Pages Astro copied from its incremental cache instead of rendering. */
  pagesReused?: number;
  distMb: number;
  indexMb: number;
}

/** One tool's run in one phase. */
interface PeerFigures {
  wallMs: number;
  peakRssMb: number;
  maxRssMb: number;
  outMb: number;
}

const PHASES = ['cold', 'unchanged', 'one changed'] as const;

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      copies: { type: 'string', default: '20' },
      source: { type: 'string' },
      'skip-build': { type: 'boolean', default: false },
      big: { type: 'boolean', default: false },
      out: { type: 'string', default: '.bench' },
      baselines: { type: 'string' },
    },
  });
  const benchDir = resolve(repo, values.out!);
  const shared = resolve(repo, '..', 'shared');
  // Checked first: a missing baseline should fail before minutes of building.
  const peersBin = values.baselines ? findBaselines(resolve(values.baselines)) : undefined;
  await mkdir(benchDir, { recursive: true });

  const source = await benchSource(values, benchDir, shared);
  const input = await folderBytes(source);
  console.log(`\nsource: ${source}\ninput: ${(input.bytes / 1e6).toFixed(1)} MB in ${input.files} files\n`);

  const red = await benchRedaction(source);
  console.log(`redaction: ${(red.bytes / 1e6).toFixed(1)} MB in ${(red.ms / 1000).toFixed(2)} s = ${red.mbPerSec.toFixed(1)} MB/s (single thread, parse excluded)`);
  if (values['skip-build']) return;

  const dist = join(benchDir, 'dist');
  // Its own cache folder (content store, rendered sessions, Astro's page copies, search shards), emptied for the cold build.
  const cacheDir = join(benchDir, 'cache');
  const env = { SESSIONPRESS_SOURCE: source, SESSIONPRESS_CACHE_DIR: cacheDir };
  await rm(cacheDir, { recursive: true, force: true });
  await rm(dist, { recursive: true, force: true });

  const peers: Baseline[] = peersBin ? [cctBaseline(peersBin.cct, source, benchDir), cclBaseline(peersBin.ccl, source, benchDir)] : [];
  for (const p of peers) await p.reset();
  const figures: BuildFigures[] = [];
  const peerFigures = new Map<string, PeerFigures[]>(peers.map((p) => [p.name, []]));
  for (const phase of PHASES) {
    let label: string = phase === 'cold' ? 'cold build' : phase === 'unchanged' ? 'rebuild, nothing changed' : 'rebuild, one session changed';
    if (phase === 'one changed') {
      const changed = await touchOneSession(source);
      label += ` (${changed})`;
      // The same edit in every peer's own copy of the corpus.
      for (const p of peers) if (p.source !== source) await touchOneSession(p.source);
    }
    figures.push(await build(label, env, dist));
    // Turn about: each peer right after Sessionpress, on the same corpus, in the same state.
    for (const p of peers) peerFigures.get(p.name)!.push(await runPeer(p, label));
  }

  printBuildTable(figures, input.bytes);
  if (peers.length) printRatios(figures, peerFigures, input.bytes);
}

/** The corpus to build: `--source`, the big-session corpus, or `copies` copies of the shared corpus (made once). */
async function benchSource(values: { source?: string; big?: boolean; copies?: string }, benchDir: string, shared: string): Promise<string> {
  if (values.source) return resolve(values.source);
  if (values.big) {
    const source = join(benchDir, 'big');
    if (!existsSync(source)) {
      // The fixtures' large session, as EXPECT.json names it (its folder changes with the fixtures' seed).
      const expect = JSON.parse(await readFile(join(shared, 'fixtures', 'EXPECT.json'), 'utf8')) as { big: { file: string } };
      await makeBigSession(dirname(join(shared, 'fixtures', expect.big.file)), source, 5);
    }
    return source;
  }
  const copies = Number.parseInt(values.copies!, 10);
  const source = join(benchDir, `corpus-x${copies}`);
  if (!existsSync(source)) {
    console.log(`making ${copies} copies of the corpus in ${source} …`);
    await makeCopies(join(shared, 'corpus', 'projects'), source, copies);
  }
  return source;
}

const secs = (ms: number | undefined) => (ms !== undefined ? `${(ms / 1000).toFixed(1)} s` : '?');

function printBuildTable(figures: BuildFigures[], inputBytes: number): void {
  console.log('\n| build | wall | peak RSS (tree) | largest process | loader | pages (reused) | pagefind | dist | index |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const f of figures) {
    console.log(
      `| ${f.label} | ${secs(f.wallMs)} | ${f.peakRssMb.toFixed(0)} MB | ${f.maxRssMb.toFixed(0)} MB | ${secs(f.loaderMs)} | ${secs(f.pagesMs)} (${f.pagesReused ?? 0}) | ${secs(f.pagefindMs)} | ${f.distMb.toFixed(1)} MB | ${f.indexMb.toFixed(1)} MB |`,
    );
  }
  console.log(`\ndist/input: ${((figures[0].distMb / (inputBytes / 1e6)) * 100).toFixed(0)} %`);
}

/** The peers' figures beside ours, phase by phase, and Sessionpress ÷ peer for each. */
function printRatios(figures: BuildFigures[], peers: Map<string, PeerFigures[]>, inputBytes: number): void {
  const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}×` : '—');
  console.log('\nSame corpus, same run, turn about. Ratio = Sessionpress ÷ peer (below 1: Sessionpress is faster or smaller).\n');
  console.log('| phase | tool | wall | peak RSS (tree) | largest process | output | output/input | wall ratio | memory ratio | output ratio |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  PHASES.forEach((phase, i) => {
    const sp = figures[i];
    console.log(`| ${phase} | Sessionpress | ${secs(sp.wallMs)} | ${sp.peakRssMb.toFixed(0)} MB | ${sp.maxRssMb.toFixed(0)} MB | ${sp.distMb.toFixed(1)} MB | ${(sp.distMb / (inputBytes / 1e6)).toFixed(2)} | | | |`);
    for (const [name, list] of peers) {
      const p = list[i];
      console.log(
        `| ${phase} | ${name} | ${secs(p.wallMs)} | ${p.peakRssMb.toFixed(0)} MB | ${p.maxRssMb.toFixed(0)} MB | ${p.outMb.toFixed(1)} MB | ${(p.outMb / (inputBytes / 1e6)).toFixed(2)} | ${ratio(sp.wallMs, p.wallMs)} | ${ratio(sp.peakRssMb, p.peakRssMb)} | ${ratio(sp.distMb, p.outMb)} |`,
      );
    }
  });
  const cct = peers.get('claude-code-transcripts');
  if (cct) console.log(`\ncold build vs claude-code-transcripts: ${ratio(figures[0].wallMs, cct[0].wallMs)} (target ≤ 1.5×)`);
}

/** Runs `npm run build` with the given environment, measuring wall time and memory. */
async function build(label: string, extraEnv: Record<string, string>, dist: string): Promise<BuildFigures> {
  console.log(`\n== Sessionpress: ${label}`);
  const run = await measureRun('npm', ['run', 'build', '--silent', '--', '--outDir', dist], { cwd: repo, env: { ...process.env, ...extraEnv } });
  const { log } = run;
  await appendFile(join(repo, '.bench', 'build.log'), `\n== ${label}\n${log}`);
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
    label,
    wallMs: run.wallMs,
    peakRssMb: run.peakTreeMb,
    maxRssMb: run.maxRssMb,
    pagefindMs: pf ? Number(pf[1]) * 1000 : undefined,
    loaderMs: loader ? Number(loader[1]) * 1000 : undefined,
    pagesMs: pages ? Number(pages[1]) * (pages[2] === 'ms' ? 1 : 1000) : undefined,
    // The quiet log's count of Astro's page listing (src/integrations/quiet-log.ts): `… N reused from the last build`.
    pagesReused: Number(/\[sessionpress\] \d+ pages: \d+ rendered, (\d+) reused/.exec(plain)?.[1] ?? 0),
    distMb: distSize.bytes / 1e6,
    indexMb: indexBytes / 1e6,
  };
  console.log(`${secs(run.wallMs)}, peak ${f.peakRssMb.toFixed(0)} MB, ${f.pagesReused} pages reused`);
  return f;
}

async function runPeer(peer: Baseline, label: string): Promise<PeerFigures> {
  console.log(`== ${peer.name}: ${label}`);
  const run = await peer.run();
  await appendFile(join(repo, '.bench', 'build.log'), `\n== ${peer.name}: ${label}\n${run.log}`);
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
      const text = await readFile(path, 'utf8');
      const at = text.indexOf('"text":"');
      if (at === -1) continue;
      await writeFile(path, `${text.slice(0, at + 8)}(edited for the bench) ${text.slice(at + 8)}`);
      return `${project}/${f}`;
    }
  }
  throw new Error('no session to change');
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
