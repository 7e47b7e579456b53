import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { indexSearchPages } from '../../src/integrations/pagefind.js';
import type { BuildLogger } from '../../src/lib/build/build-logger.js';
import { createOutputLedger } from '../../src/lib/fs/output-ledger.js';
import { SPREAD_RUN_PAGES } from '../../src/lib/search/shards.js';
import { listFiles } from '../helpers/build.js';

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
