import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, problemLines, readAllText, sessionDocument, type BuildRun } from '../helpers/build.js';
import { repoRoot } from '../helpers/shared.js';

/**
 * A site built from our fixture tree of today's Claude Code
 * (test/fixtures/format-2.1.26x, EXPECT.json; issue 26): what a reader sees
 * of messages between sessions and the stale parents they are filed under,
 * workflow runs, broken chains, kept outputs with new names, the new lines,
 * 2.1.26x teammates and a gateway that reuses one message id; what the build
 * log says; and that no secret planted beside a session reaches the site.
 */
const source = join(repoRoot, 'test', 'fixtures', 'format-2.1.26x');
const E = JSON.parse(readFileSync(join(source, 'EXPECT.json'), 'utf8'));
const out = mkdtempSync(join(tmpdir(), 'sp-26x-'));
let run: BuildRun;

function el(doc: ParentNode, selector: string): Element {
  const found = doc.querySelector(selector);
  if (!found) throw new Error(`nothing matches ${selector}`);
  return found;
}
const text = (e: Element | null | undefined) => (e?.textContent ?? '').replace(/\s+/g, ' ').trim();
const transcript = (sessionId: string) => el(sessionDocument(out, sessionId), '[data-transcript]');
const RAW = /<\/?cross-session-message\b|&lt;\/?cross-session-message\b|Another Claude session sent a message/;

/** Each id's count among the tool calls shown in a transcript. */
function callCounts(root: ParentNode, ids: string[]): Record<string, number> {
  return Object.fromEntries(ids.map((id) => [id, root.querySelectorAll(`[data-tool-use-id="${id}"]`).length]));
}
const once = (ids: string[]) => Object.fromEntries(ids.map((id) => [id, 1]));

beforeAll(async () => {
  run = await buildSite(out, { SESSIONPRESS_SOURCE: source, ASTRO_TELEMETRY_DISABLED: '1' });
  if (run.code !== 0) throw new Error(`build failed:\n${run.log.slice(-3000)}`);
}, 600_000);

afterAll(() => {
  for (const dir of [out, `${out}-cache`]) rmSync(dir, { recursive: true, force: true });
});

describe('messages from other sessions', () => {
  it('shows each once, as a message from that session (name and mode), never as a prompt, linked to the SendMessage that answered it', () => {
    const t = transcript(E.peers.session);
    expect(t.querySelectorAll('article[data-prompt]')).toHaveLength(E.peers.prompts);
    for (const p of E.peers.messages) {
      const all = t.querySelectorAll(`article[data-uuid="${p.uuid}"]`);
      expect(all, p.uuid).toHaveLength(1);
      const m = all[0];
      expect(m.getAttribute('data-kind')).toBe('agent-message');
      expect(m.hasAttribute('data-prompt')).toBe(false);
      expect(text(m.querySelector('.teammate-from'))).toContain(`Message from session ${p.name}`);
      expect(text(m.querySelector('.teammate-from'))).toContain(`${p.mode} mode`);
      expect(text(m)).toContain(p.marker);
      expect(m.innerHTML).not.toMatch(RAW);
      if (p.answeredBy) {
        el(m, `a[href="#t-${p.answeredBy}"]`);
        expect(t.querySelector(`#t-${p.answeredBy}`), p.answeredBy).not.toBeNull();
      } else {
        expect(m.querySelector('.peer-answer')).toBeNull();
      }
    }
  });

  it('shows the work a stale parent puts on a side branch once, in the order written, and says where the chain jumps', () => {
    const doc = sessionDocument(out, E.peers.session);
    expect(doc.querySelector('[data-branch="abandoned"]')).toBeNull();
    const t = el(doc, '[data-transcript]');
    expect(callCounts(t, E.peers.calls)).toEqual(once(E.peers.calls));
    expect(text(t)).toContain(E.peers.beforeJump);
    const jumps = [...t.querySelectorAll('.marker-chain-jump')];
    expect(jumps.map((j) => /line (\d+)/.exec(text(j))?.[1])).toEqual(E.peers.jumps.map((j: any) => String(j.parentLine)));
    // Each note stands right before the message that jumps.
    for (const [i, j] of E.peers.jumps.entries()) expect(jumps[i].nextElementSibling?.getAttribute('data-uuid')).toBe(j.uuid);
  });
});

describe('kept outputs with new names, and the new lines', () => {
  it('shows the kept hook and MCP outputs in place of their previews, and what the new attachments and lines say', () => {
    const t = transcript(E.peers.session);
    for (const marker of [...E.peers.kept, ...E.peers.shown]) expect(text(t), marker).toContain(marker);
    expect(text(t.querySelector('.marker-remote-session'))).toContain(E.peers.remoteSession);
    expect(text(t)).toContain('Remote control');
    expect(text(t)).toContain('Thinking not kept');
  });

  it('prefers the cost Claude Code recorded to an estimate, with the lines it changed', () => {
    const doc = sessionDocument(out, E.peers.session);
    const cost = text(el(doc, '.session-recorded-cost'));
    expect(cost).toContain(`$${E.peers.recordedCost} recorded`);
    expect(cost).toContain(`+${E.peers.linesAdded} −${E.peers.linesRemoved} lines`);
  });

  it('leaves no secret, Remote Control link or login name anywhere in the site or its cache', () => {
    for (const dir of [out, `${out}-cache`]) {
      for (const f of readAllText(dir)) {
        for (const secret of [E.peers.secret, E.peers.bridgeSecret]) expect(f.text.includes(secret), `${secret.slice(0, 10)} in ${f.file}`).toBe(false);
        expect(f.text.includes(`/home/${E.username}`), f.file).toBe(false);
      }
    }
  });
});

describe('broken chains, background sessions and a moving working directory', () => {
  it('shows every root in file order, says where the chain breaks and where the directory changes, and that the session ran in the background', () => {
    const doc = sessionDocument(out, E.broken.session);
    const t = el(doc, '[data-transcript]');
    expect(callCounts(t, E.broken.calls)).toEqual(once(E.broken.calls));
    expect(t.querySelectorAll('article[data-prompt]')).toHaveLength(E.broken.prompts);
    const all = text(t);
    const at = E.broken.markers.map((m: string) => all.indexOf(m));
    expect(at.every((i: number) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    // Each note comes right before the entry it is about, in reading order (a prompt opens the next turn).
    const articles: Element[] = [...t.querySelectorAll('article')];
    const after = (e: Element) => articles[articles.indexOf(e.closest('article') ?? e) + 1]?.getAttribute('data-uuid');
    expect([...t.querySelectorAll('.marker-chain-break')].map(after)).toEqual(E.broken.breaks.map((b: any) => b.uuid));
    expect(t.querySelectorAll('.marker-cwd')).toHaveLength(E.broken.cwdChanges);
    expect(text(el(doc, '.session-background'))).toContain('Background session');
    expect(text(t)).toContain('suggestion accepted');
  });

  it('reports a missing parent on its line, and no other problem, for any session of the tree', () => {
    const lines = problemLines(out);
    expect(lines.filter((l) => /not-json|not-object|unknown-type|unmatched-subagent/.test(l))).toEqual([]);
  });
});

describe('workflow runs', () => {
  it('nests each agent of the run under the Workflow call that started it, named by what it was asked, empty ones said so', () => {
    const t = transcript(E.workflow.session);
    const call = el(t, `[data-tool-use-id="${E.workflow.call}"]`);
    const kept = E.workflow.agents.filter((id: string) => id !== E.workflow.empty);
    for (const [i, id] of kept.entries()) {
      const sub = el(call, `[data-subagent="${id}"]`);
      expect(sub.tagName).toBe('DETAILS');
      expect(text(sub.querySelector('summary'))).toContain(E.workflow.labels[i]);
      expect(text(sub.querySelector('summary'))).not.toContain('workflow-subagent');
    }
    const empty = el(call, `[data-workflow-agent="${E.workflow.empty}"]`);
    expect(text(empty)).toContain('no transcript kept');
    expect(text(empty)).toContain(E.workflow.journalResult);
    expect(callCounts(t, E.workflow.calls)).toEqual(once(E.workflow.calls));
    for (const id of E.workflow.calls) expect(el(t, `[data-tool-use-id="${id}"]`).closest(`[data-tool-use-id="${E.workflow.call}"]`)).toBe(call);
  });

  it("shows every tool call of an agent whose file files a message under a stale parent, inside its call", () => {
    const t = transcript(E.workflow.session);
    const a = E.workflow.staleAgent;
    const sub = el(t, `[data-tool-use-id="${a.call}"] [data-subagent="${a.agentId}"]`);
    expect(callCounts(sub, a.calls)).toEqual(once(a.calls));
    expect(callCounts(t, a.calls)).toEqual(once(a.calls));
    expect(text(sub)).toContain(a.marker);
  });
});

describe('teammates of 2.1.26x', () => {
  it("nests the teammate under its spawning call by its name-based file, with every one of its tool calls, and counts only the user's prompt", () => {
    const t = transcript(E.teammates.session);
    expect(t.querySelectorAll('article[data-prompt]')).toHaveLength(E.teammates.prompts);
    const sub = el(t, `[data-tool-use-id="${E.teammates.spawnCall}"] [data-subagent="${E.teammates.agentId}"]`);
    expect(text(sub.querySelector('.subagent-label'))).toContain(`Teammate · ${E.teammates.name}`);
    expect(callCounts(sub, E.teammates.calls)).toEqual(once(E.teammates.calls));
    expect(callCounts(t, E.teammates.calls)).toEqual(once(E.teammates.calls));
    expect(text(t)).toContain(E.teammates.report);
  });

  it('lists the members of the team its config describes under the TeamCreate call', () => {
    const call = el(transcript(E.teammates.session), `[data-tool-use-id="${E.teammates.teamCreate}"]`);
    expect([...call.querySelectorAll('[data-team-member]')].map((m) => m.getAttribute('data-team-member'))).toEqual(E.teammates.members);
    expect(text(call)).toContain(E.teammates.teamPrompt);
  });
});

describe('a gateway that reuses one message id', () => {
  it('keeps each turn a message of its own, in order, each call once', () => {
    const t = transcript(E.gateway.session);
    const turns = [...t.querySelectorAll('article[data-kind="assistant"]')];
    expect(turns.map((a) => a.getAttribute('data-uuid'))).toEqual(E.gateway.turns);
    E.gateway.markers.forEach((m: string, i: number) => expect(text(turns[i])).toContain(m));
    expect(callCounts(t, E.gateway.calls)).toEqual(once(E.gateway.calls));
  });
});
