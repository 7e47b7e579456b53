/**
 * `npm run bench -- [--copies 20] [--source DIR] [--skip-build] [--big]`
 *
 * Builds a corpus of a chosen size and prints figures: redaction throughput,
 * then for a cold build, a rebuild with nothing changed and a rebuild after one
 * session changed: wall time, peak memory (whole process tree), output size,
 * pagefind's share and the index size. The default corpus is
 * `../shared/corpus/projects` copied 20 times into distinct project folders,
 * every uuid rewritten per copy so that no two files are byte-identical.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { benchRedaction } from './lib/bench-redaction.js';
import { makeCopies, makeBigSession } from './lib/bench/corpus.js';

const repo = resolve(import.meta.dirname, '..');

interface BuildFigures {
  label: string;
  wallMs: number;
  peakRssMb: number;
  pagefindMs?: number;
  loaderMs?: number;
  /** Astro writing the pages (the "generating static routes" step). */
  pagesMs?: number;
  distMb: number;
  indexMb: number;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      copies: { type: 'string', default: '20' },
      source: { type: 'string' },
      'skip-build': { type: 'boolean', default: false },
      big: { type: 'boolean', default: false },
      out: { type: 'string', default: '.bench' },
    },
  });
  const benchDir = resolve(repo, values.out!);
  const shared = resolve(repo, '..', 'shared');
  await mkdir(benchDir, { recursive: true });

  let source: string;
  if (values.source) {
    source = resolve(values.source);
  } else if (values.big) {
    source = join(benchDir, 'big');
    if (!existsSync(source)) {
      // The fixtures' large session, as EXPECT.json names it (its folder changes with the fixtures' seed).
      const expect = JSON.parse(await readFile(join(shared, 'fixtures', 'EXPECT.json'), 'utf8')) as { big: { file: string } };
      await makeBigSession(dirname(join(shared, 'fixtures', expect.big.file)), source, 5);
    }
  } else {
    const copies = Number.parseInt(values.copies!, 10);
    source = join(benchDir, `corpus-x${copies}`);
    if (!existsSync(source)) {
      console.log(`making ${copies} copies of the corpus in ${source} …`);
      await makeCopies(join(shared, 'corpus', 'projects'), source, copies);
    }
  }
  const input = await folderBytes(source);
  console.log(`\nsource: ${source}\ninput: ${(input.bytes / 1e6).toFixed(1)} MB in ${input.files} files\n`);

  const red = await benchRedaction(source);
  console.log(`redaction: ${(red.bytes / 1e6).toFixed(1)} MB in ${(red.ms / 1000).toFixed(2)} s = ${red.mbPerSec.toFixed(1)} MB/s (single thread, parse excluded)`);
  if (values['skip-build']) return;

  const dist = join(benchDir, 'dist');
  const env = { SESSIONPRESS_SOURCE: source };
  await rm(join(repo, 'node_modules', '.astro'), { recursive: true, force: true });
  await rm(join(repo, '.astro'), { recursive: true, force: true });
  await rm(dist, { recursive: true, force: true });
  const figures: BuildFigures[] = [];
  figures.push(await build('cold build', env, dist));
  figures.push(await build('rebuild, nothing changed', env, dist));
  const changed = await touchOneSession(source);
  figures.push(await build(`rebuild, one session changed (${changed})`, env, dist));

  const secs = (ms: number | undefined) => (ms !== undefined ? `${(ms / 1000).toFixed(1)} s` : '?');
  console.log('\n| build | wall | peak RSS | loader | pages | pagefind | dist | index |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const f of figures) {
    console.log(
      `| ${f.label} | ${secs(f.wallMs)} | ${f.peakRssMb.toFixed(0)} MB | ${secs(f.loaderMs)} | ${secs(f.pagesMs)} | ${secs(f.pagefindMs)} | ${f.distMb.toFixed(1)} MB | ${f.indexMb.toFixed(1)} MB |`,
    );
  }
  const ratio = figures[0].distMb / (input.bytes / 1e6);
  console.log(`\ndist/input: ${(ratio * 100).toFixed(0)} %`);
}

/** Runs `npm run build` with the given environment, sampling the RSS of the whole process tree. */
async function build(label: string, extraEnv: Record<string, string>, dist: string): Promise<BuildFigures> {
  console.log(`\n== ${label}`);
  const started = performance.now();
  const child = spawn('npm', ['run', 'build', '--silent', '--', '--outDir', dist], {
    cwd: repo,
    env: { ...process.env, ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  let peak = 0;
  const timer = setInterval(async () => {
    const rss = await treeRss(child.pid!);
    if (rss > peak) peak = rss;
  }, 100);
  const code: number = await new Promise((res) => child.on('close', res));
  clearInterval(timer);
  const wallMs = performance.now() - started;
  await appendFile(join(repo, '.bench', 'build.log'), `\n== ${label}\n${log}`);
  if (code !== 0) {
    console.log(log.slice(-4000));
    throw new Error(`${label}: build failed with exit code ${code}`);
  }
  const pf = /\[sessionpress-pagefind\] (?:indexed|pages unchanged)[^\n]* in ([\d.]+)s/.exec(log);
  const loader = /MB read in ([\d.]+)s/.exec(log);
  // Astro's own summary line of the page-writing step: `12:00:00 ✓ Completed in 2.53s.`
  const pages = /generating static routes[\s\S]*?✓ Completed in ([\d.]+)(m?s)\./.exec(log);
  const distSize = await folderBytes(dist);
  // Every shard's bundle: pagefind/, pagefind-2/, …
  let indexBytes = 0;
  for (const name of await readdir(dist)) if (/^pagefind(-\d+)?$/.test(name)) indexBytes += (await folderBytes(join(dist, name))).bytes;
  const f: BuildFigures = {
    label,
    wallMs,
    peakRssMb: peak / 1024,
    pagefindMs: pf ? Number(pf[1]) * 1000 : undefined,
    loaderMs: loader ? Number(loader[1]) * 1000 : undefined,
    pagesMs: pages ? Number(pages[1]) * (pages[2] === 'ms' ? 1 : 1000) : undefined,
    distMb: distSize.bytes / 1e6,
    indexMb: indexBytes / 1e6,
  };
  console.log(`${(wallMs / 1000).toFixed(1)} s, peak ${f.peakRssMb.toFixed(0)} MB`);
  return f;
}

/** Sum of VmRSS (kB) of a process and all its descendants, from /proc. */
async function treeRss(root: number): Promise<number> {
  const children = new Map<number, number[]>();
  const rss = new Map<number, number>();
  for (const name of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const status = await readFile(`/proc/${name}/status`, 'utf8');
      const ppid = Number(/PPid:\s+(\d+)/.exec(status)?.[1]);
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      rss.set(Number(name), kb);
      const list = children.get(ppid) ?? [];
      list.push(Number(name));
      children.set(ppid, list);
    } catch {
      // The process ended between listing and reading.
    }
  }
  let total = 0;
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop()!;
    total += rss.get(pid) ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

/** Changes one prompt's text in the first session found, as an edit would. */
async function touchOneSession(root: string): Promise<string> {
  for (const project of (await readdir(root)).sort()) {
    const dir = join(root, project);
    for (const f of (await readdir(dir)).sort()) {
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

async function folderBytes(dir: string): Promise<{ bytes: number; files: number }> {
  let bytes = 0;
  let files = 0;
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    bytes += (await stat(join(e.parentPath, e.name))).size;
    files++;
  }
  return { bytes, files };
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
