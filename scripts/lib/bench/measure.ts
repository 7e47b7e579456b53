import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** What one run of a command cost. */
export interface RunFigures {
  code: number;
  /** Everything the command printed, stdout and stderr interleaved (minus /usr/bin/time's report). */
  log: string;
  wallMs: number;
  /** Peak of the summed RSS of the whole process tree, sampled every `SAMPLE_MS`. */
  peakTreeMb: number;
  /** /usr/bin/time -v's "Maximum resident set size": the largest single process of the tree (0 without it). */
  maxRssMb: number;
  /** The tree's RSS over time: ms since the start, MB, and the largest single process's MB (node, or a pagefind child). */
  samples: Array<[ms: number, mb: number, largestMb: number]>;
  /** Each line the command printed, with the ms since the start at which it arrived. */
  lines: Array<[ms: number, line: string]>;
  /** What the sampling itself cost this process (CPU ms in all), and how many samples and processes it read. */
  sampler: { samples: number; cpuMs: number; processes: number };
}

/** How often the process tree's memory is sampled. */
export const SAMPLE_MS = 100;

const GNU_TIME = '/usr/bin/time';
const MAX_RSS_RE = /Maximum resident set size \(kbytes\): (\d+)/;

/**
 * Runs a command and measures it: wall time, the peak RSS of its whole process
 * tree (sampled from /proc, so a child such as pagefind counts), and, under
 * /usr/bin/time -v where the machine has it, the largest single process. The
 * lines it prints are kept with their arrival times, so that the time and
 * memory of each phase of a build can be told apart (`phaseFigures`).
 */
export async function measureRun(cmd: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<RunFigures> {
  const timed = existsSync(GNU_TIME);
  const started = performance.now();
  const child = spawn(timed ? GNU_TIME : cmd, timed ? ['-v', cmd, ...args] : args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const lines: Array<[number, string]> = [];
  let partial = '';
  const onData = (d: Buffer) => {
    const text = d.toString();
    log += text;
    const now = performance.now() - started;
    const parts = (partial + text).split('\n');
    partial = parts.pop()!;
    for (const line of parts) lines.push([now, line]);
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  let peak = 0;
  const samples: Array<[number, number, number]> = [];
  const sampler = { samples: 0, cpuMs: 0, processes: 0 };
  const timer = setInterval(() => {
    const cpu = process.cpuUsage();
    const { kb, processes, largestKb } = treeRssKb(child.pid!);
    const used = process.cpuUsage(cpu);
    sampler.cpuMs += (used.user + used.system) / 1000;
    sampler.samples++;
    sampler.processes = Math.max(sampler.processes, processes);
    samples.push([performance.now() - started, kb / 1024, largestKb / 1024]);
    if (kb > peak) peak = kb;
  }, SAMPLE_MS);
  const code: number = await new Promise((res) => child.on('close', (c) => res(c ?? 1)));
  clearInterval(timer);
  if (partial) lines.push([performance.now() - started, partial]);
  const wallMs = performance.now() - started;
  const maxRss = MAX_RSS_RE.exec(log);
  // /usr/bin/time's report starts with "Command being timed"; it is not the command's own output.
  const at = log.lastIndexOf('\tCommand being timed:');
  return { code, log: at >= 0 ? log.slice(0, at) : log, wallMs, peakTreeMb: peak / 1024, maxRssMb: maxRss ? Number(maxRss[1]) / 1024 : 0, samples, lines, sampler };
}

const PAGE_KB = 4;

/**
 * Sum of the resident memory (kB) of a process and all its descendants. It
 * reads only the tree: each process's children from
 * `/proc/<pid>/task/<tid>/children` and its size from `/proc/<pid>/statm`,
 * never the whole of /proc (on a shared machine hundreds of processes, each a
 * file read per sample). Needs Linux's `children` files (CONFIG_PROC_CHILDREN,
 * on by default); without them only the root process is counted.
 */
export function treeRssKb(root: number): { kb: number; processes: number; largestKb: number } {
  let kb = 0;
  let processes = 0;
  let largestKb = 0;
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop()!;
    try {
      const statm = readFileSync(`/proc/${pid}/statm`, 'latin1');
      const own = Number(statm.split(' ')[1]) * PAGE_KB;
      kb += own;
      largestKb = Math.max(largestKb, own);
      processes++;
      stack.push(...childPids(pid));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' && pid === root && processes === 0) return { kb: 0, processes: 0, largestKb: 0 };
      // The process ended between two reads, or the kernel keeps no children list: count what was read.
    }
  }
  return { kb, processes, largestKb };
}

/**
 * The pids of a process's children, from Linux's `/proc/<pid>/task/<tid>/children`
 * (one file per thread: a child belongs to the thread that started it). Throws
 * when the process is gone or the kernel keeps no such files.
 */
export function childPids(pid: number): number[] {
  const pids: number[] = [];
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const children = readFileSync(`/proc/${pid}/task/${tid}/children`, 'latin1').trim();
    if (children) for (const c of children.split(' ')) pids.push(Number(c));
  }
  return pids;
}

/** A phase of a build: its name and the line that starts it (the first line matching wins). */
export interface PhaseMarker {
  name: string;
  start: RegExp;
}

/** One phase's share of a run: from its first line to the next phase's, and the peak memory sampled meanwhile. */
export interface PhaseFigures {
  name: string;
  wallMs: number;
  peakMb: number;
  /** The largest single process meanwhile: tells the build's own process from a child's (pagefind). */
  largestMb: number;
}

/**
 * Splits a run into phases at the arrival of each marker's first line (a
 * phase whose line never came is left out; the first phase starts at 0 and
 * the last ends with the run), with the peak of the samples taken in each.
 */
export function phaseFigures(run: Pick<RunFigures, 'lines' | 'samples' | 'wallMs'>, markers: PhaseMarker[]): PhaseFigures[] {
  const starts: Array<{ name: string; at: number }> = [];
  for (const [i, m] of markers.entries()) {
    const found = i === 0 ? [0] : run.lines.filter(([, line]) => m.start.test(line.replace(/\x1b\[[0-9;]*m/g, ''))).map(([at]) => at);
    if (found.length) starts.push({ name: m.name, at: found[0] });
  }
  starts.sort((a, b) => a.at - b.at);
  return starts.map((s, i) => {
    const end = starts[i + 1]?.at ?? run.wallMs;
    // A phase shorter than the sampling interval gets the last sample taken before it ended.
    const within = run.samples.filter(([t]) => t >= s.at && t < end);
    const inside = within.length ? within : run.samples.filter(([t]) => t < end).slice(-1);
    const peak = (pick: (x: [number, number, number]) => number) => inside.reduce((m, x) => Math.max(m, pick(x)), 0);
    return { name: s.name, wallMs: end - s.at, peakMb: peak((x) => x[1]), largestMb: peak((x) => x[2]) };
  });
}

/** Bytes and number of files below a folder, of the files `keep` accepts (all by default). */
export async function folderBytes(dir: string, keep: (name: string) => boolean = () => true): Promise<{ bytes: number; files: number }> {
  let bytes = 0;
  let files = 0;
  if (!existsSync(dir)) return { bytes, files };
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile() || !keep(e.name)) continue;
    bytes += (await stat(join(e.parentPath, e.name))).size;
    files++;
  }
  return { bytes, files };
}
