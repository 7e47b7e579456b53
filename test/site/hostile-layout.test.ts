/**
 * A site built from a hostile source tree (links out of the source, names
 * that make unsafe ids) into an output folder that holds links: nothing from
 * outside the source reaches any file of the site or its caches, every
 * refusal is counted in the log by file, and no link in the output folder is
 * written through.
 */
import { existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, problemLines, readAllText, type BuildRun } from '../helpers/build.js';
import { makeHostileTree, type HostileTree } from '../helpers/hostile-tree.js';

let tree: HostileTree;
let out: string;
let run: BuildRun;
let victim: string;

beforeAll(async () => {
  tree = makeHostileTree();
  out = join(tree.tmp, 'dist');
  victim = join(tree.tmp, 'victim');
  mkdirSync(victim);
  writeFileSync(join(victim, 'index.html'), 'original\n');
  // The output folder already holds a link to a folder outside, where a page would be written.
  mkdirSync(out, { recursive: true });
  symlinkSync(victim, join(out, 'sessions'));
  run = await buildSite(out, { SESSIONPRESS_SOURCE: tree.root });
  if (run.code !== 0) throw new Error(`build failed:\n${run.log.slice(-3000)}`);
}, 600_000);

afterAll(() => tree?.remove());

describe('a build from a hostile tree', () => {
  it('builds a page for every real session', () => {
    for (const id of [tree.ids.linkedResults, tree.ids.linkedSubagents, tree.ids.linkedKeptFile, tree.ids.plain]) {
      expect(existsSync(join(out, 'sessions', 'work-api', id, 'index.html')), id).toBe(true);
    }
    expect(existsSync(join(out, 'sessions', 'work-api', tree.ids.linkedSessionFile))).toBe(false);
  });

  it('puts nothing from outside the source in the site, its search index or its caches', () => {
    for (const dir of [out, `${out}-cache`]) {
      for (const { file, text } of readAllText(dir)) {
        expect(text.includes(tree.outsideMarker), file).toBe(false);
        expect(text.includes(tree.username), file).toBe(false);
      }
    }
  });

  it('counts every link and unsafe name in the log, and lists them by file in the problems file', () => {
    const lines = problemLines(out).join('\n');
    for (const name of ['...jsonl', '..jsonl', `${tree.ids.linkedSessionFile}.jsonl`, `${tree.ids.linkedResults}/tool-results`, `${tree.ids.linkedSubagents}/subagents`, 'agent-linked.jsonl']) expect(lines, name).toContain(name);
    expect(run.log).toMatch(/symlink-skipped: \d+ in \d+ files?/);
    expect(run.log).toMatch(/unsafe-name: 3 in 3 files/);
  });

  it('writes nothing through a link in the output folder, and removes the link itself', () => {
    expect(readFileSync(join(victim, 'index.html'), 'utf8')).toBe('original\n');
    expect(lstatSync(join(out, 'sessions')).isSymbolicLink()).toBe(false);
    expect(run.log).toMatch(/removed 1 symbolic link/);
  });

  it('refuses an output folder that is itself a link', async () => {
    const linked = join(tree.tmp, 'linked-dist');
    symlinkSync(victim, linked);
    const again = await buildSite(linked, { SESSIONPRESS_SOURCE: tree.root, SESSIONPRESS_CACHE_DIR: `${out}-cache` });
    expect(again.code).not.toBe(0);
    expect(again.log).toMatch(/is a symbolic link/);
    expect(readFileSync(join(victim, 'index.html'), 'utf8')).toBe('original\n');
  }, 600_000);
});
