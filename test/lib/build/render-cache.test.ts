import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createRenderCache } from '../../../src/lib/build/render-cache.js';
import type { RenderedSession } from '../../../src/lib/build/render-session.js';
import { html } from '../../../src/lib/render/sanitize.js';

const dir = mkdtempSync(join(tmpdir(), 'sp-render-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const rendered = (pages: string[]): RenderedSession => ({ pages: pages.map((p) => html`<p>${p}</p>`), pageCount: pages.length, abandoned: html`<p>gone</p>`, toc: [], overview: {} as RenderedSession['overview'], anchors: {}, toolAnchors: {}, assets: [], pageKeys: pages.map((_, i) => String(i)) });

describe('render cache', () => {
  it('keeps a session\'s Markdown beside its pages, and counts a render without it as missing', async () => {
    const cache = createRenderCache(dir);
    expect(cache.has('k1')).toBe(false);
    await cache.write('k1', rendered(['one', 'two']), '## Title\n\nbody\n', { problems: [] });
    expect(cache.has('k1')).toBe(true);
    expect(await cache.readMarkdown('k1')).toBe('## Title\n\nbody\n');
    const page = await cache.readPage('k1', 2);
    expect([page.transcript.value, page.abandoned.value]).toEqual(['<p>two</p>', '']);
    // A folder written before the Markdown existed (an older cache) is rendered again, not served without it.
    rmSync(join(cache.root, 'k1', 'session.md'));
    expect(cache.has('k1')).toBe(false);
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
    // Starting again clears what an earlier, unfinished render of the same key left.
    await cache.startWrite('k2');
    expect(cache.has('k2')).toBe(false);
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
    // A folder of a version that kept these in the store lacks the file: it is rendered again.
    rmSync(join(cache.root, 'k4', 'details.json'));
    expect(cache.has('k4')).toBe(false);
    await expect(cache.readDetails('k4')).rejects.toThrow();
  });
});
