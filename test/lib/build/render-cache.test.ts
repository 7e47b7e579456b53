import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createRenderCache } from '../../../src/lib/build/render-cache.js';
import type { RenderedSession } from '../../../src/lib/build/render-session.js';
import { html } from '../../../src/lib/render/sanitize.js';

const dir = mkdtempSync(join(tmpdir(), 'sp-render-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const rendered = (pages: string[]): RenderedSession => ({ pages: pages.map((p) => html`<p>${p}</p>`), pageCount: pages.length, abandoned: html`<p>gone</p>`, toc: [], overview: {} as RenderedSession['overview'], anchors: {}, toolAnchors: {}, assets: [], pageKeys: pages.map((_, i) => String(i)), pageTurns: pages.map(() => []), reused: pages.map(() => false) });

/** A render's twin as the site serves it: the stream's bytes, decoded once whole. */
const markdownOf = (cache: ReturnType<typeof createRenderCache>, key: string) => new Response(cache.markdownStream(key)).text();

describe('render cache', () => {
  it("serves a twin of many chunks whole, its characters intact where a chunk ends inside one, and fails for a render without one", async () => {
    const cache = createRenderCache(dir);
    // Three-byte and two-byte characters, so chunk boundaries (1 MiB) fall inside them.
    const body = Array.from({ length: 150_000 }, (_, i) => `${i} → café ${'x'.repeat(i % 7)}\n`).join('');
    expect(Buffer.byteLength(body)).toBeGreaterThan(2.5 * (1 << 20));
    await cache.write('big-twin', rendered(['a']), `## Big\n${body}`, { problems: [] });
    expect(await markdownOf(cache, 'big-twin')).toBe(`## Big\n${body}`);
    await expect(markdownOf(cache, 'no-such-render')).rejects.toThrow();
  });

  it("serves a long session's anchor map as it was written, and fails for a render without one", async () => {
    const cache = createRenderCache(dir);
    const anchorMap = { keyLength: 6, pages: ['a1b2c3 d4e5f6', '0f1e2d'] };
    await cache.write('with-anchors', rendered(['a', 'b', 'c']), '## T\n', { problems: [], anchorMap });
    expect(await new Response(cache.anchorMapStream('with-anchors')).json()).toEqual(anchorMap);
    await expect(new Response(cache.anchorMapStream('k-none')).text()).rejects.toThrow();
  });

  it("keeps a session's Markdown with its other parts in one file beside its pages, and counts a render cut short as missing", async () => {
    const cache = createRenderCache(dir);
    expect(cache.has('k1')).toBe(false);
    await cache.write('k1', rendered(['one', 'two']), '## Title\n\nbody\n', { problems: [] });
    expect(cache.has('k1')).toBe(true);
    expect(await markdownOf(cache, 'k1')).toBe('## Title\n\nbody\n');
    const page = await cache.readPage('k1', 2);
    expect([page.transcript.value, page.abandoned.value]).toEqual(['<p>two</p>', '']);
    expect((await cache.readPage('k1', 1)).abandoned.value).toBe('<p>gone</p>');
    await expect(cache.readPage('k1', 3)).rejects.toThrow(/ENOENT/);
    // A file a page and one for the rest: no folder, no file a part.
    expect(readdirSync(cache.root).filter((name) => name.startsWith('k1.')).sort()).toEqual(['k1.1.html', 'k1.2.html', 'k1.render']);
    // A file cut short (its index gone) is rendered again, not read.
    const file = join(cache.root, 'k1.render');
    const whole = readFileSync(file);
    writeFileSync(file, whole.subarray(0, statSync(file).size - 3));
    expect(cache.has('k1')).toBe(false);
    await expect(cache.readPage('k1', 1)).rejects.toThrow(/not a whole render file/);
    writeFileSync(file, whole);
    expect(cache.has('k1')).toBe(true);
    // A session of one page keeps it in that one file.
    await cache.write('k6', rendered(['only']), '# k6\n', { problems: [] });
    expect(readdirSync(cache.root).filter((name) => name.startsWith('k6.'))).toEqual(['k6.render']);
    expect((await cache.readPage('k6', 1)).transcript.value).toBe('<p>only</p>');
  });

  it("writes a twin page by page, and takes the pages a later render keeps from the last render's twin, byte for byte", async () => {
    const cache = createRenderCache(dir);
    const first = ['\n### Prompt 1 — café ✓\n', '\n### Prompt 2\n\nnaïve 日本語\n', '\n### Prompt 3\n'];
    await cache.startWrite('t1');
    await cache.write('t1', rendered(['a', 'b', 'c']), { header: '## Title — 3 prompts\n', pageCount: 3, page: (i) => first[i] }, { problems: [] });
    expect(await markdownOf(cache, 't1')).toBe(`## Title — 3 prompts\n${first.join('')}`);
    const offsets = (await cache.readTwinPages('t1'))!;
    expect(offsets).toHaveLength(4);
    expect(Buffer.from(await markdownOf(cache, 't1')).subarray(offsets[1], offsets[2]).toString()).toBe(first[1]);
    // The session grew: pages 1 and 2 are kept, page 3 grew, page 4 is new; the header's totals changed.
    const asked: number[] = [];
    const grown = (i: number) => (asked.push(i), i < 2 ? undefined : ['', '', '\n### Prompt 3, grown\n', '\n### Prompt 4\n'][i]);
    await cache.startWrite('t2');
    await cache.write('t2', rendered(['a', 'b', 'c', 'd']), { header: '## Title — 4 prompts\n', pageCount: 4, page: grown, from: { key: 't1', pages: offsets } }, { problems: [] });
    expect(await markdownOf(cache, 't2')).toBe(`## Title — 4 prompts\n${first[0]}${first[1]}\n### Prompt 3, grown\n\n### Prompt 4\n`);
    expect(asked).toEqual([0, 1, 2, 3]);
    // Kept again by the next render, from a twin that was itself partly copied.
    await cache.startWrite('t3');
    await cache.write('t3', rendered(['a', 'b', 'c', 'd']), { header: '## Title\n', pageCount: 4, page: () => undefined, from: { key: 't2', pages: (await cache.readTwinPages('t2'))! } }, { problems: [] });
    expect(await markdownOf(cache, 't3')).toBe(`## Title\n${first[0]}${first[1]}\n### Prompt 3, grown\n\n### Prompt 4\n`);
    expect(cache.has('t3')).toBe(true);
  });

  it("refuses to take a page the last render's twin does not have, and leaves no Markdown behind", async () => {
    const cache = createRenderCache(dir);
    await cache.startWrite('u1');
    await cache.write('u1', rendered(['a']), { header: '# one\n', pageCount: 1, page: () => '\none page\n' }, { problems: [] });
    await cache.startWrite('u2');
    await expect(cache.write('u2', rendered(['a', 'b']), { header: '# two\n', pageCount: 2, page: () => undefined, from: { key: 'u1', pages: (await cache.readTwinPages('u1'))! } }, { problems: [] })).rejects.toThrow(/page 2 of the last render's Markdown/);
    expect(cache.has('u2')).toBe(false);
    // A render cut short offers none either.
    const file = join(cache.root, 'u1.render');
    writeFileSync(file, readFileSync(file).subarray(0, 10));
    expect(await cache.readTwinPages('u1')).toBeUndefined();
    // A twin written whole (not page by page) offers no pages.
    await cache.startWrite('u3');
    await cache.write('u3', rendered(['a']), '# whole\n', { problems: [] });
    expect(await cache.readTwinPages('u3')).toBeUndefined();
  });

  it('takes pages one at a time as they are rendered, and is whole only once the rest is written', async () => {
    const cache = createRenderCache(dir);
    const writePage = await cache.startWrite('k2');
    await writePage(1, html`<p>first</p>`);
    await writePage(2, html`<p>second</p>`);
    expect(cache.has('k2')).toBe(false);
    await cache.write('k2', { ...rendered([]), pageCount: 2 }, '# streamed\n', { problems: [] });
    expect(cache.has('k2')).toBe(true);
    expect((await cache.readPage('k2', 1)).transcript.value).toBe('<p>first</p>');
    expect((await cache.readPage('k2', 2)).transcript.value).toBe('<p>second</p>');
    // A page is written once; a render missing one of its pages is not completed.
    await cache.startWrite('k5');
    const again = await cache.startWrite('k5');
    await again(1, html`<p>only</p>`);
    await expect(again(1, html`<p>twice</p>`)).rejects.toThrow(/page 1 of render k5 is already written/);
    await expect(cache.write('k5', { ...rendered([]), pageCount: 2 }, '# k5\n', { problems: [] })).rejects.toThrow(/page 2 of render k5 was not written/);
    expect(cache.has('k5')).toBe(false);
    expect(readdirSync(cache.root).filter((name) => name.endsWith('.render') && name.startsWith('k5'))).toEqual([]);
    // Started again, nothing of that render is left: its page is written anew.
    const third = await cache.startWrite('k5');
    await third(1, html`<p>anew</p>`);
    await third(2, html`<p>two</p>`);
    await cache.write('k5', { ...rendered([]), pageCount: 2 }, '# k5\n', { problems: [] });
    expect((await cache.readPage('k5', 1)).transcript.value).toBe('<p>anew</p>');
    // Starting again clears what an earlier render of the same key left.
    await cache.startWrite('k2');
    expect(cache.has('k2')).toBe(false);
  });

  it("takes a page of the last render without letting a write to either render reach the other", async () => {
    const cache = createRenderCache(dir);
    const first = await cache.startWrite('l1');
    await first(1, html`<p>kept</p>`);
    await first(2, html`<p>old end</p>`);
    await cache.write('l1', { ...rendered([]), pageCount: 2 }, '# l1\n', { problems: [] });
    const next = await cache.startWrite('l2');
    await cache.keepPage('l1', 1, 'l2');
    await next(2, html`<p>new end</p>`);
    await cache.write('l2', { ...rendered([]), pageCount: 2 }, '# l2\n', { problems: [] });
    expect((await cache.readPage('l2', 1)).transcript.value).toBe('<p>kept</p>');
    // A completed render is not written into: a late page fails, and the last render's page is as it was.
    await expect(next(1, html`<p>changed</p>`)).rejects.toThrow(/not started/);
    await expect(cache.keepPage('l1', 2, 'l2')).rejects.toThrow(/not started/);
    // Nor is a page kept twice, or over a page written.
    const third = await cache.startWrite('l3');
    await cache.keepPage('l2', 1, 'l3');
    await expect(cache.keepPage('l2', 1, 'l3')).rejects.toThrow(/already written/);
    await third(2, html`<p>third end</p>`);
    await expect(cache.keepPage('l2', 2, 'l3')).rejects.toThrow(/already written/);
    await cache.write('l3', { ...rendered([]), pageCount: 2 }, '# l3\n', { problems: [] });
    // Rendering l1 again writes a new file: the pages kept from it stay as they were.
    const again = await cache.startWrite('l1');
    await again(1, html`<p>rewritten</p>`);
    await cache.write('l1', { ...rendered([]), pageCount: 1 }, '# l1 again\n', { problems: [] });
    expect((await cache.readPage('l1', 1)).transcript.value).toBe('<p>rewritten</p>');
    expect((await cache.readPage('l2', 1)).transcript.value).toBe('<p>kept</p>');
    expect((await cache.readPage('l3', 1)).transcript.value).toBe('<p>kept</p>');
    expect((await cache.readPage('l2', 2)).transcript.value).toBe('<p>new end</p>');
    expect(await markdownOf(cache, 'l1')).toBe('# l1 again\n');
  });

  it("takes the page of a session of one page, kept in its render's file, as the first of a longer one, and back", async () => {
    const cache = createRenderCache(dir);
    await cache.write('m1', rendered(['one page']), '# m1\n', { problems: [] });
    // The session grew a page: the first is kept, and is now a file of its own.
    const grown = await cache.startWrite('m2');
    await cache.keepPage('m1', 1, 'm2');
    await grown(2, html`<p>second</p>`);
    await cache.write('m2', { ...rendered([]), pageCount: 2 }, '# m2\n', { problems: [] });
    expect(readdirSync(cache.root).filter((name) => name.startsWith('m2.')).sort()).toEqual(['m2.1.html', 'm2.2.html', 'm2.render']);
    expect((await cache.readPage('m2', 1)).transcript.value).toBe('<p>one page</p>');
    // A render of one page that keeps it from a longer one holds it in its file.
    await cache.startWrite('m3');
    await cache.keepPage('m2', 1, 'm3');
    await cache.write('m3', { ...rendered([]), pageCount: 1 }, '# m3\n', { problems: [] });
    expect(readdirSync(cache.root).filter((name) => name.startsWith('m3.'))).toEqual(['m3.render']);
    expect((await cache.readPage('m3', 1)).transcript.value).toBe('<p>one page</p>');
  });

  it("keeps a session's overview data and problems with its render, read back as written, and counts a render without them as missing", async () => {
    const cache = createRenderCache(dir);
    const toc = [{ n: 1, uuid: 'u1', text: 'first prompt', page: 1, tools: [['Bash', 2]] as Array<[string, number]>, errors: 1, files: ['src/a.ts'], filesMore: 0 }];
    const overview = { files: [{ page: 2, uuid: 'u9', prompt: 1, path: 'src/a.ts', edits: 3 }], filesMore: 4, subagents: [], subagentsMore: 0, commits: [], commitsMore: 0 };
    const problems = [{ file: 'p/s.jsonl', line: 7, code: 'not-json' as const, reason: 'not JSON' }];
    await cache.write('k3', { ...rendered(['a', 'b']), toc, overview }, '# three\n', { problems });
    await cache.write('k4', rendered(['c']), '# four\n', { problems: [] });
    expect(await cache.readDetails('k3')).toEqual({ toc, overview, problems });
    // Another key right after is that key's, not the one read last.
    expect((await cache.readDetails('k4')).problems).toEqual([]);
    expect((await cache.readDetails('k3')).toc).toEqual(toc);
    // Details that cannot be read fail the read (the loader then renders the session again), and are read anew once written again.
    const file = join(cache.root, 'k4.render');
    const bytes = readFileSync(file);
    bytes.write('X', bytes.indexOf('{"toc":'));
    writeFileSync(`${file}.new`, bytes);
    renameSync(`${file}.new`, file);
    await expect(cache.readDetails('k4')).rejects.toThrow();
    await cache.write('k4', rendered(['c']), '# four\n', { problems });
    expect((await cache.readDetails('k4')).problems).toEqual(problems);
  });

  it('keeps the renders it is told to keep, and removes every other file and folder but the shared assets', async () => {
    const cache = createRenderCache(join(dir, 'prune'));
    await cache.write('keep', rendered(['a', 'b']), '# keep\n', { problems: [] });
    await cache.write('drop', rendered(['c', 'd']), '# drop\n', { problems: [] });
    const unfinished = await cache.startWrite('unfinished');
    await unfinished(1, html`<p>cut</p>`);
    await unfinished(2, html`<p>short</p>`);
    // A render folder of an older version is removed even when its key is kept.
    mkdirSync(join(cache.root, 'keep'));
    await cache.prune(new Set(['keep']));
    expect(readdirSync(cache.root).sort()).toEqual(['assets', 'keep.1.html', 'keep.2.html', 'keep.render']);
  });
});
