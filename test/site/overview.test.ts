import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderSession } from '../../src/lib/build/render-session.js';
import { createOverviewCollector, OVERVIEW_LIMITS } from '../../src/lib/build/session-overview.js';
import { toolDisplayName } from '../../src/lib/render/tool-summary.js';
import type { ContentBlock, Message, Session, Turn } from '../../src/lib/transcript/types.js';
import { buildSite, listFiles } from '../helpers/build.js';
import { corpusRoot, loadSessions } from '../helpers/render.js';

/**
 * The session overview against the model: every count here is worked out
 * again from the raw content blocks of the transcript (not from the tool
 * calls the overview walks), and the built page is checked against the same.
 */

const FILE_FIELDS: Record<string, string> = { Edit: 'file_path', Write: 'file_path', MultiEdit: 'file_path', NotebookEdit: 'notebook_path' };

type ToolUse = { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

function toolUses(messages: Message[]): ToolUse[] {
  // A tool_use block without an id is no call (nothing can answer it); the model keeps it as content only.
  return messages.flatMap((m) => (m.kind === 'assistant' ? (m.blocks.filter((b: ContentBlock) => b.type === 'tool_use' && typeof b.id === 'string') as ToolUse[]) : []));
}

/** The tool_use blocks of these messages and of every subagent they started, at any depth. */
function toolUsesDeep(messages: Message[]): ToolUse[] {
  const own = toolUses(messages);
  const calls = messages.flatMap((m) => (m.kind === 'assistant' ? m.toolCalls : []));
  return [...own, ...calls.flatMap((c) => [c.subagent, ...(c.workflowAgents ?? [])].flatMap((sub) => (sub ? toolUsesDeep(sub.messages) : [])))];
}

function changedPaths(uses: ToolUse[]): string[] {
  const out: string[] = [];
  for (const u of uses) {
    const v = FILE_FIELDS[u.name] ? u.input[FILE_FIELDS[u.name]] : undefined;
    if (typeof v === 'string' && v.trim() && !out.includes(v.trim())) out.push(v.trim());
  }
  return out;
}

function tally(uses: ToolUse[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const u of uses) m.set(toolDisplayName(u.name), (m.get(toolDisplayName(u.name)) ?? 0) + 1);
  return m;
}

let sessions: Session[] = [];

beforeAll(async () => {
  sessions = await loadSessions(corpusRoot);
}, 300_000);

describe('the overview of every corpus session, against the model', () => {
  it('gives each prompt its tool tally, and its files changed (subagents included), bounded', () => {
    let prompts = 0;
    let withFiles = 0;
    for (const s of sessions) {
      const collector = createOverviewCollector();
      for (const turn of s.turns) {
        const facts = collector.add(turn, 1);
        if (!turn.prompt) continue;
        prompts++;
        const label = `${s.file} prompt ${turn.index}`;
        const uses = toolUses(turn.messages);
        expect(new Map(facts.tools), label).toEqual(tally(uses));
        // Most used first.
        for (let i = 1; i < facts.tools.length; i++) expect(facts.tools[i - 1][1], label).toBeGreaterThanOrEqual(facts.tools[i][1]);
        const paths = changedPaths(toolUsesDeep(turn.messages));
        expect(facts.files, label).toEqual(paths.slice(0, OVERVIEW_LIMITS.promptFiles));
        expect(facts.filesMore, label).toBe(Math.max(0, paths.length - OVERVIEW_LIMITS.promptFiles));
        if (paths.length) withFiles++;
      }
    }
    expect(prompts).toBeGreaterThan(50);
    expect(withFiles).toBeGreaterThan(5);
  });

  it('lists the files, subagents and commits of the session, and counts what it leaves out', () => {
    let commits = 0;
    let subagents = 0;
    for (const s of sessions) {
      const collector = createOverviewCollector();
      for (const turn of s.turns) collector.add(turn, 1);
      const o = collector.result();
      const label = s.file;
      const paths = changedPaths(s.turns.flatMap((t) => toolUsesDeep(t.messages)));
      expect(o.files.map((f) => f.path), label).toEqual(paths.slice(0, OVERVIEW_LIMITS.files));
      expect(o.files.length + o.filesMore, label).toBe(paths.length);
      const edits = toolUsesDeep(s.messages).filter((u) => FILE_FIELDS[u.name]);
      for (const f of o.files) expect(f.edits, `${label} ${f.path}`).toBe(edits.filter((u) => String(u.input[FILE_FIELDS[u.name]]).trim() === f.path).length);

      // A Task's subagent, or each agent of a workflow run.
      const spawned = s.messages.flatMap((m) => (m.kind === 'assistant' ? m.toolCalls.flatMap((c) => [c.subagent, ...(c.workflowAgents ?? [])].filter(Boolean)) : []));
      expect(o.subagents.length + o.subagentsMore, label).toBe(spawned.length);
      expect(o.subagents.length, label).toBeLessThanOrEqual(OVERVIEW_LIMITS.subagents);
      subagents += spawned.length;

      const commitUses = toolUses(s.messages).filter((u) => u.name === 'Bash' && /\bgit\b[^\n]*\bcommit\b/.test(String(u.input.command)));
      expect(o.commits.length + o.commitsMore, label).toBeLessThanOrEqual(commitUses.length);
      for (const c of o.commits) {
        // The message is the one given on the command line, or the subject git printed.
        const said = commitUses.some((u) => String(u.input.command).includes(c.message.slice(0, 30)));
        expect(said || c.hash !== undefined, `${label}: ${c.message}`).toBe(true);
      }
      commits += o.commits.length;
    }
    expect(subagents).toBeGreaterThan(0);
    expect(commits).toBeGreaterThan(0);
  });

  it('links each prompt and each listed place to the page that holds it', async () => {
    // Small pages, so that places land on pages other than the first.
    const some = sessions.filter((s) => s.turns.length >= 4).slice(0, 6);
    expect(some.length).toBeGreaterThan(2);
    for (const s of some) {
      const r = await renderSession(s, { pageSize: 2, assetBase: '/assets/', indexToolOutput: false, indexThinking: false });
      const prompted = s.turns.filter((t: Turn) => t.prompt);
      expect(r.toc.map((t) => t.uuid)).toEqual(prompted.map((t) => t.prompt!.uuid));
      for (const item of r.toc) expect(r.anchors[item.uuid], s.file).toBe(item.page);
      for (const place of [...r.overview.files, ...r.overview.subagents, ...r.overview.commits]) expect(r.anchors[place.uuid], s.file).toBe(place.page);
    }
  }, 120_000);
});

describe('the overview on a built session page', () => {
  // Two corpus folders: one with commits and many edits, one with a pull request (`pr-link` lines).
  const project = '-Users-chip-dev-ai-music';
  const withPr = '-fixtures-agent-sessions';
  const out = mkdtempSync(join(tmpdir(), 'sp-overview-'));
  const source = mkdtempSync(join(tmpdir(), 'sp-overview-src-'));
  let pages: Array<{ file: string; doc: Document }> = [];

  beforeAll(async () => {
    for (const p of [project, withPr]) cpSync(join(corpusRoot, p), join(source, p), { recursive: true });
    const run = await buildSite(out, { SESSIONPRESS_SOURCE: source });
    if (run.code !== 0) throw new Error(`build failed:\n${run.log.slice(-3000)}`);
    pages = listFiles(join(out, 'sessions'))
      .filter((f) => f.endsWith('index.html'))
      .map((file) => ({ file, doc: new JSDOM(readFileSync(file, 'utf8')).window.document }));
  }, 300_000);

  afterAll(() => {
    rmSync(source, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
    rmSync(`${out}-cache`, { recursive: true, force: true });
  });

  it('shows the prompts with their tallies, the files changed and the commits, each linked to its message', () => {
    const mine = sessions.filter((s) => s.projectFolder === project);
    expect(mine.length).toBeGreaterThan(0);
    let checked = 0;
    for (const s of mine) {
      const page = pages.find((p) => p.file.includes(`/${s.sessionId}/index.html`));
      expect(page, s.file).toBeDefined();
      const doc = page!.doc;
      const overview = doc.querySelector('nav.overview')!;
      expect(overview, s.file).not.toBeNull();
      const items = [...overview.querySelectorAll('.ov-prompts > li')];
      const onPage = s.turns.filter((t) => t.prompt && doc.getElementById(`m-${t.prompt.uuid}`));
      expect(items.length, s.file).toBe(onPage.length);
      for (const [i, turn] of onPage.entries()) {
        const li = items[i];
        expect(li.getAttribute('value')).toBe(String(turn.index));
        const href = li.querySelector('a')!.getAttribute('href')!;
        expect(href).toBe(`#m-${turn.prompt!.uuid}`);
        const meta = li.querySelector('.ov-meta')!.textContent!.replace(/\s+/g, ' ');
        const counts = [...tally(toolUses(turn.messages))].sort((a, b) => b[1] - a[1]);
        if (!counts.length) expect(meta).toContain('no tool calls');
        for (const [name, n] of counts.slice(0, 4)) expect(meta, s.file).toContain(`${n} ${name}`);
        // The files it changed, by name, the first few of them.
        const changed = changedPaths(toolUsesDeep(turn.messages));
        const named = [...li.querySelectorAll('.ov-prompt-files code')].map((c) => c.textContent);
        expect(named, s.file).toEqual(changed.slice(0, OVERVIEW_LIMITS.promptFiles).map((p) => p.split('/').pop()));
        if (changed.length > OVERVIEW_LIMITS.promptFiles) expect(meta).toContain(`and ${changed.length - OVERVIEW_LIMITS.promptFiles} more file`);
      }
      const paths = changedPaths(s.turns.flatMap((t) => toolUsesDeep(t.messages)));
      const files = [...overview.querySelectorAll('.ov-files li a')];
      expect(files.length).toBe(Math.min(paths.length, OVERVIEW_LIMITS.files));
      for (const a of files) {
        // Each file links to a message of this page (or of another page of the session).
        const target = a.getAttribute('href')!;
        if (target.startsWith('#')) expect(doc.getElementById(target.slice(1)), target).not.toBeNull();
      }
      if (paths.length) expect(overview.textContent).toMatch(new RegExp(`${paths.length} files? changed`));
      const commits = [...overview.querySelectorAll('.ov-list li')].filter((li) => li.querySelector('.ov-hash') || li.classList.contains('is-failed'));
      if (commits.length) checked++;
      for (const li of commits) expect(doc.getElementById(li.querySelector('a')!.getAttribute('href')!.slice(1))).not.toBeNull();
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('links the pull requests the session opened', () => {
    const opened = sessions.filter((s) => s.projectFolder === withPr && s.facts.pullRequests.length > 0);
    expect(opened.length).toBeGreaterThan(0);
    for (const s of opened) {
      const page = pages.find((p) => p.file.includes(`/${s.sessionId}/index.html`));
      expect(page, s.file).toBeDefined();
      const outcome = page!.doc.querySelector('nav.overview section[aria-label="Outcome"]')!;
      expect(outcome, s.file).not.toBeNull();
      for (const pr of s.facts.pullRequests) {
        const link = [...outcome.querySelectorAll('a')].find((a) => a.textContent === `Pull request #${pr.number}`);
        expect(link?.getAttribute('href'), s.file).toBe(pr.url);
      }
    }
  });
});
