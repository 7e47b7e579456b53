import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createRenderCache } from '../../../src/lib/build/render-cache.js';
import type { RenderedSession } from '../../../src/lib/build/render-session.js';
import { html } from '../../../src/lib/render/sanitize.js';

const dir = mkdtempSync(join(tmpdir(), 'sp-render-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const rendered = (pages: string[]): RenderedSession => ({ pages: pages.map((p) => html`<p>${p}</p>`), abandoned: html`<p>gone</p>`, toc: [], overview: {} as RenderedSession['overview'], anchors: {}, toolAnchors: {}, assets: [] });

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
});
