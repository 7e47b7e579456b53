import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, readAllText } from '../helpers/build.js';
import { repoRoot } from '../helpers/shared.js';

/**
 * Sessions started in git worktrees (test/fixtures/format-2.1.2xx, the folders
 * EXPECT.worktrees.json lists), built as a site: they are listed under their
 * repository's project with the worktree and branch, their URLs stay where
 * their own folder put them, the worktree folders' old project URLs redirect,
 * and the login name reaches no file.
 */
const fixtureRoot = join(repoRoot, 'test', 'fixtures', 'format-2.1.2xx');
const E = JSON.parse(readFileSync(join(fixtureRoot, 'EXPECT.worktrees.json'), 'utf8'));
const source = mkdtempSync(join(tmpdir(), 'sp-worktrees-src-'));
const out = mkdtempSync(join(tmpdir(), 'sp-worktrees-'));

/** A built page by its URL path (`/projects/x/`). */
function page(path: string): Document {
  return new JSDOM(readFileSync(join(out, path, 'index.html'), 'utf8')).window.document;
}

/** Text with runs of whitespace folded, as a reader sees it. */
const text = (el: Element | null | undefined) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();

/** The session ids of the cards of a list, in order, from their links. */
function cardIds(root: ParentNode): string[] {
  return [...root.querySelectorAll('li.card a.card-title')].map((a) => a.getAttribute('href')!.split('/').filter(Boolean).pop()!);
}

/** The card of a session in a list. */
function card(root: ParentNode, sessionId: string): Element {
  const link = root.querySelector(`li.card a.card-title[href="${E.sessions[sessionId].url}"]`);
  if (!link) throw new Error(`no card for ${sessionId}`);
  return link.closest('li.card')!;
}

/** Where a redirect page sends the reader. */
function redirectTarget(path: string): string | undefined {
  const file = join(out, path, 'index.html');
  if (!existsSync(file)) return undefined;
  const refresh = new JSDOM(readFileSync(file, 'utf8')).window.document.querySelector('meta[http-equiv="refresh"]')?.getAttribute('content');
  return refresh ? /url=(.*)$/i.exec(refresh)?.[1] : undefined;
}

beforeAll(async () => {
  for (const folder of E.folders) cpSync(join(fixtureRoot, folder), join(source, folder), { recursive: true });
  const run = await buildSite(out, { SESSIONPRESS_SOURCE: source, ASTRO_TELEMETRY_DISABLED: '1' });
  if (run.code !== 0) throw new Error(`build failed:\n${run.log.slice(-3000)}`);
}, 600_000);

afterAll(() => {
  for (const dir of [source, out, `${out}-cache`]) rmSync(dir, { recursive: true, force: true });
});

describe('worktree sessions on the index', () => {
  it('groups them under their repository project, named as the repository, with a filter per project only', () => {
    const doc = page('/');
    const groups = [...doc.querySelectorAll('[data-session-groups] > [data-project-group]')];
    expect(Object.fromEntries(groups.map((g) => [g.getAttribute('data-project-group'), { name: text(g.querySelector('h2 a')), sessions: cardIds(g) }]))).toEqual(E.projects);
    const filters = [...doc.querySelectorAll('.project-filter a[data-filter]')].map((a) => a.getAttribute('data-filter')).filter(Boolean);
    expect(filters.sort()).toEqual(Object.keys(E.projects).sort());
    for (const moved of Object.keys(E.moved)) expect(doc.querySelector(`[data-project="${moved}"]`), moved).toBeNull();
  });

  it('labels each worktree session with its worktree and branch, and the repository session with none', () => {
    const doc = page('/');
    for (const [id, want] of Object.entries<any>(E.sessions)) {
      const c = card(doc, id);
      expect(c.getAttribute('data-project'), id).toBe(want.project);
      expect(c.querySelector('.card-project')?.getAttribute('href'), id).toBe(`/projects/${want.project}/`);
      const label = c.querySelector('.worktree-label');
      if (want.label === undefined) expect(label, id).toBeNull();
      else {
        expect(text(label), id).toBe(want.label);
        expect(label!.getAttribute('data-worktree'), id).toBe(want.worktree);
        expect(label!.getAttribute('data-worktree-branch'), id).toBe(want.branch);
      }
    }
  });
});

describe("the repository's project page", () => {
  it('lists its worktree sessions beside its own, each with its label', () => {
    for (const [slug, project] of Object.entries<any>(E.projects)) {
      const doc = page(`/projects/${slug}/`);
      expect(text(doc.querySelector('h1'))).toBe(project.name);
      expect(cardIds(doc)).toEqual(project.sessions);
      for (const id of project.sessions) expect(text(card(doc, id).querySelector('.worktree-label')) || undefined, id).toBe(E.sessions[id].label);
    }
  });

  it('counts its worktree sessions in its insights', () => {
    for (const [slug, project] of Object.entries<any>(E.projects)) {
      expect(text(page(`/insights/${slug}/`).querySelector('[data-total="sessions"]')), slug).toBe(String(project.sessions.length));
    }
  });
});

describe('a worktree session page', () => {
  it('stays at its old URL and names the worktree, the branch and the repository project in its header', () => {
    for (const [id, want] of Object.entries<any>(E.sessions)) {
      const doc = page(want.url);
      const header = doc.querySelector('.session-header')!;
      expect(header.querySelector('.crumbs a[href^="/projects/"]')?.getAttribute('href'), id).toBe(`/projects/${want.project}/`);
      expect(text(header.querySelector('[data-pagefind-filter="project"]')), id).toBe(E.projects[want.project].name);
      const label = header.querySelector('.session-worktree .worktree-label');
      expect(text(label) || undefined, id).toBe(want.label);
    }
  });

  it('links the older and newer sessions of the repository project', () => {
    for (const project of Object.values<any>(E.projects)) {
      project.sessions.forEach((id: string, i: number) => {
        const nav = page(E.sessions[id].url).querySelector('nav.neighbours')!;
        expect(nav.querySelector('a[rel="next"]')?.getAttribute('href') ?? undefined, id).toBe(i > 0 ? E.sessions[project.sessions[i - 1]].url : undefined);
        expect(nav.querySelector('a[rel="prev"]')?.getAttribute('href') ?? undefined, id).toBe(i < project.sessions.length - 1 ? E.sessions[project.sessions[i + 1]].url : undefined);
      });
    }
  });
});

describe('old URLs and private names', () => {
  it("redirects each worktree folder's project and insights page to its repository's", () => {
    for (const [from, to] of Object.entries<any>(E.moved)) {
      expect(redirectTarget(`/projects/${from}/`), from).toBe(`/projects/${to}/`);
      expect(redirectTarget(`/insights/${from}/`), from).toBe(`/insights/${to}/`);
    }
    // A real project page is no redirect.
    for (const slug of Object.keys(E.projects)) expect(redirectTarget(`/projects/${slug}/`), slug).toBeUndefined();
  });

  it('never writes the login name into any file of the site', () => {
    const files = readAllText(out);
    expect(files.length).toBeGreaterThan(0);
    for (const { file, text: body } of files) expect(body.toLowerCase().includes(E.username), file).toBe(false);
  });
});
