import fs, { existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { linkPageCopies } from '../../../src/lib/fs/linked-page-copies.js';

const root = mkdtempSync(join(tmpdir(), 'sp-copies-'));
/** A folder on another file system than the temporary folder, where the machine has one (a tmpfs at /dev/shm). */
const other = existsSync('/dev/shm') && statSync('/dev/shm').dev !== statSync(root).dev ? mkdtempSync('/dev/shm/sp-copies-') : undefined;
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  if (other) rmSync(other, { recursive: true, force: true });
});

const out = join(root, 'site');
const copies = join(root, 'cache', 'dist');
beforeEach(() => {
  rmSync(out, { recursive: true, force: true });
  rmSync(copies, { recursive: true, force: true });
  mkdirSync(join(out, 'a'), { recursive: true });
  mkdirSync(join(copies, 'a'), { recursive: true });
});

/** What Astro's build does for a page it renders: the page, then the same bytes into its cache (both named by URL). */
async function writePage(rel: string, body: Buffer, into = copies): Promise<void> {
  await fs.promises.writeFile(pathToFileURL(join(out, rel)), body);
  await fs.promises.writeFile(pathToFileURL(join(into, rel)), body);
}

/** Whether two paths are one file. */
const sameFile = (a: string, b: string) => statSync(a).ino === statSync(b).ino && statSync(a).dev === statSync(b).dev;

describe("Astro's copy of each page it renders", () => {
  it('is a second file without the links, and a link to the page with them, until they are removed', async () => {
    await writePage('a/index.html', Buffer.from('<p>one</p>'));
    expect(sameFile(join(out, 'a/index.html'), join(copies, 'a/index.html'))).toBe(false);

    const restore = linkPageCopies(out, copies);
    try {
      await writePage('a/index.html', Buffer.from('<p>two</p>'));
      expect(sameFile(join(out, 'a/index.html'), join(copies, 'a/index.html'))).toBe(true);
      expect(readFileSync(join(copies, 'a/index.html'), 'utf8')).toBe('<p>two</p>');
      // Nothing is left beside it.
      expect(readdirSync(join(copies, 'a'))).toEqual(['index.html']);
    } finally {
      restore();
    }
    await writePage('a/other.html', Buffer.from('<p>three</p>'));
    expect(sameFile(join(out, 'a/other.html'), join(copies, 'a/other.html'))).toBe(false);
    expect(readFileSync(join(copies, 'a/other.html'), 'utf8')).toBe('<p>three</p>');
    // Without the links a page rendered again is written in place, through both names, as Node writes it.
    await writePage('a/index.html', Buffer.from('<p>four</p>'));
    expect(readFileSync(join(copies, 'a/index.html'), 'utf8')).toBe('<p>four</p>');
  });

  it("writes a page rendered again as a new file: its copy keeps the last build's bytes until it is written too", async () => {
    const restore = linkPageCopies(out, copies);
    try {
      await writePage('a/index.html', Buffer.from('first build'));
      const body = Buffer.from('second build');
      await fs.promises.writeFile(pathToFileURL(join(out, 'a/index.html')), body);
      // Had the build stopped here, the cache would still hold what the first build wrote.
      expect(readFileSync(join(copies, 'a/index.html'), 'utf8')).toBe('first build');
      expect(readFileSync(join(out, 'a/index.html'), 'utf8')).toBe('second build');
      await fs.promises.writeFile(pathToFileURL(join(copies, 'a/index.html')), body);
      expect(sameFile(join(out, 'a/index.html'), join(copies, 'a/index.html'))).toBe(true);
      expect(readFileSync(join(copies, 'a/index.html'), 'utf8')).toBe('second build');
      expect(readdirSync(join(out, 'a'))).toEqual(['index.html']);
    } finally {
      restore();
    }
  });

  it('restores a page from the cache as a link to its copy, put in place whole', async () => {
    writeFileSync(join(copies, 'a/index.html'), 'cached page');
    writeFileSync(join(copies, 'a/two.html'), 'second cached page');
    // Where a page is already there, linked to something else: that file keeps what it held.
    writeFileSync(join(root, 'elsewhere.html'), 'elsewhere');
    rmSync(join(out, 'a/two.html'), { force: true });
    linkSync(join(root, 'elsewhere.html'), join(out, 'a/two.html'));
    const restore = linkPageCopies(out, copies);
    try {
      // As Astro restores a page: `copyFile(copy, page)`, named by URL.
      await fs.promises.copyFile(pathToFileURL(join(copies, 'a/index.html')), pathToFileURL(join(out, 'a/index.html')));
      await fs.promises.copyFile(join(copies, 'a/two.html'), join(out, 'a/two.html'));
      expect(sameFile(join(out, 'a/index.html'), join(copies, 'a/index.html'))).toBe(true);
      expect(sameFile(join(out, 'a/two.html'), join(copies, 'a/two.html'))).toBe(true);
      expect(readFileSync(join(root, 'elsewhere.html'), 'utf8')).toBe('elsewhere');
      expect(readdirSync(join(out, 'a')).sort()).toEqual(['index.html', 'two.html']);
      // A copy asked not to replace anything still fails where something is there.
      await expect(fs.promises.copyFile(join(copies, 'a/index.html'), join(out, 'a/two.html'), fs.constants.COPYFILE_EXCL)).rejects.toThrow(/EEXIST/);
      // Copies elsewhere are copies.
      await fs.promises.copyFile(join(copies, 'a/index.html'), join(root, 'copied.html'));
      expect(sameFile(join(copies, 'a/index.html'), join(root, 'copied.html'))).toBe(false);
      // The restored page rendered again: a new file, the copy untouched until it is written.
      await fs.promises.writeFile(join(out, 'a/index.html'), Buffer.from('rendered again'));
      expect(readFileSync(join(copies, 'a/index.html'), 'utf8')).toBe('cached page');
    } finally {
      restore();
    }
    await fs.promises.copyFile(join(copies, 'a/two.html'), join(out, 'a/three.html'));
    expect(sameFile(join(copies, 'a/two.html'), join(out, 'a/three.html'))).toBe(false);
  });

  it('restores a symbolic link in the cache by copying what it is, never by linking it', async () => {
    const secret = join(root, 'secret-restore.txt');
    writeFileSync(secret, 'private!!');
    symlinkSync(secret, join(copies, 'a/index.html'));
    const restore = linkPageCopies(out, copies);
    try {
      await fs.promises.copyFile(join(copies, 'a/index.html'), join(out, 'a/index.html'));
    } finally {
      restore();
    }
    expect(fs.lstatSync(join(out, 'a/index.html')).isSymbolicLink()).toBe(false);
    expect(sameFile(secret, join(out, 'a/index.html'))).toBe(false);
  });

  it('replaces a copy there whole: a file it was linked to keeps what it held', async () => {
    // A copy linked to an older page, as the last build left it.
    writeFileSync(join(out, 'a/old.html'), 'old page');
    linkSync(join(out, 'a/old.html'), join(copies, 'a/index.html'));
    const restore = linkPageCopies(out, copies);
    try {
      await writePage('a/index.html', Buffer.from('new page'));
    } finally {
      restore();
    }
    expect(readFileSync(join(copies, 'a/index.html'), 'utf8')).toBe('new page');
    expect(readFileSync(join(out, 'a/old.html'), 'utf8')).toBe('old page');
    expect(sameFile(join(out, 'a/index.html'), join(copies, 'a/index.html'))).toBe(true);
  });

  it('writes what is not the same bytes just written as a page, and writes nothing else differently', async () => {
    const restore = linkPageCopies(out, copies);
    try {
      // Equal bytes in another Buffer: not known to be the page's.
      await fs.promises.writeFile(join(out, 'a/index.html'), Buffer.from('same'));
      await fs.promises.writeFile(join(copies, 'a/index.html'), Buffer.from('same'));
      expect(sameFile(join(out, 'a/index.html'), join(copies, 'a/index.html'))).toBe(false);
      // A page's bytes written somewhere that is not the cache's copies.
      const body = Buffer.from('elsewhere');
      await fs.promises.writeFile(join(out, 'a/x.html'), body);
      await fs.promises.writeFile(join(root, 'x.html'), body);
      expect(sameFile(join(out, 'a/x.html'), join(root, 'x.html'))).toBe(false);
      // Text (as Astro writes its manifest) and a file handle go through as they were.
      await fs.promises.writeFile(join(copies, 'a/t.json'), '{}');
      expect(readFileSync(join(copies, 'a/t.json'), 'utf8')).toBe('{}');
      const handle = await fs.promises.open(join(copies, 'a/h.txt'), 'w');
      await fs.promises.writeFile(handle, body);
      await handle.close();
      expect(readFileSync(join(copies, 'a/h.txt'), 'utf8')).toBe('elsewhere');
    } finally {
      restore();
    }
  });

  it('never links to what is no longer the page written: a symbolic link put in its place, or another file', async () => {
    const secret = join(root, 'secret.txt');
    writeFileSync(secret, 'private!!');
    const restore = linkPageCopies(out, copies);
    try {
      const body = Buffer.from('the page');
      await fs.promises.writeFile(join(out, 'a/index.html'), body);
      // Between the two writes, the page becomes a link to a file outside the output folder.
      rmSync(join(out, 'a/index.html'));
      symlinkSync(secret, join(out, 'a/index.html'));
      await fs.promises.writeFile(join(copies, 'a/index.html'), body);
      expect(fs.lstatSync(join(copies, 'a/index.html')).isSymbolicLink()).toBe(false);
      expect(readFileSync(join(copies, 'a/index.html'), 'utf8')).toBe('the page');
      expect(sameFile(secret, join(copies, 'a/index.html'))).toBe(false);

      // Replaced by another file of another size.
      const second = Buffer.from('second page');
      await fs.promises.writeFile(join(out, 'a/two.html'), second);
      writeFileSync(join(out, 'a/two.html'), 'tampered with, longer');
      await fs.promises.writeFile(join(copies, 'a/two.html'), second);
      expect(readFileSync(join(copies, 'a/two.html'), 'utf8')).toBe('second page');
    } finally {
      restore();
    }
  });

  it.skipIf(!other)('writes the copy where the cache is on another file system than the page', async () => {
    const far = join(other!, 'dist');
    mkdirSync(join(far, 'a'), { recursive: true });
    const restore = linkPageCopies(out, far);
    try {
      await writePage('a/index.html', Buffer.from('across'), far);
    } finally {
      restore();
    }
    expect(readFileSync(join(far, 'a/index.html'), 'utf8')).toBe('across');
    expect(readdirSync(join(far, 'a'))).toEqual(['index.html']);
  });
});
