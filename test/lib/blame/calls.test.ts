import { describe, expect, it } from 'vitest';
import { fileOpsOf, repoPathOf, sessionEvents } from '../../../src/lib/blame/calls.js';
import type { AssistantMessage, Session, Subagent, ToolCall, UserMessage } from '../../../src/lib/transcript/types.js';

const edit = (id: string, path: string, time: string, extra: Partial<ToolCall> = {}): ToolCall => ({
  id,
  name: 'Edit',
  input: { file_path: path, old_string: 'a', new_string: 'b' },
  entryUuid: `e-${id}`,
  result: { uuid: `r-${id}`, timestamp: time, content: 'ok', isError: false, toolUseResult: { structuredPatch: [{ lines: [' a', '-a', '+b'] }] } },
  ...extra,
});
const reply = (calls: ToolCall[], time: string, model = 'claude-opus-4-5'): AssistantMessage => ({ kind: 'assistant', assistantKind: 'normal', uuid: `m-${calls[0]?.id}`, uuids: [], model, timestamp: time, blocks: [], toolCalls: calls, line: 1 });
const agent = (calls: ToolCall[], time: string, extra: Partial<Subagent>): Subagent => ({ prompt: 'go', messages: [reply(calls, time, 'claude-haiku-4-5')], turns: [], stats: { toolUseCount: calls.length }, ...extra });
const prompt = (text: string): UserMessage => ({ kind: 'user', userKind: 'prompt', uuid: `p-${text}`, text, blocks: [], line: 1, raw: { cwd: '/Users/ada/src/shop' } });

describe('the calls of a session', () => {
  it('walks the session, its workflow agents and teammates in time order, each with its prompt, model and kind of agent', () => {
    const workflow: ToolCall = { id: 'wf', name: 'Workflow', input: {}, entryUuid: 'x', result: { uuid: 'y', timestamp: '2026-01-10T10:09:00Z', content: 'ok', isError: false }, workflowAgents: [agent([edit('w1', '/Users/ada/src/shop/a.ts', '2026-01-10T10:05:00Z')], '2026-01-10T10:05:00Z', { workflowRunId: 'run1', agentType: 'reviewer' })] };
    const team: ToolCall = { id: 'tm', name: 'Agent', input: {}, entryUuid: 'x', result: { uuid: 'y', timestamp: '2026-01-10T10:01:00Z', content: 'ok', isError: false }, subagent: agent([edit('t1', '/Users/ada/src/shop/b.ts', '2026-01-10T10:07:00Z')], '2026-01-10T10:07:00Z', { role: 'teammate', name: 'docs' }) };
    const failed = edit('bad', '/Users/ada/src/shop/a.ts', '2026-01-10T10:02:00Z');
    failed.result!.isError = true;
    const session = {
      sessionId: 's',
      facts: { projectPath: '/Users/ada/src/shop' },
      messages: [],
      turns: [
        { index: 1, prompt: prompt('First'), messages: [prompt('First'), reply([edit('m1', '/Users/ada/src/shop/a.ts', '2026-01-10T10:08:00Z'), failed, team], '2026-01-10T10:00:00Z')] },
        { index: 2, prompt: prompt('Second'), messages: [prompt('Second'), reply([workflow], '2026-01-10T10:04:00Z')] },
      ],
    } as unknown as Session;
    const events = sessionEvents(session, 1);
    expect(events.map((e) => [e.call.id, e.call.prompt?.index, e.call.agent.kind, e.call.agent.name, e.call.model, e.call.page])).toEqual([
      ['w1', 2, 'workflow', 'reviewer', 'claude-haiku-4-5', 2],
      ['t1', 1, 'teammate', 'docs', 'claude-haiku-4-5', 1],
      ['m1', 1, 'main', undefined, 'claude-opus-4-5', 1],
    ]);
  });

  it('reads Write, MultiEdit, NotebookEdit and whole-file Reads, and nothing from a failed call', () => {
    const ok = { uuid: 'r', content: 'ok', isError: false };
    expect(fileOpsOf({ id: '1', name: 'Write', input: { file_path: '/r/a', content: 'x\n' }, entryUuid: 'e', result: ok })).toEqual([{ op: 'write', path: '/r/a', content: 'x\n' }]);
    expect(fileOpsOf({ id: '2', name: 'MultiEdit', input: { file_path: '/r/a', edits: [{ old_string: 'a', new_string: 'b', replace_all: true }] }, entryUuid: 'e', result: { ...ok, toolUseResult: { originalFileContents: 'a a' } } })).toEqual([{ op: 'edit', path: '/r/a', edits: [{ oldString: 'a', newString: 'b', replaceAll: true }], original: 'a a' }]);
    expect(fileOpsOf({ id: '3', name: 'NotebookEdit', input: { notebook_path: '/r/n.ipynb', new_source: 'x = 1', edit_mode: 'delete' }, entryUuid: 'e', result: ok })).toEqual([]);
    expect(fileOpsOf({ id: '4', name: 'Read', input: { file_path: '/r/a', offset: 10 }, entryUuid: 'e', result: { ...ok, toolUseResult: { file: { content: 'x' } } } })).toEqual([]);
    expect(fileOpsOf({ id: '5', name: 'Read', input: { file_path: '/r/a' }, entryUuid: 'e', result: { ...ok, toolUseResult: { file: { content: 'x', startLine: 1, numLines: 1, totalLines: 1 } } } })).toEqual([{ op: 'observe', path: '/r/a', content: 'x' }]);
    expect(fileOpsOf({ id: '6', name: 'Write', input: { file_path: '/r/a', content: 'x' }, entryUuid: 'e', result: { ...ok, isError: true } })).toEqual([]);
  });
});

describe('repoPathOf', () => {
  const changed = new Set(['src/a.ts', 'pkg/src/b.ts', 'README.md']);
  it('takes a path relative to the session root, the git root above it, or a worktree', () => {
    expect(repoPathOf('/Users/ada/shop/src/a.ts', ['/Users/ada/shop'], changed)).toBe('src/a.ts');
    expect(repoPathOf('/Users/ada/shop/pkg/src/b.ts', ['/Users/ada/shop/pkg'], changed)).toBe('pkg/src/b.ts');
    expect(repoPathOf('~/wt/feature/README.md', ['~/shop', '~/wt/feature'], changed)).toBe('README.md');
    expect(repoPathOf('src/a.ts', ['/x'], changed)).toBe('src/a.ts');
  });
  it('leaves a file of another folder, and a file the pull request does not change', () => {
    expect(repoPathOf('/Users/ada/other/src/a.ts', ['/Users/ada/shop'], changed)).toBeUndefined();
    expect(repoPathOf('/Users/ada/shop/src/c.ts', ['/Users/ada/shop'], changed)).toBeUndefined();
    expect(repoPathOf('/src/a.ts', ['/Users/ada/shop'], changed)).toBeUndefined();
  });
});
