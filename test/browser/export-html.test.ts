import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../scripts/export.js';
import { openSessionById } from '../../src/lib/build/open-session.js';
import type { Message, Session } from '../../src/lib/transcript/types.js';
import { launchBrowser } from '../helpers/browser.js';
import { corpusRoot, fixturesRoot, loadExpect } from '../helpers/shared.js';

/**
 * The self-contained HTML export in Chromium with every request refused: it
 * must need none, show every message, and keep dark mode, permalinks and
 * collapsing working from file://.
 */
const E = loadExpect();
const IMAGES_SESSION = '9e953218-585f-4692-89df-9e0747a31c68';
let dir: string;
let browser: Browser;

async function exportHtml(source: string, id: string, file: string): Promise<string> {
  const saved = process.env.SESSIONPRESS_SOURCE;
  process.env.SESSIONPRESS_SOURCE = source;
  try {
    const errors: string[] = [];
    const code = await main([id, '--format', 'html', '--out', join(dir, file)], { err: (l) => errors.push(l) });
    if (code !== 0) throw new Error(errors.join('\n'));
  } finally {
    process.env.SESSIONPRESS_SOURCE = saved;
  }
  return join(dir, file);
}

/** Opens a file with the network blocked; returns the page and every request it tried besides the file itself. */
async function openBlocked(file: string, hash = ''): Promise<{ page: Page; requests: string[]; errors: string[] }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const url = pathToFileURL(file).href;
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (r) => {
    if (r.url().split('#')[0] !== url) requests.push(r.url());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.route('**', (route) => (route.request().url().split('#')[0] === url ? route.continue() : route.abort()));
  await page.goto(url + hash, { waitUntil: 'load' });
  return { page, requests, errors };
}

/** Messages a reader sees: prompts and assistant messages with something to show. */
function shownMessages(session: Session): Message[] {
  return session.turns.flatMap((t) =>
    t.messages.filter((m) => (m.kind === 'user' && t.prompt?.uuid === m.uuid) || (m.kind === 'assistant' && m.assistantKind === 'normal' && m.blocks.length > 0)),
  );
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sessionpress-export-html-'));
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('HTML export in a browser with the network blocked', () => {
  it('makes no request and shows every message of a session with images; images are data: URIs', async () => {
    const file = await exportHtml(corpusRoot, IMAGES_SESSION, 'images.html');
    const { page, requests, errors } = await openBlocked(file);
    expect(requests).toEqual([]);
    expect(errors).toEqual([]);
    const { result } = await openSessionById(corpusRoot, IMAGES_SESSION, {});
    const ids = shownMessages(result.session).map((m) => `m-${m.uuid}`);
    const calls = result.session.messages.flatMap((m) => (m.kind === 'assistant' ? m.toolCalls.map((c) => c.id) : []));
    expect(ids.length + calls.length).toBeGreaterThan(5);
    const missing = await page.evaluate(
      ([list, toolIds]) => [...list.filter((id) => !document.getElementById(id)), ...toolIds.filter((id) => !document.querySelector(`[data-tool-use-id="${CSS.escape(id)}"]`))],
      [ids, calls] as const,
    );
    expect(missing).toEqual([]);
    // Images are lazy: load each now (it is in the file already) and check it decodes.
    const images = await page.evaluate(() =>
      Promise.all(
        [...document.images].map(async (i) => {
          i.loading = 'eager';
          await i.decode().catch(() => undefined);
          return { src: i.src.slice(0, 11), ok: i.complete && i.naturalWidth > 0 };
        }),
      ),
    );
    expect(images.length).toBeGreaterThan(0);
    for (const img of images) expect(img).toEqual({ src: 'data:image/', ok: true });
    const html = readFileSync(file, 'utf8');
    expect(html).toContain(`http-equiv="Content-Security-Policy"`);
    expect(html).not.toMatch(/<link\b|<script\b[^>]*\bsrc=|@import|url\(\s*['"]?https?:/i);
  }, 120_000);

  it('runs none of the hostile fixtures\' payloads, under its own Content-Security-Policy', async () => {
    const xss = E.xss as { session_id: string; detect: { window_property: string; title_prefix: string }; payloads: Array<{ marker: string }> };
    const file = await exportHtml(fixturesRoot, xss.session_id, 'xss.html');
    const { page, requests } = await openBlocked(file);
    for (const s of await page.locator('summary').all()) await s.click().catch(() => undefined);
    await page.waitForTimeout(300);
    expect(requests).toEqual([]);
    expect(await page.evaluate((p) => (window as unknown as Record<string, unknown>)[p], xss.detect.window_property)).toBeUndefined();
    expect(await page.title()).not.toMatch(new RegExp(`^${xss.detect.title_prefix}`));
    const text = await page.locator('[data-transcript]').textContent();
    expect(xss.payloads.filter((p) => text?.includes(p.marker)).length).toBeGreaterThan(xss.payloads.length / 2);
  }, 120_000);

  it('keeps dark mode, permalinks and collapsing working from file://', async () => {
    const bs = E.branches_streaming;
    const file = await exportHtml(fixturesRoot, bs.session_id, 'branches.html');
    const { page, requests, errors } = await openBlocked(file, `#m-${bs.active_leaf_uuid}`);
    expect(requests).toEqual([]);
    expect(errors).toEqual([]);
    // Permalink: the targeted message is marked (the page script ran under the CSP).
    expect(await page.evaluate(() => document.querySelector('.is-target')?.closest('[data-uuid]')?.getAttribute('data-uuid') ?? document.querySelector('.is-target')?.getAttribute('data-uuid'))).toBe(bs.active_leaf_uuid);
    // Dark mode: the toggle switches the theme and the page's background.
    const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const before = await bg();
    const themeBefore = await page.evaluate(() => document.documentElement.dataset.theme ?? (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'));
    await page.click('[data-theme-toggle]');
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(themeBefore === 'dark' ? 'light' : 'dark');
    expect(await bg()).not.toBe(before);
    // Collapsing: an abandoned branch is a closed details that opens on a click.
    const branch = page.locator('details[data-branch="abandoned"]').first();
    expect(await branch.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    await branch.locator('summary').first().click();
    expect(await branch.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    const abandoned = await page.locator('section.abandoned').textContent();
    for (const marker of bs.abandoned_markers as string[]) expect(abandoned).toContain(marker);
    const text = await page.locator('[data-transcript]').textContent();
    for (const marker of bs.active_markers as string[]) expect(text).toContain(marker);
  }, 120_000);
});
