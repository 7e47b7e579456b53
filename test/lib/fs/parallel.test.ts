import { copyFileSync, linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyTree, isLinkedTree, listFiles, mapLimit } from '../../../src/lib/fs/parallel.js';

describe('mapLimit', () => {
  it('keeps the order of the input and never runs more than the limit at once', async () => {
    let running = 0;
    let most = 0;
    const out = await mapLimit([5, 1, 4, 2, 3, 0, 6], 3, async (n, i) => {
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, n * 3));
      running--;
      return `${i}:${n}`;
    });
    expect(out).toEqual(['0:5', '1:1', '2:4', '3:2', '4:3', '5:0', '6:6']);
    expect(most).toBe(3);
  });

  it('passes a failure on', async () => {
    await expect(mapLimit([1, 2], 2, async (n) => {
      if (n === 2) throw new Error('two');
      return n;
    })).rejects.toThrow('two');
  });
});

describe('copyTree', () => {
  it('copies every file, nested folders included, byte for byte', async () => {
    const from = mkdtempSync(join(tmpdir(), 'sp-copy-from-'));
    mkdirSync(join(from, 'a', 'b'), { recursive: true });
    writeFileSync(join(from, 'top.json'), '{"x":1}');
    writeFileSync(join(from, 'a', 'b', 'deep.bin'), Buffer.from([0, 1, 2, 255]));
    const to = join(mkdtempSync(join(tmpdir(), 'sp-copy-to-')), 'out');
    await copyTree(from, to);
    expect((await listFiles(to)).map((f) => relative(to, f))).toEqual(['a/b/deep.bin', 'top.json']);
    expect([...readFileSync(join(to, 'a', 'b', 'deep.bin'))]).toEqual([0, 1, 2, 255]);
    expect(readFileSync(join(to, 'top.json'), 'utf8')).toBe('{"x":1}');
    // Copying over an existing file replaces it rather than writing into it: a file linked to it
    // elsewhere (an older cache entry) keeps its content.
    rmSync(join(to, 'top.json'));
    writeFileSync(join(to, 'top.json'), '{"old":1}');
    const elsewhere = join(to, '..', 'elsewhere.json');
    linkSync(join(to, 'top.json'), elsewhere);
    await copyTree(from, to);
    expect(readFileSync(join(to, 'top.json'), 'utf8')).toBe('{"x":1}');
    expect(readFileSync(elsewhere, 'utf8')).toBe('{"old":1}');
    for (const dir of [from, join(to, '..')]) rmSync(dir, { recursive: true, force: true });
  });
});

describe('isLinkedTree', () => {
  it('is true only while the destination holds exactly the linked files of the source', async () => {
    const from = mkdtempSync(join(tmpdir(), 'sp-linked-from-'));
    mkdirSync(join(from, 'index'));
    writeFileSync(join(from, 'entry.json'), '{}');
    writeFileSync(join(from, 'index', 'a.pf'), 'a');
    const to = join(mkdtempSync(join(tmpdir(), 'sp-linked-to-')), 'out');
    expect(await isLinkedTree(from, to)).toBe(false);
    await copyTree(from, to);
    expect(await isLinkedTree(from, to)).toBe(true);
    // A file written beside the copy afterwards: different unless the caller says it is expected.
    writeFileSync(join(to, 'manifest.json'), '{}');
    expect(await isLinkedTree(from, to)).toBe(false);
    expect(await isLinkedTree(from, to, (name) => name === 'manifest.json')).toBe(true);
    // The same bytes, but a copy rather than the linked file: not the cached bundle any more.
    unlinkSync(join(to, 'index', 'a.pf'));
    copyFileSync(join(from, 'index', 'a.pf'), join(to, 'index', 'a.pf'));
    expect(await isLinkedTree(from, to, (name) => name === 'manifest.json')).toBe(false);
    await copyTree(from, to);
    // A file missing from the copy.
    rmSync(join(to, 'entry.json'));
    expect(await isLinkedTree(from, to, (name) => name === 'manifest.json')).toBe(false);
    for (const dir of [from, join(to, '..')]) rmSync(dir, { recursive: true, force: true });
  });
});
