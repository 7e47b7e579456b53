import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturesDir, corpusRoot, loadExpect, repoRoot } from '../../helpers/shared.js';
import { loadSessions } from '../../helpers/render.js';
import { buildSession, chooseTitle, promptTitleText, shortenTitle } from '../../../src/lib/transcript/build-session.js';
import { loadSessionFile, orderOf, visibleText } from '../../helpers/sessions.js';
import type { AssistantMessage, Message, ToolCall } from '../../../src/lib/transcript/types.js';

const E = loadExpect();
const rel = (file: string) => file.replace(/^projects\//, '');
const fixtures = `${fixturesDir}/projects`;

function assistants(ms: Message[]): AssistantMessage[] {
  return ms.filter((m): m is AssistantMessage => m.kind === 'assistant');
}
function calls(ms: Message[]): ToolCall[] {
  return assistants(ms).flatMap((m) => m.toolCalls);
}

describe('branches, streaming and compaction (fixture)', async () => {
  const bs = E.branches_streaming;
  const s = await loadSessionFile(fixtures, rel(bs.file));
  const active = visibleText(s.messages);

  it('holds every active marker exactly once, in reading order', () => {
    for (const m of bs.active_markers) expect(active.split(m).length - 1, m).toBe(1);
    expect(orderOf(active, bs.active_markers)).toEqual(bs.active_markers);
    for (const m of bs.active_thinking_markers) expect(active.split(m).length - 1).toBeLessThanOrEqual(1);
  });

  it('keeps abandoned branches out of the active transcript but in the model', () => {
    for (const m of bs.abandoned_markers) expect(active).not.toContain(m);
    const abandoned = visibleText(s.abandoned.flatMap((b) => b.messages));
    for (const m of bs.abandoned_markers) expect(abandoned).toContain(m);
    expect(s.abandoned.map((b) => b.firstUuid).sort()).toEqual(bs.abandoned_branches.map((b: { first_uuid: string }) => b.first_uuid).sort());
    for (const b of s.abandoned) expect(b.forkParentUuid).toBe(bs.fork_parent_uuid);
  });

  it('lists prompts and tool calls in the expected order, parallel calls included', () => {
    const prompts = s.turns.filter((t) => t.prompt).map((t) => t.prompt!.text);
    expect(orderOf(prompts.join('\n'), bs.active_prompt_markers)).toEqual(bs.active_prompt_markers);
    expect(prompts).toHaveLength(bs.active_prompt_markers.length);
    expect(calls(s.messages).map((c) => c.id)).toEqual(bs.active_tool_use_ids);
    for (const id of bs.parallel_tool_use_ids) expect(calls(s.messages).find((c) => c.id === id)?.result).toBeDefined();
  });

  it('merges split and cumulative streaming into one message each, every block once', () => {
    for (const id of [...bs.streaming.split_message_ids, ...bs.streaming.cumulative_message_ids]) {
      const ms = assistants(s.messages).filter((m) => m.messageId === id);
      expect(ms, id).toHaveLength(1);
      const keys = ms[0].blocks.map((b) => JSON.stringify(b));
      expect(new Set(keys).size).toBe(keys.length);
      expect(ms[0].uuids.length).toBeGreaterThan(1);
    }
  });

  it('continues across the compaction boundary and shows its summary', () => {
    const c = s.messages.find((m) => m.kind === 'compaction');
    expect(c?.uuid).toBe(bs.compaction.boundary_uuid);
    expect(c && c.kind === 'compaction' && c.summary).toContain(bs.compaction.summary_marker);
    expect(s.messages.indexOf(c!)).toBeGreaterThan(0);
  });

  it('takes the title from the summary of this session, never a foreign one', () => {
    expect(s.title).toContain(bs.title_marker);
    expect(s.title).not.toContain(bs.foreign_summary_marker);
    expect(s.titleSource).toBe('summary');
  });
});

describe('malformed input (fixture)', async () => {
  const m = E.malformed;
  const s = await loadSessionFile(fixtures, rel(m.file));
  const text = visibleText(s.messages);

  it('keeps every good marker in reading order', () => {
    for (const k of m.markers_must_appear) expect(text, k).toContain(k);
    expect(orderOf(text, m.markers_must_appear)).toEqual(m.markers_must_appear);
  });

  it('reports each structural problem at its line', () => {
    const kinds: Record<string, string> = {
      duplicate_uuid: 'duplicate-uuid',
      unknown_type: 'unknown-type',
      tool_use_without_result: 'tool-use-without-result',
      parent_cycle: 'parent-cycle',
      missing_uuid: 'missing-uuid',
      tool_result_without_tool_use: 'tool-result-without-tool-use',
      missing_parent: 'missing-parent',
    };
    for (const p of m.structural_problems) {
      const lines: number[] = p.lines ?? [p.line];
      const found = s.diagnostics.filter((d) => d.code === kinds[p.kind]);
      expect(found.length, p.kind).toBeGreaterThan(0);
      expect(found.some((d) => lines.includes(d.line)), `${p.kind} at ${lines}`).toBe(true);
    }
  });

  it('pairs answered calls, keeps unanswered ones and orphan results', () => {
    const byId = new Map(calls(s.messages).map((c) => [c.id, c]));
    for (const id of m.tool_use_ids.answered) expect(byId.get(id)?.result).toBeDefined();
    for (const id of m.tool_use_ids.unanswered) {
      expect(byId.get(id)).toBeDefined();
      expect(byId.get(id)?.result).toBeUndefined();
      expect(s.unpairedToolUses).toContain(id);
    }
    expect(s.orphanToolResults).toEqual(m.tool_use_ids.orphan_results);
  });
});

describe('subagents (fixture)', async () => {
  for (const sess of E.subagents.sessions) {
    it(`attaches the agents of ${sess.layout} to their Task calls`, async () => {
      const s = await loadSessionFile(fixtures, rel(sess.file));
      const byId = new Map(calls(s.messages).map((c) => [c.id, c]));
      for (const a of sess.agents) {
        const call = byId.get(a.tool_use_id)!;
        expect(call.subagent, a.agent_id).toBeDefined();
        const inner = visibleText(call.subagent!.messages);
        for (const k of a.inner_markers) expect(inner).toContain(k);
        expect(JSON.stringify(call.input)).toContain(a.prompt_marker);
      }
      const all = visibleText(s.messages);
      for (const w of E.subagents.warmup_markers) expect(all).not.toContain(w);
    });
  }
});

describe('the large session (fixture)', async () => {
  const b = E.big;
  const s = await loadSessionFile(fixtures, rel(b.file));
  it('counts prompts, merged messages and tool calls by name as EXPECT.json says', () => {
    expect(s.facts.promptCount).toBe(b.human_prompts);
    expect(s.turns.filter((t) => t.prompt)).toHaveLength(b.turns);
    expect(assistants(s.messages)).toHaveLength(b.assistant_messages);
    expect(s.facts.toolCallCount).toBe(b.tool_calls);
    expect(s.facts.toolCounts).toEqual(b.tool_calls_by_name);
    expect(s.turns.find((t) => t.prompt)!.prompt!.text).toContain(b.first_prompt_marker);
    expect(s.turns[s.turns.length - 1].prompt!.text).toContain(b.last_prompt_marker);
  });
});

describe('real corpus files', () => {
  it('keeps every tool call of parallel forks (general-tool-calls lines 8–20)', async () => {
    const s = await loadSessionFile(corpusRoot, '-samples-session-share/general-tool-calls.jsonl');
    const all = calls(s.messages);
    expect(all.length).toBe(s.facts.toolCallCount);
    // Every tool call answered in the file is in the active transcript with its result.
    const raw = readFileSync(`${corpusRoot}/-samples-session-share/general-tool-calls.jsonl`, 'utf8');
    const answered = new Set([...raw.matchAll(/"tool_use_id":"(toolu_[A-Za-z0-9]+)"/g)].map((m) => m[1]));
    expect(all.filter((c) => c.result).map((c) => c.id).sort()).toEqual([...answered].sort());
    expect(s.abandoned).toHaveLength(0);
    // The first message streams over several entries that hold one tool_use each.
    const first = assistants(s.messages)[0];
    expect(first.toolCalls.length).toBeGreaterThan(1);
  });

  it('keeps a trailing !bash aside that hangs off the first entry, and the main chain', async () => {
    const s = await loadSessionFile(corpusRoot, '-Users-dain-workspace-claude-code-log-sample/71c9afe9-d9cc-4583-86b3-e62ba682b83a.jsonl');
    const kinds = s.messages.map((m) => (m.kind === 'user' ? m.userKind : m.kind));
    expect(kinds).toContain('bash-input');
    expect(kinds).toContain('bash-output');
    expect(assistants(s.messages).length).toBeGreaterThanOrEqual(3);
    expect(kinds.indexOf('bash-input')).toBeGreaterThan(kinds.lastIndexOf('assistant'));
  });

  it('treats a 1.0.x continuation summary with no logical parent as compaction, not a new session', async () => {
    const s = await loadSessionFile(corpusRoot, '-fixtures-agentlogs/compact.jsonl');
    expect(s.messages.some((m) => m.kind === 'compaction')).toBe(true);
    expect(s.facts.promptCount).toBeGreaterThanOrEqual(1);
  });

  it('classifies commands, their output, meta caveats and interruptions', async () => {
    const s = await loadSessionFile(corpusRoot, '-fixtures-status-line/forked_session.jsonl');
    const users = s.messages.filter((m) => m.kind === 'user');
    const cmd = users.find((m) => m.kind === 'user' && m.userKind === 'command');
    expect(cmd && cmd.kind === 'user' && cmd.command?.name).toBe('/exit');
    expect(cmd && cmd.kind === 'user' && cmd.command?.output).toContain('Catch you later');
    expect(users.some((m) => m.kind === 'user' && m.userKind === 'meta')).toBe(true);
    const i = await loadSessionFile(corpusRoot, '-fixtures-happy-cli/permission-prompt-aborted-with-interrupt.jsonl');
    expect(i.messages.some((m) => m.kind === 'user' && m.userKind === 'interruption')).toBe(true);
  });

  it('merges a duplicated assistant response that restarts at a new root', async () => {
    const s = await loadSessionFile(corpusRoot, '-fixtures-happy-cli/duplicate-assistant-response.jsonl');
    const ids = assistants(s.messages).map((m) => m.messageId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('marks API errors and synthetic messages', async () => {
    const texts: string[] = [];
    for (const f of ['-samples-session-share/0ccf1a04-1b4c-43b6-8aa5-79e41db43a68.jsonl']) {
      const s = await loadSessionFile(corpusRoot, f);
      for (const m of s.messages) if (m.kind === 'system') texts.push(m.subtype);
    }
    expect(texts).toContain('api_error');
  });

  it('attaches 2.1.x subagents from <session>/subagents/ and 2.0.x agent files beside the session', async () => {
    const a = await loadSessionFile(corpusRoot, '-src-experiments-claude_p/29ccd257-68b1-427f-ae5f-6524b7cb6f20.jsonl');
    expect(calls(a.messages).filter((c) => c.subagent).length).toBeGreaterThan(0);
    const b = await loadSessionFile(corpusRoot, '-src-deep-manifest/a7da6a22-facc-4fcd-8bab-f83c87862004.jsonl');
    const sub = calls(b.messages).find((c) => c.subagent)?.subagent;
    expect(sub?.file).toMatch(/agent-[0-9a-f]+\.jsonl$/);
    expect(sub!.messages.length).toBeGreaterThan(0);
  });

  it('does not count a streamed message twice in token usage', async () => {
    const s = await loadSessionFile(corpusRoot, '-samples-session-share/general-tool-calls.jsonl');
    const total = s.facts.usage.reduce((n, u) => n + u.messages, 0);
    expect(total).toBe(assistants(s.messages).filter((m) => m.assistantKind === 'normal').length);
  });
});

describe('titles read as plain text', () => {
  /** A session of one prompt and one reply, in the documented line shapes, plus any metadata lines. */
  function sessionOf(prompt: string, extra: Array<Record<string, unknown>> = []) {
    const sessionId = '0f9d6c3e-7a51-4c1e-9b7d-2f4a8e6c1d05';
    const lines: Array<Record<string, unknown>> = [
      { type: 'user', uuid: 'u1', parentUuid: null, sessionId, timestamp: '2026-03-02T10:00:00.000Z', cwd: '/home/ada/ledger', message: { role: 'user', content: prompt } },
      { type: 'assistant', uuid: 'a1', parentUuid: 'u1', sessionId, timestamp: '2026-03-02T10:00:05.000Z', message: { id: 'msg_1', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'Done.' }] } },
      ...extra.map((e) => ({ sessionId, ...e })),
    ];
    const r = buildSession({ sessionId, file: 'p/s.jsonl', projectFolder: 'p', records: lines.map((value, i) => ({ line: i + 1, value })), agents: [] });
    if (!r.ok) throw new Error(r.reason);
    return r.session;
  }

  it('takes markdown off a title made from the first prompt, keeping every word', () => {
    const cases: Array<[string, string]> = [
      ['Check the **quarterly** ledger', 'Check the quarterly ledger'],
      ['# Reconcile March\n\nThe totals in `ledger.csv` are off by one cent', 'Reconcile March The totals in ledger.csv are off by one cent'],
      ['Read [the spec](https://example.com/spec_(v2)) and ![diagram](d.png) first', 'Read the spec and diagram first'],
      ['- fix the `settle` command\n- add a `--json` flag', 'fix the settle command add a --json flag'],
      ['> The build fails with `exit 1`\n\nwhy?', 'The build fails with exit 1 why?'],
      ['<b>Urgent</b>: why does <code>a*b</code> overflow?', 'Urgent: why does a*b overflow?'],
      ['Why is 2 * 3 != 2**3 in src/__init__.py for snake_case_names in C#?', 'Why is 2 * 3 != 2**3 in src/__init__.py for snake_case_names in C#?'],
    ];
    for (const [prompt, title] of cases) {
      const s = sessionOf(prompt);
      expect(s.titleSource, prompt).toBe('first-prompt');
      expect(s.title, prompt).toBe(title);
      expect(shortenTitle(promptTitleText(prompt))).toBe(title);
    }
  });

  it('drops generated wrappers, keeps a teammate’s words, and shortens after cleaning', () => {
    expect(promptTitleText('<ide_opened_file>The user opened ledger.ts</ide_opened_file> Fix the **rounding**')).toBe('Fix the rounding');
    expect(promptTitleText('<teammate-message teammate_id="lead">Review **PR 42**</teammate-message>')).toBe('Review PR 42');
    // `**` counts nothing towards the length: the cut falls on words.
    const long = `**${'word '.repeat(30).trim()}**`;
    expect(shortenTitle(promptTitleText(long))).toBe(shortenTitle('word '.repeat(30)));
  });

  it('cleans custom and AI titles too', () => {
    const custom = sessionOf('hello', [{ type: 'custom-title', customTitle: 'Fix `parseLedger` **rounding**' }]);
    expect([custom.titleSource, custom.title]).toEqual(['custom-title', 'Fix parseLedger rounding']);
    const ai = sessionOf('hello', [{ type: 'ai-title', aiTitle: '## Debug [flaky test](https://ci.example.com/1)' }]);
    expect([ai.titleSource, ai.title]).toEqual(['ai-title', 'Debug flaky test']);
    expect(chooseTitle([], [], 'abcdef0123', { customTitle: '**' }).title).toBe('**');
  });

  it('no title or table-of-contents line of the corpus, the fixtures or the samples keeps `**`, a leading `#` or `](`', async () => {
    let lines = 0;
    for (const root of [corpusRoot, fixtures, join(repoRoot, 'content', 'sessions')]) {
      for (const s of await loadSessions(root)) {
        const toc = s.turns.filter((t) => t.prompt).map((t) => shortenTitle(promptTitleText(t.prompt!.text)));
        for (const line of [s.title, ...toc]) {
          lines++;
          expect(line, s.file).not.toMatch(/\*\*|^#|\]\(/);
        }
      }
    }
    expect(lines).toBeGreaterThan(500);
  }, 120_000);
});
