import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusRoot } from '../helpers/shared.js';
import { serveSampleSite, type ServedSite } from './site-helpers.js';

/**
 * Reading a session page: built from one real corpus project (edits, long
 * outputs, long code lines), looked at in Chromium. No sideways scrolling on a
 * 360 px phone; long output previewed with "show more"; the remembered "Wrap
 * lines" toggle; changed words marked inside an Edit diff.
 */
const PROJECT = '-src-deep-manifest';

describe('reading a session page', () => {
  let site: ServedSite;
  let pages: string[] = [];

  beforeAll(async () => {
    site = await serveSampleSite('sp-reading-', { SESSIONPRESS_SOURCE: join(corpusRoot, PROJECT) });
    pages = site.sessionPaths;
    expect(pages.length).toBeGreaterThan(0);
  }, 600_000);

  afterAll(() => site?.close());


  async function open(path: string, width: number): Promise<Page> {
    const page = await site.browser.newPage({ viewport: { width, height: 800 } });
    await page.goto(new URL(path, site.server.url).href);
    return page;
  }

  it('does not scroll sideways at 360 px, even with every section open', async () => {
    for (const path of pages) {
      const page = await open(path, 360);
      await page.evaluate(() => {
        for (const d of document.querySelectorAll('details')) d.open = true;
      });
      const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
      expect(scroll, `${path} scrolls sideways`).toBeLessThanOrEqual(client);
      await page.close();
    }
  });

  it('previews a long output by its first lines; "show more" reveals the rest', async () => {
    const page = await open(pages[0], 1280);
    const found = await page.evaluate(() => {
      const preview = [...document.querySelectorAll<HTMLElement>('[data-transcript] .tool-output .preview')].find((p) => p.querySelector(':scope > details.more > pre'));
      if (!preview) return undefined;
      // Open the call it belongs to (calls are rows until opened).
      for (let p: HTMLElement | null = preview; p; p = p.parentElement) if (p instanceof HTMLDetailsElement) p.open = true;
      preview.id = 'under-test';
      const rest = preview.querySelector(':scope > details.more > pre')!;
      const lines = (rest.textContent ?? '').split('\n').filter((l) => l.trim());
      return { last: lines[lines.length - 1].trim() };
    });
    expect(found, 'a long tool output with a preview').toBeDefined();
    const head = page.locator('#under-test > pre');
    const rest = page.locator('#under-test > details.more > pre');
    const more = page.locator('#under-test > details.more > summary');
    await expect.poll(() => head.isVisible()).toBe(true);
    expect(await rest.isVisible()).toBe(false);
    expect(await more.textContent()).toMatch(/^Show \d+ more lines?$/);
    await more.click();
    expect(await rest.isVisible()).toBe(true);
    expect(await rest.textContent()).toContain(found!.last);
    await page.close();
  });

  it('wraps long code lines with the "Wrap lines" toggle, and remembers it after a reload', async () => {
    const page = await open(pages[0], 390);
    const button = page.locator('[data-wrap-toggle]');
    expect(await button.isVisible()).toBe(true);
    expect(await button.getAttribute('aria-pressed')).toBe('false');
    // A code block (not a diff, command or plain text, which always wrap) whose lines are wider than its box.
    const overflowing = () =>
      page.evaluate(() => {
        for (const d of document.querySelectorAll('[data-transcript] details')) (d as HTMLDetailsElement).open = true;
        const pre = [...document.querySelectorAll<HTMLElement>('[data-transcript] pre.code:not(.diff):not(.command):not(.plain)')].find((p) => p.id === 'wide' || (!document.getElementById('wide') && p.scrollWidth > p.clientWidth + 4));
        if (!pre) return undefined;
        pre.id = 'wide';
        return { scroll: pre.scrollWidth, client: pre.clientWidth, whiteSpace: getComputedStyle(pre).whiteSpace };
      });
    const before = await overflowing();
    expect(before, 'a code block wider than a phone').toBeDefined();
    expect(before!.whiteSpace).toBe('pre');
    await button.click();
    expect(await button.getAttribute('aria-pressed')).toBe('true');
    const after = await overflowing();
    expect(after!.whiteSpace).toBe('pre-wrap');
    expect(after!.scroll).toBeLessThanOrEqual(after!.client + 1);

    await page.reload();
    expect(await page.evaluate(() => document.documentElement.classList.contains('wrap-code'))).toBe(true);
    expect(await page.locator('[data-wrap-toggle]').getAttribute('aria-pressed')).toBe('true');
    const reloaded = await page.evaluate(() => {
      for (const d of document.querySelectorAll('[data-transcript] details')) (d as HTMLDetailsElement).open = true;
      const pre = document.querySelector<HTMLElement>('[data-transcript] pre.code:not(.diff):not(.command):not(.plain)')!;
      return getComputedStyle(pre).whiteSpace;
    });
    expect(reloaded).toBe('pre-wrap');
    // Off again, and remembered as off.
    await page.locator('[data-wrap-toggle]').click();
    await page.reload();
    expect(await page.evaluate(() => document.documentElement.classList.contains('wrap-code'))).toBe(false);
    await page.close();
  });

  it('marks the changed words of a changed line in an Edit diff', async () => {
    const page = await open(pages[0], 1280);
    const pair = await page.evaluate(() => {
      for (const del of document.querySelectorAll<HTMLElement>('[data-transcript] [data-tool="Edit"] pre.diff > code > del')) {
        const add = del.nextElementSibling as HTMLElement | null;
        if (!add?.matches('ins') || !del.querySelector('mark') || !add.querySelector('mark')) continue;
        const unmarked = (el: HTMLElement) => [...el.childNodes].filter((n) => n.nodeName !== 'MARK').map((n) => n.textContent).join('');
        const marked = (el: HTMLElement) => [...el.querySelectorAll('mark')].map((m) => m.textContent).join('');
        const styles = getComputedStyle(add.querySelector('mark')!);
        return { delText: del.textContent, addText: add.textContent, delKept: unmarked(del), addKept: unmarked(add), delMarked: marked(del), addMarked: marked(add), bg: styles.backgroundColor, lineBg: getComputedStyle(add).backgroundColor };
      }
      return undefined;
    });
    expect(pair, 'an Edit diff with a changed line').toBeDefined();
    // Only part of each line is marked, and what is not marked is the same on both sides.
    expect(pair!.delMarked.length).toBeGreaterThan(0);
    expect(pair!.delMarked.length).toBeLessThan(pair!.delText!.length);
    expect(pair!.addMarked.length).toBeLessThan(pair!.addText!.length);
    expect(pair!.delKept).toBe(pair!.addKept);
    expect(pair!.delMarked).not.toBe(pair!.addMarked);
    // The mark stands out from the line's own background.
    expect(pair!.bg).not.toBe(pair!.lineBg);
    await page.close();
  });
});
