/**
 * Forks, teammates and messages between agents and sessions as the renderer
 * shows them, on our own fixture tree test/fixtures/format-2.1.2xx (every
 * expected value from its EXPECT.agents.json).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { prepareMessages, renderTranscript, type RenderContext } from '../../../src/lib/render/render-message.js';
import type { Session } from '../../../src/lib/transcript/types.js';
import { loadSessions, repoRoot, testContext } from '../../helpers/render.js';
import { parse } from './dom.js';
import { expectInert } from './xss-check.js';
import { userMsg } from './make.js';

const root = join(repoRoot, 'test', 'fixtures', 'format-2.1.2xx');
const E = JSON.parse(readFileSync(join(root, 'EXPECT.agents.json'), 'utf8'));

let ctx: RenderContext;
const docs = new Map<string, Document>();
beforeAll(async () => {
  ({ ctx } = await testContext());
  const sessions: Session[] = await loadSessions(root);
  for (const s of sessions) {
    await prepareMessages(s.messages);
    docs.set(s.sessionId, parse(renderTranscript(s.messages, ctx)));
  }
});

const text = (el: Element | null | undefined) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();
const doc = (id: string) => docs.get(id)!;
const article = (d: Document, uuid: string) => d.querySelector(`article[data-uuid="${uuid}"]`);
const RAW = /<\/?(teammate-message|cross-session-message|fork-boilerplate|task-notification)\b/;

describe('a fork', () => {
  it('is nested in the message where it was forked, with its own calls', () => {
    for (const f of E.forks) {
      const at = article(doc(E.sessions.forks), f.forkedAt)!;
      const sub = at.querySelector(`details.subagent.fork[data-subagent="${f.agentId}"]`);
      expect(sub, f.name).not.toBeNull();
      expect(sub!.hasAttribute('open')).toBe(false);
      expect(text(sub!.querySelector('summary'))).toContain(f.name);
      for (const id of f.calls) expect(sub!.querySelector(`[data-tool-use-id="${id}"]`), id).not.toBeNull();
    }
  });

  it('shows its directive as what it was asked, its boilerplate closed', () => {
    for (const f of E.forks) {
      const sub = doc(E.sessions.forks).querySelector(`[data-subagent="${f.agentId}"]`)!;
      const boiler = sub.querySelector('details.fork-boilerplate');
      expect(boiler?.hasAttribute('open')).toBe(false);
      expect(text(boiler)).toContain(E.boilerplateWords);
      const prompt = sub.querySelector('article[data-kind="prompt"]')!;
      const outside = [...prompt.querySelectorAll('.md')].filter((el) => !el.closest('details.fork-boilerplate'));
      expect(outside.map(text).join(' ')).toBe(f.directive);
      expect(prompt.innerHTML).not.toMatch(RAW);
      expect(text(prompt)).not.toContain('Your directive:');
    }
  });

  it('and the notification with its result link to each other', () => {
    const d = doc(E.sessions.forks);
    for (const f of E.forks) {
      const at = article(d, f.forkedAt)!;
      expect(at.querySelector(`a[href="#m-${f.notificationUuid}"]`), f.name).not.toBeNull();
      const note = article(d, f.notificationUuid)!;
      expect(note.getAttribute('data-kind')).toBe('notification');
      expect(note.querySelector(`a[href="#m-${f.forkedAt}"]`), f.name).not.toBeNull();
      expect(note.innerHTML).not.toMatch(RAW);
    }
  });
});

describe('a teammate', () => {
  it('is nested under its spawning Agent call, named, with its summary and its calls', () => {
    const d = doc(E.sessions.team);
    for (const t of E.teammates) {
      const call = d.querySelector(`[data-tool-use-id="${t.spawnCallId}"]`)!;
      const sub = call.querySelector(`[data-subagent="${t.agentId}"]`);
      expect(sub, t.name).not.toBeNull();
      expect(text(call.querySelector('.badge-agent'))).toBe(t.agentType);
      expect(text(call)).toContain('teammate');
      const input = text(call.querySelector('.tool-input'));
      expect(input).toContain(`Name ${t.name}`);
      expect(input).toContain(`Summary ${t.summary}`);
      expect(text(sub!.querySelector('.subagent-label'))).toContain(t.name);
      for (const id of t.calls) expect(sub!.querySelector(`[data-tool-use-id="${id}"]`), id).not.toBeNull();
      const own = (selector: string) => [...call.querySelectorAll(selector)].filter((e) => !e.closest('[data-subagent]'));
      // Its spawn prompt opens the transcript: not shown a second time in the call.
      expect(own('.agent-prompt')).toEqual([]);
      // The call's result only says it was spawned: no "Result" as if it were the teammate's answer.
      expect(own('.agent-result')).toEqual([]);
      expect(text(own('.tool-output')[0])).toBe('Spawned successfully.');
    }
  });

  it("shows the lead's messages to it and its SendMessage calls inside its transcript", () => {
    const d = doc(E.sessions.team);
    for (const t of E.teammates) {
      const sub = d.querySelector(`[data-subagent="${t.agentId}"]`)!;
      for (const id of t.sendMessages) expect(text(sub.querySelector(`[data-tool-use-id="${id}"]`))).toContain('to team-lead');
      for (const uuid of t.fromLead) {
        const m = article(d, uuid)!;
        expect(m.closest(`[data-subagent="${t.agentId}"]`)).not.toBeNull();
        expect(text(m.querySelector('.teammate-from'))).toMatch(/^Message from team-lead/);
        expect(m.innerHTML).not.toMatch(RAW);
      }
    }
  });
});

describe('messages between the lead and its teammates', () => {
  it("show the lead's SendMessage calls where they happened, to whom and what", () => {
    const d = doc(E.sessions.team);
    for (const m of E.leadSendMessages) {
      const call = d.querySelector(`[data-tool-use-id="${m.toolUseId}"]`)!;
      expect(call.closest('[data-subagent]')).toBeNull();
      expect(text(call)).toContain(`to ${m.to}`);
      expect(text(call.querySelector('.tool-input'))).toContain(m.message);
    }
  });

  it("show each teammate's message as a message from that teammate, by name, never as a prompt", () => {
    const d = doc(E.sessions.team);
    for (const m of E.teammateMessages) {
      const el = article(d, m.uuid)!;
      expect(el.getAttribute('data-kind')).toBe('agent-message');
      expect(el.hasAttribute('data-prompt')).toBe(false);
      expect([...el.querySelectorAll('.teammate-from strong')].map(text)).toEqual(m.from);
      expect(el.innerHTML).not.toMatch(RAW);
    }
    expect(text(article(d, E.teamNotice.uuid)?.querySelector('.teammate-notice'))).toBe(E.teamNotice.words);
  });
});

describe('a message from another session', () => {
  it('is a message from that session: its name, address and mode, its words, no raw tags', () => {
    for (const c of E.crossSession) {
      const el = article(doc(c.sessionId), c.uuid)!;
      expect(el.getAttribute('data-kind')).toBe('agent-message');
      const card = el.querySelector('blockquote.session-message')!;
      expect(text(card.querySelector('.teammate-from strong'))).toBe(c.fromName);
      expect(text(card.querySelector('.teammate-from'))).toContain(c.from);
      expect(text(card.querySelector('.teammate-from'))).toContain(c.mode);
      expect(text(card.querySelector('.md'))).toBe(c.body);
      expect(text(el)).not.toContain('Another Claude session sent a message');
      expect(el.innerHTML).not.toMatch(RAW);
    }
  });

  it('keeps hostile attributes and bodies inert', () => {
    const at = (where: string, make: (p: string) => string): [string, (p: string) => string] => [where, (p) => renderTranscript([userMsg(make(p), 'agent-message')], ctx)];
    expectInert(
      [
        at('from-name', (p) => `<cross-session-message from="x" from-name="${p.replace(/"/g, '&quot;')}" from-mode="y">hi</cross-session-message>`),
        at('from raw', (p) => `<cross-session-message from='${p}' from-name='n'>hi</cross-session-message>`),
        at('body', (p) => `Another Claude session sent a message:\n<cross-session-message from-name="n">${p}</cross-session-message>`),
        at('boilerplate', (p) => `<fork-boilerplate>${p}</fork-boilerplate>\n\nYour directive: ${p}`),
      ],
      // Attribute values with a quote cannot be one attribute: the tag is then shown as text (still inert).
      ['from raw'],
    );
  });
});
