import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AssistantMessage, Message, Session, Subagent, ToolCall } from '../../../src/lib/transcript/types.js';
import { promptTitleText } from '../../../src/lib/transcript/build-session.js';
import { fixtureSession, openFixtureSession } from '../../helpers/sessions.js';
import { repoRoot } from '../../helpers/shared.js';

/** Our own 2.1.x fixture tree (written from the documented shapes and the composite records). */
const root = join(repoRoot, 'test', 'fixtures', 'format-2.1');
const E = JSON.parse(readFileSync(join(root, 'EXPECT.json'), 'utf8'));

const open = (sessionId: string, redaction: false | object = {}) => openFixtureSession(root, sessionId, redaction);
const session = (sessionId: string, redaction: false | object = {}) => fixtureSession(root, sessionId, redaction);

function calls(ms: Message[]): ToolCall[] {
  return ms.filter((m): m is AssistantMessage => m.kind === 'assistant').flatMap((m) => m.toolCalls);
}
function callById(ms: Message[], id: string): ToolCall | undefined {
  return calls(ms).find((c) => c.id === id);
}
function allText(x: unknown): string {
  return JSON.stringify(x);
}

describe('2.1.x session: subagents, metadata, attachments (format-2.1 fixture)', () => {
  let s: Session;
  beforeAll(async () => {
    s = await session(E.sessions.everything);
  });

  it('links a subagent through its sidecar toolUseId alone, with the sidecar agentType', () => {
    const call = callById(s.messages, E.sidecarAgent.toolUseId)!;
    expect(call.subagent?.agentId).toBe(E.sidecarAgent.agentId);
    expect(call.subagent?.linkedBy).toBe('sidecar');
    expect(call.subagent?.agentType).toBe(E.sidecarAgent.agentType);
    expect(call.subagent?.source).toBe('file');
    expect(calls(call.subagent!.messages).map((c) => c.id)).toEqual(E.sidecarAgent.calls);
  });

  it('nests an agent spawned by an agent inside the spawning call of its parent', () => {
    const parent = callById(s.messages, E.sidecarAgent.toolUseId)!.subagent!;
    const nestedCall = callById(parent.messages, E.nestedAgent.toolUseId)!;
    expect(nestedCall.subagent?.agentId).toBe(E.nestedAgent.agentId);
    expect(nestedCall.subagent?.depth).toBe(E.nestedAgent.depth);
    expect(calls(nestedCall.subagent!.messages).map((c) => c.id)).toEqual(E.nestedAgent.calls);
    expect(s.diagnostics.filter((d) => d.code === 'unmatched-subagent')).toEqual([]);
  });

  it('links a background agent by the agentId line of its result and marks it', () => {
    const call = callById(s.messages, E.backgroundAgent.toolUseId)!;
    expect(call.subagent?.agentId).toBe(E.backgroundAgent.agentId);
    expect(call.subagent?.linkedBy).toBe('result-text');
    expect(call.subagent?.background).toBe(true);
    const notes = s.messages.filter((m) => m.kind === 'user' && m.userKind === 'task-notification');
    expect(notes).toHaveLength(1);
    // A notification is not something the user typed: no turn of its own.
    expect(s.turns.some((t) => t.prompt?.userKind === 'task-notification')).toBe(false);
  });

  it('attaches the workflow run to its Workflow call and the compaction agent to its compaction', () => {
    const wf = callById(s.messages, E.workflow.toolUseId)!;
    expect(wf.workflowAgents?.map((a) => a.agentId)).toEqual([E.workflow.agentId]);
    expect(wf.workflowAgents?.[0].workflowRunId).toBe(E.workflow.runId);
    const compaction = s.messages.find((m) => m.kind === 'compaction');
    expect(compaction?.kind === 'compaction' && compaction.compactionAgent?.messages.some((m) => allText(m).includes(E.compactionSummary))).toBe(true);
    expect(s.diagnostics.filter((d) => d.code === 'missing-parent')).toEqual([]);
  });

  it('shows the whole persisted output in place of the preview, redacted', () => {
    const r = callById(s.messages, E.persisted.toolUseId)!.result!;
    expect(r.persistedOutput?.file).toBe(`${E.persisted.toolUseId}.txt`);
    const text = String(r.content);
    expect(text).toContain(E.persisted.endMarker);
    expect(text.trimEnd().split('\n')).toHaveLength(E.persisted.lines);
    expect(text).not.toContain('<persisted-output>');
    expect(text).not.toContain(E.secrets.toolResults);
    expect(text).toMatch(/\[REDACTED:github-token(#\d+)?\]/);
  });

  it('titles by the last custom-title line, over the ai-title', () => {
    expect(s.title).toBe(E.titles[E.sessions.everything]);
    expect(s.titleSource).toBe('custom-title');
  });

  it('reads PR links (last line wins, order first seen), worktree, agent name and tags', () => {
    expect(s.facts.pullRequests).toEqual(E.pullRequests);
    expect(s.facts.worktree?.branch).toBe(E.worktree.branch);
    expect(s.facts.worktree?.path?.endsWith(E.worktree.pathEnd)).toBe(true);
    // Worktree paths name the user's home: redacted like every other string.
    expect(s.facts.worktree?.path).not.toContain(E.username);
    expect(s.facts.agentName).toBe(E.agentName);
    expect(s.facts.tags).toEqual(E.tags);
  });

  it('shows attachments where they happened, hides reminders and listings, and counts what it hides', () => {
    const kinds = s.messages.filter((m) => m.kind === 'attachment').map((m) => (m.kind === 'attachment' ? m.attachmentType : ''));
    for (const k of ['nested_memory', 'hook_non_blocking_error', 'hook_success', 'edited_text_file', 'file']) expect(kinds).toContain(k);
    for (const k of ['task_reminder', 'skill_listing', 'budget_usd', 'holo_badge']) expect(kinds).not.toContain(k);
    expect(s.hiddenCounts['hook results']).toBe(1);
    expect(s.hiddenCounts.reminders).toBeGreaterThanOrEqual(1);
    expect(s.hiddenCounts.listings).toBeGreaterThanOrEqual(1);
    expect(s.hiddenCounts['budget notes']).toBe(1);
    expect(Object.keys(s.hiddenCounts).some((k) => k.includes('holo_badge'))).toBe(true);
    const queued = s.messages.filter((m) => m.kind === 'user' && m.userKind === 'queued-prompt');
    expect(queued).toHaveLength(1);
  });

  it('puts mode, permission-mode and plan-mode changes in the transcript as markers', () => {
    const markers = s.messages.filter((m) => m.kind === 'marker').map((m) => (m.kind === 'marker' ? `${m.markerType}:${m.value}` : ''));
    expect(markers).toEqual(['mode:plan', 'permission-mode:acceptEdits', 'plan-mode:entered', 'plan-mode:exited']);
  });

  it('keeps the 2.1.x system subtypes as messages and the turn duration on its turn', () => {
    const subtypes = new Set(s.messages.filter((m) => m.kind === 'system').map((m) => (m.kind === 'system' ? m.subtype : '')));
    for (const st of ['session_start', 'api_error', 'api_refusal', 'away_summary', 'informational', 'memory_saved', 'stop_hook_summary']) expect(subtypes.has(st), st).toBe(true);
    expect(subtypes.has('turn_duration')).toBe(false);
    expect(s.turns.find((t) => t.index === 1)?.durationMs).toBe(E.turnDurationMs);
    const retracted = s.messages.find((m) => m.kind === 'assistant' && m.uuid === E.retracted);
    expect(retracted?.kind === 'assistant' && retracted.retractedBy).toBeTruthy();
  });

  it('reports an unknown entry type with a message on every line (the page lists all), and nothing for the known 2.1.x records', () => {
    const unknown = s.diagnostics.filter((d) => d.code === 'unknown-type');
    expect(unknown).toHaveLength(E.unknownTypeLines);
    for (const d of unknown) expect(d.entryType).toBe(E.unknownConversation.type);
    expect(s.diagnostics.filter((d) => d.code !== 'unknown-type')).toEqual([]);
  });

  it('counts lines of unknown types without a message (inert metadata) by type, agent files included, and reports none of them', () => {
    expect({ ...s.unknownMetadata }).toEqual(E.unknownMetadata);
    for (const type of Object.keys(E.unknownMetadata)) expect(allText(s.diagnostics), type).not.toContain(type);
  });

  it('counts the new usage fields per model, and the subagents models too', () => {
    const opus = s.facts.usage.find((u) => u.model.includes('opus-4-5'))!;
    expect(opus.cacheCreation1hTokens).toBe(1500);
    expect(opus.thinkingTokens).toBe(20);
    const sonnet = s.facts.usage.find((u) => u.model === 'claude-sonnet-5')!;
    expect(sonnet.fastMessages).toBe(1);
    expect(s.facts.usage.some((u) => u.model.includes('haiku'))).toBe(true);
  });

  it('redacts every new place: sidecar descriptions, hook output, attachment content', () => {
    const everything = allText(s);
    for (const secret of Object.values(E.secrets) as string[]) expect(everything).not.toContain(secret);
    expect(everything).not.toContain(`/home/${E.username}`);
    const sub = callById(s.messages, E.sidecarAgent.toolUseId)!.subagent as Subagent;
    expect(sub.description).toMatch(/\[REDACTED:github-token(#\d+)?\]/);
  });
});

describe('subagent rebuilt from agent_progress entries (format-2.1 fixture)', () => {
  let s: Session;
  beforeAll(async () => {
    s = await session(E.sessions.progress);
  });

  it('rebuilds the subagent of a call that has no agent file, with every tool call once', () => {
    const call = callById(s.messages, E.progressAgent.toolUseId)!;
    expect(call.subagent?.source).toBe('progress');
    expect(call.subagent?.agentId).toBe(E.progressAgent.agentId);
    expect(calls(call.subagent!.messages).map((c) => c.id)).toEqual(E.progressAgent.calls);
    for (const c of calls(call.subagent!.messages)) expect(c.result, c.id).toBeDefined();
    // The only problem of this file is its line of an unknown type with a message.
    expect(s.diagnostics.map((d) => d.code)).toEqual(['unknown-type']);
  });

  it('shows an agent that has a file and progress entries once, from its file', () => {
    const call = callById(s.messages, E.progressWithFile.toolUseId)!;
    expect(call.subagent?.source).toBe('file');
    expect(call.subagent?.agentId).toBe(E.progressWithFile.agentId);
  });
});

describe('titles and unreadable files (format-2.1 fixture)', () => {
  it('titles a session driven by a slash command by that command', async () => {
    const s = await session(E.sessions.command);
    expect(s.title).toBe(E.titles[E.sessions.command]);
  });

  it('titles by the words of a teammate message, never its tags', () => {
    const words = 'Please review the ports change';
    expect(promptTitleText(`<teammate-message teammate_id="lead" color="blue">${words}</teammate-message>`)).toBe(words);
    expect(promptTitleText(`<system-reminder kind="x">noise</system-reminder>${words}`)).toBe(words);
  });

  it('gives a file of random bytes exactly one diagnostic', async () => {
    const o = await open(E.sessions.randomBytes);
    expect(o.result.ok).toBe(false);
    if (o.result.ok) return;
    expect(o.result.diagnostics).toHaveLength(1);
    expect(o.result.diagnostics[0].code).toBe('not-jsonl');
  });
});
