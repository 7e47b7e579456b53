/**
 * Each tool renderer on real calls from the corpus (paired with their real
 * results), plus the behaviours every tool shares: errors, images, collapsing,
 * never throwing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureLanguages } from '../../../src/lib/render/highlight.js';
import { prepareMessages, renderMessage, type RenderContext } from '../../../src/lib/render/render-message.js';
import { rendererFor, renderToolCall } from '../../../src/lib/render/render-tool.js';
import { parseNumberedLines } from '../../../src/lib/render/tools/files.js';
import type { ToolCall } from '../../../src/lib/transcript/types.js';
import { callsOf, firstCall, tur } from '../../helpers/corpus-calls.js';
import { parse } from './dom.js';
import { corpusRoot, loadSessions, testContext, type Assets } from '../../helpers/render.js';
import { toolCall, withCall } from './make.js';

let ctx: RenderContext;
let assets: Assets;
beforeAll(async () => {
  ({ ctx, assets } = await testContext({ indexToolOutput: true }));
  await ensureLanguages(['python', 'markdown', 'html', 'typescript', 'astro']);
});

/** Renders a call and returns its `<section>`; fails when the contract attributes are missing. */
function render(call: ToolCall): Element {
  const doc = parse(renderToolCall(call, ctx));
  const el = doc.querySelector(`[data-tool-use-id="${call.id}"]`);
  expect(el, `${call.name} ${call.id} frame`).not.toBeNull();
  expect(el?.getAttribute('data-tool')).toBe(call.name);
  return el as Element;
}

const text = (el: Element | null | undefined) => (el?.textContent ?? '').replace(/\s+/g, ' ');
const squash = (s: string) => s.replace(/\s+/g, ' ');

describe('Bash', () => {
  it('shows the command, description and stdout of a real call', () => {
    const call = firstCall('Bash', (c) => !!c.result && !c.result.isError && typeof tur(c)?.stdout === 'string' && tur(c).stdout.length > 20);
    const el = render(call);
    expect(el.querySelector('.tool-input pre[data-lang="shellscript"]')).not.toBeNull();
    expect(text(el.querySelector('.tool-input'))).toContain(squash(call.input.command as string).slice(0, 30));
    expect(text(el.querySelector('.tool-summary'))).toBe(squash(call.input.description as string));
    const firstLine = (tur(call).stdout as string).split('\n').find((l) => l.trim())!.trim();
    expect(text(el.querySelector('.tool-output'))).toContain(squash(firstLine).slice(0, 40));
  });

  it('renders ANSI colours of real output as classes, with no escape codes left', () => {
    const withEscapes = callsOf('Bash', (c) => !!c.result && JSON.stringify(c.result.content).includes('\\u001b['));
    expect(withEscapes.length).toBeGreaterThan(1);
    for (const call of withEscapes) {
      const el = render(call);
      expect(el.innerHTML, call.id).not.toMatch(/\u001b|\[\?25l|\[2K/);
    }
    const coloured = withEscapes.find((c) => /\u001b\[[0-9;]*m/.test(JSON.stringify(c.result!.content).replace(/\\u001b/g, '\u001b')))!;
    expect(coloured).toBeDefined();
    const el = render(coloured);
    expect(el.querySelector('.tool-output [class*="s-ansi-"]')).not.toBeNull();
    expect(el.querySelector('.tool-output .s-b')).not.toBeNull();
  });

  it('marks a failed command as an error with a visible label', () => {
    const call = firstCall('Bash', (c) => !!c.result?.isError);
    const el = render(call);
    expect(el.classList.contains('is-error')).toBe(true);
    expect(text(el.querySelector('.tool-head .badge-error'))).toBe('Error');
  });

  it('shows an interrupted flag', () => {
    const call = toolCall('Bash', { command: 'sleep 100' }, { content: 'x', toolUseResult: { stdout: 'partial', stderr: '', interrupted: true } });
    expect(text(render(call).querySelector('.exit-status'))).toContain('Interrupted');
  });
});

describe('Read', () => {
  it('numbers lines from the structured result startLine', () => {
    const call = firstCall('Read', (c) => tur(c)?.file?.startLine > 1 && typeof tur(c).file.content === 'string' && tur(c).file.content.length > 0);
    const el = render(call);
    const numbers = el.querySelector('.tool-output .gutter')!.textContent!.split('\n');
    expect(numbers.length).toBeGreaterThan(0);
    expect(numbers[0]).toBe(String(tur(call).file.startLine));
    expect(Number(numbers[numbers.length - 1])).toBe(tur(call).file.startLine + numbers.length - 1);
    expect(text(el.querySelector('.tool-summary'))).toContain(call.input.file_path as string);
  });

  it('parses cat -n style numbers when there is no structured result', () => {
    const call = firstCall('Read', (c) => !!c.result && !c.result.isError && !tur(c)?.file && typeof c.result.content === 'string' && /^\s*\d+(→|\t)/.test(c.result.content));
    const parsed = parseNumberedLines(call.result!.content as string)!;
    expect(parsed).toBeDefined();
    const el = render(call);
    expect(el.querySelector('.tool-output .gutter')!.textContent!.split('\n')[0]).toBe(String(parsed.numbers[0]));
    // The numbers are not part of the code text.
    expect(el.querySelector('.tool-output .src')!.textContent!.split('\n')[0]).toBe(parsed.code.split('\n')[0]);
  });

  it('highlights by the file extension', () => {
    const call = firstCall('Read', (c) => /\.py$/.test(String(c.input.file_path)) && typeof tur(c)?.file?.content === 'string');
    expect(render(call).querySelector('pre[data-lang="python"]')).not.toBeNull();
  });
});

describe('Write, Edit, MultiEdit', () => {
  it('Write shows the path and the content', () => {
    const call = firstCall('Write', (c) => !!c.result && !c.result.isError && String(c.input.content).length > 10);
    const el = render(call);
    expect(text(el.querySelector('.tool-summary .path'))).toBe(call.input.file_path);
    const first = String(call.input.content).split('\n').find((l) => l.trim())!;
    expect(text(el.querySelector('.tool-input'))).toContain(squash(first).trim().slice(0, 30));
  });

  it('Edit renders the recorded structuredPatch as a diff with real line numbers', () => {
    const call = firstCall('Edit', (c) => Array.isArray(tur(c)?.structuredPatch) && tur(c).structuredPatch.length > 0);
    const hunk = tur(call).structuredPatch[0];
    const el = render(call);
    expect(el.querySelector('.line.add, .line.del')).not.toBeNull();
    const firstLine = el.querySelector('.hunk .line');
    const firstIsDel = String(hunk.lines[0]).startsWith('-');
    expect(firstLine?.getAttribute('data-ln')).toBe(String(firstIsDel ? hunk.oldStart : hunk.newStart));
    expect(el.querySelectorAll('.hunk').length).toBe(tur(call).structuredPatch.length);
  });

  it('Edit computes a diff from old/new strings when no patch was recorded', () => {
    const call = firstCall('Edit', (c) => !tur(c)?.structuredPatch && typeof c.input.old_string === 'string' && c.input.old_string !== c.input.new_string);
    const el = render(call);
    expect(el.querySelectorAll('.line.add, .line.del').length).toBeGreaterThan(0);
  });

  it('MultiEdit renders a diff (recorded or per edit)', () => {
    for (const call of callsOf('MultiEdit', (c) => !!c.result).slice(0, 4)) {
      const el = render(call);
      expect(el.querySelectorAll('.line.add, .line.del').length, call.id).toBeGreaterThan(0);
    }
  });
});

describe('Grep, Glob, LS', () => {
  it('Grep shows the pattern and matches', () => {
    const call = firstCall('Grep', (c) => (tur(c)?.numFiles ?? 0) > 0 || (tur(c)?.numLines ?? 0) > 0);
    const el = render(call);
    expect(text(el.querySelector('.tool-summary .pattern'))).toBe(squash(call.input.pattern as string));
    const t = tur(call);
    if (t.content) expect(text(el.querySelector('.tool-output'))).toContain(squash(t.content.split('\n')[0]).trim());
    else expect(el.querySelectorAll('.file-list li').length).toBe(t.filenames.length);
  });

  it('Glob lists the matching files', () => {
    const call = firstCall('Glob', (c) => (tur(c)?.filenames?.length ?? 0) > 1);
    const el = render(call);
    expect([...el.querySelectorAll('.file-list li')].map((li) => li.textContent)).toEqual(tur(call).filenames);
  });

  it('LS shows the directory and listing', () => {
    const call = firstCall('LS');
    const el = render(call);
    expect(text(el.querySelector('.tool-summary'))).toBe(call.input.path);
    expect(text(el.querySelector('.tool-output'))).toContain(String(call.input.path));
  });
});

describe('TodoWrite and tasks', () => {
  it('TodoWrite renders each item with its status', () => {
    const call = firstCall('TodoWrite', (c) => Array.isArray(c.input.todos) && (c.input.todos as unknown[]).length >= 3);
    const todos = call.input.todos as Array<{ content: string; status: string }>;
    const el = render(call);
    const items = [...el.querySelectorAll('.todos li')];
    expect(items.length).toBe(todos.length);
    todos.forEach((t, i) => {
      expect(items[i].classList.contains(`todo-${t.status.replace(/_/g, '-')}`)).toBe(true);
      expect(items[i].querySelector('.todo-text')?.textContent).toBe(t.content);
      expect(items[i].querySelector('.todo-status')?.textContent?.length).toBeGreaterThan(0);
    });
  });

  it('TaskCreate, TaskUpdate and TaskList render their fields', () => {
    const create = firstCall('TaskCreate');
    expect(text(render(create).querySelector('.tool-summary'))).toContain(String(create.input.subject));
    const update = firstCall('TaskUpdate', (c) => !!tur(c)?.statusChange);
    expect(text(render(update).querySelector('.tool-head'))).toContain(`${tur(update).statusChange.from} → ${tur(update).statusChange.to}`);
    const list = firstCall('TaskList');
    expect(render(list).querySelectorAll('.todos li').length).toBe(tur(list).tasks.length);
  });
});

describe('Task / Agent', () => {
  it('renders the description, type, prompt and result of a real call', () => {
    const call = firstCall('Task', (c) => !!c.result && !c.result.isError && typeof c.input.prompt === 'string');
    const el = render(call);
    expect(text(el.querySelector('.tool-summary'))).toBe(squash(call.input.description as string));
    expect(text(el.querySelector('.badge-agent'))).toBe(call.input.subagent_type);
    expect(el.querySelector('details.agent-prompt')).not.toBeNull();
    expect(el.querySelector('details.agent-prompt')?.hasAttribute('open')).toBe(false);
    expect(el.querySelector('.agent-result')).not.toBeNull();
  });

  it('nests the subagent transcript with its stats (real session)', async () => {
    const sessions = await loadSessions(corpusRoot);
    const calls = sessions.flatMap((s) => s.messages.flatMap((m) => (m.kind === 'assistant' ? m.toolCalls : []))).filter((c) => c.subagent && c.subagent.messages.length > 2);
    expect(calls.length).toBeGreaterThan(0);
    const call = calls[0];
    await prepareMessages(call.subagent!.messages);
    const doc = parse(renderMessage(withCall(call), ctx));
    const sub = doc.querySelector(`[data-subagent="${call.subagent!.agentId ?? call.id}"]`);
    expect(sub).not.toBeNull();
    expect(sub!.tagName).toBe('DETAILS');
    const rendered = sub!.querySelectorAll('article.msg');
    expect(rendered.length).toBeGreaterThan(0);
    // Nested prompts are not session turns: no prompt numbers inside.
    expect(sub!.querySelector('[data-prompt]')).toBeNull();
    const stats = call.subagent!.stats;
    if (stats.toolUseCount) expect(text(sub!.querySelector('summary'))).toContain(`${stats.toolUseCount} tool call`);
  });

  it('Agent calls render too', () => {
    const call = firstCall('Agent');
    const el = render(call);
    expect(text(el.querySelector('.badge-agent'))).toBe(call.input.subagent_type);
    expect(text(el.querySelector('.tool-input'))).toContain(String(tur(call).totalToolUseCount));
  });
});

describe('Web tools', () => {
  it('WebFetch links the URL with rel=nofollow and shows the answer', () => {
    const call = firstCall('WebFetch', (c) => !!c.result && !c.result.isError && /^https:/.test(String(c.input.url)));
    const el = render(call);
    const a = el.querySelector('.tool-summary a');
    expect(a?.getAttribute('href')).toBe(call.input.url);
    expect(a?.getAttribute('rel')).toContain('nofollow');
    expect(el.querySelector('.tool-output .md')).not.toBeNull();
  });

  it('WebSearch shows the query and result links', () => {
    const call = firstCall('WebSearch', (c) => Array.isArray(tur(c)?.results));
    const el = render(call);
    expect(text(el.querySelector('.tool-summary'))).toContain(String(call.input.query));
    const links = el.querySelectorAll('.links a');
    expect(links.length).toBeGreaterThan(0);
    for (const a of links) expect(a.getAttribute('rel')).toContain('nofollow');
  });
});

describe('Interaction tools', () => {
  it('AskUserQuestion marks the chosen option', () => {
    const call = firstCall('AskUserQuestion', (c) => !!tur(c)?.answers);
    const el = render(call);
    const answers = tur(call).answers as Record<string, string>;
    expect(el.querySelectorAll('.question').length).toBe((call.input.questions as unknown[]).length);
    const chosen = [...el.querySelectorAll('.option.chosen .option-label')].map((n) => n.textContent);
    const labels = (call.input.questions as Array<{ options: Array<{ label: string }> }>).flatMap((q) => q.options.map((o) => o.label));
    const expected = Object.values(answers).filter((a) => labels.includes(a));
    expect(chosen).toEqual(expect.arrayContaining(expected));
    expect(chosen.length).toBeGreaterThanOrEqual(expected.length);
  });

  it('AskUserQuestion falls back to the answer in the result text', () => {
    const call = firstCall('AskUserQuestion', (c) => typeof tur(c) === 'string' || (!!c.result && !tur(c)?.answers));
    expect(() => render(call)).not.toThrow();
  });

  it('ExitPlanMode renders the plan as markdown', () => {
    const call = firstCall('ExitPlanMode', (c) => typeof c.input.plan === 'string' && /^#/m.test(String(c.input.plan)));
    const el = render(call);
    expect(el.querySelector('.md.plan h3, .md.plan h4, .md.plan h5')).not.toBeNull();
  });

  it('NotebookEdit, Skill, BashOutput, KillShell/KillBash render their inputs', () => {
    const nb = firstCall('NotebookEdit');
    expect(text(render(nb).querySelector('.tool-summary .path'))).toBe(nb.input.notebook_path);
    const skill = firstCall('Skill');
    const skillEl = render(skill);
    expect(text(skillEl.querySelector('.tool-summary'))).toContain(String(skill.input.skill));
    expect(skillEl.classList.contains('is-error')).toBe(skill.result!.isError);
    const bo = firstCall('BashOutput', (c) => typeof tur(c)?.stdout === 'string' && tur(c).stdout.length > 0);
    const boEl = render(bo);
    expect(text(boEl.querySelector('.tool-output'))).toContain(squash(tur(bo).stdout.split('\n').find((l: string) => l.trim())).trim().slice(0, 20));
    for (const name of ['KillShell', 'KillBash']) {
      const k = firstCall(name);
      expect(text(render(k).querySelector('.tool-summary'))).toContain(String(k.input.shell_id));
    }
  });
});

describe('MCP and unknown tools', () => {
  it('names the MCP server and tool, shows the input as JSON and images as assets', () => {
    const call = firstCall('mcp__chrome-devtools__take_screenshot');
    const before = assets.written.length;
    const el = render(call);
    expect(text(el.querySelector('.mcp-server'))).toBe('chrome-devtools');
    expect(text(el.querySelector('.mcp-tool'))).toBe('take_screenshot');
    const img = el.querySelector('img');
    expect(img).not.toBeNull();
    expect(img!.getAttribute('src')).toMatch(/^\/assets\/[0-9a-f]+\.png$/);
    expect(img!.getAttribute('loading')).toBe('lazy');
    expect(assets.written.length).toBeGreaterThan(before);
    expect(el.outerHTML).not.toMatch(/data:image|base64,/);
  });

  it('MCP input renders as formatted JSON', () => {
    const call = firstCall('mcp__chrome-devtools__navigate_page');
    const el = render(call);
    expect(el.querySelector('.tool-input pre[data-lang="json"]')).not.toBeNull();
    expect(text(el.querySelector('.tool-input'))).toContain(String(call.input.url));
  });

  it('unknown tools show JSON input and the result text; errors are labelled', () => {
    const call = firstCall('FailingTool');
    const el = render(call);
    expect(el.querySelector('.tool-input pre[data-lang="json"]')).not.toBeNull();
    expect(el.classList.contains('is-error')).toBe(true);
    expect(text(el.querySelector('.badge-error'))).toBe('Error');
    expect(text(el.querySelector('.tool-error'))).toContain('Command not found');
    for (const name of ['ToolSearch', 'SendMessage', 'TaskOutput']) expect(() => render(firstCall(name))).not.toThrow();
  });

  it('every corpus call renders without throwing', () => {
    let n = 0;
    for (const name of ['Bash', 'Read', 'Write', 'Edit', 'MultiEdit', 'Grep', 'Glob', 'TodoWrite', 'WebFetch', 'WebSearch', 'Task', 'ExitPlanMode', 'AskUserQuestion']) {
      for (const call of callsOf(name).slice(0, 25)) {
        expect(() => renderToolCall(call, ctx)).not.toThrow();
        n++;
      }
    }
    expect(n).toBeGreaterThan(100);
  });

  it('never throws on malformed calls', () => {
    const weird: ToolCall[] = [
      { id: 'w1', name: 'Bash', input: null as unknown as Record<string, unknown>, entryUuid: 'e' },
      { id: 'w2', name: 'Edit', input: { file_path: 5, old_string: {}, new_string: [] }, entryUuid: 'e', result: { uuid: 'r', content: 7 as unknown as string, isError: false, toolUseResult: { structuredPatch: [null, { lines: 'x' }] } } },
      { id: 'w3', name: 'TodoWrite', input: { todos: 'nope' }, entryUuid: 'e' },
      { id: 'w4', name: 'Read', input: {}, entryUuid: 'e', result: { uuid: 'r', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: '!!!' } }], isError: false } },
      { id: 'w5', name: 'Task', input: { prompt: 3 }, entryUuid: 'e', subagent: { prompt: '', messages: [], turns: [], stats: { toolUseCount: 0 } } },
    ];
    for (const call of weird) expect(() => parse(renderToolCall(call, ctx)).querySelector(`[data-tool-use-id="${call.id}"]`)).not.toThrow();
    for (const call of weird) expect(parse(renderToolCall(call, ctx)).querySelector(`[data-tool-use-id="${call.id}"]`)).not.toBeNull();
  });
});

describe('shared behaviour', () => {
  it('collapses long output behind a details summary with the line count', () => {
    const stdout = Array.from({ length: 120 }, (_, i) => `line ${i}`).join('\n');
    const el = render(toolCall('Bash', { command: 'seq' }, { content: stdout, toolUseResult: { stdout, stderr: '', interrupted: false } }));
    const details = el.querySelector('.tool-output details.long');
    expect(details).not.toBeNull();
    expect(details!.hasAttribute('open')).toBe(false);
    expect(details!.querySelector('summary')?.textContent).toContain('120 lines');
  });

  it('keeps short output open', () => {
    const el = render(toolCall('Bash', { command: 'echo hi' }, { content: 'hi', toolUseResult: { stdout: 'hi', stderr: '', interrupted: false } }));
    expect(el.querySelector('details.long')).toBeNull();
  });

  it('never writes SVG or unknown images as assets', () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>').toString('base64');
    const before = assets.written.length;
    const el = render(toolCall('mcp__x__shot', {}, { content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: svg } }] }));
    expect(assets.written.length).toBe(before);
    expect(el.querySelector('img')).toBeNull();
    expect(el.querySelector('.image-missing')).not.toBeNull();
  });

  it('marks tool output ignored by search unless indexToolOutput', async () => {
    const call = firstCall('Bash', (c) => !!c.result && !c.result.isError);
    const { ctx: quiet } = await testContext({ indexToolOutput: false });
    const a = parse(renderToolCall(call, quiet)).querySelector('.tool-output');
    expect(a?.hasAttribute('data-pagefind-ignore')).toBe(true);
    const b = parse(renderToolCall(call, ctx)).querySelector('.tool-output');
    expect(b?.hasAttribute('data-pagefind-ignore')).toBe(false);
    expect(b?.getAttribute('data-pagefind-weight')).toBe('0.5');
    expect(parse(renderToolCall(call, ctx)).querySelector('.tool-input')?.getAttribute('data-pagefind-weight')).toBe('2');
  });

  it('dispatches every known tool name to a dedicated renderer', () => {
    const generic = rendererFor('SomethingNew');
    for (const name of ['Bash', 'Read', 'Write', 'Edit', 'MultiEdit', 'Grep', 'Glob', 'LS', 'TodoWrite', 'Task', 'Agent', 'WebFetch', 'WebSearch', 'AskUserQuestion', 'ExitPlanMode', 'NotebookEdit', 'Skill', 'SlashCommand', 'BashOutput', 'KillShell', 'TaskCreate', 'TaskUpdate', 'TaskList', 'mcp__a__b']) {
      expect(rendererFor(name), name).not.toBe(generic);
    }
  });
});
