import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildSite, listFiles } from '../helpers/build.js';

/** Path (relative, POSIX) → sha256 of every file of a built site. */
function digestTree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const file of listFiles(dir).sort()) {
    out.set(relative(dir, file).split('\\').join('/'), createHash('sha256').update(readFileSync(file)).digest('hex'));
  }
  return out;
}

/** What differs between two trees, as a readable list (empty when they are byte-identical). */
function differences(a: Map<string, string>, b: Map<string, string>): string[] {
  const diffs: string[] = [];
  for (const [path, hash] of a) {
    if (!b.has(path)) diffs.push(`only in first: ${path}`);
    else if (b.get(path) !== hash) diffs.push(`differs: ${path}`);
  }
  for (const path of b.keys()) if (!a.has(path)) diffs.push(`only in second: ${path}`);
  return diffs;
}

/** Building the same input twice gives the same bytes: cold or from a warm cache, in any output folder. */
describe('deterministic builds', () => {
  let root = '';
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'sp-det-'));
  });
  afterAll(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('gives a byte-identical site from two cold builds and from a rebuild on a warm cache', async () => {
    // Each build gets its own cache folder (<outDir>-cache), so the first two are both cold.
    const first = join(root, 'a');
    const second = join(root, 'b');
    const runA = await buildSite(first, {});
    expect(runA.code, runA.log.slice(-3000)).toBe(0);
    const runB = await buildSite(second, {});
    expect(runB.code, runB.log.slice(-3000)).toBe(0);
    expect(runB.log).toMatch(/\(0 unchanged/);

    const a = digestTree(first);
    const b = digestTree(second);
    expect(a.size).toBeGreaterThan(10);
    expect([...a.keys()].some((p) => p.startsWith('_sessionpress/pagefind/'))).toBe(true);
    expect([...a.keys()].some((p) => p.startsWith('notes/') && p !== 'notes/index.html')).toBe(true);
    expect(differences(a, b)).toEqual([]);

    // Same output folder, same cache, nothing changed: every session and the search index come from the cache.
    // Verbose, for Astro's page listing, which says what it copied.
    // Through Astro (a rebuild with nothing changed is otherwise not started: test/site/up-to-date.test.ts).
    const runC = await buildSite(first, { SESSIONPRESS_VERBOSE: '1', SESSIONPRESS_ALWAYS_BUILD: '1' });
    expect(runC.code, runC.log.slice(-3000)).toBe(0);
    expect(runC.log).toMatch(/\((\d+) unchanged/);
    expect(runC.log).not.toMatch(/\(0 unchanged/);
    // Astro's incremental build copied session pages from its cache instead of rendering them.
    expect(runC.log.replace(/\x1b\[[0-9;]*m/g, '')).toMatch(/├─ \/sessions\/\S+ \((?:restored|cached)\)/);
    expect(differences(a, digestTree(first))).toEqual([]);
  }, 300_000);
});

/**
 * One cause of builds that differ: a shared highlighter whose output depends on
 * what it highlighted before. Worker threads take sessions in whatever order they
 * finish, so the same session can meet a highlighter in another state. Two fresh
 * highlighters, one of which first loaded grammars that another session could have
 * needed, must give the same markup.
 */
describe('highlighting does not depend on what was highlighted before', () => {
  // Snippets of our own: astro's <style> may include less, stylus, sass or scss; markdown's fences may include ruby.
  const samples = [
    // (as in a diff hunk: frontmatter without its opening fence)
    { lang: 'astro', code: 'const title = "Docs";\n---\n<p>Hi <style onload="window.x=\'y\'">body{visibility:hidden}</style></p>\n<p>{title}</p>' },
    { lang: 'markdown', code: '# Title\n\n```ruby\nputs "hi" if x == 1\n```\n' },
  ];

  async function highlightAll(preload: string[]): Promise<string[]> {
    vi.resetModules();
    const hl = await import('../../src/lib/render/highlight.js');
    await hl.ensureLanguages(preload);
    const out: string[] = [];
    for (const { lang, code } of samples) {
      await hl.ensureLanguages([lang]);
      out.push(hl.highlightCode(code, { lang }).value);
    }
    return out;
  }

  it('gives the same markup whether or not other grammars were loaded first', async () => {
    const fresh = await highlightAll([]);
    const warmed = await highlightAll(['less', 'ruby']);
    // astro is coloured; markdown is shown plain on purpose (see PLAIN_LANGS), so it has no token spans.
    expect(fresh[0], 'astro').toContain('<span class="t-');
    expect(fresh[1], 'markdown').not.toContain('<span');
    expect(warmed).toEqual(fresh);
  }, 60_000);
});
