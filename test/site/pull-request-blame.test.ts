import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitIn } from '../helpers/blame-fixture.js';
import { buildScenario, SECRET, type Scenario } from '../helpers/blame-scenario.js';
import { buildSite, readAllText, type BuildRun } from '../helpers/build.js';
import { launchBrowser, seriousA11yViolations } from '../helpers/browser.js';
import { serveStatic } from '../helpers/serve.js';

/**
 * The pull request's page of a site built with the repository (`repo`): the
 * story of the blame tests, squash-merged as "Add retry (#7)" and checked out
 * as the Action checks out the default branch. Each added line shows who wrote
 * it, linked to the tool call.
 */
const tmp = mkdtempSync(join(tmpdir(), 'sp-pr-blame-'));
const out = join(tmp, 'site');
let s: Scenario;
let build: BuildRun;
let doc: Document;

beforeAll(async () => {
  s = buildScenario(join(tmp, 'story'), { committed: true });
  gitIn(s.repo, ['checkout', '-q', 'squashed']);
  build = await buildSite(out, { SESSIONPRESS_SOURCE: join(s.repo, '.claude-sessions'), SESSIONPRESS_REPO: s.repo });
  doc = new JSDOM(readFileSync(join(out, 'pull-requests', '7', 'index.html'), 'utf8')).window.document;
}, 600_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('the pull request page with the repository', () => {
  it('builds', () => {
    expect(build.code, build.log.slice(-3000)).toBe(0);
  });

  it('shows each added line with who wrote it, linked to the tool call on the session page', () => {
    const sessionHref = doc.querySelector(`[data-session-id="${s.sessionId}"] a`)!.getAttribute('href')!;
    for (const [path, expected] of Object.entries(s.expected)) {
      const file = doc.querySelector(`[data-blame] [data-path="${path}"]`);
      expect(file, path).not.toBeNull();
      const rows = [...file!.querySelectorAll('tr[data-line]')];
      const got = rows.map((r) => [r.querySelector('.blame-code')!.textContent!.includes('[REDACTED') ? 'API_KEY' : r.querySelector('.blame-code')!.textContent, r.getAttribute('data-author') === 'person' ? 'person' : Object.entries(s.calls).find(([, id]) => id === r.getAttribute('data-tool-use-id'))?.[0]]);
      expect(got, path).toEqual(expected.map(([t, by]) => [t.includes(SECRET) ? 'API_KEY' : t, by]));
      for (const r of rows) {
        const id = r.getAttribute('data-tool-use-id');
        if (id) expect(r.querySelector('.blame-who a')!.getAttribute('href')).toBe(`${sessionHref}#t-${id}`);
        else expect(r.querySelector('.blame-who a')).toBeNull();
      }
    }
    expect(doc.querySelector('[data-path="logo.png"]')!.getAttribute('data-kind')).toBe('binary');
  });

  it('links the pull request from the list of pull requests', () => {
    const list = new JSDOM(readFileSync(join(out, 'pull-requests', 'index.html'), 'utf8')).window.document;
    expect([...list.querySelectorAll('a')].some((a) => a.getAttribute('href') === '/pull-requests/7/')).toBe(true);
  });

  it('leaves the secret out of every file of the site', () => {
    for (const f of readAllText(out)) expect(f.text.includes(SECRET), f.file).toBe(false);
  });

  it('reads well at 1280 and 390 px, light and dark, with no serious accessibility problem', async () => {
    const server = await serveStatic(out);
    const browser = await launchBrowser();
    const shots = join(tmp, 'shots');
    mkdirSync(shots, { recursive: true });
    try {
      for (const width of [1280, 390]) {
        for (const theme of ['light', 'dark'] as const) {
          const page = await browser.newPage({ viewport: { width, height: 900 }, colorScheme: theme });
          await page.goto(`${server.url}pull-requests/7/`);
          // Nothing is wider than the screen: long lines scroll inside their table.
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
          expect(overflow, `${width} ${theme}`).toBeLessThanOrEqual(0);
          expect(await seriousA11yViolations(page, '[data-blame]'), `${width} ${theme}`).toEqual([]);
          await page.screenshot({ path: join(process.env.BLAME_SHOTS ?? shots, `pr-blame-${width}-${theme}.png`), fullPage: true });
          await page.close();
        }
      }
    } finally {
      await browser.close();
      await server.close();
    }
  }, 120_000);
});
