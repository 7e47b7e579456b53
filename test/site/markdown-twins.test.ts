import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { JSDOM } from 'jsdom';
import { marked, type Tokens } from 'marked';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, listFiles, readAllText } from '../helpers/build.js';
import { fixturesDir, fixturesRoot, loadExpect, repoRoot } from '../helpers/shared.js';

/**
 * Each session page's Markdown beside it (`index.md`) and the site's
 * `llms.txt`, in a site built from the hostile fixtures and our own 2.1.x
 * and 2.1.2xx fixture trees together: every session page has its Markdown,
 * linked from the page, holding the page's title and prompts; llms.txt lists
 * every session; search indexes none of it twice; and no planted secret, home
 * path or login name of any fixture reaches the Markdown or llms.txt.
 * Expected values come from the built pages and the fixtures' EXPECT files.
 */
const ours = join(repoRoot, 'test', 'fixtures');
const source = mkdtempSync(join(tmpdir(), 'sp-twins-src-'));
const out = mkdtempSync(join(tmpdir(), 'sp-twins-'));

/** A session page's path below the site (`sessions/<project>/<session>/` or `…/<n>/`). */
interface SessionPage {
  dir: string;
  doc: Document;
  /** The first page of the session (its own URL), where its Markdown lives. */
  first: string;
}
let pages: SessionPage[] = [];

const words = (text: string) => text.replace(/[^\p{L}\p{N}]+/gu, '');
const read = (urlPath: string) => readFileSync(join(out, decodeURI(urlPath)), 'utf8');

beforeAll(async () => {
  for (const dir of [fixturesRoot, join(ours, 'format-2.1'), join(ours, 'format-2.1.2xx')]) {
    for (const f of readdirSync(dir).filter((d) => d.startsWith('-'))) cpSync(join(dir, f), join(source, f), { recursive: true });
  }
  const run = await buildSite(out, { SESSIONPRESS_SOURCE: source, ASTRO_TELEMETRY_DISABLED: '1' });
  if (run.code !== 0) throw new Error(`build failed:\n${run.log.slice(-3000)}`);
  pages = listFiles(join(out, 'sessions'))
    .filter((f) => f.endsWith('index.html'))
    .map((f) => {
      const dir = relative(out, f).split(/[\\/]/).slice(0, -1);
      const doc = new JSDOM(readFileSync(f, 'utf8')).window.document;
      return { dir: `/${dir.join('/')}/`, doc, first: `/${dir.slice(0, 3).join('/')}/` };
    })
    .filter((p) => p.doc.querySelector('[data-session-id]'));
}, 600_000);

afterAll(() => {
  for (const dir of [out, `${out}-cache`, source]) rmSync(dir, { recursive: true, force: true });
});

describe('Markdown beside every session page', () => {
  it('gives every session page an index.md beside its first page, linked from the head and the header', () => {
    const firsts = pages.filter((p) => p.dir === p.first);
    expect(firsts.length).toBeGreaterThan(10);
    expect(pages.length).toBeGreaterThan(firsts.length);
    for (const p of pages) {
      const alternate = p.doc.querySelector('head link[rel="alternate"][type="text/markdown"]')?.getAttribute('href');
      expect(alternate, p.dir).toBe(`${p.first}index.md`);
      const visible = p.doc.querySelector('.session-header a[type="text/markdown"]');
      expect(visible?.textContent?.trim()).toBe('Markdown');
      expect(visible?.getAttribute('href')).toBe(alternate);
      expect(existsSync(join(out, decodeURI(alternate!))), alternate!).toBe(true);
    }
    // Nothing else: one Markdown file per session.
    expect(listFiles(join(out, 'sessions')).filter((f) => f.endsWith('.md')).length).toBe(firsts.length);
  });

  it('starts with the page title as its heading and holds every prompt, linked to the page and anchor that show it', () => {
    let checked = 0;
    for (const first of pages.filter((p) => p.dir === p.first)) {
      const md = read(`${first.first}index.md`);
      // The first line only: lexing a whole long session takes long.
      const heading = marked.lexer(md.slice(0, md.indexOf('\n')))[0] as Tokens.Heading;
      expect(heading.type, first.dir).toBe('heading');
      expect(words(new JSDOM(marked.parse(heading.raw) as string).window.document.body.textContent!)).toBe(words(first.doc.querySelector('h1')!.textContent!));
      const own = pages.filter((p) => p.first === first.first);
      const prompts = own.flatMap((p) => [...p.doc.querySelectorAll('[data-transcript] article[data-kind="prompt"][data-prompt]')].filter((a) => !a.closest('[data-subagent]')).map((a) => ({ page: p, a })));
      const links = new Map([...md.matchAll(/^### \[Prompt (\d+)\]\(([^)\s]*)#m-([^)\s]+)\)$/gm)].map((m) => [m[3], { n: m[1], href: m[2] }]));
      expect(links.size, first.dir).toBe(prompts.length);
      for (const { page, a } of prompts) {
        const uuid = a.getAttribute('data-uuid')!;
        const link = links.get(uuid);
        expect(link?.n, `${first.dir} prompt ${a.getAttribute('data-prompt')}`).toBe(a.getAttribute('data-prompt'));
        // Relative to the Markdown's own address, the link lands on the page that shows the prompt.
        const target = new URL(link!.href, `https://example.test${first.first}index.md`);
        expect(target.pathname).toBe(page.dir);
        expect(page.doc.getElementById(`m-${uuid}`)).not.toBeNull();
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(30);
  });

  it('lists every session in llms.txt: its title, linked to its Markdown, under its project', () => {
    const text = readFileSync(join(out, 'llms.txt'), 'utf8');
    const tokens = marked.lexer(text);
    expect(tokens[0]).toMatchObject({ type: 'heading', depth: 1 });
    const links = new Map<string, string>();
    for (const list of tokens.filter((t): t is Tokens.List => t.type === 'list')) {
      for (const item of list.items) {
        const link = (item.tokens[0] as Tokens.Text).tokens?.find((t): t is Tokens.Link => t.type === 'link');
        if (link) links.set(link.href, words(new JSDOM(marked.parseInline(link.raw) as string).window.document.body.textContent!));
      }
    }
    const firsts = pages.filter((p) => p.dir === p.first);
    expect(links.size).toBe(firsts.length);
    for (const p of firsts) expect(links.get(`${p.first}index.md`), p.dir).toBe(words(p.doc.querySelector('h1')!.textContent!));
  });

  it('keeps the Markdown out of the search index: pagefind indexes the HTML pages only', () => {
    const fragments = readAllText(join(out, '_sessionpress', 'pagefind')).filter((f) => f.file.endsWith('.pf_fragment'));
    expect(fragments.length).toBeGreaterThan(0);
    const urls = fragments.map((f) => /"url":"([^"]*)"/.exec(f.text)?.[1] ?? '');
    expect(urls.filter((u) => !u.endsWith('/'))).toEqual([]);
    const indexed = new Set(urls);
    for (const p of pages) expect(indexed.has(p.dir), p.dir).toBe(true);
  });

  it('publishes no planted secret, home path or login name of any fixture in the Markdown or llms.txt', () => {
    const hostile = loadExpect();
    const own = ['format-2.1/EXPECT.json', ...readdirSync(join(ours, 'format-2.1.2xx')).filter((f) => /^EXPECT.*\.json$/.test(f)).map((f) => `format-2.1.2xx/${f}`)].map((f) => JSON.parse(readFileSync(join(ours, f), 'utf8')));
    const secrets = [...(hostile.must_not_appear as string[]), ...own.flatMap((e) => Object.values(e.secrets ?? {}) as string[])];
    const users = [hostile.canary.username, ...own.map((e) => e.username)].filter(Boolean).map((u) => String(u).toLowerCase());
    expect(secrets.length).toBeGreaterThan(10);
    expect(users.length).toBeGreaterThan(1);
    const texts = readAllText(out).filter((f) => f.file.endsWith('.md') || f.file.endsWith('llms.txt'));
    expect(texts.length).toBe(pages.filter((p) => p.dir === p.first).length + 1);
    for (const { file, text } of texts) {
      for (const s of secrets) if (text.includes(s)) expect.fail(`${relative(out, file)} holds "${s.slice(0, 12)}…"`);
      for (const u of users) if (text.toLowerCase().includes(`/home/${u}`) || new RegExp(`\\b${u}\\b`).test(text.toLowerCase())) expect.fail(`${relative(out, file)} names ${u}`);
    }
    expect(existsSync(fixturesDir)).toBe(true);
  });
});
