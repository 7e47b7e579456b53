import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { JSDOM } from 'jsdom';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../scripts/cli.js';
import { launchBrowser } from '../helpers/browser.js';
import { install, packageListing, packRepository, run, userEnv, type Run } from '../helpers/package.js';
import { serveStatic } from '../helpers/serve.js';
import { corpusRoot, repoRoot } from '../helpers/shared.js';
import { listFiles } from '../helpers/build.js';
import { searchAndLand, sessionPagePaths, uniqueWord } from '../browser/site-helpers.js';
import { gitIn } from '../helpers/blame-fixture.js';
import { buildScenario } from '../helpers/blame-scenario.js';

/**
 * `npx sessionpress` as a user meets it: the repository packed as npm would
 * publish it, installed into an empty folder, and run there with the
 * machine's own Node (older than Astro needs on machines like ours, so the
 * command fetches a Node 22 once into the user's cache folder and runs itself again on it) on a project of the
 * corpus copied beside it.
 */
const work = mkdtempSync(join(tmpdir(), 'sp-package-'));
const app = join(work, 'app');
const installed = join(app, 'node_modules', 'sessionpress');
const project = '-experiments-ideas';
const source = join(work, 'projects');
const site = join(app, 'site');
let before: string[] = [];
let build: Run;
// The user's cache folder, where a Node 22 fetched on an older Node is kept: empty at the start.
const userCache = join(work, 'user-cache');
const npx = (...args: string[]) => run('npx', ['sessionpress', ...args], app, userEnv({ XDG_CACHE_HOME: userCache }));
const FETCHING = /^sessionpress: Node v[\d.]+ is older than 22\.12, so it fetches Node 22 \(node-[\w-]+@22\) from the npm registry, once, into .+$/gm;
const machineNodeIsOld = async () => {
  const [major, minor] = (await run('node', ['--version'], app)).stdout.trim().slice(1).split('.').map(Number);
  return major < 22 || (major === 22 && minor < 12);
};

beforeAll(async () => {
  const tarball = await packRepository(work);
  mkdirSync(app);
  await install(app, [tarball]);
  before = packageListing(installed);
  cpSync(join(corpusRoot, project), join(source, project), { recursive: true });
  build = await npx('build', source, '--out', 'site');
}, 600_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('npx sessionpress build, from the packed package', () => {
  it('runs on the machine\'s Node and ends by saying where the site is and how to look at it', async () => {
    // The Node a user's shell finds (v20 on this machine: the command then runs itself on a Node 22 it fetched).
    const node = await run('node', ['--version'], app);
    expect(node.out).toMatch(/^v\d+\./);
    expect(build.code, `${node.out}${build.out.slice(-3000)}`).toBe(0);
    expect(build.out).not.toContain('needs Node');
    expect(build.out).toContain('The site is in ./site');
    expect(build.out).toContain('npx sessionpress preview --out site');
  });

  it('installs no Node of its own: node_modules stays under 180 MB', () => {
    const modules = join(app, 'node_modules');
    const nodes = readdirSync(modules).filter((name) => name === 'node' || /^node(-bin)?-(linux|darwin|win|sunos|aix|freebsd)-/.test(name));
    expect(nodes).toEqual([]);
    expect(existsSync(join(modules, '.bin', 'node'))).toBe(false);
    const bytes = listFiles(modules).reduce((sum, f) => sum + statSync(f).size, 0);
    expect(bytes).toBeGreaterThan(10 * 2 ** 20);
    expect(bytes).toBeLessThan(180 * 2 ** 20);
  });

  it('on an older Node, fetches Node 22 once, on demand, and says so in one line', async () => {
    if (!(await machineNodeIsOld())) {
      expect(build.out).not.toMatch(FETCHING);
      expect(existsSync(userCache)).toBe(false);
      return;
    }
    expect(build.out.match(FETCHING)).toHaveLength(1);
    expect(readdirSync(join(userCache, 'sessionpress')).filter((name) => !name.includes('.fetch-'))).toHaveLength(1);
    // The second run finds it in the user's cache folder: no second fetch, nothing said.
    const again = await npx('--version');
    expect(again.code).toBe(0);
    expect(again.out).not.toMatch(FETCHING);
  });

  it('gives every session of the source its page, and no other', () => {
    const ids = new Set(readdirSync(join(source, project)).filter((f) => f.endsWith('.jsonl')).map((f) => basename(f, '.jsonl')));
    const pages = sessionPagePaths(site).filter((p) => !/\/\d+\/$/.test(p));
    expect(pages.length).toBeGreaterThan(0);
    for (const page of pages) {
      const id = new JSDOM(readFileSync(join(site, page, 'index.html'), 'utf8')).window.document.querySelector('[data-session-id]')?.getAttribute('data-session-id');
      expect(ids.has(id!), `${page}: ${id}`).toBe(true);
    }
    const index = readFileSync(join(site, 'index.html'), 'utf8');
    for (const page of pages) expect(index).toContain(`href="/${page}"`);
  });

  it('writes a search index of those pages', () => {
    const manifest = JSON.parse(readFileSync(join(site, '_sessionpress', 'pagefind', 'sessionpress-search.json'), 'utf8'));
    expect(manifest.pages).toBe(sessionPagePaths(site).length);
    expect(existsSync(join(site, '_sessionpress', 'pagefind', 'pagefind.js'))).toBe(true);
  });

  it('answers a second build with nothing changed in one line, without building, and says where the site is', async () => {
    const pages = listFiles(site).sort();
    const again = await npx('build', source, '--out', 'site');
    expect(again.code, again.out.slice(-3000)).toBe(0);
    expect(again.out).toMatch(/^Nothing changed since the last build: \.\/site is up to date \(\d+ session files?, [\d.]+ MB, checked in [\d.]+ s; --force builds it again\)\.$/m);
    expect(again.out).not.toMatch(/\[build\]|\[content\]/);
    expect(again.out).toContain('The site is in ./site');
    expect(listFiles(site).sort()).toEqual(pages);
  });

  it('stops with one line naming the folder meant when given ~/.claude instead of ~/.claude/projects, and builds nothing', async () => {
    // A folder laid out like ~/.claude: the sessions are one level below, in projects/.
    const claude = join(work, 'dot-claude');
    cpSync(join(corpusRoot, project), join(claude, 'projects', project), { recursive: true });
    const r = await npx('build', claude, '--out', 'wrong-site');
    expect(r.code, r.out.slice(-2000)).toBe(1);
    expect(r.out.trim().split('\n')).toHaveLength(1);
    expect(r.out).toContain(`No Claude Code session files in ${claude}`);
    expect(r.out).toMatch(new RegExp(`${join(claude, 'projects')} holds \\d+ sessions?: give that folder instead`));
    expect(existsSync(join(app, 'wrong-site'))).toBe(false);
  });

  it('writes nothing into the installed package: its cache is in the current folder', () => {
    expect(packageListing(installed)).toEqual(before);
    expect(existsSync(join(app, '.sessionpress-cache'))).toBe(true);
  });

  it('lists every command in one --help, and prints the package version for --version', async () => {
    const help = await npx('--help');
    expect(help.code).toBe(0);
    for (const name of Object.keys(COMMANDS)) expect(help.stdout).toMatch(new RegExp(`^ {2}${name} `, 'm'));
    // pr-comment ships and loads: a bad --repo is a usage error, before any request.
    const pr = await npx('pr-comment', '--repo', 'not-a-repo', '--pr', '1');
    expect(pr.code).toBe(2);
    expect(pr.out).toMatch(/--repo takes OWNER\/NAME/);
    const version = await npx('--version');
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).version);
  });

  it('blames a pull request from the packed package: every added line of the story, as Agent Trace', async () => {
    const story = buildScenario(join(work, 'blame-story'), { committed: true });
    gitIn(story.repo, ['checkout', '-q', 'squashed']);
    const r = await npx('blame', '--repo', story.repo, '--base', 'base-old', '--head', 'squashed', '--format', 'agent-trace');
    expect(r.code, r.out.slice(-2000)).toBe(0);
    const trace = JSON.parse(r.stdout);
    expect(trace.version).toBe('0.1');
    const retry = trace.files.find((f: { path: string }) => f.path === 'src/retry.py');
    const ai = retry.conversations.filter((c: { contributor: { type: string } }) => c.contributor.type === 'ai');
    const lines = ai.flatMap((c: { ranges: Array<{ start_line: number; end_line: number }> }) => c.ranges.flatMap((x) => Array.from({ length: x.end_line - x.start_line + 1 }, (_, i) => x.start_line + i)));
    // Eleven of the twelve added lines are the session's; line 1 is the person's.
    expect(lines.sort((a: number, b: number) => a - b)).toEqual([7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]);
  });

  it('says in one line what to install when no Node new enough can run it', async () => {
    // Only a machine whose own Node is too old takes this path (ours: v20). SESSIONPRESS_REEXEC marks the
    // run as one already restarted on a Node 22, as when that Node turns out too old as well.
    if (!(await machineNodeIsOld())) return;
    const old = await run('node', [join(installed, 'bin', 'sessionpress.mjs'), '--version'], app, userEnv({ SESSIONPRESS_REEXEC: '1' }));
    expect(old.code).toBe(1);
    expect(old.out.trim().split('\n')).toHaveLength(1);
    expect(old.out).toMatch(/needs Node 22\.12 or later \(this is v\d+[^)]*\): install Node 22/);
  });

  it('finds a word of a session through the site\'s search, in a browser', async () => {
    const paths = sessionPagePaths(site);
    const { word, path, uuid } = uniqueWord(site, paths);
    const server = await serveStatic(site);
    let browser: Browser | undefined;
    try {
      browser = await launchBrowser();
      const page = await browser.newPage();
      await page.goto(server.url);
      await searchAndLand(page, word, path, uuid);
      expect(server.notFound).toEqual([]);
    } finally {
      await browser?.close();
      await server.close();
    }
  });
});
