import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../src/lib/transcript/types.js';
import { seriousA11yViolations } from '../helpers/browser.js';
import { loadSessions } from '../helpers/render.js';
import { repoRoot } from '../helpers/shared.js';
import { serveSampleSite, type ServedSite } from './site-helpers.js';

/**
 * The index of the site built from the bundled samples: session cards with
 * their facts, the project filter (with and without JavaScript), grouping by
 * day, and a phone-sized screen without sideways scrolling.
 */
let site: ServedSite;
let sessions: Session[] = [];

beforeAll(async () => {
  site = await serveSampleSite('sp-index-');
  sessions = await loadSessions(join(repoRoot, 'content', 'sessions'));
}, 600_000);

afterAll(() => site?.close());

async function open(width: number, opts: { js?: boolean; hash?: string } = {}): Promise<Page> {
  const page = await site.browser.newPage({ viewport: { width, height: 800 }, javaScriptEnabled: opts.js ?? true });
  await page.goto(`${site.server.url}${opts.hash ?? ''}`);
  return page;
}

const visibleCards = (page: Page) => page.locator('li.card:visible');

/** Which project each session's card belongs to, from the built index itself (the slug is the site's, not the model's). */
async function projectsOfCards(page: Page): Promise<Map<string, string>> {
  const pairs = await page.$$eval('[data-session-groups] li.card', (cards) => cards.map((c) => [c.querySelector('a.card-title')!.getAttribute('href')!, (c as HTMLElement).dataset.project!]));
  return new Map(pairs as Array<[string, string]>);
}

describe('the index page', () => {
  it('has no horizontal scroll at 360 px, and its header stays one row', async () => {
    const page = await open(360);
    const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
    expect(scroll).toBeLessThanOrEqual(client);
    const header = (await page.locator('header.site').boundingBox())!;
    expect(header.height).toBeLessThan(60);
    await page.close();
  });

  it('puts the site sections under a Menu on a phone, which opens without JavaScript', async () => {
    const wide = await open(1280);
    const sections = await wide.locator('header.site .site-nav a').allInnerTexts();
    expect(sections.length).toBeGreaterThan(2);
    expect(await wide.locator('.site-menu').isVisible()).toBe(false);
    await wide.close();
    const page = await open(360, { js: false });
    expect(await page.locator('header.site .site-nav').isVisible()).toBe(false);
    const menu = page.locator('.site-menu nav a');
    expect(await menu.first().isVisible()).toBe(false);
    await page.locator('.site-menu > summary').click();
    expect(await menu.allInnerTexts()).toEqual(sections);
    for (const link of await menu.all()) expect(await link.isVisible()).toBe(true);
    await page.close();
  });

  it('shows one card per session with its title, date, prompts, tool calls, models and cost', async () => {
    const page = await open(1280);
    await expect.poll(() => visibleCards(page).count()).toBe(sessions.length);
    for (const s of sessions) {
      const card = page.locator('[data-session-groups] li.card').filter({ has: page.locator(`a.card-title[href$="/${s.sessionId}/"]`) });
      expect(await card.count(), s.file).toBe(1);
      const text = (await card.innerText()).replace(/\s+/g, ' ');
      const n = s.facts.promptCount;
      expect(text).toContain(`${n} prompt${n === 1 ? '' : 's'}`);
      const c = s.facts.toolCallCount;
      expect(text).toContain(`${c} tool call${c === 1 ? '' : 's'}`);
      expect(text).toContain(s.facts.firstTimestamp!.slice(0, 10));
      expect(text).toMatch(/≈ \$\d+\.\d\d|< \$0\.01|price unknown/);
      for (const m of s.facts.models.filter((x) => x !== '<synthetic>')) expect(text).toContain(m.replace(/^claude-/, '').replace(/-\d{8}$/, ''));
      // Plurals are right: never "1 prompts".
      expect(text).not.toMatch(/\b1 (prompts|tool calls|subagents)\b/);
    }
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.close();
  });

  it('narrows the list to one project with the filter, and back to all', async () => {
    const page = await open(1280);
    const projects = await projectsOfCards(page);
    const slugs = [...new Set(projects.values())];
    expect(slugs.length).toBeGreaterThan(1);
    for (const slug of slugs) {
      await page.locator(`.project-filter a[data-filter="${slug}"]`).click();
      const expected = [...projects.values()].filter((p) => p === slug).length;
      await expect.poll(() => visibleCards(page).count()).toBe(expected);
      expect(await page.$$eval('li.card', (cards) => cards.filter((c) => (c as HTMLElement).offsetParent !== null).map((c) => (c as HTMLElement).dataset.project))).toEqual(Array(expected).fill(slug));
      expect(await page.locator(`.project-filter a[data-filter="${slug}"]`).getAttribute('aria-current')).toBe('true');
    }
    await page.locator('.project-filter a[data-filter=""]').click();
    await expect.poll(() => visibleCards(page).count()).toBe(projects.size);
    // Back returns to the last project chosen.
    await page.goBack();
    await expect.poll(() => visibleCards(page).count()).toBe([...projects.values()].filter((p) => p === slugs[slugs.length - 1]).length);
    await page.close();
  });

  it('filters by project without JavaScript, through the link alone', async () => {
    const withJs = await open(1280);
    const projects = await projectsOfCards(withJs);
    await withJs.close();
    const slug = [...projects.values()][0];
    const page = await open(1280, { js: false });
    const href = await page.locator(`.project-filter a[data-filter="${slug}"]`).getAttribute('href');
    await page.goto(`${site.server.url}${href}`);
    await expect.poll(() => visibleCards(page).count()).toBe([...projects.values()].filter((p) => p === slug).length);
    expect(await page.locator('[data-group-toggle]').isVisible()).toBe(false);
    await page.close();
  });

  it('groups the cards by day on request, and remembers it', async () => {
    const page = await open(1280);
    await page.locator('[data-group-toggle] button[data-group="day"]').click();
    const days = [...new Set(sessions.map((s) => s.facts.firstTimestamp!.slice(0, 10)))].sort().reverse();
    await expect.poll(() => page.locator('.day-group:visible h2 time').evaluateAll((ts) => ts.map((t) => t.getAttribute('datetime')))).toEqual(days);
    expect(await visibleCards(page).count()).toBe(sessions.length);
    // Grouped by day, each card names its project.
    expect(await page.locator('.day-group li.card .card-project:visible').count()).toBe(sessions.length);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.reload();
    await expect.poll(() => page.locator('.day-group:visible').count()).toBe(days.length);
    await page.locator('[data-group-toggle] button[data-group="project"]').click();
    await expect.poll(() => page.locator('.day-group:visible').count()).toBe(0);
    await page.close();
  });
});
