import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildUnlessUnchanged } from '../../../scripts/lib/last-build.js';
import { BUILD_FACTS_VARIABLE, FINISH_PLAN_VARIABLE, readSourceDigests, siteInputs, SOURCE_DIGESTS_VARIABLE, type BuildFolders } from '../../../src/lib/build/site-inputs.js';
import { digestFilesInside } from '../../../src/lib/fs/tree-digest.js';

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A project with a source, an output folder and a cache, and a stand-in for Astro's build that does what the integration does. */
function project(extra: Partial<BuildFolders> = {}) {
  const work = mkdtempSync(join(tmpdir(), 'sp-last-build-'));
  made.push(work);
  const folders: BuildFolders = {
    root: join(work, 'app'),
    sourceDir: join(work, 'source'),
    outDir: join(work, 'site'),
    cacheDir: join(work, 'cache'),
    encrypt: false,
    ...extra,
  };
  mkdirSync(join(folders.sourceDir, '-home-u-p'), { recursive: true });
  mkdirSync(folders.root, { recursive: true });
  writeFileSync(join(folders.sourceDir, '-home-u-p', 's.jsonl'), '{"type":"user"}\n');
  const builds: Array<Record<string, string>> = [];
  /** What the facts file held when each build started (the inputs the command digested before it). */
  const given: Array<string | undefined> = [];
  /** The source digests handed to each build, as the loader reads them: each session file's, by its path relative to the source. */
  const handed: Array<Record<string, string | undefined> | undefined> = [];
  const lines: string[] = [];
  let result = 0;
  /** What each build hands over for the command to finish with (src/integrations/finish.ts), if anything. */
  let handOver: ((planFile: string) => void) | undefined;
  /** The source's size the build reports, when not the small source's own. */
  let reportedBytes: number | undefined;
  const run = (env: NodeJS.ProcessEnv = {}, args: string[] = ['--outDir', folders.outDir], always = false) =>
    buildUnlessUnchanged({
      stampDir: folders.cacheDir,
      args,
      always,
      env,
      out: (line) => lines.push(line),
      shown: (dir) => dir,
      build: async (vars) => {
        builds.push(vars);
        given.push(existsSync(vars[BUILD_FACTS_VARIABLE]) ? readFileSync(vars[BUILD_FACTS_VARIABLE], 'utf8') : undefined);
        const known = await readSourceDigests(folders.sourceDir, vars);
        handed.push(known && Object.fromEntries(['-home-u-p/s.jsonl', '-home-u-p/t.jsonl'].map((rel) => [rel, known.get(rel)])));
        // What the integration does before the loader reads anything, then the pages.
        mkdirSync(folders.cacheDir, { recursive: true });
        const inputs = await siteInputs(folders);
        writeFileSync(vars[BUILD_FACTS_VARIABLE], JSON.stringify({ ...inputs, sourceBytes: reportedBytes ?? inputs.sourceBytes }));
        mkdirSync(folders.outDir, { recursive: true });
        writeFileSync(join(folders.outDir, 'index.html'), '<p>site</p>');
        handOver?.(vars[FINISH_PLAN_VARIABLE]);
        return result;
      },
    });
  return { folders, builds, given, handed, lines, run, fail: (code: number) => (result = code), handOver: (write: typeof handOver) => (handOver = write), reportSize: (bytes: number) => (reportedBytes = bytes) };
}

describe('buildUnlessUnchanged', () => {
  it('builds, then answers a rebuild with nothing changed in one line without building', async () => {
    const p = project();
    expect(await p.run()).toMatchObject({ code: 0, skipped: false });
    const again = await p.run();
    expect(again).toMatchObject({ code: 0, skipped: true, folders: p.folders });
    expect(p.builds).toHaveLength(1);
    expect(p.lines).toEqual([`Nothing changed since the last build: ${p.folders.outDir} is up to date (1 session file, 0.0 MB, checked in ${/checked in ([\d.]+) s/.exec(p.lines[0])![1]} s; --force builds it again).`]);
  });

  it('builds again when a session, the project, the output, the arguments, a variable or --force differ', async () => {
    const p = project();
    await p.run();
    const built = () => p.builds.length;
    const cases: Array<[string, () => Promise<unknown>]> = [
      ['a session edited', async () => (writeFileSync(join(p.folders.sourceDir, '-home-u-p', 's.jsonl'), '{"type":"user"}\n{"type":"assistant"}\n'), p.run())],
      ['a new session', async () => (writeFileSync(join(p.folders.sourceDir, '-home-u-p', 't.jsonl'), '{}\n'), p.run())],
      ['a project file', async () => (writeFileSync(join(p.folders.root, 'astro.config.mjs'), 'export default {}'), p.run())],
      ['a page changed in the output', async () => (writeFileSync(join(p.folders.outDir, 'index.html'), '<p>SITE</p>'), p.run())],
      ['a file added to the output', async () => (writeFileSync(join(p.folders.outDir, 'extra.html'), 'x'), p.run())],
      ['the output removed', async () => (rmSync(p.folders.outDir, { recursive: true }), p.run())],
      // Each case changes one thing against the build just before it.
      ['a SESSIONPRESS_ variable', () => p.run({ SESSIONPRESS_SITE: 'https://y.example' })],
      ['another argument', () => p.run({ SESSIONPRESS_SITE: 'https://y.example' }, ['--outDir', p.folders.outDir, '--site', 'https://x.example'])],
      ['--force', () => p.run({ SESSIONPRESS_SITE: 'https://y.example' }, ['--outDir', p.folders.outDir, '--site', 'https://x.example'], true)],
      ['SESSIONPRESS_ALWAYS_BUILD=1', () => p.run({ SESSIONPRESS_SITE: 'https://y.example', SESSIONPRESS_ALWAYS_BUILD: '1' })],
    ];
    for (const [what, change] of cases) {
      const before = built();
      await change();
      expect(built(), what).toBe(before + 1);
    }
    // The last build is recorded like any other: unchanged again, not built.
    expect(await p.run({ SESSIONPRESS_SITE: 'https://y.example' })).toMatchObject({ skipped: true });
  });

  it('hands a build that must run the inputs it digested before starting it, and nothing from an older build', async () => {
    const p = project();
    await p.run();
    expect(p.given[0]).toBeUndefined();
    writeFileSync(join(p.folders.sourceDir, '-home-u-p', 's.jsonl'), '{"type":"user"}\n{"type":"user"}\n');
    const expected = await siteInputs(p.folders);
    await p.run();
    expect(JSON.parse(p.given[1]!)).toEqual(expected);
    // Another argument: the record is not this build's, nothing is handed over.
    await p.run({}, ['--outDir', p.folders.outDir, '--verbose']);
    expect(p.given[2]).toBeUndefined();
  });

  it('hands a rebuild the digest of every source file it read to decide, under no path name, and removes them after', async () => {
    const p = project();
    await p.run();
    // A first build has read nothing: the loader digests the files itself.
    expect(p.handed[0]).toBeUndefined();
    expect(p.builds[0][SOURCE_DIGESTS_VARIABLE]).toBeUndefined();
    writeFileSync(join(p.folders.sourceDir, '-home-u-p', 's.jsonl'), '{"type":"user"}\n{"type":"user"}\n');
    writeFileSync(join(p.folders.sourceDir, '-home-u-p', 't.jsonl'), '{}\n');
    await p.run();
    const [s, t] = await digestFilesInside(p.folders.sourceDir, ['-home-u-p/s.jsonl', '-home-u-p/t.jsonl'].map((rel) => join(p.folders.sourceDir, rel)));
    expect(p.handed[1]).toEqual({ '-home-u-p/s.jsonl': s, '-home-u-p/t.jsonl': t });
    // Gone once the build ends, failed or not: the next build digests again.
    expect(existsSync(p.builds[1][SOURCE_DIGESTS_VARIABLE])).toBe(false);
    p.fail(1);
    writeFileSync(join(p.folders.sourceDir, '-home-u-p', 't.jsonl'), '{"x":1}\n');
    await p.run();
    expect(p.handed[2]).toBeDefined();
    expect(existsSync(p.builds[2][SOURCE_DIGESTS_VARIABLE])).toBe(false);
  });

  it('ignores variables that change nothing built: the log level, and the password of an encrypted site', async () => {
    const p = project();
    await p.run({ SESSIONPRESS_VERBOSE: '1' });
    expect(await p.run({ SESSIONPRESS_VERBOSE: '0' })).toMatchObject({ skipped: true });
  });

  it('records nothing for a failed build: the next one builds', async () => {
    const p = project();
    p.fail(1);
    expect(await p.run()).toMatchObject({ code: 1, skipped: false });
    p.fail(0);
    await p.run();
    expect(p.builds).toHaveLength(2);
  });

  it('always builds an encrypted site, and one whose pages read a git history', async () => {
    for (const extra of [{ encrypt: true }, { repo: '/some/checkout' }]) {
      const p = project(extra);
      await p.run();
      await p.run();
      expect(p.builds, JSON.stringify(extra)).toHaveLength(2);
    }
  });

  it('never skips when the output folder holds a link: the build removes it', async () => {
    const p = project();
    await p.run();
    const { symlinkSync } = await import('node:fs');
    symlinkSync('/etc/hostname', join(p.folders.outDir, 'planted'));
    await p.run();
    expect(p.builds).toHaveLength(2);
  });

  it('finishes a build that handed over its last steps after it has ended, before the output is recorded, and records nothing when they fail', async () => {
    const p = project();
    const stray = join(p.folders.outDir, 'stray.html');
    const state = join(p.folders.cacheDir, 'out-dir.json');
    p.handOver((plan) => {
      writeFileSync(stray, 'left by an earlier build');
      writeFileSync(plan, JSON.stringify({ format: 1, ledger: [join(p.folders.outDir, 'index.html')], outDir: { root: p.folders.outDir, stateFile: state, outDir: p.folders.outDir } }));
    });
    expect(await p.run()).toMatchObject({ code: 0, skipped: false });
    expect(existsSync(stray)).toBe(false);
    expect(existsSync(state)).toBe(true);
    // The output was recorded as the finished build left it: the next run has nothing to do.
    p.handOver(undefined);
    expect(await p.run()).toMatchObject({ code: 0, skipped: true });

    // A step that fails fails the build: nothing is recorded, and the next run builds.
    const q = project();
    q.handOver((plan) => writeFileSync(plan, JSON.stringify({ format: 1, ledger: [], search: { outDir: q.folders.outDir, html: [join(q.folders.outDir, 'missing.html')], cacheDir: join(q.folders.cacheDir, 'pf'), shardBytes: 1e6 } })));
    expect(await q.run()).toMatchObject({ code: 1, skipped: false });
    q.handOver(undefined);
    expect(await q.run()).toMatchObject({ code: 0, skipped: false });
    expect(q.builds).toHaveLength(2);
  });

  it("has the build give the bundler's memory back (MIMALLOC_PURGE_DELAY=0) on a first build and after a large source's, not after a small one's, never over the user's setting", async () => {
    const p = project();
    const purge = (i: number) => p.builds[i].MIMALLOC_PURGE_DELAY;
    // A first build does not know the source's size yet.
    await p.run({}, undefined, true);
    expect(purge(0)).toBe('0');
    // The bench corpus's size (264 MB): the peak is the loader's, before any bundling.
    p.reportSize(264e6);
    await p.run({}, undefined, true);
    await p.run({}, undefined, true);
    expect(purge(2)).toBeUndefined();
    // Four times that, as the last build reported it.
    p.reportSize(4 * 264e6);
    await p.run({}, undefined, true);
    await p.run({}, undefined, true);
    expect(purge(4)).toBe('0');
    // The user's own value is the process's already: nothing is set over it.
    await p.run({ MIMALLOC_PURGE_DELAY: '10' }, undefined, true);
    expect(purge(5)).toBeUndefined();
    // A record from another build's arguments still tells the size.
    await p.run({}, ['--outDir', p.folders.outDir, '--verbose']);
    expect(purge(6)).toBe('0');
  });
});
