/**
 * `npm run screenshots -- [--out DIR] [--dist DIR] [--only NAMES] [--widths 1280,390] [--themes light,dark]`
 *
 * Builds the bundled samples (content/sessions) into a temporary folder, serves
 * the site on 127.0.0.1 and photographs it with Debian's Chromium (never a
 * downloaded browser): the index, a session, a subagent, a diff and the search
 * page with results, at each width and in each theme. PNGs are named
 * `<shot>-<width>-<theme>.png`.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { parseCommandLine } from './lib/cli.js';
import { launchBrowser } from '../test/helpers/browser.js';
import { serveStatic } from '../test/helpers/serve.js';

const REPO = resolve(import.meta.dirname, '..');

export const SHOTS = ['index', 'session', 'subagent', 'diff', 'search'] as const;
export type ShotName = (typeof SHOTS)[number];
export const THEMES = ['light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

const USAGE = `usage: npm run screenshots -- [--out DIR] [--dist DIR] [--only NAMES] [--widths LIST] [--themes LIST]

  --out DIR       where the PNGs go (default: docs/screenshots)
  --dist DIR      photograph this built site instead of building the samples
  --only NAMES    comma-separated subset of: ${SHOTS.join(', ')} (default: all)
  --widths LIST   viewport widths in px (default: 1280,390)
  --themes LIST   light, dark or both (default: light,dark)
  --query WORD    what to type into the search page (default: settle)`;

/** Viewport height for a width: a desktop window, or a phone's screen. */
export function viewportFor(width: number): { width: number; height: number } {
  return { width, height: width < 600 ? 844 : 800 };
}

/** File name of one screenshot. */
export function shotFile(name: ShotName, width: number, theme: Theme): string {
  return `${name}-${width}-${theme}.png`;
}

export interface ScreenshotDeps {
  out?: (line: string) => void;
}

/** Runs the script; returns the exit code (0 done, 1 failed, 2 usage error). */
export async function main(argv: string[], deps: ScreenshotDeps = {}): Promise<number> {
  const log = deps.out ?? ((line: string) => console.log(line));
  const cli = parseCommandLine(
    argv,
    { out: { type: 'string' }, dist: { type: 'string' }, only: { type: 'string' }, widths: { type: 'string' }, themes: { type: 'string' }, query: { type: 'string' } },
    USAGE,
    log,
    { max: 0 },
  );
  if (!cli.ok) return cli.code;
  const { values } = cli;
  const shots = list(values.only, SHOTS);
  const themes = list(values.themes, THEMES);
  const widths = (values.widths ?? '1280,390').split(',').map(Number);
  if (!shots || !themes || widths.some((w) => !Number.isInteger(w) || w < 200 || w > 4000)) {
    log(`unknown shot, theme or width\n\n${USAGE}`);
    return 2;
  }
  const outDir = resolve(values.out ?? join(REPO, 'docs', 'screenshots'));
  mkdirSync(outDir, { recursive: true });

  const tmp = values.dist ? undefined : mkdtempSync(join(tmpdir(), 'sp-screenshots-'));
  try {
    const dist = values.dist ? resolve(values.dist) : await buildSamples(join(tmp!, 'dist'), log);
    if (!existsSync(join(dist, 'index.html'))) {
      log(`no built site at ${dist}`);
      return 1;
    }
    const server = await serveStatic(dist);
    const browser = await launchBrowser();
    try {
      for (const theme of themes) {
        for (const width of widths) {
          for (const shot of shots) {
            const file = join(outDir, shotFile(shot, width, theme));
            await photograph(browser, server.url, shot, { width, theme, file, query: values.query ?? 'settle' });
            log(`${file}  ${Math.round(statSync(file).size / 1024)} KB`);
          }
        }
      }
    } finally {
      await browser.close();
      await server.close();
    }
    return 0;
  } catch (err) {
    log(`screenshots failed: ${(err as Error).message}`);
    return 1;
  } finally {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  }
}

/** A comma-separated subset of `all`, or all of it; undefined when a name is unknown. */
function list<T extends string>(value: string | undefined, all: readonly T[]): T[] | undefined {
  if (!value) return [...all];
  const names = value.split(',').map((s) => s.trim()).filter(Boolean);
  return names.every((n) => (all as readonly string[]).includes(n)) ? (names as T[]) : undefined;
}

/** `npm run build` of the samples into `outDir`, with its own cache folder beside it. */
function buildSamples(outDir: string, log: (line: string) => void): Promise<string> {
  log('building the samples…');
  return new Promise((resolveBuild, reject) => {
    const child = spawn('npm', ['run', 'build', '--silent', '--', '--outDir', outDir], {
      cwd: REPO,
      env: { ...process.env, SESSIONPRESS_SOURCE: join(REPO, 'content', 'sessions'), SESSIONPRESS_CACHE_DIR: `${outDir}-cache`, ASTRO_TELEMETRY_DISABLED: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => (code === 0 ? resolveBuild(outDir) : reject(new Error(`build failed:\n${output.slice(-2000)}`))));
  });
}

interface ShotOptions {
  width: number;
  theme: Theme;
  file: string;
  query: string;
}

/** Opens the page a shot shows, in a fresh context of the given size and theme, and writes the PNG. */
async function photograph(browser: Browser, siteUrl: string, shot: ShotName, opts: ShotOptions): Promise<void> {
  const context = await browser.newContext({ viewport: viewportFor(opts.width), colorScheme: opts.theme, deviceScaleFactor: 1, reducedMotion: 'reduce' });
  // The stored theme wins over the system's, exactly as a returning reader's would.
  await context.addInitScript((theme) => localStorage.setItem('sessionpress-theme', theme), opts.theme);
  const page = await context.newPage();
  try {
    await SETUP[shot](page, siteUrl, opts);
    await page.evaluate(() => document.fonts?.ready);
    await page.screenshot({ path: opts.file });
  } finally {
    await context.close();
  }
}

type Setup = (page: Page, siteUrl: string, opts: ShotOptions) => Promise<void>;

/** The session pages of the site, in the index's order. */
async function sessionLinks(page: Page, siteUrl: string): Promise<string[]> {
  await page.goto(siteUrl);
  return page.$$eval('a[href*="/sessions/"]', (links) => [...new Set(links.map((a) => (a as HTMLAnchorElement).href.split('#')[0]))]);
}

/** Goes to the first session page holding `selector`, opens the closed sections around it and scrolls it to the top. */
async function showFirst(page: Page, siteUrl: string, selector: string): Promise<void> {
  for (const href of await sessionLinks(page, siteUrl)) {
    await page.goto(href);
    const el = await page.$(`[data-transcript] :is(${selector})`);
    if (!el) continue;
    await el.evaluate((node) => {
      for (let d = node.closest('details'); d; d = d.parentElement?.closest('details') ?? null) d.open = true;
      if (node instanceof HTMLDetailsElement) node.open = true;
      node.scrollIntoView({ block: 'start' });
      window.scrollBy(0, -12);
    });
    return;
  }
  throw new Error(`no session page has ${selector}`);
}

const SETUP: Record<ShotName, Setup> = {
  async index(page, siteUrl) {
    await page.goto(siteUrl);
  },
  async session(page, siteUrl) {
    // The session whose overview has the most parts (outcome, files, subagents), then the most messages:
    // the one that shows the most of the layout.
    let best = { href: '', n: -1 };
    for (const href of await sessionLinks(page, siteUrl)) {
      await page.goto(href);
      const n = (await page.locator('.overview section').count()) * 10_000 + (await page.locator('[data-transcript] [data-uuid]').count());
      if (n > best.n) best = { href, n };
    }
    await page.goto(best.href);
  },
  async subagent(page, siteUrl) {
    await showFirst(page, siteUrl, '.subagent, [data-subagent]');
  },
  async diff(page, siteUrl) {
    await showFirst(page, siteUrl, '.diff-view, .diff');
  },
  async search(page, siteUrl, opts) {
    await page.goto(`${siteUrl}search/`);
    const input = page.locator('main input[type="search"]').first();
    await input.fill(opts.query);
    await page.locator('main .search-results > li').first().waitFor({ timeout: 20_000 });
    // Let the remaining results and their excerpts arrive.
    await page.waitForTimeout(800);
  },
};

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2)).then((code) => process.exit(code));
}
