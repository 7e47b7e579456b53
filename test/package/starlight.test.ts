import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JSDOM } from 'jsdom';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, seriousA11yViolations } from '../helpers/browser.js';
import { listFiles } from '../helpers/build.js';
import { messageBody, topLevel } from '../helpers/messages.js';
import { install, packRepository, run, type Run } from '../helpers/package.js';
import { serveStatic, type StaticServer } from '../helpers/serve.js';
import { repoRoot } from '../helpers/shared.js';
import { searchAndLand, sessionPagePaths, uniqueWord } from '../browser/site-helpers.js';

/**
 * Sessionpress as an integration of a host site, the way Starlight is one: a
 * fresh Starlight site (astro and @astrojs/starlight from the registry,
 * sessionpress from the packed tarball) adds `sessionpress()` under a prefix,
 * declares `sessionsCollection()` beside its docs, and embeds a prompt of a
 * bundled sample in one MDX page.
 */
const work = mkdtempSync(join(tmpdir(), 'sp-starlight-'));
const host = join(work, 'host');
const dist = join(host, 'dist');
const PREFIX = 'transcripts';
const samples = join(repoRoot, 'content', 'sessions');
/** The sample the docs page quotes, and which prompt: the first session of the first sample project, prompt 2. */
const project = readdirSync(samples).filter((d) => d.startsWith('-')).sort()[0];
const sessionId = readdirSync(join(samples, project)).filter((f) => f.endsWith('.jsonl')).sort()[0].replace(/\.jsonl$/, '');
const PROMPT = 2;
let build: Run;
let server: StaticServer;
let browser: Browser;

beforeAll(async () => {
  const tarball = await packRepository(work);
  mkdirSync(join(host, 'src', 'content', 'docs'), { recursive: true });
  writeFileSync(join(host, 'package.json'), JSON.stringify({ name: 'host-docs', private: true, type: 'module' }));
  const astro = JSON.parse(readFileSync(join(repoRoot, 'node_modules', 'astro', 'package.json'), 'utf8')).version;
  // Astro 7 needs Node 22: a host site on an older Node brings its own (the package no longer installs one).
  await install(host, [`astro@${astro}`, '@astrojs/starlight@^0.42.0', tarball, 'node@^22.12.0']);
  cpSync(samples, join(host, 'sessions'), { recursive: true });
  writeFileSync(
    join(host, 'astro.config.mjs'),
    `import { defineConfig } from 'astro/config';
import starlight from '@astrojs/starlight';
import sessionpress from 'sessionpress';

export default defineConfig({
  integrations: [starlight({ title: 'Host docs' }), sessionpress({ source: './sessions', prefix: '/${PREFIX}/' })],
});
`,
  );
  writeFileSync(
    join(host, 'src', 'content.config.ts'),
    `import { defineCollection } from 'astro:content';
import { docsLoader } from '@astrojs/starlight/loaders';
import { docsSchema } from '@astrojs/starlight/schema';
import { sessionsCollection } from 'sessionpress/content';

export const collections = {
  docs: defineCollection({ loader: docsLoader(), schema: docsSchema() }),
  sessions: sessionsCollection(),
};
`,
  );
  writeFileSync(join(host, 'src', 'content', 'docs', 'index.mdx'), `---\ntitle: Welcome\n---\nThe host's own home page.\n`);
  writeFileSync(
    join(host, 'src', 'content', 'docs', 'guide.mdx'),
    `---\ntitle: Guide\n---\nimport { Session } from 'sessionpress/components';\n\nHow it went, as it happened:\n\n<Session id="${sessionId.slice(0, 8)}" prompt={${PROMPT}} />\n`,
  );
  // The host's own Astro, through npx: it finds the host's Node 22 in node_modules/.bin.
  build = await run('npx', ['astro', 'build'], host);
  if (build.code !== 0) throw new Error(`astro build failed:\n${build.out.slice(-4000)}`);
  server = await serveStatic(dist);
  browser = await launchBrowser();
}, 900_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

const doc = (file: string) => new JSDOM(readFileSync(file, 'utf8')).window.document;
const sessionPage = () => join(dist, PREFIX, sessionPagePaths(join(dist, PREFIX)).find((p) => p.includes(sessionId))!, 'index.html');

describe('a Starlight site with sessionpress()', () => {
  it('builds, with the session on a page of its own under the prefix', () => {
    expect(build.code).toBe(0);
    expect(existsSync(sessionPage())).toBe(true);
    expect(doc(sessionPage()).querySelector('[data-transcript]')).not.toBeNull();
  });

  it('holds the prompt on the docs page, rendered and redacted exactly as on the session page, linking to it', () => {
    const page = doc(join(dist, 'guide', 'index.html'));
    const figure = page.querySelector(`figure.embed[data-embed="${sessionId.slice(0, 8)}"]`)!;
    expect(figure).not.toBeNull();
    const quoted = topLevel(figure.querySelector('.embed-body')!);
    const turn = topLevel(doc(sessionPage()).querySelector(`[data-transcript] section.turn[data-turn="${PROMPT}"]`)!);
    expect(quoted.map((a) => a.getAttribute('data-uuid'))).toEqual(turn.map((a) => a.getAttribute('data-uuid')));
    quoted.forEach((a, i) => expect(messageBody(a)).toBe(messageBody(turn[i])));
    const href = figure.querySelector('figcaption a')!.getAttribute('href')!;
    expect(href.startsWith(`/${PREFIX}/sessions/`)).toBe(true);
    expect(existsSync(join(dist, href.replace(/#.*$/, ''), 'index.html'))).toBe(true);
  });

  it('leaves the host its own search index and pages: ours is under the prefix, our page styles only on our pages', () => {
    expect(existsSync(join(dist, 'pagefind', 'pagefind.js'))).toBe(true);
    expect(existsSync(join(dist, PREFIX, '_sessionpress', 'pagefind', 'pagefind.js'))).toBe(true);
    // Our pages' chrome (site.css: header.site, body) is linked from our pages only, never from the host's.
    const sheets = (file: string) => [...doc(file).querySelectorAll('link[rel="stylesheet"]')].map((l) => readFileSync(join(dist, l.getAttribute('href')!), 'utf8')).join('\n');
    expect(sheets(sessionPage())).toContain('header.site');
    for (const page of ['index.html', join('guide', 'index.html')]) expect(sheets(join(dist, page))).not.toContain('header.site');
    // Whatever of ours a host page holds is scoped to our own elements.
    const guideCss = sheets(join(dist, 'guide', 'index.html')) + [...doc(join(dist, 'guide', 'index.html')).querySelectorAll('style')].map((s) => s.textContent).join('\n');
    for (const rule of guideCss.match(/[^{}]*\.msg[^{}]*\{/g) ?? []) expect(rule).toContain('.sessionpress');
    // The host's search index is Starlight's own (its UI bundle), not ours.
    expect(listFiles(join(dist, 'pagefind')).some((f) => f.endsWith('sessionpress-search.json'))).toBe(false);
  });

  it('finds a word of a session through our search under the prefix, in a browser', async () => {
    const out = join(dist, PREFIX);
    const { word, path, uuid } = uniqueWord(out, sessionPagePaths(out));
    const page = await browser.newPage();
    await page.goto(`${server.url}${PREFIX}/`);
    await searchAndLand(page, word, `${PREFIX}/${path}`, uuid);
    expect(server.notFound).toEqual([]);
    await page.close();
  });

  it('shows the excerpt in Starlight\'s light and dark themes, with no serious accessibility violation', async () => {
    const backgrounds: string[] = [];
    for (const colorScheme of ['light', 'dark'] as const) {
      const page = await browser.newPage({ colorScheme });
      await page.goto(`${server.url}guide/`);
      const [theme, body, figure] = await page.evaluate(() => [
        document.documentElement.dataset.theme,
        getComputedStyle(document.body).backgroundColor,
        getComputedStyle(document.querySelector('figure.embed')!).backgroundColor,
      ]);
      expect(theme).toBe(colorScheme);
      // The excerpt takes the page's own background (Starlight's --sl-color-bg), in either theme.
      expect(figure).toBe(body);
      backgrounds.push(figure);
      // The whole docs page: nothing serious but what sits in Starlight's own search (its button has a
      // label-content-name-mismatch, Starlight's to fix), and nothing at all in the excerpt.
      const serious = await seriousA11yViolations(page);
      const starlightSearch = 'button[data-open-modal=""]';
      expect(await page.locator(`site-search ${starlightSearch}`).count(), 'the button axe names is Starlight\'s search').toBe(1);
      expect(serious.filter((v) => !v.nodes.every((n) => n === starlightSearch))).toEqual([]);
      expect(await seriousA11yViolations(page, 'figure.embed')).toEqual([]);
      await page.close();
    }
    expect(backgrounds[0]).not.toBe(backgrounds[1]);
  });

  it('puts each session\'s Markdown beside its page and llms.txt under the prefix, linked from the page', () => {
    const href = doc(sessionPage()).querySelector('head link[rel="alternate"][type="text/markdown"]')!.getAttribute('href')!;
    expect(href.startsWith(`/${PREFIX}/sessions/`)).toBe(true);
    expect(readFileSync(join(dist, href), 'utf8')).toMatch(/^## \S/);
    // The host's root keeps its own llms.txt, if it has one: ours lists our sessions under the prefix.
    expect(existsSync(join(dist, 'llms.txt'))).toBe(false);
    expect(readFileSync(join(dist, PREFIX, 'llms.txt'), 'utf8')).toContain(`](${href})`);
  });

  it('keeps Starlight\'s theme choice on the session pages', async () => {
    const page = await browser.newPage({ colorScheme: 'light' });
    await page.addInitScript(() => localStorage.setItem('starlight-theme', 'dark'));
    await page.goto(`${server.url}${PREFIX}/`);
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await page.close();
  });
});
