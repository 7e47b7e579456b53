import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CardRow, ListingChunk } from '../../src/lib/site/listing.js';
import type { Session } from '../../src/lib/transcript/types.js';
import { seriousA11yViolations } from '../helpers/browser.js';
import { loadSessions } from '../helpers/render.js';
import { manySessions } from '../helpers/many-sessions.js';
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
    // Without JavaScript the filter link leads to the project's own page, which lists its sessions.
    await page.locator(`.project-filter a[data-filter="${slug}"]`).click();
    await page.waitForURL((u) => u.pathname.endsWith(`/projects/${slug}/`));
    await expect.poll(() => visibleCards(page).count()).toBe([...projects.values()].filter((p) => p === slug).length);
    expect(await page.locator('[data-group-toggle]').isVisible()).toBe(false);
    await page.close();
  });

  it('groups the cards by day on request, and keeps it in the address', async () => {
    const page = await open(1280);
    await page.locator('[data-group-toggle] button[data-group="day"]').click();
    const days = [...new Set(sessions.map((s) => s.facts.firstTimestamp!.slice(0, 10)))].sort().reverse();
    await expect.poll(() => page.locator('.day-group:visible h2 time').evaluateAll((ts) => ts.map((t) => t.getAttribute('datetime')))).toEqual(days);
    expect(await visibleCards(page).count()).toBe(sessions.length);
    // Grouped by day, each card names its project.
    expect(await page.locator('.day-group li.card .card-project:visible').count()).toBe(sessions.length);
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(new URL(page.url()).searchParams.get('group')).toBe('day');
    await page.reload();
    await expect.poll(() => page.locator('.day-group:visible').count()).toBe(days.length);
    await page.locator('[data-group-toggle] button[data-group="project"]').click();
    await expect.poll(() => page.locator('.day-group:visible').count()).toBe(0);
    await page.close();
  });
});

describe('an index longer than a page', () => {
  const PAGE = 5;
  let big: ServedSite;
  let tmp = '';
  let rows: CardRow[] = [];

  beforeAll(async () => {
    const many = await manySessions(6, { indexPageSize: PAGE });
    tmp = many.root;
    big = await serveSampleSite('sp-index-many-', { SESSIONPRESS_SOURCE: many.source, SESSIONPRESS_CONFIG: many.config });
    rows = (JSON.parse(readFileSync(join(big.out, 'list', '1.json'), 'utf8')) as ListingChunk).rows;
  }, 600_000);

  afterAll(async () => {
    await big?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  const openBig = async (query = '') => {
    const page = await big.browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${big.server.url}${query}`);
    return page;
  };
  /** The sessions whose cards are on the page, in order, as `<project>/<session>`. */
  const shown = (page: Page) => page.$$eval('[data-session-groups] li.card a.card-title', (as) => as.map((a) => a.getAttribute('href')!.replace(/^\/sessions\//, '').replace(/\/$/, '')));
  /** Asks for more until the list is complete. */
  async function showAll(page: Page): Promise<string[]> {
    for (let i = 0; i < 50 && (await page.locator('[data-show-more]:visible').count()); i++) {
      const before = (await shown(page)).length;
      await page.locator('[data-show-more]').click();
      await expect.poll(async () => (await shown(page)).length).toBeGreaterThan(before);
    }
    return shown(page);
  }
  const query = (page: Page) => new URL(page.url()).search;

  it('starts with the newest page only, and more on request', async () => {
    expect(rows.length).toBeGreaterThan(3 * PAGE);
    const page = await openBig();
    expect((await shown(page)).sort()).toEqual(rows.slice(0, PAGE).map((r) => r.s).sort());
    expect((await showAll(page)).sort()).toEqual(rows.map((r) => r.s).sort());
    await page.close();
  });

  it('filters by project over every session, keeps the filter in the address, restores it on reload, and steps back', async () => {
    const counts = new Map<string, number>();
    for (const r of rows) counts.set(r.p, (counts.get(r.p) ?? 0) + 1);
    // A project with sessions beyond the first page.
    const slug = [...counts].filter(([p]) => rows.slice(PAGE).some((r) => r.p === p)).sort((a, b) => b[1] - a[1])[0][0];
    const want = rows.filter((r) => r.p === slug).map((r) => r.s);
    const page = await openBig();
    await page.locator(`.project-filter a[data-filter="${slug}"]`).click();
    await expect.poll(() => query(page)).toBe(`?project=${slug}`);
    expect((await showAll(page)).sort()).toEqual([...want].sort());
    expect(await page.$$eval('[data-session-groups] li.card', (cs) => [...new Set(cs.map((c) => (c as HTMLElement).dataset.project))])).toEqual([slug]);
    await page.reload();
    await expect.poll(async () => (await shown(page)).sort()).toEqual(want.slice(0, PAGE).sort());
    expect(await page.locator(`.project-filter a[data-filter="${slug}"]`).getAttribute('aria-current')).toBe('true');
    await page.goBack();
    await expect.poll(() => query(page)).toBe('');
    await expect.poll(async () => (await shown(page)).sort()).toEqual(rows.slice(0, PAGE).map((r) => r.s).sort());
    await page.goForward();
    await expect.poll(async () => (await shown(page)).sort()).toEqual(want.slice(0, PAGE).sort());
    await page.close();
  });

  it('groups by day over every session, and a reload keeps the grouping', async () => {
    const page = await openBig();
    await page.locator('[data-group-toggle] button[data-group="day"]').click();
    await expect.poll(() => query(page)).toBe('?group=day');
    expect((await showAll(page)).sort()).toEqual(rows.map((r) => r.s).sort());
    const days = [...new Set(rows.map((r) => r.i.slice(0, 10)))];
    expect(await page.locator('.day-group h2 time').evaluateAll((ts) => ts.map((t) => t.getAttribute('datetime')))).toEqual(days);
    await page.reload();
    await expect.poll(() => page.locator('.day-group').count()).toBeGreaterThan(0);
    expect(await page.locator('[data-group-toggle] button[data-group="day"]').getAttribute('aria-pressed')).toBe('true');
    await page.close();
  });

  it('sorts every session, oldest or longest first, and back to newest', async () => {
    const page = await openBig();
    await page.locator('[data-sort-select]').selectOption('oldest');
    await expect.poll(() => query(page)).toBe('?sort=oldest');
    await expect.poll(async () => (await shown(page))[0]).toBe(rows[rows.length - 1].s);
    await page.locator('[data-group-toggle] button[data-group="none"]').click();
    await page.locator('[data-sort-select]').selectOption('longest');
    await expect.poll(() => query(page)).toBe('?group=none&sort=longest');
    const longest = Math.max(...rows.map((r) => r.ms ?? 0));
    await expect.poll(async () => (await shown(page))[0]).toBe(rows.find((r) => (r.ms ?? 0) === longest)!.s);
    await page.reload();
    await expect.poll(async () => (await shown(page))[0]).toBe(rows.find((r) => (r.ms ?? 0) === longest)!.s);
    expect(await page.locator('[data-sort-select]').inputValue()).toBe('longest');
    // Back through each change: grouping, then sort, then the page as it was first.
    await page.goBack();
    await expect.poll(() => query(page)).toBe('?group=none&sort=oldest');
    await expect.poll(async () => (await shown(page))[0]).toBe(rows[rows.length - 1].s);
    await page.goBack();
    await page.goBack();
    await expect.poll(() => query(page)).toBe('');
    await expect.poll(async () => (await shown(page)).sort()).toEqual(rows.slice(0, PAGE).map((r) => r.s).sort());
    await page.close();
  });
});
