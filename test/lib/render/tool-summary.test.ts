/**
 * summarizeToolCall and toolTally on real corpus calls: the one line a tool
 * call collapses to (tool, key argument, outcome), read from the call itself.
 */
import { describe, expect, it } from 'vitest';
import { rendererFor } from '../../../src/lib/render/render-tool.js';
import { countOf } from '../../../src/lib/format.js';
import { hasSummarizer, summarizeToolCall, toolTally } from '../../../src/lib/render/tool-summary.js';
import { renderGeneric, renderMcp } from '../../../src/lib/render/tools/generic.js';
import { callsOf, corpusCalls, firstCall, tur } from '../../helpers/corpus-calls.js';
import { toolCall } from './make.js';

const lines = (s: string) => (s.endsWith('\n') ? s.slice(0, -1) : s).split('\n').length;

describe('summarizeToolCall', () => {
  it('gives every tool with its own renderer its own summary', () => {
    for (const name of corpusCalls().keys()) {
      const r = rendererFor(name);
      if (r === renderGeneric || r === renderMcp) continue;
      expect(hasSummarizer(name), name).toBe(true);
    }
  });

  it('never throws and always names the tool on every corpus call; targets and outcomes are one line', () => {
    let n = 0;
    for (const calls of corpusCalls().values()) {
      for (const call of calls) {
        const s = summarizeToolCall(call);
        expect(s.tool, call.id).toBeTruthy();
        expect(s.target ?? '', call.id).not.toContain('\n');
        expect(s.outcome ?? '', call.id).not.toContain('\n');
        expect((s.target ?? '').length).toBeLessThanOrEqual(160);
        n++;
      }
    }
    expect(n).toBeGreaterThan(500);
  });

  it('Read: the path and how many lines were read', () => {
    const call = firstCall('Read', (c) => !!c.result && !c.result.isError && typeof tur(c)?.file?.content === 'string' && tur(c).file.content.includes('\n'));
    const s = summarizeToolCall(call);
    expect(s.tool).toBe('Read');
    expect(s.target).toBe(call.input.file_path);
    expect(s.outcome).toBe(countOf(tur(call).file.numLines ?? lines(tur(call).file.content), 'line'));
    expect(s.isError).toBe(false);
  });

  it('Bash: the command, and the exit code of a failed command', () => {
    const failed = firstCall('Bash', (c) => !!c.result?.isError && /exit code (\d+)/i.test(JSON.stringify(c.result.content)));
    const code = /exit code (\d+)/i.exec(JSON.stringify(failed.result!.content))![1];
    const s = summarizeToolCall(failed);
    expect(s.outcome).toBe(`exit ${code}`);
    expect(s.isError).toBe(true);
    expect((failed.input.command as string).replace(/\s+/g, ' ')).toContain(s.target!.replace(/ …$|…$/, ''));
  });

  it('Bash: the number of output lines of a command that printed', () => {
    const call = firstCall('Bash', (c) => !!c.result && !c.result.isError && typeof tur(c)?.stdout === 'string' && tur(c).stdout.trim().includes('\n') && !tur(c).stderr);
    expect(summarizeToolCall(call).outcome).toBe(countOf(lines(tur(call).stdout.replace(/\n+$/, '')), 'line'));
  });

  it('Edit: the file and the lines added and removed', () => {
    const call = firstCall('Edit', (c) => !!c.result && !c.result.isError && Array.isArray(tur(c)?.structuredPatch) && tur(c).structuredPatch.length > 0);
    let add = 0;
    let del = 0;
    for (const h of tur(call).structuredPatch) for (const l of h.lines as string[]) l[0] === '+' ? add++ : l[0] === '-' ? del++ : 0;
    const s = summarizeToolCall(call);
    expect(s.target).toBe(call.input.file_path);
    expect(s.outcome).toBe(`+${add} −${del}`);
  });

  it('Glob and Grep: how many files matched, plural right', () => {
    const call = firstCall('Grep', (c) => !!c.result && typeof tur(c)?.numFiles === 'number' && tur(c).numFiles > 1);
    expect(summarizeToolCall(call).outcome).toBe(`${tur(call).numFiles} files`);
    expect(summarizeToolCall(call).target).toContain(call.input.pattern);
    const one = callsOf('Grep', (c) => tur(c)?.numFiles === 1)[0] ?? callsOf('Glob', (c) => tur(c)?.numFiles === 1)[0];
    if (one) expect(summarizeToolCall(one).outcome).toBe('1 file');
    const none = firstCall('Glob', (c) => tur(c)?.numFiles === 0);
    expect(summarizeToolCall(none).outcome).toBe('no matches');
  });

  it('Task: the agent type and description, and its tool calls', () => {
    const call = firstCall('Task', (c) => !!c.result && !c.result.isError && typeof c.input.subagent_type === 'string' && typeof tur(c)?.totalToolUseCount === 'number');
    const s = summarizeToolCall(call);
    expect(s.target).toContain(call.input.subagent_type);
    expect(s.target).toContain(call.input.description);
    expect(s.outcome).toContain(countOf(tur(call).totalToolUseCount, 'tool call'));
  });

  it('an error result: "error:" and its first line, without the wrapper tags', () => {
    const call = firstCall('Edit', (c) => !!c.result?.isError);
    const s = summarizeToolCall(call);
    expect(s.isError).toBe(true);
    expect(s.outcome).toMatch(/^error: /);
    expect(s.outcome).not.toMatch(/tool_use_error|Error: Error/);
  });

  it('a call without a result says so', () => {
    const call = callsOf('Task', (c) => !c.result)[0] ?? toolCall('Read', { file_path: '/tmp/x' });
    expect(summarizeToolCall({ ...call, result: undefined }).outcome).toBe('no result');
  });

  it('MCP tools are named by their server, with the tool in the target', () => {
    const name = [...corpusCalls().keys()].find((k) => k.startsWith('mcp__chrome-devtools__'))!;
    const s = summarizeToolCall(firstCall(name));
    expect(s.tool).toBe('chrome-devtools');
    expect(s.target).toContain(name.split('__')[2]);
  });

  it('an unknown tool falls back to its first string argument and output lines', () => {
    const call = toolCall('FrobnicateThing', { widget: 'blue one' }, { content: 'a\nb\nc' });
    const s = summarizeToolCall(call);
    expect(s).toMatchObject({ tool: 'FrobnicateThing', target: 'blue one', outcome: '3 lines', isError: false });
  });

  it('odd input never throws', () => {
    const odd = { id: 'x', name: 'Edit', input: null as unknown as Record<string, unknown>, entryUuid: 'u' };
    expect(summarizeToolCall(odd).tool).toBe('Edit');
    expect(summarizeToolCall({ ...odd, name: 'Bash', input: { command: 42 } as Record<string, unknown> }).tool).toBe('Bash');
  });
});

describe('toolTally', () => {
  it('counts by display name, most used first, adding up to the calls given', () => {
    const calls = [...callsOf('Glob').slice(0, 2), ...callsOf('Task').slice(0, 3), ...callsOf('TodoWrite').slice(0, 1), ...callsOf('Agent').slice(0, 1)];
    const tally = toolTally(calls);
    expect(tally[0]).toEqual({ tool: 'Task', count: 4 });
    expect(tally).toContainEqual({ tool: 'Glob', count: 2 });
    expect(tally).toContainEqual({ tool: 'Todo', count: 1 });
    expect(tally.reduce((a, t) => a + t.count, 0)).toBe(calls.length);
  });

  it('is empty for no calls', () => {
    expect(toolTally([])).toEqual([]);
  });
});
