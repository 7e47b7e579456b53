import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { emptyTrash, setAside, trashOf } from '../../../../scripts/lib/bench/set-aside.js';

const bench = mkdtempSync(join(tmpdir(), 'sp-aside-'));
afterAll(() => rmSync(bench, { recursive: true, force: true }));

describe("a bench's earlier runs", () => {
  it('are moved aside whole, deleting nothing, until the trash is emptied', async () => {
    const trash = trashOf(bench);
    const dist = join(bench, 'dist');
    mkdirSync(join(dist, 'sessions'), { recursive: true });
    writeFileSync(join(dist, 'sessions', 'index.html'), 'run 1');
    const inode = statSync(join(dist, 'sessions', 'index.html')).ino;
    await setAside(dist, trash);
    expect(existsSync(dist)).toBe(false);
    // The same files, moved (not copied, not deleted).
    const [first] = readdirSync(trash);
    expect(statSync(join(trash, first, 'sessions', 'index.html')).ino).toBe(inode);

    // A second run's output of the same name goes beside the first.
    mkdirSync(dist);
    writeFileSync(join(dist, 'index.html'), 'run 2');
    await setAside(dist, trash);
    const names = readdirSync(trash);
    expect(names).toHaveLength(2);
    expect(names.map((n) => existsSync(join(trash, n, 'index.html')) && readFileSync(join(trash, n, 'index.html'), 'utf8')).filter(Boolean)).toEqual(['run 2']);

    // Nothing there: nothing to do.
    await setAside(join(bench, 'missing'), trash);
    expect(readdirSync(trash)).toHaveLength(2);

    await emptyTrash(trash);
    expect(existsSync(trash)).toBe(false);
  });
});
