import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JSDOM } from 'jsdom';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileKeys, fileName, fromBase64Url, unlockWithMaster, type KeySlots } from '../../src/lib/encrypt/crypto.js';
import { SEALED_DIR } from '../../src/lib/encrypt/layout.js';
import { argon2idNode, linkFragment } from '../../src/lib/encrypt/site.js';
import { plainDirOf } from '../../src/integrations/encrypt.js';
import { buildSite, listFiles } from '../helpers/build.js';
import { launchBrowser, seriousA11yViolations } from '../helpers/browser.js';
import { serveStatic, type StaticServer } from '../helpers/serve.js';
import { repoRoot } from '../helpers/shared.js';

/**
 * An encrypted site as a reader meets it (issue 29), on the bundled samples
 * served as GitHub Pages serves a site (unknown paths answered by 404.html):
 * the unlock page and nothing else before unlocking, a wrong password, the
 * right one (the index, a session page with its anchors, search landing on a
 * message), a `#k=` link opening a message directly, a reload (also after the
 * browser stopped the service worker) without asking again, another tab that
 * must unlock for itself, and a changed byte that stops a page with a message.
 */
const PASSWORD = 'tangerine submarine 42';
let root = '';
let out = '';
let cache = '';
let server: StaticServer;
let browser: Browser;
/** Session pages (paths below the base, ending in `/`) and a message of each, from the plaintext build. */
let sessions: Array<{ path: string; title: string; message: string }> = [];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'sp-encrypt-browser-'));
  out = join(root, 'site');
  cache = join(root, 'cache');
  writeFileSync(join(root, 'config.json'), JSON.stringify({ encrypt: true }));
  const run = await buildSite(out, { SESSIONPRESS_SOURCE: join(repoRoot, 'content', 'sessions'), SESSIONPRESS_CONFIG: join(root, 'config.json'), SESSIONPRESS_CACHE_DIR: cache, SESSIONPRESS_PASSWORD: PASSWORD });
  if (run.code !== 0) throw new Error(`build failed:\n${run.log.slice(-3000)}`);
  const plain = plainDirOf(cache);
  for (const f of listFiles(join(plain, 'sessions')).filter((f) => /\/sessions\/[^/]+\/[^/]+\/index\.html$/.test(f))) {
    const html = readFileSync(f, 'utf8');
    const message = /data-uuid="([0-9a-f-]{36})"/.exec(html)?.[1];
    const title = new JSDOM(html).window.document.querySelector('h1')?.textContent?.trim();
    if (message && title) sessions.push({ path: f.slice(plain.length + 1).replace(/index\.html$/, ''), title, message });
  }
  server = await serveStatic(out, '/', { notFoundPage: true });
  browser = await launchBrowser();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

async function fresh(width = 1280, colorScheme: 'light' | 'dark' = 'light'): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height: 800 }, colorScheme });
  return { context, page: await context.newPage() };
}

async function unlock(page: Page, password = PASSWORD): Promise<void> {
  await page.locator('[data-unlock-form]:not([hidden])').waitFor({ timeout: 15_000 });
  await page.fill('[data-unlock-password]', password);
  await page.click('[data-unlock-form] button');
}

/** The text a reader could see of any session: none of their titles. */
async function showsNoSession(page: Page): Promise<void> {
  const text = (await page.textContent('body')) ?? '';
  for (const s of sessions) expect(text).not.toContain(s.title);
  expect(await page.locator('[data-transcript], .session-list').count()).toBe(0);
}

describe('an encrypted site in the browser', () => {
  it('shows the unlock page and nothing of the sessions, at any address', async () => {
    expect(sessions.length).toBeGreaterThanOrEqual(4);
    const { context, page } = await fresh();
    await page.goto(server.url);
    await page.locator('[data-unlock-form]:not([hidden])').waitFor({ timeout: 15_000 });
    expect(await seriousA11yViolations(page)).toEqual([]);
    for (const path of ['', sessions[0].path]) {
      await page.goto(`${server.url}${path}`);
      await page.locator('[data-unlock-form]:not([hidden])').waitFor({ timeout: 15_000 });
      await expect.poll(() => page.locator('[data-unlock-password]').evaluate((e) => e === document.activeElement)).toBe(true);
      await showsNoSession(page);
    }
    await context.close();
  });

  it('says so for a wrong password, and shows nothing', async () => {
    const { context, page } = await fresh();
    await page.goto(server.url);
    await unlock(page, 'not the password');
    await expect.poll(() => page.locator('[data-unlock-status][data-kind="error"]').textContent(), { timeout: 30_000 }).toMatch(/wrong password/i);
    await showsNoSession(page);
    expect(await page.evaluate(() => sessionStorage.length + localStorage.length + document.cookie.length)).toBe(0);
    await context.close();
  });

  it('opens the same site with the right one: the index, a session page and its anchors, search landing on a message', async () => {
    const { context, page } = await fresh();
    await page.goto(server.url);
    await unlock(page);
    await page.locator('.session-list').first().waitFor({ timeout: 30_000 });
    for (const s of sessions) expect(await page.textContent('body')).toContain(s.title.slice(0, 30));
    // The key is in this tab's session storage only.
    expect(await page.evaluate(() => ({ session: sessionStorage.length, local: localStorage.length, cookie: document.cookie }))).toEqual({ session: 1, local: 0, cookie: '' });
    // A session page, through its link in the list, styled and scripted as on a public site.
    const s = sessions.find((x) => x.path.includes('garden')) ?? sessions[0];
    await page.click(`a.card-title[href="/${s.path}"]`);
    await page.locator('[data-transcript] [data-uuid]').first().waitFor({ timeout: 15_000 });
    expect(await page.evaluate(() => getComputedStyle(document.body).margin)).toBe('0px');
    // A message's anchor lands on it.
    await page.goto(`${server.url}${s.path}#m-${s.message}`);
    await page.locator(`#m-${s.message}`).waitFor({ timeout: 15_000 });
    await expect.poll(() => page.evaluate(() => document.querySelector(':target')?.id)).toBe(`m-${s.message}`);
    // An address without its trailing slash is redirected as a static host does; an unknown one says so.
    await page.goto(`${server.url}${s.path.replace(/\/$/, '')}`);
    await page.locator('[data-transcript]').waitFor({ timeout: 15_000 });
    expect(page.url()).toBe(`${server.url}${s.path}`);
    const missing = await page.goto(`${server.url}no-such-page/`);
    expect(missing?.status()).toBe(404);
    expect(await page.locator('[data-sessionpress-error] h1').textContent()).toBe('Page not found');
    await page.goto(`${server.url}${s.path}#m-${s.message}`);
    await page.locator(`#m-${s.message}`).waitFor({ timeout: 15_000 });
    // Search: pagefind's index and fragments come through the service worker; a hit lands on a message.
    await page.keyboard.press('/');
    await expect.poll(() => page.locator('[data-search-dialog]').evaluate((d) => (d as HTMLDialogElement).open), { timeout: 15_000 }).toBe(true);
    await page.fill('[data-search-input]', 'greenhouse');
    await expect.poll(() => page.locator('[data-search-status]').textContent(), { timeout: 30_000 }).toMatch(/\d+ sessions? match/);
    const hit = page.locator('[data-search-results] a.result-hit').first();
    expect(await hit.getAttribute('href')).toMatch(/#m-[0-9a-f-]{36}/);
    await hit.click();
    await page.waitForURL((u) => u.hash.startsWith('#m-'), { timeout: 15_000 });
    const target = new URL(page.url()).hash.slice(1);
    await page.locator(`[id="${target}"]`).waitFor({ timeout: 15_000 });
    await page.locator('mark.search-mark').first().waitFor({ timeout: 15_000 });
    expect((await page.locator('mark.search-mark').first().textContent())!.toLowerCase()).toContain('greenhouse');
    await context.close();
  });

  it('opens a message directly from a #k= link, and takes the key out of the address', async () => {
    const { context, page } = await fresh();
    const s = sessions[1];
    const fragment = await linkFragment(PASSWORD, undefined, '/');
    await page.goto(`${server.url}${s.path}#${fragment}&m-${s.message}`);
    await page.locator(`#m-${s.message}`).waitFor({ timeout: 30_000 });
    expect(page.url()).toBe(`${server.url}${s.path}#m-${s.message}`);
    await expect.poll(() => page.evaluate(() => document.querySelector(':target')?.id)).toBe(`m-${s.message}`);
    expect(await page.evaluate(() => history.length)).toBeLessThanOrEqual(3);
    // A link whose key does not fit says so and asks for the password.
    const other = await context.newPage();
    await other.goto(`${server.url}#k=${'A'.repeat(43)}`);
    await expect.poll(() => other.locator('[data-unlock-status][data-kind="error"]').textContent(), { timeout: 15_000 }).toMatch(/does not open this site/);
    expect(other.url()).not.toContain('k=');
    await other.locator('[data-unlock-form]:not([hidden])').waitFor();
    await context.close();
  });

  it('reloads within the tab without asking again, also after the browser stopped the service worker; another tab asks', async () => {
    const { context, page } = await fresh();
    const s = sessions[2];
    await page.goto(`${server.url}${s.path}`);
    await unlock(page);
    await page.locator('[data-transcript]').waitFor({ timeout: 30_000 });
    await page.reload();
    await page.locator('[data-transcript]').waitFor({ timeout: 15_000 });
    expect(await page.locator('[data-unlock-form]').count()).toBe(0);
    // The browser stops idle service workers, and their memory with them.
    const cdp = await context.newCDPSession(page);
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.stopAllWorkers');
    await page.reload();
    await page.locator('[data-transcript]').waitFor({ timeout: 30_000 });
    expect(page.url()).toBe(`${server.url}${s.path}`);
    // And a worker stopped while a page is open asks that page for the key when the page fetches (search here).
    await page.waitForLoadState('load');
    await cdp.send('ServiceWorker.stopAllWorkers');
    await page.keyboard.press('/');
    await expect.poll(() => page.locator('[data-search-dialog]').evaluate((d) => (d as HTMLDialogElement).open), { timeout: 15_000 }).toBe(true);
    await page.fill('[data-search-input]', 'greenhouse');
    await expect.poll(() => page.locator('[data-search-status]').textContent(), { timeout: 30_000 }).toMatch(/\d+ sessions? match/);
    // A new tab has its own session storage: the worker serves it only after it unlocks too, a page or a
    // Markdown twin alike.
    const other = await context.newPage();
    for (const path of [s.path, `${s.path}index.md`]) {
      await other.goto(`${server.url}${path}`);
      await other.locator('[data-unlock-form]:not([hidden])').waitFor({ timeout: 15_000 });
      await showsNoSession(other);
    }
    // The tab that unlocked reads the Markdown twin as text.
    await page.goto(`${server.url}${s.path}index.md`);
    await expect.poll(() => page.locator('pre').textContent(), { timeout: 15_000 }).toContain(s.title.slice(0, 20));
    await context.close();
  });

  it('stops a page whose sealed file had one byte changed, with a clear message and nothing of the page', async () => {
    const slots = JSON.parse(readFileSync(join(out, 'unlock', 'keys.json'), 'utf8')) as KeySlots;
    const slot = slots.slots.find((x) => x.type === 'password');
    if (slot?.type !== 'password') throw new Error('no password slot');
    const siteKey = await unlockWithMaster(slots, await argon2idNode(PASSWORD, fromBase64Url(slot.salt), slot));
    const keys = await fileKeys(siteKey!);
    const s = sessions[3];
    const file = join(out, SEALED_DIR, await fileName(keys, `${s.path}index.html`));
    const original = readFileSync(file);
    const { context, page } = await fresh();
    await page.goto(server.url);
    await unlock(page);
    await page.locator('.session-list').first().waitFor({ timeout: 30_000 });
    try {
      for (const at of [4, 20, Math.floor(original.length / 2), original.length - 1]) {
        const changed = Buffer.from(original);
        changed[at] ^= 0x20;
        writeFileSync(file, changed);
        const res = await page.goto(`${server.url}${s.path}`);
        expect(res?.status()).toBe(500);
        await expect.poll(() => page.locator('[data-sessionpress-error]').textContent()).toMatch(/could not be decrypted: the file was changed or damaged/);
        await showsNoSession(page);
      }
    } finally {
      writeFileSync(file, original);
    }
    await page.goto(`${server.url}${s.path}`);
    await page.locator('[data-transcript]').waitFor({ timeout: 15_000 });
    await context.close();
  });
});

describe('an encrypted project site (under /repo/, as GitHub Pages serves one)', () => {
  let baseRoot = '';
  let baseServer: StaticServer;

  beforeAll(async () => {
    baseRoot = mkdtempSync(join(tmpdir(), 'sp-encrypt-base-'));
    writeFileSync(join(baseRoot, 'config.json'), JSON.stringify({ encrypt: true, site: 'https://me.github.io', base: '/repo' }));
    const site = join(baseRoot, 'site');
    const run = await buildSite(site, { SESSIONPRESS_SOURCE: join(repoRoot, 'content', 'sessions'), SESSIONPRESS_CONFIG: join(baseRoot, 'config.json'), SESSIONPRESS_CACHE_DIR: join(baseRoot, 'cache'), SESSIONPRESS_PASSWORD: PASSWORD });
    if (run.code !== 0) throw new Error(`build failed:\n${run.log.slice(-3000)}`);
    baseServer = await serveStatic(site, '/repo/', { notFoundPage: true });
  }, 600_000);

  afterAll(async () => {
    await baseServer?.close();
    if (baseRoot) rmSync(baseRoot, { recursive: true, force: true });
  });

  it('unlocks at a deep address, reads and searches under the base, and opens a #k= link made for that site and base', async () => {
    const s = sessions[0];
    const { context, page } = await fresh();
    await page.goto(`${baseServer.url}${s.path}`);
    await unlock(page);
    await page.locator('[data-transcript]').waitFor({ timeout: 30_000 });
    expect(page.url()).toBe(`${baseServer.url}${s.path}`);
    await page.goto(baseServer.url);
    await page.locator('.session-list').first().waitFor({ timeout: 15_000 });
    await page.waitForLoadState('load');
    await page.keyboard.press('/');
    await expect.poll(() => page.locator('[data-search-dialog]').evaluate((d) => (d as HTMLDialogElement).open), { timeout: 15_000 }).toBe(true);
    await page.fill('[data-search-input]', 'greenhouse');
    await expect.poll(() => page.locator('[data-search-status]').textContent(), { timeout: 30_000 }).toMatch(/\d+ sessions? match/);
    expect(await page.locator('[data-search-results] a.result-hit').first().getAttribute('href')).toMatch(/^\/repo\/sessions\/.*#m-/);
    await context.close();
    const link = await fresh();
    await link.page.goto(`${baseServer.url}${s.path}#${await linkFragment(PASSWORD, 'https://me.github.io', '/repo')}&m-${s.message}`);
    await link.page.locator(`#m-${s.message}`).waitFor({ timeout: 30_000 });
    expect(link.page.url()).toBe(`${baseServer.url}${s.path}#m-${s.message}`);
    await link.context.close();
  });
});
