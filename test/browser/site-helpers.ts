import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JSDOM } from 'jsdom';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { buildSite, listFiles } from '../helpers/build.js';
import { launchBrowser } from '../helpers/browser.js';
import { serveStatic, type StaticServer } from '../helpers/serve.js';
import { fixturesRoot, repoRoot } from '../helpers/shared.js';

/** Site-relative paths (`sessions/<project>/<id>/`, `…/2/`) of every session page in a built site, sorted. */
export function sessionPagePaths(out: string): string[] {
  return listFiles(join(out, 'sessions'))
    .filter((f) => f.endsWith('index.html'))
    .map((f) => f.slice(out.length + 1).replace(/index\.html$/, ''))
    .sort();
}

/**
 * A word that occurs in exactly one message of one session page and nowhere
 * else in the site's HTML, so a search for it has exactly one right answer.
 */
export function uniqueWord(out: string, sessionPaths: string[]): { word: string; path: string; uuid: string } {
  const seen = new Map<string, Array<{ path: string; uuid: string }>>();
  for (const path of sessionPaths) {
    const doc = new JSDOM(readFileSync(join(out, path, 'index.html'), 'utf8')).window.document;
    for (const msg of doc.querySelectorAll('[data-transcript] [data-uuid]')) {
      if (msg.querySelector('[data-uuid]')) continue; // innermost messages only
      const words = new Set((msg.textContent ?? '').toLowerCase().match(/\b[a-z]{9,14}\b/g) ?? []);
      for (const w of words) {
        const list = seen.get(w) ?? [];
        list.push({ path, uuid: msg.getAttribute('data-uuid')! });
        seen.set(w, list);
      }
    }
  }
  const everything = listFiles(out)
    .filter((f) => f.endsWith('.html'))
    .map((f) => readFileSync(f, 'utf8').toLowerCase())
    .join('\n');
  for (const [word, where] of [...seen].sort()) {
    if (where.length === 1 && everything.split(word).length - 1 === 1) return { word, ...where[0] };
  }
  throw new Error('no word occurs in exactly one message');
}

/**
 * Types `word` into the search dialog (opened with `/`), clicks the first hit
 * and checks the browser lands on `path` with the word marked in message `uuid` and in view.
 * Returns the href that was followed. With `firstHit: false` the hit on `path`
 * is clicked wherever it is in the list (a sharded index ranks each shard's
 * pages by that shard's statistics, so with tiny shards the order is not global).
 */
export async function searchAndLand(page: Page, word: string, path: string, uuid: string, opts: { firstHit?: boolean } = {}): Promise<string> {
  await page.keyboard.press('/');
  await expect.poll(() => page.locator('[data-search-dialog]').evaluate((d) => (d as HTMLDialogElement).open), { timeout: 15_000 }).toBe(true);
  await page.fill('[data-search-input]', word);
  const hits = page.locator('[data-search-results] a.result-hit');
  await hits.first().waitFor();
  const hit = opts.firstHit === false ? hits.filter({ has: page.locator(`xpath=self::*[contains(@href, "${path}?") or contains(@href, "${path}#")]`) }).first() : hits.first();
  await hit.waitFor();
  const href = (await hit.getAttribute('href'))!;
  await hit.click();
  await page.waitForURL((u) => u.pathname.endsWith(`/${path}`) || u.pathname === path);
  // The word is marked (the one landed on, inside the message), not the message as a whole.
  const mark = page.locator(`[data-uuid="${uuid}"] mark.search-mark.is-current`);
  await expect.poll(() => mark.count(), { timeout: 15_000 }).toBe(1);
  expect((await mark.textContent())!.toLowerCase()).toBe(word.toLowerCase());
  // The hash names the message itself or a heading inside it, never another message.
  const landed = await page.evaluate(() => document.getElementById(decodeURIComponent(location.hash.slice(1)))?.closest('[data-uuid]')?.getAttribute('data-uuid'));
  expect(landed).toBe(uuid);
  const height = page.viewportSize()?.height ?? 800;
  await expect
    .poll(async () => {
      const box = (await mark.boundingBox())!;
      return box.y >= 0 && box.y + box.height <= height;
    })
    .toBe(true);
  return href;
}

/**
 * The site built from `../shared/fixtures/projects`, built at most once per
 * `vitest run`: the XSS and the search-redaction test files both need it, and a
 * fixtures build costs ~40 s on 2 cores. Test files run one after another in
 * child processes of the same vitest process, so the build is kept in a folder
 * named after that parent (pid and start time, so a recycled pid never reuses
 * an old build); folders of runs that have ended are removed first.
 */
export async function fixturesSite(): Promise<string> {
  const parent = runKey();
  const root = join(tmpdir(), 'sp-browser-fixtures');
  mkdirSync(root, { recursive: true });
  for (const name of readdirSync(root)) {
    const pid = Number(name.split('-')[0]);
    if (name.startsWith(parent) || !Number.isInteger(pid) || pid <= 0) continue;
    if (!alive(pid)) rmSync(join(root, name), { recursive: true, force: true });
  }
  const out = join(root, parent);
  const done = `${out}.ok`;
  if (existsSync(done) && existsSync(join(out, 'index.html'))) return out;
  rmSync(out, { recursive: true, force: true });
  // The repository's notes quote the sample sessions, which a fixtures build does not have.
  const notes = `${out}-notes`;
  mkdirSync(notes, { recursive: true });
  const run = await buildSite(out, { SESSIONPRESS_SOURCE: fixturesRoot, SESSIONPRESS_NOTES: notes });
  if (run.code !== 0) throw new Error(`fixtures build failed:\n${run.log.slice(-3000)}`);
  writeFileSync(done, new Date().toISOString());
  return out;
}

function runKey(): string {
  const pid = process.ppid;
  let started = 'x';
  try {
    // Field 22 of /proc/<pid>/stat is the start time; the command name (field 2) may hold spaces, so count from its ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    started = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? 'x';
  } catch {
    // Not Linux: the pid alone still separates concurrent runs.
  }
  return `${pid}-${started}`;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface ServedSite {
  out: string;
  server: StaticServer;
  browser: Browser;
  sessionPaths: string[];
  close(): Promise<void>;
}

/**
 * Builds the bundled samples (with extra environment, e.g. a base path) into a
 * temporary folder, serves it under `base`, and starts Chromium. `close()`
 * stops both and removes the build and its cache.
 */
export async function serveSampleSite(prefix: string, env: Record<string, string> = {}, base = '/'): Promise<ServedSite> {
  const out = mkdtempSync(join(tmpdir(), prefix));
  const run = await buildSite(out, { SESSIONPRESS_SOURCE: join(repoRoot, 'content', 'sessions'), ...env });
  if (run.code !== 0) throw new Error(`build failed:\n${run.log.slice(-3000)}`);
  const server = await serveStatic(out, base);
  const browser = await launchBrowser();
  return {
    out,
    server,
    browser,
    sessionPaths: sessionPagePaths(out),
    async close() {
      await browser.close();
      await server.close();
      rmSync(out, { recursive: true, force: true });
      rmSync(`${out}-cache`, { recursive: true, force: true });
    },
  };
}
