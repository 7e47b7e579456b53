import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSafeTarget, isTemporaryFile } from '../../../src/lib/fs/safe-write.js';
import { UnsafePathError } from '../../../src/lib/fs/safe-path.js';

describe('createSafeTarget', () => {
  let tmp: string;
  let target: string;
  let victim: string;
  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), 'sp-safe-write-'));
    target = join(tmp, 'target');
    victim = join(tmp, 'victim');
    mkdirSync(victim);
    writeFileSync(join(victim, '.bashrc'), 'original\n');
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  it('writes whole files below the target, creating folders, and replaces by rename', async () => {
    const t = createSafeTarget(target);
    await t.writeFile(join(target, 'a', 'b.txt'), 'one');
    const before = lstatSync(join(target, 'a', 'b.txt')).ino;
    await t.writeFile(join(target, 'a', 'b.txt'), 'two');
    expect(readFileSync(join(target, 'a', 'b.txt'), 'utf8')).toBe('two');
    // A new file, not the old one rewritten in place: a reader of the old one never sees half of the new.
    expect(lstatSync(join(target, 'a', 'b.txt')).ino).not.toBe(before);
    expect(readdirSync(join(target, 'a'))).toEqual(['b.txt']);
  });

  it('knows its own temporary files, and takes no other name for one', async () => {
    const t = createSafeTarget(target);
    const staged = await t.stageFile(join(target, 'a', 'session.jsonl'), 'x');
    expect(isTemporaryFile(staged)).toBe(true);
    for (const name of ['session.jsonl', '.session.jsonl', '.session.jsonl.tmp', 'session.123.abc.tmp', '.session.jsonl.12a.abc.tmp', '.session.jsonl.123.xyz.tmp']) expect(isTemporaryFile(join(target, 'a', name)), name).toBe(false);
  });

  it('refuses paths outside the target and the target itself', async () => {
    const t = createSafeTarget(target);
    await expect(t.writeFile(join(target, '..', 'victim', 'x'), 'x')).rejects.toBeInstanceOf(UnsafePathError);
    await expect(t.remove(target)).rejects.toBeInstanceOf(UnsafePathError);
    await expect(t.remove(join(target, '..'))).rejects.toBeInstanceOf(UnsafePathError);
    await expect(t.remove(join(target, '..', 'victim'))).rejects.toBeInstanceOf(UnsafePathError);
    expect(existsSync(join(victim, '.bashrc'))).toBe(true);
  });

  it('refuses a target that is a symbolic link', async () => {
    symlinkSync(victim, target);
    const t = createSafeTarget(target);
    await expect(t.writeFile(join(target, 'x.jsonl'), 'x')).rejects.toThrow(/symbolic link/);
    await expect(t.appendFile(join(target, '.bashrc'), 'evil\n')).rejects.toThrow(/symbolic link/);
    await expect(t.remove(join(target, '.bashrc'))).rejects.toThrow(/symbolic link/);
    expect(readdirSync(victim)).toEqual(['.bashrc']);
    expect(readFileSync(join(victim, '.bashrc'), 'utf8')).toBe('original\n');
  });

  it('refuses a linked folder on the way', async () => {
    mkdirSync(target);
    symlinkSync(victim, join(target, 'project'));
    const t = createSafeTarget(target);
    await expect(t.writeFile(join(target, 'project', 's.jsonl'), 'x')).rejects.toThrow(/symbolic link/);
    await expect(t.remove(join(target, 'project', '.bashrc'))).rejects.toThrow(/symbolic link/);
    expect(readdirSync(victim)).toEqual(['.bashrc']);
  });

  it('replaces a file that is a link with a file, never writing through it', async () => {
    mkdirSync(target);
    symlinkSync(join(victim, '.bashrc'), join(target, 'capture.log'));
    const t = createSafeTarget(target);
    await t.writeFile(join(target, 'capture.log'), 'mine\n');
    expect(readFileSync(join(victim, '.bashrc'), 'utf8')).toBe('original\n');
    expect(lstatSync(join(target, 'capture.log')).isSymbolicLink()).toBe(false);
  });

  it('never appends through a link', async () => {
    mkdirSync(target);
    symlinkSync(join(victim, '.bashrc'), join(target, 'capture.log'));
    const t = createSafeTarget(target);
    await expect(t.appendFile(join(target, 'capture.log'), 'evil\n')).rejects.toThrow(/symbolic link/);
    expect(readFileSync(join(victim, '.bashrc'), 'utf8')).toBe('original\n');
  });

  it('removes a link itself, never what it points at', async () => {
    mkdirSync(target);
    symlinkSync(victim, join(target, 'old-session'));
    await createSafeTarget(target).remove(join(target, 'old-session'));
    expect(existsSync(join(target, 'old-session'))).toBe(false);
    expect(readFileSync(join(victim, '.bashrc'), 'utf8')).toBe('original\n');
  });

  it('stages beside the file and swaps it in; a staged file left behind is not the file', async () => {
    const t = createSafeTarget(target);
    await t.writeFile(join(target, 's.jsonl'), 'old');
    const staged = await t.stageFile(join(target, 's.jsonl'), 'new');
    expect(readFileSync(join(target, 's.jsonl'), 'utf8')).toBe('old');
    await t.swapIn(staged, join(target, 's.jsonl'));
    expect(readFileSync(join(target, 's.jsonl'), 'utf8')).toBe('new');
    expect(readdirSync(target)).toEqual(['s.jsonl']);
  });
});
