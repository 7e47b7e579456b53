import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { indexSearchPages, PAGEFIND_PROCESSES, pagefindProcesses, startServices, TWO_AT_ONCE_MAX_BYTES } from '../../src/integrations/pagefind.js';
import type { BuildLogger } from '../../src/lib/build/build-logger.js';
import { createOutputLedger } from '../../src/lib/fs/output-ledger.js';
import { SPREAD_RUN_PAGES } from '../../src/lib/search/shards.js';
import { childPids } from '../../scripts/lib/bench/measure.js';
import { listFiles } from '../helpers/build.js';

// The cores the machine offers, as the search index sees them: set by a test, the machine's otherwise.
const cores = vi.hoisted(() => ({ count: undefined as number | undefined }));
vi.mock('node:os', async (original) => {
  const os = await original<typeof import('node:os')>();
  return { ...os, availableParallelism: () => cores.count ?? os.availableParallelism() };
});

const work = mkdtempSync(join(tmpdir(), 'sp-pagefind-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A logger that keeps what it is told. */
function recorder(): BuildLogger & { lines: string[] } {
  const lines: string[] = [];
  const logger = { label: 'sessionpress-pagefind', lines, info: (m: string) => void lines.push(m), warn: (m: string) => void lines.push(m), debug: () => {}, fork: () => logger };
  return logger;
}

/** Writes page `n` of the long session (`edit` changes its words) and returns its path. */
function writePage(out: string, n: number, edit = ''): string {
  const dir = join(out, 'sessions', 'proj', 'long', ...(n > 1 ? [String(n)] : []));
  mkdirSync(dir, { recursive: true });
  const words = Array.from({ length: 500 }, (_, i) => `word${n}x${i}`).join(' ');
  const path = join(dir, 'index.html');
  writeFileSync(path, `<!doctype html><html lang="en"><head><title>Page ${n}</title></head><body><main data-pagefind-body><h1>Page ${n}</h1><p>${words} ${edit}</p></main></body></html>`);
  return path;
}

/** A site of one long session's `pages` pages, indexed with a cache folder of its own; returns the log lines and the bundles' files. */
async function index(out: string, cache: string, paths: string[]) {
  const logger = recorder();
  await indexSearchPages({ outDir: out, html: paths, cacheDir: cache, shardBytes: 200e3 }, createOutputLedger(), logger);
  const files = listFiles(join(out, '_sessionpress')).map((f) => f.slice(out.length));
  return { lines: logger.lines, files };
}

describe('the search index of a long session, built again after an append', () => {
  it('indexes the pages of its last run only, and leaves the index a clean build makes', async () => {
    // 200 pages of about 5 KB: 1 MB over 8 shards of the hash ring, in 13 runs, the last (pages 193-200) in the tail shard.
    const out = join(work, 'site');
    const cache = join(work, 'cache');
    const paths = Array.from({ length: 200 }, (_, i) => writePage(out, i + 1));
    const first = await index(out, cache, paths);
    expect(first.lines.join('\n')).toMatch(/indexed 200 of 200 pages in [\d.]+s: (\d+) of \1 shards rebuilt/);

    // The append rewrites the last page and adds three.
    writePage(out, 200, 'appended words');
    const grown = [...paths, ...[201, 202, 203].map((n) => writePage(out, n))];
    const again = await index(out, cache, grown);
    const line = again.lines.find((l) => /^indexed/.test(l)) ?? again.lines.join('\n');
    const [indexed, all, rebuilt] = /^indexed (\d+) of (\d+) pages in [\d.]+s: (\d+) of \d+ shards rebuilt/.exec(line)!.slice(1).map(Number);
    expect(all).toBe(203);
    expect(rebuilt).toBe(1);
    // Pages 193 to 203: the last run, not the sixteen or more pages of a shard of the ring beside them.
    expect(indexed).toBe(11);
    expect(indexed).toBeLessThanOrEqual(SPREAD_RUN_PAGES);

    // The same pages indexed from nothing give the same bundles, byte for byte.
    const clean = join(work, 'clean');
    const cleanPaths = Array.from({ length: 203 }, (_, i) => writePage(clean, i + 1, i + 1 === 200 ? 'appended words' : ''));
    const fresh = await index(clean, join(work, 'clean-cache'), cleanPaths);
    expect(again.files.sort()).toEqual(fresh.files.sort());
    for (const f of fresh.files) expect(readFileSync(join(out, f)).equals(readFileSync(join(clean, f))), f).toBe(true);
  }, 120_000);
});

/** The pagefind processes this process has started and not ended (Linux's /proc; none elsewhere). */
function pagefindChildren(): number[] {
  if (!existsSync('/proc/self/stat')) return [];
  return childPids(process.pid).filter((pid) => {
    try {
      // pid (comm) state ...: the name is in brackets and may hold spaces.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
      // An ended process Node has not reaped yet is not running.
      return comm.startsWith('pagefind') && state !== 'Z' && state !== 'X';
    } catch {
      return false;
    }
  });
}

describe('the search index built by two pagefind processes at once', () => {
  it('takes two processes for two shards or more, unless the machine has one core or a shard is too large to share', () => {
    const shard = (mb: number) => Array.from({ length: 4 }, () => ({ bytes: (mb * 1e6) / 4 }));
    expect(pagefindProcesses([shard(19), shard(20), shard(18)], 2)).toBe(2);
    expect(pagefindProcesses([shard(19), shard(20)], 16)).toBe(PAGEFIND_PROCESSES);
    expect(pagefindProcesses([shard(19)], 2)).toBe(1);
    expect(pagefindProcesses([], 2)).toBe(1);
    expect(pagefindProcesses([shard(19), shard(20)], 1)).toBe(1);
    // At 16× the bench corpus every shard holds about 77 MB: one at a time.
    expect(pagefindProcesses([shard(19), shard(77)], 2)).toBe(1);
    expect(pagefindProcesses([shard(19), shard(TWO_AT_ONCE_MAX_BYTES / 1e6)], 2)).toBe(2);
  });

  it('starts a process of its own for each, and builds the index one process builds, byte for byte', async () => {
    const services = await startServices(PAGEFIND_PROCESSES);
    expect(services).toHaveLength(2);
    const indexes = await Promise.all(services.map((s) => s.createIndex({})));
    if (existsSync('/proc/self/stat')) expect(pagefindChildren()).toHaveLength(2);
    await Promise.all(indexes.map((i) => i.index!.deleteIndex()));
    await Promise.all(services.map((s) => s.close()));

    // 120 pages over several shards: indexed with one core (one process), then with two.
    const built: Array<{ out: string; files: string[] }> = [];
    for (const count of [1, 2]) {
      cores.count = count;
      const out = join(work, `processes-${count}`);
      const paths = Array.from({ length: 120 }, (_, i) => writePage(out, i + 1));
      const { lines, files } = await index(out, join(work, `processes-${count}-cache`), paths);
      expect(lines.join('\n')).toMatch(/indexed 120 of 120 pages in [\d.]+s: (\d+) of \1 shards rebuilt/);
      built.push({ out, files });
    }
    cores.count = undefined;
    const [one, two] = built;
    expect(two.files.sort()).toEqual(one.files.sort());
    for (const f of one.files) expect(readFileSync(join(two.out, f)).equals(readFileSync(join(one.out, f))), f).toBe(true);
    // Every process it started has ended (they are killed; Node reaps them as it learns they ended).
    await expect.poll(() => pagefindChildren(), { timeout: 10_000 }).toEqual([]);
  }, 120_000);
});
