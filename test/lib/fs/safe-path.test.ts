import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isSafeName, isStrictlyWithin, isWithin, openInside, openInsideSync, readTextInside, unsafeNameReason, UnsafePathError } from '../../../src/lib/fs/safe-path.js';

describe('isSafeName', () => {
  it('accepts the ids real files give', () => {
    for (const name of ['6ad40a5a-7d74-4501-9f1c-2c4cff87cdd9', 'agent-a1b2c3', 'session with spaces', '...', '.hidden', 'a..b', 'ünïcode']) expect(isSafeName(name), name).toBe(true);
  });
  it('refuses names that would leave a folder or break a line', () => {
    for (const name of ['', '.', '..', 'a/b', 'a\\b', '../x', 'x\ny', 'x\ry', 'x\u0000', 'x\u007f', 'x\u0085', 'x\u2028', 'x\u2029', 'x\ty']) {
      expect(isSafeName(name), JSON.stringify(name)).toBe(false);
      expect(unsafeNameReason(name)).toBeTruthy();
    }
  });
});

describe('isWithin', () => {
  it('compares resolved paths, never string prefixes', () => {
    expect(isWithin('/a/b', '/a/b')).toBe(true);
    expect(isWithin('/a/b', '/a/b/c/d')).toBe(true);
    expect(isWithin('/a/b', '/a/bc')).toBe(false);
    expect(isWithin('/a/b', '/a/b/../c')).toBe(false);
    expect(isWithin('/a/b', '/a')).toBe(false);
    expect(isStrictlyWithin('/a/b', '/a/b')).toBe(false);
    expect(isStrictlyWithin('/a/b', '/a/b/c')).toBe(true);
  });
});

/** The folders these tests made, deleted when this file's tests end. */
const tmpDirs: string[] = [];
afterAll(() => {
  for (const dir of tmpDirs) rmSync(dir, { recursive: true, force: true });
});

/**
 * A root (at its real path) holding `real/ok.txt`, with a secret beside it and
 * three links planted inside: to the secret, to the folder holding it, and to
 * a file inside the root.
 */
function plantedRoot(): string {
  const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'sp-safe-path-')));
  tmpDirs.push(tmp);
  const root = join(tmp, 'root');
  mkdirSync(join(root, 'real'), { recursive: true });
  writeFileSync(join(tmp, 'secret.txt'), 'outside');
  writeFileSync(join(root, 'real', 'ok.txt'), 'inside');
  symlinkSync(join(tmp, 'secret.txt'), join(root, 'real', 'link.txt'));
  symlinkSync(tmp, join(root, 'dirlink'));
  symlinkSync(join(root, 'real', 'ok.txt'), join(root, 'inner-link.txt'));
  return root;
}

describe('openInside', () => {
  const root = plantedRoot();

  it('reads a regular file inside the root', async () => {
    expect(await readTextInside(root, join(root, 'real', 'ok.txt'))).toBe('inside');
  });
  it('refuses a file that is a symbolic link, even to a file inside', async () => {
    await expect(readTextInside(root, join(root, 'real', 'link.txt'))).rejects.toBeInstanceOf(UnsafePathError);
    await expect(readTextInside(root, join(root, 'inner-link.txt'))).rejects.toBeInstanceOf(UnsafePathError);
  });
  it('refuses a file reached through a linked folder', async () => {
    await expect(readTextInside(root, join(root, 'dirlink', 'secret.txt'))).rejects.toThrow(/outside the source/);
  });
  it('refuses a path that climbs out by name', async () => {
    await expect(readTextInside(root, join(root, '..', 'secret.txt'))).rejects.toThrow(/outside the source/);
  });
  it('refuses a folder', async () => {
    await expect(openInside(root, join(root, 'real'))).rejects.toThrow(/not a regular file/);
  });
});

describe('openInsideSync', () => {
  const root = plantedRoot();
  const read = (path: string) => {
    const { fd, size } = openInsideSync(root, path);
    try {
      return readFileSync(fd, 'utf8') + `:${size}`;
    } finally {
      closeSync(fd);
    }
  };

  it('reads a regular file inside the real root and gives its size', () => {
    expect(read(join(root, 'real', 'ok.txt'))).toBe('inside:6');
  });
  it('refuses a linked file, a file through a linked folder, a climb by name and a folder', () => {
    expect(() => read(join(root, 'real', 'link.txt'))).toThrow(/symbolic link; not followed/);
    expect(() => read(join(root, 'inner-link.txt'))).toThrow(/symbolic link; not followed/);
    expect(() => read(join(root, 'dirlink', 'secret.txt'))).toThrow(/outside the source/);
    expect(() => read(join(root, '..', 'secret.txt'))).toThrow(/outside the source/);
    expect(() => read(join(root, 'real'))).toThrow(/not a regular file/);
  });
});

describe('a FIFO planted in the tree', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'sp-safe-path-fifo-'));
  tmpDirs.push(tmp);
  const fifo = join(tmp, 'session.jsonl');
  execFileSync('mkfifo', [fifo]);
  // Opened without O_NONBLOCK, a FIFO with no writer blocks the open forever: these would time out.
  it('is refused at once, never waited on', async () => {
    await expect(openInside(tmp, fifo)).rejects.toThrow(/not a regular file/);
    expect(() => openInsideSync(realpathSync(tmp), fifo)).toThrow(/not a regular file/);
  });
});

describe('a root named through a link', () => {
  const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'sp-safe-path-named-')));
  tmpDirs.push(tmp);
  mkdirSync(join(tmp, 'real-root'));
  writeFileSync(join(tmp, 'real-root', 'a.txt'), 'a');
  symlinkSync(join(tmp, 'real-root'), join(tmp, 'named-root'));
  it('reads files below it, named through the link or by their real path: where the user keeps the root is their choice', async () => {
    expect(await readTextInside(join(tmp, 'named-root'), join(tmp, 'named-root', 'a.txt'))).toBe('a');
    expect(await readTextInside(join(tmp, 'named-root'), join(tmp, 'real-root', 'a.txt'))).toBe('a');
  });
});
