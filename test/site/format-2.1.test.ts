import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, listFiles, problemLines, readAllText, sessionDocument, type BuildRun } from '../helpers/build.js';
import { repoRoot } from '../helpers/shared.js';

/**
 * A site built from our own 2.1.x fixture tree (test/fixtures/format-2.1,
 * written from the documented shapes and the composite records): what a
 * reader sees, what the build log says, and that no planted secret from a
 * file beside a session reaches the site, the search index or the caches.
 */
const root = join(repoRoot, 'test', 'fixtures', 'format-2.1');
const E = JSON.parse(readFileSync(join(root, 'EXPECT.json'), 'utf8'));
const out = mkdtempSync(join(tmpdir(), 'sp-format21-'));
let run: BuildRun;

const sessionDoc = (sessionId: string) => sessionDocument(out, sessionId);

/** The element of a tool call, by its id. */
function callEl(doc: Document, id: string): Element {
  const el = doc.querySelector(`[data-tool-use-id="${id}"]`);
  if (!el) throw new Error(`no element for tool call ${id}`);
  return el;
}

afterAll(() => {
  rmSync(out, { recursive: true, force: true });
  rmSync(`${out}-cache`, { recursive: true, force: true });
});

beforeAll(async () => {
  run = await buildSite(out, { SESSIONPRESS_SOURCE: root, ASTRO_TELEMETRY_DISABLED: '1' });
  if (run.code !== 0) throw new Error(`build failed:\n${run.log.slice(-3000)}`);
}, 600_000);

describe('2.1.x sessions as a reader sees them', () => {
  it('nests a sidecar-linked subagent, and the agent it spawned, inside the spawning calls', () => {
    const doc = sessionDoc(E.sessions.everything);
    const sub = callEl(doc, E.sidecarAgent.toolUseId).querySelector('[data-subagent]');
    expect(sub).not.toBeNull();
    for (const id of E.sidecarAgent.calls) expect(sub!.querySelector(`[data-tool-use-id="${id}"]`), id).not.toBeNull();
    const nested = sub!.querySelector(`[data-tool-use-id="${E.nestedAgent.toolUseId}"] [data-subagent]`);
    expect(nested).not.toBeNull();
    for (const id of E.nestedAgent.calls) expect(nested!.querySelector(`[data-tool-use-id="${id}"]`), id).not.toBeNull();
  });

  it('shows a subagent rebuilt from agent_progress entries inside its Task call', () => {
    const doc = sessionDoc(E.sessions.progress);
    const sub = callEl(doc, E.progressAgent.toolUseId).querySelector('[data-subagent]');
    expect(sub).not.toBeNull();
    for (const id of E.progressAgent.calls) expect(sub!.querySelectorAll(`[data-tool-use-id="${id}"]`), id).toHaveLength(1);
  });

  it('shows the whole persisted output, not the preview', () => {
    const doc = sessionDoc(E.sessions.everything);
    const text = callEl(doc, E.persisted.toolUseId).textContent ?? '';
    expect(text).toContain(E.persisted.endMarker);
    expect(text).not.toContain('Preview (first 2KB)');
  });

  it('titles by the custom title, and a command-driven session by its command', () => {
    expect(sessionDoc(E.sessions.everything).querySelector('h1')?.textContent?.trim()).toBe(E.titles[E.sessions.everything]);
    expect(sessionDoc(E.sessions.command).querySelector('h1')?.textContent?.trim()).toBe(E.titles[E.sessions.command]);
  });

  it('links the pull requests from the header, and shows worktree, agent name and tags', () => {
    const header = sessionDoc(E.sessions.everything).querySelector('.session-header')!;
    for (const pr of E.pullRequests) expect(header.querySelector(`a[href="${pr.url}"]`), pr.url).not.toBeNull();
    const text = header.textContent ?? '';
    expect(text).toContain(E.worktree.branch);
    expect(text).toContain(E.agentName);
    for (const t of E.tags) expect(text).toContain(t);
  });

  it('shows models without a dated price as "price unknown", never as a silent zero', () => {
    const header = sessionDoc(E.sessions.everything).querySelector('.session-header')!;
    const line = [...header.querySelectorAll('.usage li')].find((li) => li.textContent?.includes('claude-sonnet-5'));
    expect(line?.textContent).toContain('price unknown');
  });

  it('renders tagged prompt text as what it means, never as raw tags (engineer B renders the tags)', () => {
    const html = listFiles(join(out, 'sessions'))
      .filter((f) => f.includes(`/${E.sessions.everything}/`) && f.endsWith('.html'))
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    for (const tag of ['task-notification', 'ide_selection']) {
      expect(html, tag).not.toContain(`&lt;${tag}&gt;`);
      expect(html, tag).not.toContain(`<${tag}>`);
    }
    // Not by leaving them out: the background agent's notification is on the page.
    const doc = sessionDoc(E.sessions.everything);
    expect(doc.querySelector(`[data-uuid="${E.taskNotificationUuid}"]`)).not.toBeNull();
  });
});

describe('the build log of 2.1.x sessions', () => {
  it('says nothing about the record kinds the issue names', () => {
    for (const kind of ['mode', 'agent-name', 'pr-link', 'frame-link', 'worktree-state', 'bridge-session', 'attachment', 'progress', 'custom-title', 'ai-title', 'tag', 'started', 'result', 'marble-origami-commit', 'atis-latch']) {
      expect(run.log, kind).not.toContain(`unknown entry type "${kind}"`);
    }
    expect(run.log).not.toMatch(/acompact[^\n]*(missing|unmatched)/);
  });

  it('names an unknown type that may be conversation once, with how many lines and the files it was seen in', () => {
    const U = E.unknownConversation;
    const lines = run.log.split('\n').filter((l) => l.includes('unknown-type'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`unknown-type "${U.type}": ${U.lines} lines that may be conversation, not shown, in ${U.files} files: `);
    for (const id of [E.sessions.everything, E.sessions.progress]) expect(lines[0]).toContain(`${id}.jsonl`);
    // The problems file and the pages have every line.
    expect(problemLines(out).filter((l) => l.includes('[unknown-type]'))).toHaveLength(U.lines);
  });

  it('gives a file of random bytes exactly one line in the log and in the problems file', () => {
    const lines = run.log.split('\n').filter((l) => l.includes(`${E.sessions.randomBytes}.jsonl`) && !l.includes('skipped '));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\S+ \[WARN\] \[sessionpress-sessions\] +not-jsonl: 1 in 1 session /);
    const problems = problemLines(out).filter((l) => l.includes(`${E.sessions.randomBytes}.jsonl`));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('[not-jsonl]');
  });

  it('counts the known records it does not show in the summary', () => {
    expect(run.log).toMatch(/known records not shown: .*\d+ hook results/);
    expect(run.log).toMatch(/\d+ listings/);
  });

  it('counts metadata lines of types it does not know by type, and never calls them problems', () => {
    const line = run.log.split('\n').find((l) => l.includes('metadata lines not shown, of types this version does not know'));
    expect(line).toBeDefined();
    for (const [type, n] of Object.entries(E.unknownMetadata)) {
      expect(line).toContain(`${n} ${type}`);
      expect(run.log.split('\n').filter((l) => l.includes('[WARN]') && l.includes(type))).toEqual([]);
      expect(problemLines(out).filter((l) => l.includes(type))).toEqual([]);
    }
  });

  it('leaves out Astro\'s page-by-page listing and says how many pages it wrote', () => {
    expect(run.log).not.toContain('├─');
    expect(run.log).toMatch(/\[sessionpress\] \d+ pages: \d+ rendered, 0 reused from the last build/);
  });
});

describe('the build log with SESSIONPRESS_VERBOSE=1', () => {
  const verboseOut = mkdtempSync(join(tmpdir(), 'sp-format21-verbose-'));
  afterAll(() => {
    rmSync(verboseOut, { recursive: true, force: true });
    rmSync(`${verboseOut}-cache`, { recursive: true, force: true });
  });

  it('prints every problem on its own line, and Astro\'s page listing', async () => {
    const verbose = await buildSite(verboseOut, { SESSIONPRESS_SOURCE: root, SESSIONPRESS_VERBOSE: '1', ASTRO_TELEMETRY_DISABLED: '1' });
    expect(verbose.code, verbose.log.slice(-2000)).toBe(0);
    expect(verbose.log.split('\n').filter((l) => l.includes('[unknown-type]'))).toHaveLength(E.unknownConversation.lines);
    // And Astro's page-by-page listing, as Astro prints it.
    expect(verbose.log).toMatch(new RegExp(`├─ /sessions/\\S+/${E.sessions.everything}/index\\.html`));
  }, 600_000);
});

describe('secrets in the files beside a session', () => {
  it('reach neither the site, the search index nor the caches', () => {
    const texts = [...readAllText(out), ...readAllText(`${out}-cache`), ...readAllText(join(repoRoot, '.astro'))];
    expect(texts.some((t) => t.file.includes('pagefind'))).toBe(true);
    for (const t of texts) {
      for (const secret of Object.values(E.secrets) as string[]) if (t.text.includes(secret)) expect.fail(`${t.file} holds a planted secret`);
      if (t.text.includes(`/home/${E.username}`)) expect.fail(`${t.file} holds the home path of ${E.username}`);
    }
  });
});
