import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { digestFilesInside, digestTree } from '../../../src/lib/fs/tree-digest.js';

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A folder with a few files and a subfolder. */
function tree(): string {
  const root = mkdtempSync(join(tmpdir(), 'sp-tree-'));
  made.push(root);
  mkdirSync(join(root, 'a', 'b'), { recursive: true });
  writeFileSync(join(root, 'one.jsonl'), '{"type":"user"}\n');
  writeFileSync(join(root, 'a', 'two.txt'), 'two');
  writeFileSync(join(root, 'a', 'b', 'three.txt'), 'x'.repeat(9 * 1024 * 1024));
  return root;
}

describe('digestTree', () => {
  it('counts every file and byte, and gives the same digest for the same content', async () => {
    const root = tree();
    const first = await digestTree(root);
    expect(first).toMatchObject({ files: 3, bytes: 16 + 3 + 9 * 1024 * 1024, links: 0 });
    expect((await digestTree(root)).digest).toBe(first.digest);
  });

  it('is decided by content, never by modification times', async () => {
    const root = tree();
    const before = (await digestTree(root)).digest;
    utimesSync(join(root, 'a', 'two.txt'), new Date('2001-01-01'), new Date('2001-01-01'));
    writeFileSync(join(root, 'one.jsonl'), '{"type":"user"}\n');
    expect((await digestTree(root)).digest).toBe(before);
    // Same size, other bytes, in a file hashed in pieces and in one read whole.
    writeFileSync(join(root, 'a', 'two.txt'), 'owt');
    const edited = (await digestTree(root)).digest;
    expect(edited).not.toBe(before);
    writeFileSync(join(root, 'a', 'b', 'three.txt'), `${'x'.repeat(9 * 1024 * 1024 - 1)}y`);
    expect((await digestTree(root)).digest).not.toBe(edited);
  });

  it('sees a renamed file, a new empty folder and a removed file', async () => {
    const root = tree();
    const digests = new Set([(await digestTree(root)).digest]);
    writeFileSync(join(root, 'a', 'two-renamed.txt'), 'two');
    rmSync(join(root, 'a', 'two.txt'));
    digests.add((await digestTree(root)).digest);
    mkdirSync(join(root, 'empty'));
    digests.add((await digestTree(root)).digest);
    rmSync(join(root, 'one.jsonl'));
    digests.add((await digestTree(root)).digest);
    expect(digests.size).toBe(4);
  });

  it('names a link but never follows it: what it points at outside is not read', async () => {
    const root = tree();
    const outside = mkdtempSync(join(tmpdir(), 'sp-outside-'));
    made.push(outside);
    writeFileSync(join(outside, 'secret.txt'), 'first');
    mkdirSync(join(outside, 'folder'));
    writeFileSync(join(outside, 'folder', 'inner.txt'), 'inner');
    symlinkSync(join(outside, 'secret.txt'), join(root, 'a', 'link.txt'));
    symlinkSync(join(outside, 'folder'), join(root, 'linked-folder'));
    const linked = await digestTree(root);
    expect(linked).toMatchObject({ files: 3, links: 2 });
    writeFileSync(join(outside, 'secret.txt'), 'second, longer');
    writeFileSync(join(outside, 'folder', 'inner.txt'), 'changed');
    expect((await digestTree(root)).digest).toBe(linked.digest);
  });

  it('does not descend into skipped folders, and gives a missing folder a digest of its own', async () => {
    const root = tree();
    const skip = (path: string, name: string) => name === 'node_modules' || path === join(root, 'a');
    const before = await digestTree(root, { skip });
    expect(before.files).toBe(1);
    writeFileSync(join(root, 'a', 'two.txt'), 'changed');
    mkdirSync(join(root, 'node_modules'));
    writeFileSync(join(root, 'node_modules', 'x.js'), 'x');
    expect((await digestTree(root, { skip })).digest).toBe(before.digest);
    const missing = await digestTree(join(root, 'nowhere'));
    expect(missing.files).toBe(0);
    const empty = mkdtempSync(join(tmpdir(), 'sp-empty-'));
    made.push(empty);
    expect(missing.digest).not.toBe((await digestTree(empty)).digest);
  });
});

describe('digestTree of a single file', () => {
  it('digests a file given as the root, and names a link given as the root without reading it', async () => {
    const root = tree();
    const file = join(root, 'a', 'two.txt');
    const one = await digestTree(file);
    expect(one).toMatchObject({ files: 1, bytes: 3, links: 0 });
    writeFileSync(file, 'owt');
    expect((await digestTree(file)).digest).not.toBe(one.digest);
    const link = join(root, 'link.json');
    symlinkSync(file, link);
    const linked = await digestTree(link);
    expect(linked).toMatchObject({ files: 0, links: 1 });
    writeFileSync(file, 'two, longer');
    expect((await digestTree(link)).digest).toBe(linked.digest);
  });
});

describe('digestFilesInside', () => {
  it('changes with the content, not with the size or the time, and is undefined for a missing file', async () => {
    const root = tree();
    const f = join(root, 'a', 'two.txt');
    const [first] = await digestFilesInside(root, [f]);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    writeFileSync(f, 'two');
    utimesSync(f, new Date(2001, 1, 1), new Date(2001, 1, 1));
    expect(await digestFilesInside(root, [f])).toEqual([first]);
    writeFileSync(f, 'owt');
    expect((await digestFilesInside(root, [f]))[0]).not.toBe(first);
    expect(await digestFilesInside(root, [join(root, 'missing')])).toEqual([undefined]);
  });

  it('reads a large file in pieces to the same digest as a small one of the same bytes would have', async () => {
    const root = tree();
    const big = join(root, 'a', 'b', 'three.txt');
    const copy = join(root, 'copy.txt');
    writeFileSync(copy, 'x'.repeat(9 * 1024 * 1024));
    const [a, b] = await digestFilesInside(root, [big, copy]);
    expect(a).toBe(b);
  });

  it('reads nothing through a link or outside the root: those have no digest', async () => {
    const root = tree();
    const outside = mkdtempSync(join(tmpdir(), 'sp-tree-outside-'));
    made.push(outside);
    writeFileSync(join(outside, 'secret.jsonl'), 'secret');
    symlinkSync(join(outside, 'secret.jsonl'), join(root, 'linked.jsonl'));
    symlinkSync(outside, join(root, 'linked-folder'));
    const digests = await digestFilesInside(root, [join(root, 'linked.jsonl'), join(root, 'linked-folder', 'secret.jsonl'), join(outside, 'secret.jsonl'), join(root, 'one.jsonl')]);
    expect(digests.slice(0, 3)).toEqual([undefined, undefined, undefined]);
    expect(digests[3]).toMatch(/^[0-9a-f]{64}$/);
  });

  it('takes files named below a linked name of the root (where the user keeps the source is their choice)', async () => {
    const root = tree();
    const named = `${root}-named`;
    symlinkSync(root, named);
    made.push(named);
    const [viaName] = await digestFilesInside(named, [join(named, 'one.jsonl')]);
    const [direct] = await digestFilesInside(root, [join(root, 'one.jsonl')]);
    expect(viaName).toBeDefined();
    expect(viaName).toBe(direct);
  });
});

describe('digests handed over between digestTree and digestFilesInside', () => {
  it('digestTree gives each file\'s digest by its path relative to the root, as digestFilesInside computes it', async () => {
    const root = tree();
    const fileDigests = new Map<string, string>();
    await digestTree(root, { fileDigests });
    const rels = ['a/b/three.txt', 'a/two.txt', 'one.jsonl'];
    expect([...fileDigests.keys()].sort()).toEqual(rels);
    expect(rels.map((r) => fileDigests.get(r))).toEqual(await digestFilesInside(root, rels.map((r) => join(root, r))));
  });

  it('digestFilesInside takes a known digest as given and reads only the files it does not know', async () => {
    const root = tree();
    const paths = ['one.jsonl', 'a/two.txt'].map((r) => join(root, r));
    const [, two] = await digestFilesInside(root, paths);
    const given = 'f'.repeat(64);
    const asked: string[] = [];
    const known = { get: (rel: string) => (asked.push(rel), rel === 'one.jsonl' ? given : undefined) };
    expect(await digestFilesInside(root, paths, known)).toEqual([given, two]);
    expect(asked).toEqual(['one.jsonl', 'a/two.txt']);
  });
});
