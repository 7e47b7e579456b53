import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { canSkip, siteInputs, type BuildFolders } from '../../../src/lib/build/site-inputs.js';

const work = mkdtempSync(join(tmpdir(), 'sp-site-inputs-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A template-like project holding its output, cache and source folders, and a config file beside it. */
function folders(): BuildFolders {
  const root = mkdtempSync(join(work, 'project-'));
  const f: BuildFolders = { root, sourceDir: join(root, 'sessions'), outDir: join(root, 'dist'), cacheDir: join(root, 'cache'), configFile: join(work, `${root.slice(-6)}.json`), encrypt: false };
  for (const d of [f.sourceDir, f.outDir, f.cacheDir, join(root, 'src'), join(root, 'node_modules'), join(root, '.astro')]) mkdirSync(d, { recursive: true });
  writeFileSync(join(f.sourceDir, 's.jsonl'), '{"type":"user"}\n');
  writeFileSync(join(root, 'src', 'page.astro'), '<p>page</p>');
  writeFileSync(f.configFile!, '{}');
  return f;
}

describe('siteInputs', () => {
  it('changes with a session, a project file or the config file, and counts the sessions', async () => {
    const f = folders();
    const first = await siteInputs(f);
    expect(first).toMatchObject({ sourceFiles: 1, sourceBytes: 16, folders: f });
    expect((await siteInputs(f)).digest).toBe(first.digest);
    const seen = new Set([first.digest]);
    writeFileSync(join(f.sourceDir, 's.jsonl'), '{"type":"user"}\n{"type":"assistant"}\n');
    seen.add((await siteInputs(f)).digest);
    writeFileSync(join(f.root, 'src', 'page.astro'), '<p>page, edited</p>');
    seen.add((await siteInputs(f)).digest);
    writeFileSync(f.configFile!, '{"title":"x"}');
    seen.add((await siteInputs(f)).digest);
    expect(seen.size).toBe(4);
  });

  it('does not read the output, the cache, node_modules or dot folders as inputs', async () => {
    const f = folders();
    const before = (await siteInputs(f)).digest;
    for (const d of [f.outDir, f.cacheDir, join(f.root, 'node_modules'), join(f.root, '.astro')]) writeFileSync(join(d, 'written-by-a-build'), 'x');
    expect((await siteInputs(f)).digest).toBe(before);
  });

  it('is another digest for another folder of the same content', async () => {
    const f = folders();
    const other = { ...f, outDir: join(f.root, 'elsewhere') };
    expect((await siteInputs(other)).digest).not.toBe((await siteInputs(f)).digest);
  });
});

describe('canSkip', () => {
  it('never skips an encrypted site or one that reads a git history', () => {
    const f = { root: '/p', sourceDir: '/s', outDir: '/o', cacheDir: '/c', encrypt: false };
    expect(canSkip(f)).toBe(true);
    expect(canSkip({ ...f, encrypt: true })).toBe(false);
    expect(canSkip({ ...f, repo: '/checkout' })).toBe(false);
  });
});
