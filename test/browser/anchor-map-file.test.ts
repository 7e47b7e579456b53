import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLargeSession } from '../../scripts/lib/bench/large-session.js';
import { serveSampleSite, type ServedSite } from './site-helpers.js';

/**
 * A session long enough that page 1 does not carry its anchor map (over 16 KB:
 * src/lib/build/entry-data.ts) but names the file beside it: a link to page 1
 * with the anchor of a message on a later page still lands there, the map
 * fetched only then.
 */
describe('links into a long session whose anchor map is a file', () => {
  let site: ServedSite;
  const source = mkdtempSync(join(tmpdir(), 'sp-anchor-file-src-'));
  let first = '';

  beforeAll(async () => {
    await makeLargeSession(source, 20e6);
    site = await serveSampleSite('sp-anchor-file-', { SESSIONPRESS_SOURCE: source });
    first = site.sessionPaths.find((p) => !/\/\d+\/$/.test(p)) ?? '';
  }, 900_000);

  afterAll(async () => {
    await site?.close();
    rmSync(source, { recursive: true, force: true });
  });

  it('names the map on page 1 instead of carrying it, and the file holds every later page', () => {
    const html = readFileSync(join(site.out, first, 'index.html'), 'utf8');
    const src = /<div id="anchor-map" data-src="([^"]+)"/.exec(html)?.[1];
    expect(src).toBeDefined();
    expect(html).not.toContain('data-map=');
    const map = JSON.parse(readFileSync(join(site.out, src!), 'utf8'));
    expect(map.pages.length).toBe(site.sessionPaths.length - 1);
  });

  it('forwards #m-<uuid> of a message on the last page to that page', async () => {
    const last = site.sessionPaths.filter((p) => p.startsWith(first)).sort((a, b) => Number(/(\d+)\/$/.exec(a)?.[1] ?? 1) - Number(/(\d+)\/$/.exec(b)?.[1] ?? 1)).pop()!;
    const uuid = [...readFileSync(join(site.out, last, 'index.html'), 'utf8').matchAll(/data-uuid="([^"]+)"/g)].pop()![1];
    const page = await site.browser.newPage({ viewport: { width: 1200, height: 800 } });
    await page.goto(new URL(`${first}#m-${uuid}`, site.server.url).href);
    await page.waitForURL((u) => u.pathname.endsWith(`/${last}`) && u.hash === `#m-${uuid}`, { timeout: 30_000 });
    await page.close();
  });
});
