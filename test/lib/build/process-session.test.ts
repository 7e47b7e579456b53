import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { discoverSources } from '../../../src/lib/discover.js';
import { assignSiblingAgents } from '../../../src/lib/build/open-session.js';
import { makeLargeSession } from '../../../scripts/lib/bench/large-session.js';
import { CLEAN_STRINGS_MIN_BYTES, processSession, type SessionJob } from '../../../src/lib/build/process-session.js';
import { createRenderCache } from '../../../src/lib/build/render-cache.js';
import { loadConfig } from '../../../src/schemas/config.js';
import { fixturePath, fixturesRoot, loadExpect, repoRoot } from '../../helpers/shared.js';

/** A render's twin as the site serves it. */
const markdownOf = (cache: ReturnType<typeof createRenderCache>, key: string) => new Response(cache.markdownStream(key)).text();

const work = mkdtempSync(join(tmpdir(), 'sp-process-session-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const E = loadExpect();
const config = loadConfig(repoRoot, { SESSIONPRESS_SOURCE: fixturesRoot });

describe('processSession', () => {
  it('stores a session small: its overview data and its problems go to the render cache, only their counts to the entry', async () => {
    const layout = await discoverSources(fixturesRoot);
    const owners = await assignSiblingAgents(layout);
    // The malformed fixture: a conversation with bad lines, so it has problems and prompts.
    const source = layout.sessions.find((s) => s.path === resolve(fixturePath(E.malformed.file)))!;
    expect(source).toBeDefined();
    const result = await processSession({
      source,
      projectRoot: repoRoot,
      cacheDir: work,
      root: fixturesRoot,
      siblingAgents: owners.get(source.sessionId) ?? [],
      cacheKey: 'k',
      redaction: config.redaction,
      render: { pageSize: config.pageSize, assetBase: '/a/', indexToolOutput: true, indexThinking: false },
    });
    if (!result.ok) throw new Error(`not processed: ${result.reason}`);
    expect(result.problems.length).toBeGreaterThanOrEqual(E.malformed.bad_lines.length);
    for (const b of E.malformed.bad_lines) expect(result.problems.some((d) => d.line === b.line)).toBe(true);

    // The entry counts the problems and has none of the lists that grow with a session.
    expect(result.data.diagnostics.total).toBe(result.problems.length);
    expect(Object.keys(result.data.diagnostics).sort()).toEqual(['badLines', 'sourceFile', 'total']);
    expect(result.data).not.toHaveProperty('toc');
    expect(result.data).not.toHaveProperty('overview');

    // The pages read them back from the render, as the worker had them.
    const details = await createRenderCache(work).readDetails('k');
    expect(details.problems).toEqual(result.problems);
    expect(details.toc.length).toBe(result.data.facts.promptCount);
    expect(details.toc.length).toBeGreaterThan(0);
    expect(details.overview).toMatchObject({ files: expect.any(Array), subagents: expect.any(Array), commits: expect.any(Array) });
  }, 60_000);
});

describe('processSession of a grown session', () => {
  const LEARNT = 'Kx7Qm2Vw9Rt4';
  const TOKEN = 'ghp_' + 'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z05';
  /** A user line chained on the file's last line, as Claude Code appends one. */
  const appendPrompt = (file: string, uuid: string, text: string) => {
    const last = JSON.parse(readFileSync(file, 'utf8').trimEnd().split('\n').at(-1)!);
    const line = { parentUuid: last.uuid, isSidechain: false, type: 'user', sessionId: last.sessionId, cwd: last.cwd, message: { role: 'user', content: text }, uuid, timestamp: '2026-10-02T08:00:00.000Z' };
    appendFileSync(file, JSON.stringify(line) + '\n');
  };

  /** The job of the one session below `dir`, rendered under `cacheKey` (after render `previousKey`). */
  const jobOf =
    (dir: string, cacheDir: string) =>
    async (cacheKey: string, previousKey?: string): Promise<SessionJob> => {
      const source = (await discoverSources(dir)).sessions[0];
      const render = { pageSize: config.pageSize, assetBase: '/a/', indexToolOutput: true, indexThinking: false };
      return { source, projectRoot: repoRoot, cacheDir, root: dir, siblingAgents: [], cacheKey, redaction: config.redaction, render, renderSalt: 'salt', ...(previousKey ? { previousKey } : {}) };
    };

  it('keeps its clean strings as digests, and redacts the old lines with what the new ones teach, as a build from scratch does', async () => {
    const dir = join(work, 'grown');
    const { file } = await makeLargeSession(dir, CLEAN_STRINGS_MIN_BYTES * 1.2);
    // An old line holds a password bare: nothing says it is one until a later line does.
    appendPrompt(file, '0000aaaa-0000-4000-8000-000000000001', `the rotation replaced ${LEARNT} last week`);
    const cacheDir = join(work, 'grown-cache');
    const job = jobOf(dir, cacheDir);
    const cache = createRenderCache(cacheDir);
    expect((await processSession(await job('a'))).ok).toBe(true);
    expect(await markdownOf(cache, 'a')).toContain(LEARNT);
    const kept = await cache.readCleanStrings('a');
    expect(kept?.length).toBeGreaterThan(0);
    // Digests, not text: the words of the session are not in it.
    expect(kept!.toString('latin1')).not.toContain('rotation');

    appendPrompt(file, '0000aaaa-0000-4000-8000-000000000002', `export DB_PASSWORD=${LEARNT} && deploy with ${TOKEN}`);
    const grown = await processSession(await job('b', 'a'));
    const fresh = await processSession(await job('c'));
    if (!grown.ok || !fresh.ok) throw new Error('not processed');
    const markdown = await markdownOf(cache, 'b');
    expect(markdown).not.toContain(LEARNT);
    expect(markdown).not.toContain(TOKEN);
    expect(markdown).toBe(await markdownOf(cache, 'c'));
    expect(grown.data.redactions).toEqual(fresh.data.redactions);
    // Its unchanged pages were copied from the last render, and every page is the one a render from scratch makes.
    expect(grown.pagesReused).toBeGreaterThan(0);
    expect(grown.data.pageCount).toBe(fresh.data.pageCount);
    for (let page = 1; page <= grown.data.pageCount; page++) {
      expect((await cache.readPage('b', page)).transcript.value).toBe((await cache.readPage('c', page)).transcript.value);
    }
    expect((await cache.readCleanStrings('b'))?.length).toBeGreaterThan(0);
  }, 120_000);

  it("takes the Markdown of the pages it keeps from the last render's twin, and writes that of the others", async () => {
    const dir = join(work, 'twin');
    const { file } = await makeLargeSession(dir, 2e6);
    const cacheDir = join(work, 'twin-cache');
    const job = jobOf(dir, cacheDir);
    const cache = createRenderCache(cacheDir);
    const first = await processSession(await job('a'));
    if (!first.ok) throw new Error('not processed');
    const offsets = (await cache.readTwinPages('a'))!;
    expect(offsets).toHaveLength(first.data.pageCount + 1);
    expect(first.data.pageCount).toBeGreaterThan(2);
    // Page 1's Markdown in the last twin, marked at the same length: a copy carries the mark, a render would not.
    const renderPath = join(cache.root, 'a.render');
    const bytes = readFileSync(renderPath);
    const twinStart = bytes.indexOf(Buffer.from(await markdownOf(cache, 'a')));
    expect(twinStart).toBeGreaterThan(0);
    const mark = Buffer.from('\nMARKED-IN-THE-LAST-TWIN\n');
    mark.copy(bytes, twinStart + offsets[0]);
    writeFileSync(renderPath, bytes);
    appendPrompt(file, '0000bbbb-0000-4000-8000-000000000001', 'one more prompt, appended');
    const grown = await processSession(await job('b', 'a'));
    if (!grown.ok) throw new Error('not processed');
    const markdown = await markdownOf(cache, 'b');
    expect(markdown).toContain('MARKED-IN-THE-LAST-TWIN');
    expect(markdown).toContain('one more prompt, appended');
    // The header holds the new totals; the page the prompt landed on was written anew.
    expect(markdown).toContain(`${grown.data.facts.promptCount} prompts`);
    expect(markdown.slice(0, 2000)).not.toContain(`${first.data.facts.promptCount} prompts`);
    const after = (await cache.readTwinPages('b'))!;
    expect(after).toHaveLength(grown.data.pageCount + 1);
    expect(Buffer.from(markdown).subarray(after.at(-2)!, after.at(-1)!).toString()).toContain('one more prompt, appended');
    // But for the mark (at the start of page 1, after the new header), it is what a render from scratch writes.
    const fresh = await processSession(await job('c'));
    if (!fresh.ok) throw new Error('not processed');
    const clean = Buffer.from(await markdownOf(cache, 'c'));
    const unmarked = Buffer.from(markdown);
    expect(unmarked.subarray(after[0], after[0] + mark.length).equals(mark)).toBe(true);
    clean.copy(unmarked, after[0], after[0], after[0] + mark.length);
    expect(unmarked.equals(clean)).toBe(true);
  }, 120_000);
});
