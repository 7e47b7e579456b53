import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JSDOM } from 'jsdom';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusRoot } from '../helpers/shared.js';
import { serveSampleSite, type ServedSite } from './site-helpers.js';

/**
 * Links into a long session that name an anchor on a later page: page 1
 * forwards `#t-<tool_use_id>` (a tool call) as it forwards `#m-<uuid>` (a
 * message), and the page landed on opens the call and scrolls it into view.
 * One real corpus session on pages of five prompts. (Calls inside subagents are
 * in the map too, test/lib/site/anchor-map.test.ts; no real session has a
 * subagent past its fifth prompt, the smallest page size.)
 */
const PROJECT = '-src-deep-manifest';

describe('links to a tool call on another page of a long session', () => {
  let site: ServedSite;
  let configDir = '';
  let first = '';
  let second = '';

  beforeAll(async () => {
    configDir = mkdtempSync(join(tmpdir(), 'sp-tool-links-config-'));
    const config = join(configDir, 'sessionpress.config.json');
    writeFileSync(config, JSON.stringify({ pageSize: 5 }));
    site = await serveSampleSite('sp-tool-links-', { SESSIONPRESS_SOURCE: join(corpusRoot, PROJECT), SESSIONPRESS_CONFIG: config });
    second = site.sessionPaths.find((p) => /\/2\/$/.test(p)) ?? '';
    expect(second, 'a session of more than one page').not.toBe('');
    first = second.replace(/2\/$/, '');
  }, 600_000);

  afterAll(async () => {
    await site?.close();
    if (configDir) rmSync(configDir, { recursive: true, force: true });
  });

  const html = (path: string) => readFileSync(join(site.out, path, 'index.html'), 'utf8');

  /** Opens page 1 with an anchor and waits to land on page 2. */
  async function landFromFirstPage(anchor: string): Promise<Page> {
    const page = await site.browser.newPage({ viewport: { width: 1200, height: 800 } });
    await page.goto(new URL(`${first}#${anchor}`, site.server.url).href);
    await page.waitForURL((u) => u.pathname.endsWith(`/${second}`) && u.hash === `#${anchor}`);
    await page.waitForLoadState('load');
    return page;
  }

  async function inView(page: Page, selector: string): Promise<boolean> {
    const box = await page.locator(selector).boundingBox();
    // Scrolled to its top edge: sub-pixel layout may leave it a fraction of a pixel above.
    return !!box && box.y > -2 && box.y < 800;
  }

  it('forwards #t-<id> of a closed call on page 2, opens it and scrolls it into view', async () => {
    const doc = new JSDOM(html(second)).window.document;
    // A call further down the page than one screen, shown closed: landing must open it and scroll to it.
    const calls = [...doc.querySelectorAll<HTMLDetailsElement>('[data-transcript] details[data-tool-use-id]')].filter((d) => !d.hasAttribute('open'));
    const call = calls[Math.floor(calls.length / 2)];
    expect(call, 'a closed tool call on page 2').toBeDefined();
    const id = call.getAttribute('data-tool-use-id')!;
    expect(html(first)).not.toContain(`id="t-${id}"`);
    expect(html(first)).toContain('id="anchor-map"');

    const page = await landFromFirstPage(`t-${id}`);
    const selector = `[id="t-${id}"]`;
    await expect.poll(() => page.locator(selector).evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    await expect.poll(() => inView(page, selector)).toBe(true);
    // The message holding it is marked as the target, as for a message link.
    const uuid = call.closest('[data-uuid]')!.getAttribute('data-uuid')!;
    expect(await page.locator(`[data-uuid="${uuid}"]`).first().evaluate((m) => m.classList.contains('is-target'))).toBe(true);
    await page.close();
  });

  it('forwards #m-<uuid> of a message on page 2 the same way', async () => {
    const doc = new JSDOM(html(second)).window.document;
    // A message of the session itself (a subagent's messages are reached through their call).
    const msgs = [...doc.querySelectorAll('[data-transcript] [data-uuid][id^="m-"]')].filter((m) => !m.parentElement!.closest('[data-subagent]'));
    const msg = msgs[msgs.length - 1];
    expect(msg).toBeDefined();
    const page = await landFromFirstPage(msg.id);
    const selector = `[id="${msg.id}"]`;
    await expect.poll(() => page.locator(selector).evaluate((m) => m.classList.contains('is-target'))).toBe(true);
    await expect.poll(() => inView(page, selector)).toBe(true);
    await page.close();
  });

  it('leaves an anchor of page 1 on page 1', async () => {
    const doc = new JSDOM(html(first)).window.document;
    const id = doc.querySelector('[data-transcript] [data-tool-use-id]')!.getAttribute('data-tool-use-id')!;
    const page = await site.browser.newPage({ viewport: { width: 1200, height: 800 } });
    await page.goto(new URL(`${first}#t-${id}`, site.server.url).href);
    await page.waitForLoadState('load');
    expect(new URL(page.url()).pathname.endsWith(`/${first}`)).toBe(true);
    await expect.poll(() => inView(page, `[id="t-${id}"]`)).toBe(true);
    await page.close();
  });
});
