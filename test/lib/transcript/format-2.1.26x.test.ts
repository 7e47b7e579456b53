import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sessionToMarkdown } from '../../../src/lib/export/markdown.js';
import { buildSession } from '../../../src/lib/transcript/build-session.js';
import { resolveActiveBranch } from '../../../src/lib/transcript/tree.js';
import { toEntry } from '../../../src/lib/transcript/entries.js';
import { completeRun, readJournal } from '../../../src/lib/transcript/workflows.js';
import type { AssistantMessage, MarkerMessage, Message, Session, Subagent, ToolCall, UserMessage } from '../../../src/lib/transcript/types.js';
import { fixtureSession, openFixtureSession } from '../../helpers/sessions.js';
import { repoRoot } from '../../helpers/shared.js';

/**
 * Today's Claude Code, third pass (issue 26), on our own fixture tree
 * test/fixtures/format-2.1.26x: peer messages and the stale parents they are
 * filed under, workflow runs with empty agents and a journal, broken chains,
 * kept outputs with new names, new lines, 2.1.26x teammates, and a gateway
 * that reuses one message id. Every expected value comes from its EXPECT.json.
 */
const root = join(repoRoot, 'test', 'fixtures', 'format-2.1.26x');
const E = JSON.parse(readFileSync(join(root, 'EXPECT.json'), 'utf8'));

const user = (s: Session, uuid: string) => s.messages.find((m): m is UserMessage => m.kind === 'user' && m.uuid === uuid);
const markers = (s: Session, type: string) => s.messages.filter((m): m is MarkerMessage => m.kind === 'marker' && m.markerType === type);

/** Every tool call of a transcript, its agents' (workflow runs' and nested) included. */
function allCalls(messages: Message[]): ToolCall[] {
  const out: ToolCall[] = [];
  for (const m of messages) {
    if (m.kind !== 'assistant') continue;
    for (const c of m.toolCalls) {
      out.push(c);
      for (const sub of [...(c.subagent ? [c.subagent] : []), ...(c.workflowAgents ?? [])]) out.push(...allCalls(sub.messages));
    }
  }
  return out;
}

describe('messages from other sessions', () => {
  it('shows each as a message from its session, never as a prompt, and links the SendMessage that answered it', async () => {
    const s = await fixtureSession(root, E.peers.session, false);
    expect(s.facts.promptCount).toBe(E.peers.prompts);
    for (const p of E.peers.messages) {
      const m = user(s, p.uuid);
      expect(m?.userKind, p.uuid).toBe('agent-message');
      expect(m?.peer?.name).toBe(p.name);
      expect(m?.peer?.mode).toBe(p.mode);
      expect(m?.peer?.answeredBy).toBe(p.answeredBy);
      expect(s.turns.some((t) => t.prompt?.uuid === p.uuid)).toBe(false);
    }
  });

  it('keeps the work a stale parent would put on a side branch, in the order written, and marks each jump', async () => {
    const s = await fixtureSession(root, E.peers.session, false);
    expect(s.abandoned).toEqual([]);
    const ids = allCalls(s.messages).map((c) => c.id);
    expect(ids).toEqual(E.peers.calls);
    expect(markers(s, 'chain-jump').map((m) => ({ line: m.line, parentLine: Number(m.value) }))).toEqual(E.peers.jumps.map((j: any) => ({ line: j.line, parentLine: j.parentLine })));
    // Each marker stands right before the message that jumps.
    for (const j of E.peers.jumps) {
      const at = s.messages.findIndex((m) => m.uuid === j.uuid);
      expect(s.messages[at - 1]?.kind === 'marker' && (s.messages[at - 1] as MarkerMessage).markerType).toBe('chain-jump');
    }
  });

  it('still treats a fork between two prompts as a rewind', () => {
    const rec = (line: number, value: Record<string, unknown>) => toEntry({ line, value }, line - 1);
    const entries = [
      rec(1, { type: 'user', uuid: 'u1', parentUuid: null, message: { role: 'user', content: 'first' } }),
      rec(2, { type: 'assistant', uuid: 'a1', parentUuid: 'u1', message: { id: 'm1', role: 'assistant', content: [{ type: 'text', text: 'one' }] } }),
      rec(3, { type: 'user', uuid: 'u2', parentUuid: 'a1', message: { role: 'user', content: 'old question' } }),
      rec(4, { type: 'user', uuid: 'u3', parentUuid: 'a1', message: { role: 'user', content: 'new question' } }),
    ];
    const b = resolveActiveBranch(entries, 'x.jsonl');
    expect(b.abandoned.map((a) => a.firstUuid)).toEqual(['u2']);
    expect(b.jumps).toEqual([]);
  });
});

describe('kept outputs with new names, and new lines', () => {
  it('reads hook system messages, additional context and MCP outputs from their kept files', async () => {
    const s = await fixtureSession(root, E.peers.session, false);
    const text = JSON.stringify(s.messages);
    for (const marker of E.peers.kept) expect(text, marker).toContain(marker);
    expect(s.diagnostics).toEqual([]);
  });

  it('takes the recorded cost, counts the latch as metadata, and marks the remote session change', async () => {
    const s = await fixtureSession(root, E.peers.session, false);
    expect(s.facts.recordedCost).toMatchObject({ totalCostUSD: E.peers.recordedCost, linesAdded: E.peers.linesAdded, linesRemoved: E.peers.linesRemoved });
    expect(s.unknownMetadata).toEqual({});
    expect(markers(s, 'remote-session').map((m) => m.value)).toEqual([E.peers.remoteSession]);
    const a = s.messages.find((m): m is AssistantMessage => m.kind === 'assistant' && m.blocks.some((b) => b.type === 'thinking'));
    expect(a?.blocks.find((b) => b.type === 'thinking')).toMatchObject({ thinking: '' });
  });

  it('gives the recorded cost in the Markdown twin too', async () => {
    const s = await fixtureSession(root, E.peers.session, false);
    expect(sessionToMarkdown(s).join('\n')).toContain(`$${E.peers.recordedCost} recorded by Claude Code`);
  });

  it('redacts the Remote Control link of a bridge_status line and every kept file', async () => {
    const o = await openFixtureSession(root, E.peers.session, {});
    if (!o.result.ok) throw new Error('no page');
    // What is shown (the file's own name, a path on disk, is named apart and redacted when it is shown).
    const text = JSON.stringify([o.result.session.messages, o.result.session.facts]);
    expect(text.includes(E.peers.bridgeSecret), 'remote control link').toBe(false);
    expect(text.includes(E.peers.secret), 'token in a kept file').toBe(false);
    expect(text.includes(E.username), 'login name').toBe(false);
  });
});

describe('broken chains', () => {
  it('keeps every root in file order, says where the chain breaks, and follows the working directory', async () => {
    const s = await fixtureSession(root, E.broken.session, false);
    expect(s.facts.promptCount).toBe(E.broken.prompts);
    expect(allCalls(s.messages).map((c) => c.id)).toEqual(E.broken.calls);
    expect(markers(s, 'chain-break').map((m) => ({ line: m.line, first: m.value === 'first' }))).toEqual(E.broken.breaks.map((b: any) => ({ line: b.line, first: b.first })));
    expect(s.facts.cwdChanges).toBe(E.broken.cwdChanges);
    expect(markers(s, 'cwd')).toHaveLength(E.broken.cwdChanges);
    expect(s.facts.background).toBe(true);
    expect(s.turns.filter((t) => t.prompt).map((t) => t.prompt!.promptSource ?? 'typed')).toEqual(['typed', 'suggestion_accepted', 'queued']);
  });
});

describe('workflow runs', () => {
  it('puts every agent of the run under its Workflow call, in journal order, empty ones included, without a problem', async () => {
    const s = await fixtureSession(root, E.workflow.session, false);
    const call = allCalls(s.messages).find((c) => c.id === E.workflow.call)!;
    const agents = call.workflowAgents ?? [];
    expect(agents.map((a) => a.agentId)).toEqual(E.workflow.agents);
    expect(agents.map((a) => !!a.noTranscript)).toEqual(E.workflow.agents.map((id: string) => id === E.workflow.empty));
    expect(agents.find((a) => a.noTranscript)?.journalResult).toContain(E.workflow.journalResult);
    // A journal result that repeats an agent's own last words adds nothing.
    expect(agents.filter((a) => !a.noTranscript).map((a) => a.journalResult)).toEqual([undefined, undefined]);
    expect(s.diagnostics).toEqual([]);
    const ids = allCalls(s.messages).map((c) => c.id);
    for (const id of E.workflow.calls) expect(ids.filter((x) => x === id), id).toHaveLength(1);
  });

  it('shows every tool call of an agent whose file files a message under a stale parent', async () => {
    const s = await fixtureSession(root, E.workflow.session, false);
    const a = E.workflow.staleAgent;
    const call = allCalls(s.messages).find((c) => c.id === a.call)!;
    expect(call.subagent?.agentId).toBe(a.agentId);
    expect(allCalls(call.subagent!.messages).map((c) => c.id)).toEqual(a.calls);
    expect(JSON.stringify(call.subagent!.messages)).toContain(a.marker);
  });

  it('reads a journal: start order, results, and agents no file holds', () => {
    const j = readJournal([
      { line: 1, value: { type: 'started', key: 'v2:aa', agentId: 'a2' } },
      { line: 2, value: { type: 'started', key: 'v2:bb', agentId: 'a1' } },
      { line: 3, value: { type: 'result', key: 'v2:cc', agentId: 'a3', result: { text: 'from the journal' } } },
      { line: 4, value: { type: 'result', key: 'v2:dd' } },
    ]);
    const file = (id: string): Subagent => ({ agentId: id, prompt: 'p', messages: [], turns: [], stats: { toolUseCount: 0 } });
    const run = completeRun('wf_x', [file('a1'), file('a2')], j);
    expect(run.map((a) => a.agentId)).toEqual(['a2', 'a1', 'a3']);
    expect(run[2]).toMatchObject({ noTranscript: true, journalResult: 'from the journal', workflowRunId: 'wf_x' });
  });
});

describe('teammates of 2.1.26x', () => {
  it('links the teammate by its name-based file to its spawn call, with its sidecar, and never counts its messages as prompts', async () => {
    const s = await fixtureSession(root, E.teammates.session, false);
    expect(s.facts.promptCount).toBe(E.teammates.prompts);
    const call = allCalls(s.messages).find((c) => c.id === E.teammates.spawnCall)!;
    expect(call.subagent).toMatchObject({ agentId: E.teammates.agentId, role: 'teammate', name: E.teammates.name, team: E.teammates.team, color: 'blue' });
    expect(allCalls(call.subagent!.messages).map((c) => c.id)).toEqual(E.teammates.calls);
  });

  it('puts the team its config describes (inside the source tree) on the TeamCreate call, redacted', async () => {
    const s = await fixtureSession(root, E.teammates.session, {});
    const call = allCalls(s.messages).find((c) => c.id === E.teammates.teamCreate)!;
    expect(call.team?.members.map((m) => m.name)).toEqual(E.teammates.members);
    const prompt = call.team?.members.find((m) => m.name === E.teammates.name)?.prompt ?? '';
    expect(prompt).toContain(E.teammates.teamPrompt);
    expect(prompt.includes(E.peers.secret)).toBe(false);
  });
});

describe('a gateway that reuses one message id for every turn', () => {
  it('keeps each turn its own message, with its own calls and stated cost', async () => {
    const s = await fixtureSession(root, E.gateway.session, false);
    const turns = s.messages.filter((m): m is AssistantMessage => m.kind === 'assistant');
    expect(turns.map((m) => m.uuid)).toEqual(E.gateway.turns);
    expect(turns.flatMap((m) => m.toolCalls.map((c) => c.id))).toEqual(E.gateway.calls);
    for (const m of turns) expect(m.toolCalls.every((c) => !!c.result)).toBe(true);
    expect(s.facts.usage.reduce((n, u) => n + (u.statedCost ?? 0), 0)).toBeCloseTo(E.gateway.statedCost, 6);
  });

  it('still joins the streamed entries of one request even when a tool result was written between them', () => {
    const rec = (line: number, value: Record<string, unknown>) => ({ line, value });
    const r = buildSession({
      sessionId: 's',
      file: 's.jsonl',
      projectFolder: 'p',
      agents: [],
      records: [
        rec(1, { type: 'user', uuid: 'u1', parentUuid: null, message: { role: 'user', content: 'go' } }),
        rec(2, { type: 'assistant', uuid: 'a1', parentUuid: 'u1', requestId: 'req_1', message: { id: 'm1', role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Read', input: {} }], stop_reason: null } }),
        rec(3, { type: 'user', uuid: 'r1', parentUuid: 'a1', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'x' }] } }),
        rec(4, { type: 'assistant', uuid: 'a2', parentUuid: 'a1', requestId: 'req_1', message: { id: 'm1', role: 'assistant', content: [{ type: 'tool_use', id: 't2', name: 'Read', input: {} }], stop_reason: 'tool_use' } }),
        rec(5, { type: 'user', uuid: 'r2', parentUuid: 'a2', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't2', content: 'y' }] } }),
      ],
    });
    if (!r.ok) throw new Error('no session');
    const assistants = r.session.messages.filter((m) => m.kind === 'assistant');
    expect(assistants).toHaveLength(1);
    expect((assistants[0] as AssistantMessage).toolCalls.map((c) => c.id)).toEqual(['t1', 't2']);
  });
});
