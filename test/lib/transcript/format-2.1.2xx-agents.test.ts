import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { discoverSources, type SessionSource } from '../../../src/lib/discover.js';
import { assignSiblingAgents, openSession } from '../../../src/lib/build/open-session.js';
import { readJsonl } from '../../../src/lib/jsonl/read-jsonl.js';
import { agentIdFromPath, sidecarPathOf } from '../../../src/lib/discover.js';
import { buildSession } from '../../../src/lib/transcript/build-session.js';
import { agentOpening, isAgentMessageText } from '../../../src/lib/transcript/prompt-tags.js';
import type { AssistantMessage, Message, Session, SystemMessage, ToolCall, UserMessage } from '../../../src/lib/transcript/types.js';
import { repoRoot } from '../../helpers/shared.js';

/**
 * Forks, agent-team teammates and messages between agents and sessions
 * (Claude Code 2.1.2xx), on our own fixture tree test/fixtures/format-2.1.2xx:
 * every expected value comes from its EXPECT.agents.json.
 */
const root = join(repoRoot, 'test', 'fixtures', 'format-2.1.2xx');
const E = JSON.parse(readFileSync(join(root, 'EXPECT.agents.json'), 'utf8'));

async function sourceOf(sessionId: string): Promise<{ source: SessionSource; owners: Map<string, string[]> }> {
  const layout = await discoverSources(root);
  const source = layout.sessions.find((s) => s.sessionId === sessionId);
  if (!source) throw new Error(`fixture session ${sessionId} not found`);
  return { source, owners: await assignSiblingAgents(layout) };
}

async function session(sessionId: string, redaction: false | object = {}): Promise<Session> {
  const { source, owners } = await sourceOf(sessionId);
  const o = await openSession(source, { root, owners, redaction: redaction as false });
  if (!o.result.ok) throw new Error(`${sessionId} has no page: ${o.result.reason}`);
  return o.result.session;
}

const calls = (ms: Message[]): ToolCall[] => ms.filter((m): m is AssistantMessage => m.kind === 'assistant').flatMap((m) => m.toolCalls);
const callById = (ms: Message[], id: string) => calls(ms).find((c) => c.id === id);
const byUuid = (ms: Message[], uuid: string) => ms.find((m) => m.uuid === uuid);
const unmatched = (s: Session) => s.diagnostics.filter((d) => d.code === 'unmatched-subagent');

describe('forks (/fork): shown where they were forked, their results linked', () => {
  let s: Session;
  beforeAll(async () => {
    s = await session(E.sessions.forks);
  });

  it('puts each fork on the message that says it was forked, with its own messages and calls', () => {
    for (const f of E.forks) {
      const at = byUuid(s.messages, f.forkedAt) as UserMessage | SystemMessage | undefined;
      expect(at?.kind, f.name).toBe(f.forkLine === 'command' ? 'user' : 'system');
      const fork = at?.forks?.find((x) => x.agentId === f.agentId);
      expect(fork, f.name).toBeDefined();
      expect(fork!.role).toBe('fork');
      expect(fork!.name).toBe(f.name);
      expect(fork!.linkedBy).toBe('fork-line');
      expect(fork!.forkedAt).toBe(f.forkedAt);
      expect(calls(fork!.messages).map((c) => c.id)).toEqual(f.calls);
    }
  });

  it('takes the directive as what the fork was asked, never its boilerplate', () => {
    const forks = s.messages.flatMap((m) => (m.kind === 'user' || m.kind === 'system' ? (m.forks ?? []) : []));
    expect(forks.map((f) => f.prompt)).toEqual(E.forks.map((f: { directive: string }) => f.directive));
    for (const f of forks) expect(f.prompt).not.toContain(E.boilerplateWords);
  });

  it('links each fork and the notification that brought its result, both ways', () => {
    for (const f of E.forks) {
      const note = byUuid(s.messages, f.notificationUuid) as UserMessage;
      expect(note.userKind).toBe('task-notification');
      expect(note.resultOf?.agentId).toBe(f.agentId);
      expect(note.resultOf?.resultAt).toBe(f.notificationUuid);
      expect(note.resultOf?.forkedAt).toBe(f.forkedAt);
    }
  });

  it('reports no fork as a subagent without a call, and no fork-context-ref as unknown', () => {
    expect(unmatched(s)).toEqual([]);
    expect(s.diagnostics.filter((d) => d.code === 'unknown-type')).toEqual([]);
    expect(s.diagnostics).toEqual([]);
  });

  it('without its "forked" line, shows a fork where the session was at the entry its fork-context-ref names', async () => {
    const { source } = await sourceOf(E.sessions.forks);
    const main = await readJsonl(source.path, source.relPath);
    const fork = E.forks.find((f: { withoutForkLine?: unknown }) => f.withoutForkLine);
    // The line that says it was forked, taken away: only the fork's own file says where it began.
    const records = main.records.filter((r) => r.value.uuid !== fork.forkedAt);
    const agents = [];
    for (const path of source.subagentPaths) {
      const r = await readJsonl(path, path);
      const meta = JSON.parse(readFileSync(sidecarPathOf(path), 'utf8'));
      agents.push({ file: path, agentId: agentIdFromPath(path), records: r.records, meta });
    }
    const built = buildSession({ sessionId: source.sessionId, file: source.relPath, projectFolder: source.projectFolder, records, agents });
    if (!built.ok) throw new Error('no session');
    const placed = built.session.messages.flatMap((m) => (m.kind === 'user' || m.kind === 'system' ? (m.forks ?? []) : []));
    const sub = placed.find((x) => x.agentId === fork.agentId);
    expect(sub?.linkedBy).toBe('fork-context');
    expect(sub?.forkedAt).toBe(fork.withoutForkLine.shownAt);
    expect(calls(sub!.messages).map((c) => c.id)).toEqual(fork.calls);
    expect(unmatched(built.session)).toEqual([]);
  });
});

describe('agent-team teammates: nested under their spawning Agent calls', () => {
  let s: Session;
  beforeAll(async () => {
    s = await session(E.sessions.team);
  });

  it('links every teammate to its call by the spawn prompt and its name, with name, summary, type and team', () => {
    for (const t of E.teammates) {
      const call = callById(s.messages, t.spawnCallId)!;
      expect(call.result?.toolUseResult).toMatchObject({ status: 'teammate_spawned' });
      const sub = call.subagent;
      expect(sub?.agentId, t.name).toBe(t.agentId);
      expect(sub?.role).toBe('teammate');
      expect(sub?.linkedBy).toBe('prompt');
      expect(sub?.name).toBe(t.name);
      expect(sub?.summary).toBe(t.summary);
      expect(sub?.agentType).toBe(t.agentType);
      expect(sub?.team).toBe(E.team);
      expect(sub?.prompt).toBe(call.input.prompt);
      expect(calls(sub!.messages).map((c) => c.id)).toEqual(t.calls);
    }
    expect(unmatched(s)).toEqual([]);
  });

  it('tells apart two teammates spawned with the same prompt by their names', () => {
    const same = E.teammates.filter((t: { name: string }) => t.name !== 'alice');
    const prompts = same.map((t: { spawnCallId: string }) => callById(s.messages, t.spawnCallId)!.input.prompt);
    expect(new Set(prompts).size).toBe(1);
    for (const t of same) expect(callById(s.messages, t.spawnCallId)!.subagent?.agentId).toBe(t.agentId);
  });

  it("keeps the teammates' SendMessage calls and the lead's messages where they happened, in each teammate", () => {
    for (const t of E.teammates) {
      const sub = callById(s.messages, t.spawnCallId)!.subagent!;
      for (const id of t.sendMessages) expect(callById(sub.messages, id)?.name).toBe('SendMessage');
      for (const uuid of t.fromLead) expect((byUuid(sub.messages, uuid) as UserMessage).userKind).toBe('agent-message');
      const opening = sub.messages.find((m) => m.kind === 'user') as UserMessage;
      expect(opening.userKind).toBe('agent-message');
    }
  });

  it("takes a teammate's messages in the lead for messages from an agent: no prompt, no turn of their own", () => {
    for (const m of E.teammateMessages) expect((byUuid(s.messages, m.uuid) as UserMessage).userKind).toBe('agent-message');
    expect((byUuid(s.messages, E.teamNotice.uuid) as UserMessage).userKind).toBe('agent-message');
    expect(s.facts.promptCount).toBe(E.promptCounts[E.sessions.team]);
    for (const m of E.leadSendMessages) expect(callById(s.messages, m.toolUseId)?.input.to).toBe(m.to);
  });
});

describe('messages between sessions', () => {
  it('takes a <cross-session-message> for a message from that session, in both sessions', async () => {
    for (const c of E.crossSession) {
      const s = await session(c.sessionId);
      const m = byUuid(s.messages, c.uuid) as UserMessage;
      expect(m.userKind).toBe('agent-message');
      expect(m.text).toContain(`from-name="${c.fromName}"`);
      expect(s.facts.promptCount).toBe(E.promptCounts[c.sessionId]);
      if (c.replyCall) expect(callById(s.messages, c.replyCall)?.input.to).toBe(c.fromName);
    }
  });

  it('tells messages from agents from what a person typed', () => {
    expect(isAgentMessageText('Another Claude session sent a message:\n<cross-session-message from-name="x">hi</cross-session-message>')).toBe(true);
    expect(isAgentMessageText('<teammate-message teammate_id="bob">done</teammate-message>')).toBe(true);
    // A person quoting a tag, or adding words of their own, typed a prompt.
    expect(isAgentMessageText('Why does <teammate-message> show up in my log?')).toBe(false);
    expect(isAgentMessageText('<teammate-message teammate_id="bob">done</teammate-message>\nAnd now fix the lexer.')).toBe(false);
    expect(isAgentMessageText('Another Claude session sent a message: hello')).toBe(false);
  });

  it("reads a fork's directive and a teammate's spawn prompt out of their wrappers", () => {
    expect(agentOpening('<fork-boilerplate>\nrules\n</fork-boilerplate>\n\nYour directive: do X')).toEqual({ prompt: 'do X', fork: true });
    expect(agentOpening('<teammate-message teammate_id="team-lead" summary="S">\nP\n</teammate-message>')).toEqual({ prompt: 'P', from: 'team-lead', summary: 'S' });
    expect(agentOpening('plain words')).toEqual({ prompt: 'plain words' });
  });
});

describe('secrets planted in fork and teammate files', () => {
  it('never reach the model when the session is opened for the site', async () => {
    for (const id of [E.sessions.forks, E.sessions.team]) {
      const text = JSON.stringify(await session(id));
      for (const secret of Object.values(E.secrets) as string[]) expect(text).not.toContain(secret);
      expect(text).not.toContain(E.homePath);
    }
  });

  it('are in the files as written (so the test above can fail)', async () => {
    const raw = JSON.stringify([await session(E.sessions.forks, false), await session(E.sessions.team, false)]);
    for (const secret of Object.values(E.secrets) as string[]) expect(raw).toContain(secret);
    expect(raw).toContain(E.homePath);
  });
});
