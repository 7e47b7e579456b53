import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, readAllText, sessionDocument, type BuildRun } from '../helpers/build.js';
import { repoRoot } from '../helpers/shared.js';

/**
 * A site built from the agent sessions of our 2.1.2xx fixture tree
 * (test/fixtures/format-2.1.2xx, EXPECT.agents.json): forks, agent-team
 * teammates, SendMessage between them, a message from another session. What
 * a reader sees, what the build log says, and that no secret planted in a
 * fork's or a teammate's file reaches the site, the search index or a cache.
 */
const fixtures = join(repoRoot, 'test', 'fixtures', 'format-2.1.2xx');
const E = JSON.parse(readFileSync(join(fixtures, 'EXPECT.agents.json'), 'utf8'));
// Only our project folders: the tree is shared with other topics' folders.
const source = mkdtempSync(join(tmpdir(), 'sp-agents-src-'));
const out = mkdtempSync(join(tmpdir(), 'sp-agents-'));
let run: BuildRun;

/** Every page of a session of this build, as one document. */
function sessionDoc(sessionId: string): Document {
  return sessionDocument(out, sessionId);
}

function el(doc: ParentNode, selector: string): Element {
  const found = doc.querySelector(selector);
  if (!found) throw new Error(`nothing matches ${selector}`);
  return found;
}

const text = (e: Element | null | undefined) => (e?.textContent ?? '').replace(/\s+/g, ' ').trim();
const message = (doc: Document, uuid: string) => el(doc, `[data-transcript] article[data-uuid="${uuid}"]`);
const RAW = /<\/?(teammate-message|cross-session-message|fork-boilerplate|task-notification)\b|&lt;\/?(teammate-message|cross-session-message|fork-boilerplate|task-notification)\b/;

beforeAll(async () => {
  for (const folder of E.projectFolders) cpSync(join(fixtures, folder), join(source, folder), { recursive: true });
  run = await buildSite(out, { SESSIONPRESS_SOURCE: source, ASTRO_TELEMETRY_DISABLED: '1' });
  if (run.code !== 0) throw new Error(`build failed:\n${run.log.slice(-3000)}`);
}, 600_000);

afterAll(() => {
  for (const dir of [out, `${out}-cache`, source]) rmSync(dir, { recursive: true, force: true });
});

describe('forks as a reader sees them', () => {
  it('nests each fork, with its tool calls, in the message where it was forked', () => {
    const doc = sessionDoc(E.sessions.forks);
    for (const f of E.forks) {
      const fork = el(message(doc, f.forkedAt), `[data-subagent="${f.agentId}"]`);
      expect(fork.tagName).toBe('DETAILS');
      expect(fork.hasAttribute('open')).toBe(false);
      expect(text(fork.querySelector('summary'))).toContain(f.name);
      for (const id of f.calls) expect(fork.querySelector(`[data-tool-use-id="${id}"]`), id).not.toBeNull();
    }
  });

  it('shows the directive as what the fork was asked, its boilerplate in a closed details', () => {
    const doc = sessionDoc(E.sessions.forks);
    for (const f of E.forks) {
      const opening = el(doc, `[data-subagent="${f.agentId}"] article[data-kind="prompt"]`);
      const boilerplate = el(opening, 'details.fork-boilerplate');
      expect(boilerplate.hasAttribute('open')).toBe(false);
      expect(text(boilerplate)).toContain(E.boilerplateWords);
      const shown = [...opening.querySelectorAll('.md')].filter((m) => !m.closest('details.fork-boilerplate'));
      expect(shown.map(text)).toEqual([f.directive]);
    }
  });

  it('shows its result where the notification arrived, the two linked both ways', () => {
    const doc = sessionDoc(E.sessions.forks);
    for (const f of E.forks) {
      const note = message(doc, f.notificationUuid);
      expect(note.getAttribute('data-kind')).toBe('notification');
      expect(note.closest('[data-subagent]')).toBeNull();
      expect(el(note, `a[href="#m-${f.forkedAt}"]`)).toBeTruthy();
      expect(el(message(doc, f.forkedAt), `a[href="#m-${f.notificationUuid}"]`)).toBeTruthy();
      // Both ends of each link are on the page.
      expect(doc.getElementById(`m-${f.forkedAt}`)).not.toBeNull();
      expect(doc.getElementById(`m-${f.notificationUuid}`)).not.toBeNull();
      expect(note.innerHTML).not.toMatch(RAW);
    }
  });
});

describe('the overview of a session with forks', () => {
  it('lists each fork among its agents, linked to where it was forked', () => {
    const doc = sessionDoc(E.sessions.forks);
    const list = el(doc, 'section[aria-label="Subagents"]');
    for (const f of E.forks) expect(text(el(list, `a[href$="#m-${f.forkedAt}"]`).closest('li'))).toContain(`· fork · ${f.calls.length} tool calls`);
  });
});

describe('teammates as a reader sees them', () => {
  it('nests each teammate under its spawning Agent call, with its name, summary and tool calls', () => {
    const doc = sessionDoc(E.sessions.team);
    for (const t of E.teammates) {
      const call = el(doc, `[data-transcript] [data-tool-use-id="${t.spawnCallId}"]`);
      expect(call.getAttribute('data-tool')).toBe('Agent');
      const sub = el(call, `[data-subagent="${t.agentId}"]`);
      const input = text(call.querySelector('.tool-input'));
      expect(input).toContain(`Name ${t.name}`);
      expect(input).toContain(`Summary ${t.summary}`);
      expect(text(sub.querySelector('.subagent-label'))).toContain(t.name);
      for (const id of t.calls) expect(sub.querySelector(`[data-tool-use-id="${id}"]`), id).not.toBeNull();
    }
  });

  it('shows the SendMessage exchanges where they happened: lead to teammate, teammate to lead', () => {
    const doc = sessionDoc(E.sessions.team);
    for (const m of E.leadSendMessages) {
      const call = el(doc, `[data-transcript] [data-tool-use-id="${m.toolUseId}"]`);
      expect(call.closest('[data-subagent]')).toBeNull();
      expect(text(call)).toContain(`to ${m.to}`);
    }
    for (const t of E.teammates) {
      for (const id of t.sendMessages) {
        const call = el(doc, `[data-subagent="${t.agentId}"] [data-tool-use-id="${id}"]`);
        expect(text(call)).toContain('to team-lead');
      }
      for (const uuid of t.fromLead) {
        const m = el(doc, `[data-subagent="${t.agentId}"] article[data-uuid="${uuid}"]`);
        expect(text(m.querySelector('.teammate-from'))).toMatch(/^Message from team-lead/);
      }
    }
    for (const m of E.teammateMessages) {
      const got = message(doc, m.uuid);
      expect(got.getAttribute('data-kind')).toBe('agent-message');
      expect([...got.querySelectorAll('.teammate-from strong')].map(text)).toEqual(m.from);
      expect(got.innerHTML).not.toMatch(RAW);
    }
  });

  it('counts only what the user typed as prompts', () => {
    const doc = sessionDoc(E.sessions.team);
    expect(doc.querySelectorAll('[data-transcript] article[data-prompt]')).toHaveLength(E.promptCounts[E.sessions.team]);
  });
});

describe('a message from another session', () => {
  it('is shown as a message from that session, by its name, in both sessions', () => {
    for (const c of E.crossSession) {
      const got = message(sessionDoc(c.sessionId), c.uuid);
      expect(got.getAttribute('data-kind')).toBe('agent-message');
      expect(text(got.querySelector('.session-message .teammate-from strong'))).toBe(c.fromName);
      expect(text(got.querySelector('.session-message .md'))).toBe(c.body);
      expect(got.innerHTML).not.toMatch(RAW);
    }
  });
});

describe('the build log', () => {
  it('says nothing about forks or teammates matching no call, nor about fork-context-ref lines', () => {
    expect(run.log).not.toContain('matches no Task or Agent call');
    expect(run.log).not.toMatch(/fork[^\n]*matches no/);
    expect(run.log).not.toContain('unknown entry type "fork-context-ref"');
    expect(run.log).not.toContain('[unmatched-subagent]');
  });
});

describe('secrets planted in fork and teammate files', () => {
  it('reach neither the site, the search index nor the caches', () => {
    const texts = [...readAllText(out), ...readAllText(`${out}-cache`), ...readAllText(join(repoRoot, '.astro'))];
    expect(texts.some((t) => t.file.includes('pagefind'))).toBe(true);
    // The index holds the fork's and teammates' words (so it was searched, not skipped).
    expect(texts.some((t) => t.file.includes('pagefind') && t.text.includes(E.forks[0].name))).toBe(true);
    for (const t of texts) {
      for (const secret of Object.values(E.secrets) as string[]) if (t.text.includes(secret)) expect.fail(`${t.file} holds a planted secret`);
      if (t.text.includes(E.homePath)) expect.fail(`${t.file} holds the home path of ${E.username}`);
    }
  });
});
