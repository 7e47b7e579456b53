import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverSources } from '../../src/lib/discover.js';
import { DIAGNOSTIC_CODES, SKIP_CODES } from '../../src/lib/diagnostics.js';
import { assignSiblingAgents, openSession } from '../../src/lib/build/open-session.js';
import { buildSite, listFiles, problemLines, readAllText, type BuildRun } from '../helpers/build.js';
import { corpusRoot, repoRoot } from '../helpers/shared.js';
import { EXCLUDE_SELECTORS } from '../../src/integrations/pagefind.js';

/**
 * The whole real corpus, built as a user would build ~/.claude/projects, then again with nothing changed:
 * once through Astro (SESSIONPRESS_ALWAYS_BUILD, as after an edit outside the sessions), once as a user's
 * rebuild, which the record of the last build answers without starting Astro.
 */
const out = mkdtempSync(join(tmpdir(), 'sp-corpus-'));
let run: BuildRun;
let again: BuildRun;
let skipped: BuildRun;
let before: Map<string, string>;
/** The problems file of the first build: a rebuild that processes nothing must list the same. */
let firstProblems: string[];

afterAll(() => {
  rmSync(out, { recursive: true, force: true });
  rmSync(`${out}-cache`, { recursive: true, force: true });
});

beforeAll(async () => {
  run = await buildSite(out, { SESSIONPRESS_SOURCE: corpusRoot });
  if (run.code !== 0) throw new Error(`build failed:\n${run.log.slice(-3000)}`);
  firstProblems = problemLines(out);
  again = await buildSite(out, { SESSIONPRESS_SOURCE: corpusRoot, SESSIONPRESS_ALWAYS_BUILD: '1' });
  if (again.code !== 0) throw new Error(`rebuild failed:\n${again.log.slice(-3000)}`);
  before = new Map(listFiles(out).map((f) => [f, readFileSync(f, 'latin1')]));
  skipped = await buildSite(out, { SESSIONPRESS_SOURCE: corpusRoot });
}, 600_000);

/** A log's lines, without the empty ones Astro writes around a step's header. */
const logLines = (log: string) => log.split('\n').filter((l) => l.trim());
/** The code a problems-file line ends with (`… [missing-parent]`). */
const codeOf = (line: string) => /\[([a-z-]+)\]$/.exec(line)?.[1] ?? '';

describe('site built from the real corpus', () => {
  it('gives every conversation session its page, and skips the rest with a note', async () => {
    const layout = await discoverSources(corpusRoot);
    const owners = await assignSiblingAgents(layout);
    const pages = listFiles(join(out, 'sessions')).filter((f) => f.endsWith('/index.html'));
    const problems = problemLines(out);
    let skipped = 0;
    for (const source of layout.sessions) {
      const loaded = await openSession(source, { root: corpusRoot, owners, redaction: false });
      const has = pages.some((p) => p.includes(`/${source.sessionId}/index.html`));
      expect(has, source.relPath).toBe(loaded.result.ok);
      if (loaded.result.ok) continue;
      skipped++;
      // Named in the problems file (redacted like everything in the cache: the file's own name is enough here).
      expect(problems.some((l) => l.includes(basename(source.relPath)) && /\[(metadata-only|empty-file|not-jsonl)\]$/.test(l)), source.relPath).toBe(true);
    }
    expect(skipped).toBeGreaterThan(0);
    expect(run.log).toMatch(new RegExp(`skipped ${skipped} files? with nothing to show`));
  });

  it('lists the bad lines of the corpus in the problems file with file and line, and counts them in the log', () => {
    // The gist-derived files start with two comment lines; edge_cases.jsonl holds non-object lines.
    const problems = problemLines(out).join('\n');
    expect(problems).toMatch(/general-tool-calls\.jsonl:1: not JSON/);
    expect(problems).toMatch(/edge_cases\.jsonl:\d+: line is a JSON/);
    const m = /(\d+) bad lines/.exec(run.log);
    expect(Number(m?.[1])).toBeGreaterThanOrEqual(9);
  });

  it('says nothing about the 2.1.x record kinds, and names each kind of problem on one line', () => {
    const named = ['mode', 'agent-name', 'pr-link', 'frame-link', 'worktree-state', 'bridge-session', 'custom-title', 'ai-title', 'last-prompt', 'relocated', 'started', 'result', 'atis-latch', 'attachment', 'progress', 'permission-mode'];
    for (const kind of named) {
      expect(run.log, kind).not.toContain(`"${kind}"`);
      expect(problemLines(out).filter((l) => l.includes(`unknown entry type "${kind}"`)), kind).toEqual([]);
    }
    expect(problemLines(out).filter((l) => /acompact.*\[(missing-parent|unmatched-subagent)\]$/.test(l))).toEqual([]);
    const kindLines = logLines(run.log).filter((l) => /\] {3}[a-z-]+[: ]/.test(l));
    const kinds = kindLines.map((l) => /\] {3}([a-z-]+(?: "[^"]*")?)/.exec(l)![1]);
    expect(new Set(kinds).size).toBe(kinds.length);
    expect(kinds.length).toBeGreaterThan(3);
  });

  it('keeps the default log short: at most 60 lines, no page listing, every kind of problem with its count, and the problems file named', () => {
    const lines = logLines(run.log);
    expect(lines.length, run.log).toBeLessThanOrEqual(60);
    expect(run.log).not.toContain('├─');
    expect(run.log).toMatch(/\[sessionpress\] \d+ pages: \d+ rendered, 0 reused from the last build/);
    expect(run.log).toMatch(/\[sessionpress-pagefind\] indexed \d+ pages/);
    // The index is built once Astro's build has completed and its process, with all it held, has ended.
    const complete = lines.findIndex((l) => /\[build\] Complete!/.test(l));
    expect(complete).toBeGreaterThan(-1);
    expect(lines.findIndex((l) => /\[sessionpress-pagefind\] indexed/.test(l))).toBeGreaterThan(complete);
    expect(run.log).toContain(`every one is in ${join(`${out}-cache`, 'problems.txt')}`);
    const counts = new Map<string, number>();
    for (const l of problemLines(out)) {
      const code = codeOf(l);
      if (!SKIP_CODES.has(code as never)) counts.set(code, (counts.get(code) ?? 0) + 1);
    }
    expect(counts.size).toBeGreaterThan(3);
    for (const [code, n] of counts) {
      expect(DIAGNOSTIC_CODES as readonly string[], code).toContain(code);
      // An unknown type that may be conversation is named once per type: the counts of its lines add up.
      const said = code === 'unknown-type'
        ? [...run.log.matchAll(/ {3}unknown-type "[^"]*": (\d+) lines?/g)].reduce((sum, m) => sum + Number(m[1]), 0)
        : Number(new RegExp(` {3}${code}: (\\d+) in \\d+ `).exec(run.log)?.[1]);
      expect(said, code).toBe(n);
    }
  });

  it('has every problem in the problems file: those on each session page, of each skipped file, and each agent file without its session', async () => {
    const problems = problemLines(out);
    // As a page lists one: `file:line reason`; the file says `file:line: reason [code]`.
    const asOnPage = new Set(problems.map((l) => l.replace(/ \[[a-z-]+\]$/, '').replace(/^(\S+?): /, '$1 ')));
    let onPages = 0;
    for (const file of listFiles(join(out, 'sessions')).filter((f) => /\/sessions\/[^/]+\/[^/]+\/index\.html$/.test(f))) {
      const doc = new JSDOM(readFileSync(file, 'utf8')).window.document;
      const section = doc.querySelector('#problems');
      if (!section) continue;
      onPages += Number(/^(\d+) problems?/.exec(section.querySelector('summary')!.textContent!.trim())![1]);
      for (const li of section.querySelectorAll('li')) expect(asOnPage.has(li.textContent!.trim()), `${file}: ${li.textContent}`).toBe(true);
    }
    const layout = await discoverSources(corpusRoot);
    const owners = await assignSiblingAgents(layout);
    let ofSkipped = 0;
    for (const source of layout.sessions) {
      const loaded = await openSession(source, { root: corpusRoot, owners, redaction: false });
      if (!loaded.result.ok) ofSkipped += loaded.result.diagnostics.length;
    }
    const orphans = problems.filter((l) => codeOf(l) === 'agent-without-session').length;
    expect(orphans).toBeGreaterThan(0);
    expect(problems.length).toBe(onPages + ofSkipped + orphans);
  });

  it('says on a rebuild what changed, and the problems it already reported in one line', () => {
    const lines = logLines(again.log);
    expect(lines.length, again.log).toBeLessThanOrEqual(40);
    expect(again.log).toMatch(/\(\d+ unchanged, \d+ skipped\), nothing to process/);
    const known = lines.filter((l) => l.includes('known problem'));
    const total = problemLines(out).filter((l) => !SKIP_CODES.has(codeOf(l) as never)).length;
    expect(known).toHaveLength(1);
    // Every problem again, those of unchanged sessions read back from their renders (the store has only their counts).
    expect(problemLines(out)).toEqual(firstProblems);
    expect(known[0]).toMatch(new RegExp(`\\] ${total} known problems in \\d+ sessions and \\d+ agent files, unchanged since the last build: see `));
    expect(again.log).not.toContain('[WARN]');
    expect(again.log).toMatch(/\[sessionpress\] \d+ pages: \d+ rendered, [1-9]\d* reused from the last build/);
  });

  it('answers a rebuild with nothing changed in one line, without starting Astro, and leaves the site as it was', () => {
    expect(skipped.code, skipped.log).toBe(0);
    const files = (/\((\d+) session files/.exec(skipped.log) ?? [])[1];
    expect(logLines(skipped.log), skipped.log).toEqual([expect.stringMatching(/^Nothing changed since the last build: \S+ is up to date \(\d+ session files, [\d.]+ MB, checked in [\d.]+ s; --force builds it again\)\.$/)]);
    // Every file below the source counts, the sessions' folders of kept outputs too.
    expect(Number(files)).toBe(listFiles(corpusRoot).length);
    const after = new Map(listFiles(out).map((f) => [f, readFileSync(f, 'latin1')]));
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    expect([...after].filter(([f, text]) => before.get(f) !== text).map(([f]) => f)).toEqual([]);
  });

  it('marks as unindexed only what pagefind never reads (the head, skipped elements, no filter or meta inside)', () => {
    const skippedBySearch = [...EXCLUDE_SELECTORS, '[data-pagefind-ignore="all"]'].join(', ');
    const pagefindAttrs = '[data-pagefind-filter], [data-pagefind-meta], [data-pagefind-sort], [data-pagefind-body], [data-pagefind-weight]';
    const kinds = new Set<string>();
    let parts = 0;
    for (const file of listFiles(join(out, 'sessions')).filter((f) => f.endsWith('.html'))) {
      const { document } = new JSDOM(readFileSync(file, 'utf8')).window;
      const walker = document.createTreeWalker(document, 128 /* NodeFilter.SHOW_COMMENT */);
      for (let c = walker.nextNode(); c; c = walker.nextNode()) {
        if ((c as Comment).data !== 'sp:unindexed') continue;
        parts++;
        for (let n = c.nextSibling; n && !(n.nodeType === 8 && (n as Comment).data === '/sp:unindexed'); n = n.nextSibling) {
          const el = n.nodeType === 1 ? (n as Element) : n.parentElement!;
          const where = `${file.slice(out.length)}: ${(el.outerHTML ?? '').slice(0, 120)}`;
          if (n.nodeType === 1) {
            expect(el.matches(pagefindAttrs) || el.querySelector(pagefindAttrs) !== null, where).toBe(false);
            kinds.add(el.tagName.toLowerCase());
          }
          // In the head, outside the indexed body, or inside an element the index skips.
          expect(!!el.closest('head') || !el.closest('[data-pagefind-body]') || !!el.closest(skippedBySearch), where).toBe(true);
        }
      }
    }
    expect(parts).toBeGreaterThan(100);
    // The head's descriptions, the facts' running totals, the overview and the pager at least.
    for (const kind of ['meta', 'div', 'nav']) expect(kinds, kind).toContain(kind);
  });

  it('keeps every session page under 400,000 bytes of HTML and 8,000 elements (issue 12)', () => {
    const pages = listFiles(join(out, 'sessions')).filter((f) => f.endsWith('.html'));
    expect(pages.length).toBeGreaterThan(10);
    const weights = pages.map((file) => {
      const html = readFileSync(file, 'utf8');
      // Elements counted by their start tags (text holds no raw `<`: it is escaped).
      return { file: file.slice(out.length), bytes: Buffer.byteLength(html), elements: html.match(/<[a-zA-Z]/g)?.length ?? 0 };
    });
    const heaviest = [...weights].sort((a, b) => b.bytes - a.bytes)[0];
    expect(heaviest.bytes, `largest page ${heaviest.file}`).toBeGreaterThan(100_000);
    for (const w of weights) {
      expect(w.bytes, `${w.file} bytes`).toBeLessThan(400_000);
      expect(w.elements, `${w.file} elements`).toBeLessThan(8_000);
    }
  });

  it('leaves no real home path or username anywhere in the site or the caches', () => {
    const names = new Set<string>();
    for (const f of listFiles(corpusRoot)) {
      const text = readFileSync(f, 'utf8');
      for (const m of text.matchAll(/\/(?:Users|home)\/([A-Za-z0-9][A-Za-z0-9._-]*)/g)) names.add(m[1]);
    }
    const generic = new Set(['user', 'runner', 'ubuntu', 'root', 'admin', 'Shared']);
    const personal = [...names].filter((n) => !generic.has(n));
    expect(personal.length).toBeGreaterThan(0);
    const texts = [...readAllText(out), ...readAllText(`${out}-cache`), ...readAllText(join(repoRoot, '.astro'))];
    for (const t of texts) {
      const m = /\/(?:Users|home)\/([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(t.text);
      if (m && !generic.has(m[1])) expect.fail(`${t.file} still holds ${m[0]}`);
      for (const n of personal) {
        // A path segment of its own (`…/ada/projects`), the way an encoded or relative path would show it.
        if (n.length >= 4 && new RegExp(`(?<![/\\w.-])/${n}/`).test(t.text)) expect.fail(`${t.file} still holds the username ${n} in a path`);
      }
    }
  });
});
