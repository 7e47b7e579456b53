/**
 * The transcript CSS in a real browser: no horizontal page scrolling at 360px
 * (code and tables scroll inside themselves), in light and dark themes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../../helpers/browser.js';
import { loadHighlighter } from '../../../src/lib/render/highlight.js';
import { previewPage } from '../../helpers/preview-page.js';

let browser: Browser;
beforeAll(async () => {
  await loadHighlighter();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('transcript layout', () => {
  for (const theme of ['light', 'dark'] as const) {
    it(`does not scroll the page sideways at 360px (${theme})`, async () => {
      const page = await browser.newPage({ viewport: { width: 360, height: 800 } });
      await page.setContent(await previewPage(theme), { waitUntil: 'load' });
      const m = await page.evaluate(() => {
        // Open every collapsed block so hidden content is measured too.
        for (const d of document.querySelectorAll('details')) d.open = true;
        const root = document.documentElement;
        const wide = [...document.querySelectorAll('body *')]
          .filter((el) => !el.closest('pre, .table-wrap'))
          .filter((el) => el.getBoundingClientRect().right > root.clientWidth + 1)
          .slice(0, 5)
          .map((el) => `${el.tagName.toLowerCase()}.${el.className} ${Math.round(el.getBoundingClientRect().right)}`);
        return { scroll: root.scrollWidth, client: root.clientWidth, wide, articles: document.querySelectorAll('article.msg').length, pres: document.querySelectorAll('pre.code').length };
      });
      expect(m.articles).toBeGreaterThan(50);
      expect(m.pres).toBeGreaterThan(20);
      expect(m.wide).toEqual([]);
      expect(m.scroll).toBeLessThanOrEqual(m.client);
      // Code blocks themselves scroll: at least one is wider inside than its box.
      const scrollingPres = await page.evaluate(() => [...document.querySelectorAll('pre.code')].filter((p) => p.scrollWidth > p.clientWidth).length);
      expect(scrollingPres).toBeGreaterThan(0);
      await page.close();
    }, 120_000);
  }

  it('switches token colours with the theme', async () => {
    const colours: string[] = [];
    for (const theme of ['light', 'dark'] as const) {
      const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
      await page.setContent(await previewPage(theme, 1), { waitUntil: 'load' });
      colours.push(await page.evaluate(() => getComputedStyle(document.querySelector('.t-k, .t-s, .t-n')!).color));
      await page.close();
    }
    expect(colours[0]).not.toBe(colours[1]);
  }, 120_000);
});
