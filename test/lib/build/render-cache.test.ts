import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createRenderCache } from '../../../src/lib/build/render-cache.js';
import type { RenderedSession } from '../../../src/lib/build/render-session.js';
import { html } from '../../../src/lib/render/sanitize.js';

const dir = mkdtempSync(join(tmpdir(), 'sp-render-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const rendered = (pages: string[]): RenderedSession => ({ pages: pages.map((p) => html`<p>${p}</p>`), pageCount: pages.length, abandoned: html`<p>gone</p>`, toc: [], overview: {} as RenderedSession['overview'], anchors: {}, toolAnchors: {}, assets: [] });

describe('render cache', () => {
  it('keeps a session\'s Markdown beside its pages, and counts a render without it as missing', async () => {
    const cache = createRenderCache(dir);
    expect(cache.has('k1')).toBe(false);
    await cache.write('k1', rendered(['one', 'two']), '## Title\n\nbody\n');
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
    await cache.write('k2', { ...rendered([]), pageCount: 2 }, '# streamed\n');
    expect(cache.has('k2')).toBe(true);
    expect((await cache.readPage('k2', 1)).transcript.value).toBe('<p>first</p>');
    expect((await cache.readPage('k2', 2)).transcript.value).toBe('<p>second</p>');
    // Starting again clears what an earlier, unfinished render of the same key left.
    await cache.startWrite('k2');
    expect(cache.has('k2')).toBe(false);
  });
});
