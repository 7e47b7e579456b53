import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, listFiles, readAllText, type BuildRun } from '../helpers/build.js';
import { repoRoot } from '../helpers/shared.js';
import { messageBody, topLevel } from '../helpers/messages.js';

const notesDir = join(repoRoot, 'content', 'notes');
/** Every MDX note, relative to content/notes (POSIX), e.g. `samples/reading-the-sample-sessions.mdx`. */
const noteFiles = listFiles(notesDir)
  .filter((f) => f.endsWith('.mdx'))
  .map((f) => relative(notesDir, f).split('\\').join('/'))
  .sort();
/** The page URL of a note: its path without the extension (the ids of the sample notes are already slugs). */
const noteUrl = (file: string) => `/notes/${file.replace(/\.mdx$/, '')}/`;
const samplesDir = join(repoRoot, 'content', 'sessions');

interface EmbedTag {
  attrs: Record<string, string | number>;
  source: string;
}

/** The <Session …/> tags of an MDX note, in order, read from its source (not from what the build made of it). */
function embedsOf(mdx: string): EmbedTag[] {
  return [...mdx.matchAll(/<Session\b([^>]*?)\/>/g)].map((m) => {
    const attrs: Record<string, string | number> = {};
    for (const a of m[1].matchAll(/(\w+)=(?:"([^"]*)"|\{([^}]*)\})/g)) attrs[a[1]] = a[2] ?? Number(a[3]);
    return { attrs, source: m[0] };
  });
}

const doc = (file: string) => new JSDOM(readFileSync(file, 'utf8')).window.document;

/** Every page of a session in order (page 1, then /2/, /3/…), as parsed documents. */
function sessionPages(out: string, sessionPrefix: string): Document[] {
  const root = join(out, 'sessions');
  for (const project of readdirSync(root)) {
    const id = readdirSync(join(root, project)).find((d) => d.startsWith(sessionPrefix));
    if (!id) continue;
    const dir = join(root, project, id);
    const more = readdirSync(dir).filter((d) => /^\d+$/.test(d)).sort((a, b) => Number(a) - Number(b));
    return [join(dir, 'index.html'), ...more.map((n) => join(dir, n, 'index.html'))].map(doc);
  }
  throw new Error(`no session page for ${sessionPrefix}`);
}

/** What the session page shows for a reference: the messages a note's embed must repeat, in order. */
function expectedMessages(pages: Document[], attrs: EmbedTag['attrs']): Element[] {
  const all = pages.flatMap((d) => topLevel(d.querySelector('[data-transcript]')!));
  const at = (prefix: unknown) => {
    const i = all.findIndex((a) => a.getAttribute('data-uuid')!.startsWith(String(prefix)));
    expect(i, `message ${prefix} on the session page`).toBeGreaterThanOrEqual(0);
    return i;
  };
  if (attrs.message !== undefined) return [all[at(attrs.message)]];
  if (attrs.prompt !== undefined) {
    return pages.flatMap((d) => [...d.querySelectorAll(`section.turn[data-turn="${attrs.prompt}"]`)].flatMap((s) => topLevel(s)));
  }
  if (attrs.from !== undefined || attrs.to !== undefined) {
    return all.slice(attrs.from !== undefined ? at(attrs.from) : 0, attrs.to !== undefined ? at(attrs.to) + 1 : all.length);
  }
  return all;
}

describe('notes', () => {
  let out = '';
  let run: BuildRun;

  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), 'sp-notes-'));
    run = await buildSite(out, {});
  }, 300_000);
  afterAll(() => {
    if (!out) return;
    rmSync(out, { recursive: true, force: true });
    rmSync(`${out}-cache`, { recursive: true, force: true });
  });

  it('builds the samples with the sample note', () => {
    expect(run.code, run.log.slice(-3000)).toBe(0);
    expect(noteFiles.length).toBeGreaterThan(0);
  });

  it('lists every note on the notes index and the home page', () => {
    const index = doc(join(out, 'notes', 'index.html'));
    const home = doc(join(out, 'index.html'));
    for (const f of noteFiles) {
      const href = noteUrl(f);
      expect(existsSync(join(out, href, 'index.html')), href).toBe(true);
      expect(index.querySelector(`a[href="${href}"]`), `notes index links ${href}`).not.toBeNull();
      expect(home.querySelector(`a[href="${href}"]`), `home links ${href}`).not.toBeNull();
    }
  });

  it('makes notes searchable', () => {
    const texts = readAllText(join(out, '_sessionpress', 'pagefind'));
    for (const f of noteFiles) {
      const url = noteUrl(f);
      expect(texts.some((t) => t.file.includes('fragment') && t.text.includes(`"url":"${url}"`)), url).toBe(true);
    }
  });

  for (const file of noteFiles) {
    describe(file, () => {
      const tags = embedsOf(readFileSync(join(notesDir, file), 'utf8'));
      const page = () => doc(join(out, noteUrl(file), 'index.html'));

      // The sample note exists to show every kind of reference off; other notes quote what they like.
      it.runIf(file.startsWith('samples/'))('uses every kind of reference', () => {
        const kinds = new Set(tags.map(({ attrs }) => (attrs.message ? 'message' : attrs.prompt ? 'prompt' : attrs.from || attrs.to ? 'range' : 'session')));
        expect([...kinds].sort()).toEqual(['message', 'prompt', 'range', 'session']);
      });

      it('renders each embed with the same messages and markup as the session page', () => {
        const figures = [...page().querySelectorAll('figure.embed')];
        expect(figures).toHaveLength(tags.length);
        tags.forEach(({ attrs, source }, i) => {
          const expected = expectedMessages(sessionPages(out, String(attrs.id)), attrs);
          const got = topLevel(figures[i].querySelector('.embed-body')!);
          expect(expected.length, source).toBeGreaterThan(0);
          expect(got.map((a) => a.getAttribute('data-uuid')), source).toEqual(expected.map((a) => a.getAttribute('data-uuid')));
          // Byte for byte the same body (nested subagent messages, tool calls, ids and all). Only the
          // header may differ: the session page folds a reply's later messages under its first header,
          // while a quoted message standing alone in a note must say who speaks.
          got.forEach((a, j) => {
            expect(a.getAttribute('data-kind'), `${source} message ${j}`).toBe(expected[j].getAttribute('data-kind'));
            expect(messageBody(a), `${source} message ${j}`).toBe(messageBody(expected[j]));
            expect(messageBody(a).length, `${source} message ${j}`).toBeGreaterThan(0);
          });
        });
      });

      it('links each embed to its place on the session page', () => {
        const figures = [...page().querySelectorAll('figure.embed')];
        tags.forEach(({ attrs, source }, i) => {
          const href = figures[i].querySelector('figcaption a')!.getAttribute('href')!;
          const url = new URL(href, 'http://site.test');
          const target = join(out, decodeURIComponent(url.pathname), 'index.html');
          expect(existsSync(target), `${source} → ${href}`).toBe(true);
          const first = expectedMessages(sessionPages(out, String(attrs.id)), attrs)[0].getAttribute('data-uuid');
          if (attrs.message || attrs.prompt || attrs.from || attrs.to) {
            expect(url.hash, source).toBe(`#m-${first}`);
            expect(doc(target).getElementById(url.hash.slice(1)), `${href} has its anchor`).not.toBeNull();
          } else {
            expect(url.hash, source).toBe('');
          }
          expect(url.pathname).toMatch(new RegExp(`^/sessions/[^/]+/${attrs.id}[^/]*/(\\d+/)?$`));
        });
      });

      it('shows images from the transcript, served from files that exist', () => {
        const imgs = [...page().querySelectorAll('figure.embed img')];
        for (const img of imgs) {
          const src = img.getAttribute('src')!;
          expect(src, 'root-relative asset URL').toMatch(/^\/assets\//);
          expect(existsSync(join(out, decodeURIComponent(src))), src).toBe(true);
        }
        // The sample note quotes the pasted sketch; without it this test would check nothing.
        if (file === 'samples/reading-the-sample-sessions.mdx') expect(imgs.length).toBeGreaterThan(0);
      });
    });
  }
});

/** Notes of a folder of their own (SESSIONPRESS_NOTES) over a source of one sample project: content/notes is never touched. */
describe('notes of another source', () => {
  const component = join(repoRoot, 'src', 'components', 'index.ts');
  const projects = readdirSync(samplesDir).filter((d) => d.startsWith('-'));
  const kept = projects[projects.length - 1];
  const keptId = readdirSync(join(samplesDir, kept)).find((f) => f.endsWith('.jsonl'))!.slice(0, 8);
  const goneId = readdirSync(join(samplesDir, projects[0])).find((f) => f.endsWith('.jsonl'))!.slice(0, 8);
  const note = (title: string, body: string) => `---\ntitle: ${title}\n---\nimport { Session } from '${component}';\n\nSome prose.\n\n${body}\n`;
  let root = '';
  let source = '';
  let notes = '';
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'sp-notes-src-'));
    source = join(root, 'sessions');
    notes = join(root, 'notes');
    cpSync(join(samplesDir, kept), join(source, kept), { recursive: true });
    mkdirSync(join(notes, 'samples'), { recursive: true });
    mkdirSync(join(notes, 'drafts'), { recursive: true });
  });
  afterAll(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('leaves out the notes about the samples, which would not resolve against another source', async () => {
    writeFileSync(join(notes, 'samples', 'about-the-samples.mdx'), note('About the samples', `<Session id="${goneId}" />`));
    writeFileSync(join(notes, 'own-note.mdx'), note('Own note', `<Session id="${keptId}" prompt={1} />`));
    const out = join(root, 'ok');
    const run = await buildSite(out, { SESSIONPRESS_SOURCE: source, SESSIONPRESS_NOTES: notes });
    expect(run.code, run.log.slice(-3000)).toBe(0);
    expect(existsSync(join(out, 'notes', 'own-note', 'index.html'))).toBe(true);
    expect(doc(join(out, 'notes', 'own-note', 'index.html')).querySelectorAll('figure.embed article.msg').length).toBeGreaterThan(0);
    expect(existsSync(join(out, 'notes', 'samples'))).toBe(false);
    expect(readFileSync(join(out, 'notes', 'index.html'), 'utf8')).not.toContain('About the samples');
  }, 300_000);

  it('fails the build on a reference that does not resolve, naming the note and the reference', async () => {
    writeFileSync(join(notes, 'drafts', 'broken-quote.mdx'), note('Broken quote', `<Session id="${keptId}" from="deadbeef" />`));
    const run = await buildSite(join(root, 'broken'), { SESSIONPRESS_SOURCE: source, SESSIONPRESS_NOTES: notes });
    expect(run.code).not.toBe(0);
    const log = run.log.replace(/\x1b\[[0-9;]*m/g, '');
    expect(log).toMatch(/drafts\/broken-quote\.mdx/);
    expect(log).toContain('/notes/drafts/broken-quote/');
    expect(log).toContain(`<Session id="${keptId}" from="deadbeef" /> does not resolve: from="deadbeef": no message of session ${keptId}`);
  }, 300_000);
});
