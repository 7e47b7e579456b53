import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSite, listFiles } from '../helpers/build.js';
import { corpusRoot, repoRoot } from '../helpers/shared.js';

/** A corpus project folder holding one long session. */
const LONG_SESSION_PROJECT = '-Users-dain-workspace-JSSoundRecorder';

/** Session pages of a built site and each session's Markdown, as the paths Astro logs (`/sessions/…/index.html`, `…/index.md`). */
function sessionPages(out: string): string[] {
  return listFiles(join(out, 'sessions'))
    .filter((f) => f.endsWith('.html') || f.endsWith('.md'))
    .map((f) => `/${relative(out, f).split('\\').join('/')}`)
    .sort();
}

/** Each project's page and insights page (`/projects/<slug>/…`, `/insights/<slug>/…`), as Astro logs them. */
function groupPages(out: string): string[] {
  return ['projects', 'insights']
    .flatMap((kind) => listFiles(join(out, kind)).filter((f) => f.endsWith('.html') && relative(join(out, kind), f).includes('/')))
    .map((f) => `/${relative(out, f).split('\\').join('/')}`)
    .sort();
}

/**
 * The pages Astro's incremental build copied from its cache instead of rendering: it logs such a
 * page as `├─ <path> (restored)` (or `(cached)` when the file was still in the output folder).
 */
function reusedPages(log: string): Set<string> {
  const plain = log.replace(/\x1b\[[0-9;]*m/g, '');
  return new Set([...plain.matchAll(/├─ (\/\S+) \((?:restored|cached)\)/g)].map((m) => m[1]));
}

/** Every page Astro lists as written, reused or rendered (`├─ <path>`): the listing a verbose build shows. */
function listedPages(log: string): Set<string> {
  const plain = log.replace(/\x1b\[[0-9;]*m/g, '');
  return new Set([...plain.matchAll(/├─ (\/\S+)/g)].map((m) => m[1]));
}

/**
 * The pages of a site built by `buildSite` (its cache beside it, unless `cache` is given) whose copy
 * in Astro's cache is not the same file as the page (src/lib/fs/linked-page-copies.ts); every page has one.
 */
function pagesNotLinkedToCopies(out: string, cache = `${out}-cache`): string[] {
  const copies = join(cache, 'dist');
  return sessionPages(out)
    .filter((p) => p.endsWith('.html'))
    .filter((p) => {
      const page = statSync(join(out, p));
      const copy = existsSync(join(copies, p)) ? statSync(join(copies, p)) : undefined;
      return copy?.ino !== page.ino || copy.dev !== page.dev;
    });
}

/** Path → sha256 of every file of a built site. */
function digestTree(dir: string): Map<string, string> {
  return new Map(listFiles(dir).map((f) => [relative(dir, f), createHash('sha256').update(readFileSync(f)).digest('hex')]));
}

/** The session files of a project folder, agent files left out. */
function sessionFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl') && !f.startsWith('agent-'))
    .map((f) => join(dir, f));
}

/** Prefixes the first human prompt's text with `marker` (as an edit of the prompt would). */
function editFirstPrompt(file: string, marker: string): boolean {
  const lines = readFileSync(file, 'utf8').split('\n');
  // A prompt's text is a string, or a text block in a list (tool results are lists without one).
  const textBlock = (e: any) => (Array.isArray(e.message?.content) ? e.message.content.find((b: any) => b?.type === 'text' && typeof b.text === 'string') : undefined);
  const i = lines.findIndex((l) => {
    if (!l.trim()) return false;
    const e = JSON.parse(l);
    if (e.type !== 'user' || e.isMeta) return false;
    const text = typeof e.message?.content === 'string' ? e.message.content : textBlock(e)?.text;
    return typeof text === 'string' && text.trim() !== '' && !text.startsWith('<');
  });
  if (i === -1) return false;
  const e = JSON.parse(lines[i]);
  if (typeof e.message.content === 'string') e.message.content = `${marker} ${e.message.content}`;
  else textBlock(e).text = `${marker} ${textBlock(e).text}`;
  lines[i] = JSON.stringify(e);
  writeFileSync(file, lines.join('\n'));
  return true;
}

/**
 * Astro's incremental static builds: a session page is rendered again only when
 * its key (the session's data, its page number, the previous/next links it
 * shows, the config) changes; every other session page is copied from the last
 * build. And a site built that way is byte-identical to a clean build.
 */
describe('incremental page rendering', () => {
  const dirs: string[] = [];
  const tmp = (prefix: string) => {
    const d = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(d);
    return d;
  };
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('renders only the pages whose session or neighbours changed, and matches a clean build', async () => {
    const source = tmp('sp-incp-src-');
    cpSync(join(repoRoot, 'content', 'sessions'), source, { recursive: true });
    // Plus a long real session, which has several pages at the page size below.
    cpSync(join(corpusRoot, LONG_SESSION_PROJECT), join(source, LONG_SESSION_PROJECT), { recursive: true });
    // Small pages, so that sessions have more than one page and page keys are exercised.
    const config = join(tmp('sp-incp-config-'), 'sessionpress.config.json');
    writeFileSync(config, JSON.stringify({ pageSize: 5 }));
    const out = join(tmp('sp-incp-out-'), 'site');
    // Verbose: Astro's page-by-page listing, which says which pages were copied, is left out of a default log.
    const env = { SESSIONPRESS_SOURCE: source, SESSIONPRESS_CONFIG: config, SESSIONPRESS_VERBOSE: '1' };
    const projects = readdirSync(source).filter((d) => d.startsWith('-'));
    const byCount = (n: (c: number) => boolean) => projects.find((p) => n(sessionFiles(join(source, p)).length))!;
    // A project with one session (its edit changes no other page) and one with two (deleting one changes the other's links).
    const single = byCount((c) => c === 1);
    const pair = byCount((c) => c === 2);
    expect(single, 'a project with one session').toBeTruthy();
    expect(pair, 'a project with two sessions').toBeTruthy();

    const cold = await buildSite(out, env);
    expect(cold.code, cold.log.slice(-2000)).toBe(0);
    const all = sessionPages(out);
    expect(all.length).toBeGreaterThan(sessionFiles(join(source, single)).length + 2);
    expect(all.some((p) => /\/2\/index\.html$/.test(p)), 'some session has a second page').toBe(true);
    expect(reusedPages(cold.log).size).toBe(0);
    expect([...listedPages(cold.log)].filter((p) => p.startsWith('/sessions/')).sort()).toEqual(all);
    // Astro keeps a copy of every page it renders, for later builds: one file with the page, not a second one.
    expect(pagesNotLinkedToCopies(out)).toEqual([]);

    // Nothing changed: every session page is reused, none rendered. The output folder is kept between
    // builds (src/integrations/out-dir.ts), so anything the build did not produce must go.
    // Stale files everywhere the build writes: a page, a bundle asset, a search shard, and files inside the
    // folders our integrations keep in place between builds (the search bundle, the browser highlighter).
    const highlighter = readdirSync(join(out, '_sessionpress')).find((d) => d.startsWith('highlight-'));
    expect(highlighter, 'the browser highlighter folder').toBeTruthy();
    const planted = [
      join(out, 'sessions', 'gone-project', 'gone-session', 'index.html'),
      join(out, 'sessions', 'index-old.html'),
      join(out, '_astro', 'old-build.js'),
      join(out, '_sessionpress', 'pagefind-9', 'x.pf_fragment'),
      join(out, '_sessionpress', 'pagefind', 'fragment', 'stale.pf_fragment'),
      join(out, '_sessionpress', highlighter!, 'langs', 'stale.mjs'),
    ];
    for (const f of planted) {
      mkdirSync(join(f, '..'), { recursive: true });
      writeFileSync(f, 'left over from an earlier build');
    }
    const warm = await buildSite(out, env);
    expect(warm.code, warm.log.slice(-2000)).toBe(0);
    expect([...reusedPages(warm.log)].filter((p) => p.startsWith('/sessions/')).sort()).toEqual(all);
    // Project and insights pages are keyed by their sessions: all copied too.
    const groups = groupPages(out);
    expect(groups.length).toBe(2 * projects.length);
    expect(groups.filter((p) => !reusedPages(warm.log).has(p))).toEqual([]);
    expect(planted.filter((f) => existsSync(f))).toEqual([]);
    expect(existsSync(join(out, 'sessions', 'gone-project'))).toBe(false);

    // One session changed: exactly its pages are rendered again, and they show the change.
    const changedFile = sessionFiles(join(source, single))[0];
    const changedId = changedFile.split(/[\\/]/).pop()!.replace(/\.jsonl$/, '');
    expect(editFirstPrompt(changedFile, 'wombatzebra')).toBe(true);
    const changed = await buildSite(out, env);
    expect(changed.code, changed.log.slice(-2000)).toBe(0);
    const reused = reusedPages(changed.log);
    const rendered = all.filter((p) => !reused.has(p));
    expect(rendered.length).toBeGreaterThan(0);
    expect(rendered.every((p) => p.includes(`/${changedId}/`)), rendered.join(', ')).toBe(true);
    expect(all.filter((p) => p.includes(`/${changedId}/`))).toEqual(rendered);
    expect(readFileSync(join(out, rendered.find((p) => p.endsWith(`/${changedId}/index.html`))!), 'utf8')).toContain('wombatzebra');
    expect(pagesNotLinkedToCopies(out)).toEqual([]);
    // Of the project and insights pages, only the changed session's project's two are rendered again.
    const ownProject = groups.find((p) => p.startsWith('/projects/') && readFileSync(join(out, p), 'utf8').includes(`/${changedId}/`))!;
    expect(ownProject, 'the project page listing the changed session').toBeTruthy();
    const ownSlug = ownProject.split('/')[2];
    expect(groups.filter((p) => !reused.has(p))).toEqual([`/insights/${ownSlug}/index.html`, ownProject].sort());

    // What a file holds decides, not when it was written: the same edit with other words of the same length,
    // and the file's times put back, is still seen and rendered.
    const before = statSync(changedFile);
    writeFileSync(changedFile, readFileSync(changedFile, 'utf8').replace('wombatzebra', 'quokkaotter'));
    utimesSync(changedFile, before.atime, before.mtime);
    expect(statSync(changedFile).size).toBe(before.size);
    const sameSize = await buildSite(out, env);
    expect(sameSize.code, sameSize.log.slice(-2000)).toBe(0);
    const firstPage = readFileSync(join(out, rendered.find((p) => p.endsWith(`/${changedId}/index.html`))!), 'utf8');
    expect(firstPage).toContain('quokkaotter');
    expect(firstPage).not.toContain('wombatzebra');

    // A session deleted: the other session of its project loses its link to it, so its pages are rendered
    // again; sessions of other projects are copied.
    const [gone, stays] = sessionFiles(join(source, pair));
    const goneId = gone.split(/[\\/]/).pop()!.replace(/\.jsonl$/, '');
    const staysId = stays.split(/[\\/]/).pop()!.replace(/\.jsonl$/, '');
    rmSync(gone);
    const removed = await buildSite(out, env);
    expect(removed.code, removed.log.slice(-2000)).toBe(0);
    const after = sessionPages(out);
    expect(after.some((p) => p.includes(goneId))).toBe(false);
    const reusedAfter = reusedPages(removed.log);
    const staysPages = after.filter((p) => p.includes(`/${staysId}/`) && p.endsWith('.html'));
    expect(staysPages.length).toBeGreaterThan(0);
    expect(staysPages.filter((p) => reusedAfter.has(p))).toEqual([]);
    // Its Markdown shows nothing of other sessions: copied like every other session's files.
    expect(after.filter((p) => p.includes(`/${staysId}/`) && p.endsWith('.md'))).toHaveLength(1);
    expect(after.filter((p) => !staysPages.includes(p)).every((p) => reusedAfter.has(p))).toBe(true);
    for (const p of staysPages) expect(readFileSync(join(out, p), 'utf8')).not.toContain(goneId);

    // The incrementally built site is byte for byte the site a clean build of the same source gives.
    const clean = join(tmp('sp-incp-clean-'), 'site');
    const fresh = await buildSite(clean, env);
    expect(fresh.code, fresh.log.slice(-2000)).toBe(0);
    expect(reusedPages(fresh.log).size).toBe(0);
    const a = digestTree(out);
    const b = digestTree(clean);
    const diffs = [...new Set([...a.keys(), ...b.keys()])].filter((k) => a.get(k) !== b.get(k));
    expect(diffs).toEqual([]);

    // Another output folder with the same cache: pages come from Astro's cache, and whatever the folder
    // held before is removed first (this cache did not build it last), so it too equals the clean build.
    const other = join(tmp('sp-incp-other-'), 'site');
    mkdirSync(join(other, 'sessions'), { recursive: true });
    writeFileSync(join(other, 'sessions', 'index.html'), 'not from this build');
    const moved = await buildSite(other, { ...env, SESSIONPRESS_CACHE_DIR: `${out}-cache` });
    expect(moved.code, moved.log.slice(-2000)).toBe(0);
    expect(reusedPages(moved.log).size).toBeGreaterThan(0);
    // A page restored from the cache is its copy under a second name.
    expect(pagesNotLinkedToCopies(other, `${out}-cache`)).toEqual([]);
    const c = digestTree(other);
    expect([...new Set([...b.keys(), ...c.keys()])].filter((k) => b.get(k) !== c.get(k))).toEqual([]);

    // The first output folder's pages and the second's are one file each, through the cache: a page rendered
    // again for the second folder is a new file there, and the first folder's page is left as it was.
    const shared = rendered.find((p) => p.endsWith(`/${changedId}/index.html`))!;
    const firstBefore = readFileSync(join(out, shared), 'utf8');
    expect(statSync(join(out, shared)).ino).toBe(statSync(join(other, shared)).ino);
    writeFileSync(changedFile, readFileSync(changedFile, 'utf8').replace('quokkaotter', 'pangolinyak'));
    const again = await buildSite(other, { ...env, SESSIONPRESS_CACHE_DIR: `${out}-cache` });
    expect(again.code, again.log.slice(-2000)).toBe(0);
    expect(readFileSync(join(other, shared), 'utf8')).toContain('pangolinyak');
    expect(readFileSync(join(out, shared), 'utf8')).toBe(firstBefore);
    expect(pagesNotLinkedToCopies(other, `${out}-cache`)).toEqual([]);
  }, 300_000);
});
