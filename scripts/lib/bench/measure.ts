import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** What one run of a command cost. */
export interface RunFigures {
  code: number;
  /** Everything the command printed, stdout and stderr interleaved (minus /usr/bin/time's report). */
  log: string;
  wallMs: number;
  /** Peak of the summed RSS of the whole process tree, sampled every 100 ms. */
  peakTreeMb: number;
  /** /usr/bin/time -v's "Maximum resident set size": the largest single process of the tree (0 without it). */
  maxRssMb: number;
}

const GNU_TIME = '/usr/bin/time';
const MAX_RSS_RE = /Maximum resident set size \(kbytes\): (\d+)/;

/**
 * Runs a command and measures it: wall time, the peak RSS of its whole process
 * tree (sampled from /proc, so a child such as pagefind counts), and, under
 * /usr/bin/time -v where the machine has it, the largest single process.
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
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  let peak = 0;
  const timer = setInterval(async () => {
    const rss = await treeRssKb(child.pid!);
    if (rss > peak) peak = rss;
  }, 100);
  const code: number = await new Promise((res) => child.on('close', (c) => res(c ?? 1)));
  clearInterval(timer);
  const wallMs = performance.now() - started;
  const maxRss = MAX_RSS_RE.exec(log);
  // /usr/bin/time's report starts with "Command being timed"; it is not the command's own output.
  const at = log.lastIndexOf('\tCommand being timed:');
  return { code, log: at >= 0 ? log.slice(0, at) : log, wallMs, peakTreeMb: peak / 1024, maxRssMb: maxRss ? Number(maxRss[1]) / 1024 : 0 };
}

/** Sum of VmRSS (kB) of a process and all its descendants, from /proc. */
export async function treeRssKb(root: number): Promise<number> {
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
