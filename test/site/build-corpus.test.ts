import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverSources } from '../../src/lib/discover.js';
import { assignSiblingAgents, openSession } from '../../src/lib/build/open-session.js';
import { buildSite, listFiles, readAllText, type BuildRun } from '../helpers/build.js';
import { corpusRoot, repoRoot } from '../helpers/shared.js';

/** The whole real corpus, built as a user would build ~/.claude/projects. */
const out = mkdtempSync(join(tmpdir(), 'sp-corpus-'));
let run: BuildRun;

afterAll(() => {
  rmSync(out, { recursive: true, force: true });
  rmSync(`${out}-cache`, { recursive: true, force: true });
});

beforeAll(async () => {
  run = await buildSite(out, { SESSIONPRESS_SOURCE: corpusRoot });
  if (run.code !== 0) throw new Error(`build failed:\n${run.log.slice(-3000)}`);
}, 600_000);

describe('site built from the real corpus', () => {
  it('gives every conversation session its page, and skips the rest with a note', async () => {
    const layout = await discoverSources(corpusRoot);
    const owners = await assignSiblingAgents(layout);
    const pages = listFiles(join(out, 'sessions')).filter((f) => f.endsWith('/index.html'));
    for (const source of layout.sessions) {
      const loaded = await openSession(source, { root: corpusRoot, owners, redaction: false });
      const has = pages.some((p) => p.includes(`/${source.sessionId}/index.html`));
      expect(has, source.relPath).toBe(loaded.result.ok);
      if (!loaded.result.ok) expect(run.log).toContain(`skipped ${source.relPath}`);
    }
  });

  it('lists the bad lines of the corpus in the build log with file and line', () => {
    // The gist-derived files start with two comment lines; edge_cases.jsonl holds non-object lines.
    expect(run.log).toMatch(/general-tool-calls\.jsonl:1: not JSON/);
    expect(run.log).toMatch(/edge_cases\.jsonl:\d+: line is a JSON/);
    const m = /(\d+) bad lines/.exec(run.log);
    expect(Number(m?.[1])).toBeGreaterThanOrEqual(9);
  });

  it('says nothing about the 2.1.x record kinds, and at most one line per file per kind of problem', () => {
    const named = ['mode', 'agent-name', 'pr-link', 'frame-link', 'worktree-state', 'bridge-session', 'custom-title', 'ai-title', 'last-prompt', 'relocated', 'started', 'result', 'atis-latch', 'attachment', 'progress', 'permission-mode'];
    for (const kind of named) expect(run.log, kind).not.toContain(`unknown entry type "${kind}"`);
    expect(run.log).not.toMatch(/acompact[^\n]*\[(missing-parent|unmatched-subagent)\]/);
    const seen = new Map<string, string>();
    for (const line of run.log.split('\n')) {
      const m = /\] (\S+?\.(?:jsonl|json|txt))(?::\d+)?: .*\[([a-z-]+)\]/.exec(line);
      if (!m) continue;
      const key = `${m[1]} ${m[2]}`;
      expect(seen.has(key), `two lines for ${key}:\n${seen.get(key)}\n${line}`).toBe(false);
      seen.set(key, line);
    }
    expect(seen.size).toBeGreaterThan(0);
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
