import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { canSkip, readSourceDigests, siteInputs, SOURCE_DIGESTS_VARIABLE, sourceDigestsRecord, type BuildFolders } from '../../../src/lib/build/site-inputs.js';

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

describe('source digests handed to the loader', () => {
  /** A source with a project folder named after a user, its digests written where SOURCE_DIGESTS_VARIABLE says. */
  async function handed() {
    const f = folders();
    mkdirSync(join(f.sourceDir, '-home-alice-work'), { recursive: true });
    writeFileSync(join(f.sourceDir, '-home-alice-work', 's.jsonl'), '{"type":"user"}\n');
    const digests = new Map<string, string>();
    await siteInputs(f, digests);
    const file = join(f.cacheDir, 'digests.json');
    writeFileSync(file, JSON.stringify(await sourceDigestsRecord(f.sourceDir, digests)));
    return { f, digests, file, env: { [SOURCE_DIGESTS_VARIABLE]: file } };
  }

  it('are read back by path relative to the source, for that source only', async () => {
    const { f, digests, env } = await handed();
    expect(digests.size).toBe(2);
    const known = await readSourceDigests(f.sourceDir, env);
    for (const [rel, digest] of digests) expect(known?.get(rel)).toBe(digest);
    expect(known?.get('-home-alice-work/other.jsonl')).toBeUndefined();
    // Another source folder, no variable, or a file that is not a record: nothing is taken.
    expect(await readSourceDigests(f.outDir, env)).toBeUndefined();
    expect(await readSourceDigests(f.sourceDir, {})).toBeUndefined();
    writeFileSync(env[SOURCE_DIGESTS_VARIABLE], '{"format":1,"source":');
    expect(await readSourceDigests(f.sourceDir, env)).toBeUndefined();
  });

  it('are found for the source named through a link to it (its real folder decides)', async () => {
    const { f, digests, env } = await handed();
    const linked = join(f.root, 'linked-sessions');
    symlinkSync(f.sourceDir, linked);
    const known = await readSourceDigests(linked, env);
    expect(known?.get('s.jsonl')).toBe(digests.get('s.jsonl'));
  });

  it('name no path: the file sits in the cache, and project folders carry user names', async () => {
    const { f, file } = await handed();
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('alice');
    expect(text).not.toContain('s.jsonl');
    expect(text).not.toContain(f.root);
  });
});
