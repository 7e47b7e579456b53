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
import { TOOL_ROW } from '../../../src/lib/render/tools/common.js';
import { OMITTED_BYTES_KEY, type ToolCall } from '../../../src/lib/transcript/types.js';
import { callsOf, firstCall, tur } from '../../helpers/corpus-calls.js';
import { parse } from './dom.js';
import { expectInert } from './xss-check.js';
import { corpusRoot, loadSessions, testContext, type Assets } from '../../helpers/render.js';
import { assistantMsg, toolCall, userMsg, withCall } from './make.js';

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
    // The row's outcome says how it failed: the exit code, or the error's first line.
    expect(text(el.querySelector(TOOL_ROW.outcome))).toMatch(/^(exit \d+|error: .+)$/);
  });

  it('shows an interrupted flag', () => {
    const call = toolCall('Bash', { command: 'sleep 100' }, { content: 'x', toolUseResult: { stdout: 'partial', stderr: '', interrupted: true } });
    expect(text(render(call).querySelector('.exit-status'))).toContain('Interrupted');
  });

  // 2.1.22x: a large output's stdout is cut at 30,000 characters; the whole output is kept beside the session.
  const whole = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join('\n') + '\nWHOLE-END';
  const cut = whole.slice(0, 60);

  it('shows the whole kept output, not the cut stdout, and counts its lines in the row', () => {
    const call = toolCall('Bash', { command: 'make test' }, { content: whole, toolUseResult: { stdout: cut, stderr: '', interrupted: false, persistedOutputPath: '/p/tool-results/byshsvyn3.txt' } });
    call.result!.persistedOutput = { file: 'byshsvyn3.txt', chars: whole.length };
    const el = render(call);
    expect(el.querySelector('.tool-output')?.textContent).toContain('WHOLE-END');
    expect(text(el.querySelector(TOOL_ROW.outcome))).toBe('41 lines');
    expect(el.querySelector('.kept-missing')).toBeNull();
  });

  it('shows the cut stdout with a note when the kept output is missing', () => {
    const call = toolCall('Bash', { command: 'make test' }, { content: cut, toolUseResult: { stdout: cut, stderr: '', interrupted: false } });
    call.result!.persistedOutput = { file: 'q8w3e5r7t.txt', missing: true, bytes: 52340 };
    const el = render(call);
    expect(el.querySelector('.tool-output')?.textContent).toContain(cut.split('\n')[3]);
    expect(text(el.querySelector('.kept-missing'))).toBe('Only part of the output is shown: the whole output (51 KB) was not found beside the session.');
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
    // The row names the file; a summary saying only the path and range would repeat it.
    expect(text(el.querySelector(TOOL_ROW.target))).toContain(call.input.file_path as string);
    expect(el.querySelector('.tool-summary')).toBeNull();
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
    expect(text(el.querySelector(TOOL_ROW.target))).toBe(call.input.file_path);
    expect(el.querySelector('.tool-summary'), 'no summary repeating the row').toBeNull();
    const first = String(call.input.content).split('\n').find((l) => l.trim())!;
    expect(text(el.querySelector('.tool-input'))).toContain(squash(first).trim().slice(0, 30));
  });

  it('Edit renders the recorded structuredPatch as a diff with real line numbers', () => {
    const call = firstCall('Edit', (c) => Array.isArray(tur(c)?.structuredPatch) && tur(c).structuredPatch.length > 0);
    const hunk = tur(call).structuredPatch[0];
    const el = render(call);
    expect(el.querySelector('pre.diff > code > :is(ins, del)')).not.toBeNull();
    // Lines are numbered by CSS counters started at the line before the hunk, old (o) and new (n).
    const pre = el.querySelector('.hunk pre.diff')!;
    expect(pre.getAttribute('data-o')).toBe(String(hunk.oldStart - 1));
    expect(pre.getAttribute('data-n')).toBe(String(hunk.newStart - 1));
    const kinds = [...pre.querySelectorAll(':scope > code > *')].map((l) => l.tagName.toLowerCase());
    const signs = (hunk.lines as string[]).filter((l) => l[0] !== '\\').map((l) => (l[0] === '-' ? 'del' : l[0] === '+' ? 'ins' : 'span'));
    expect(kinds.slice(0, 5)).toEqual(signs.slice(0, 5));
    expect(el.querySelectorAll('.hunk').length).toBe(tur(call).structuredPatch.length);
  });

  it('Edit computes a diff from old/new strings when no patch was recorded', () => {
    const call = firstCall('Edit', (c) => !tur(c)?.structuredPatch && typeof c.input.old_string === 'string' && c.input.old_string !== c.input.new_string);
    const el = render(call);
    expect(el.querySelectorAll('pre.diff > code > :is(ins, del)').length).toBeGreaterThan(0);
  });

  it('MultiEdit renders a diff (recorded or per edit)', () => {
    for (const call of callsOf('MultiEdit', (c) => !!c.result).slice(0, 4)) {
      const el = render(call);
      expect(el.querySelectorAll('pre.diff > code > :is(ins, del)').length, call.id).toBeGreaterThan(0);
    }
  });
});

describe('Grep, Glob, LS', () => {
  it('Grep shows the pattern and matches', () => {
    const call = firstCall('Grep', (c) => (tur(c)?.numFiles ?? 0) > 0 || (tur(c)?.numLines ?? 0) > 0);
    const el = render(call);
    expect(text(el.querySelector(TOOL_ROW.target))).toContain(squash(call.input.pattern as string));
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
    expect(text(el.querySelector(TOOL_ROW.target))).toBe(call.input.path);
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
    // One element per item: its class names the status (the stylesheet draws the icon and writes the status).
    todos.forEach((t, i) => {
      expect(items[i].className).toBe(t.status.replace(/_/g, '-'));
      expect(items[i].firstChild?.textContent).toBe(t.content);
      expect(items[i].querySelector('.todo-icon, .todo-status, .todo-text')).toBeNull();
    });
    // The row counts the done items; the body does not say it again.
    expect(text(el.querySelector(TOOL_ROW.outcome))).toBe(`${todos.filter((t) => t.status === 'completed').length}/${todos.length} done`);
    expect(el.querySelector('.tool-input .count')).toBeNull();
  });

  it('TaskCreate, TaskUpdate and TaskList render their fields', () => {
    const create = firstCall('TaskCreate');
    // The subject is in the row (and the body does not repeat it).
    expect(text(render(create).querySelector(TOOL_ROW.target))).toContain(String(create.input.subject));
    const update = firstCall('TaskUpdate', (c) => !!tur(c)?.statusChange);
    expect(text(render(update).querySelector(':scope > summary, :scope > .tool-head'))).toContain(`${tur(update).statusChange.from} → ${tur(update).statusChange.to}`);
    const list = firstCall('TaskList');
    expect(render(list).querySelectorAll('.todos li').length).toBe(tur(list).tasks.length);
  });
});

describe('Task / Agent', () => {
  it('renders the description, type, prompt and result of a real call', () => {
    const call = firstCall('Task', (c) => !!c.result && !c.result.isError && typeof c.input.prompt === 'string');
    const el = render(call);
    expect(text(el.querySelector(TOOL_ROW.target))).toContain(squash(call.input.description as string));
    expect(text(el.querySelector('.badge-agent'))).toBe(call.input.subagent_type);
    // The prompt is shown once: collapsed in the input, or as the first message of the transcript that starts with it.
    const opening = el.querySelector('[data-subagent] article[data-kind="prompt"]');
    if (opening) {
      expect(text(opening.querySelector('.md'))).toBe(squash(call.input.prompt as string).trim());
      expect(el.querySelector('details.agent-prompt')).toBeNull();
    } else {
      expect(el.querySelector('details.agent-prompt')).not.toBeNull();
      expect(el.querySelector('details.agent-prompt')?.hasAttribute('open')).toBe(false);
    }
    // The answer is shown as the result, indexed like a message.
    expect(el.querySelector('.agent-result')?.closest('[data-pagefind-weight]')?.getAttribute('data-pagefind-weight')).toBe('3');
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
    expect(text(el.querySelector(TOOL_ROW.target))).toContain(String(call.input.query));
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
    expect(text(render(nb).querySelector(TOOL_ROW.target))).toContain(nb.input.notebook_path);
    const skill = firstCall('Skill');
    const skillEl = render(skill);
    expect(text(skillEl.querySelector(TOOL_ROW.target))).toContain(String(skill.input.skill));
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
    expect(text(el.querySelector(TOOL_ROW.outcome))).toMatch(/^error: .*Command not found/);
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
  it('previews long output by its first lines, the rest behind a "show more" summary with the line count', () => {
    const stdout = Array.from({ length: 120 }, (_, i) => `line ${i}`).join('\n');
    const el = render(toolCall('Bash', { command: 'seq' }, { content: stdout, toolUseResult: { stdout, stderr: '', interrupted: false } }));
    const preview = el.querySelector('.tool-output .preview');
    expect(preview).not.toBeNull();
    const head = preview!.querySelector(':scope > pre');
    expect(text(head)).toContain('line 0');
    expect(text(head)).not.toContain('line 119');
    const details = preview!.querySelector(':scope > details.more');
    expect(details!.hasAttribute('open')).toBe(false);
    expect(details!.querySelector('summary')?.textContent).toMatch(/^Show 110 more lines$/);
    expect(text(details!)).toContain('line 119');
    // Past the lines search indexes, the rest is shown but left out of the index.
    const unindexed = text(details!.querySelector('[data-pagefind-ignore]'));
    expect(unindexed).toMatch(/^line 100\b/);
    expect(unindexed).toContain('line 119');
    expect(unindexed).not.toMatch(/\bline 99\b/);
  });

  it('indexes only the shown start of a file read, written or attached, and the first 100 lines of other output', () => {
    const lines = Array.from({ length: 120 }, (_, i) => `const v${i} = ${i};`);
    const content = lines.join('\n');
    const numbered = lines.map((l, i) => `${String(i + 1).padStart(6)}→${l}`).join('\n');
    /** The text search holds of a call's block: what is outside every `data-pagefind-ignore` part. */
    const indexedText = (el: Element) => {
      const copy = el.cloneNode(true) as Element;
      for (const skip of copy.querySelectorAll('[data-pagefind-ignore]')) skip.remove();
      return text(copy);
    };
    const read = { file_path: '/w/src/a.ts' };
    const files = [
      render(toolCall('Read', read, { content: numbered, toolUseResult: { type: 'text', file: { filePath: read.file_path, content, numLines: 120, startLine: 1, totalLines: 120 } } })),
      render(toolCall('Read', read, { content: numbered })),
      render(toolCall('Write', { file_path: '/w/src/b.ts', content }, { content: 'File created successfully at: /w/src/b.ts' })),
    ];
    for (const el of files) {
      const shown = indexedText(el);
      expect(shown).toContain('const v9 = 9;');
      expect(shown).not.toContain('const v10 = 10;');
      // Still on the page, behind "show more".
      expect(text(el)).toContain('const v119 = 119;');
    }
    const bash = render(toolCall('Bash', { command: 'cat a.ts' }, { content, toolUseResult: { stdout: content, stderr: '', interrupted: false } }));
    expect(indexedText(bash)).toContain('const v99 = 99;');
    expect(indexedText(bash)).not.toContain('const v100 = 100;');
  });

  it('keeps short output open', () => {
    const el = render(toolCall('Bash', { command: 'echo hi' }, { content: 'hi', toolUseResult: { stdout: 'hi', stderr: '', interrupted: false } }));
    expect(el.querySelector('details.long, details.more')).toBeNull();
  });

  it('never writes SVG or unknown images as assets', () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>').toString('base64');
    const before = assets.written.length;
    const el = render(toolCall('mcp__x__shot', {}, { content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: svg } }] }));
    expect(assets.written.length).toBe(before);
    expect(el.querySelector('img')).toBeNull();
    expect(el.querySelector('.image-missing')).not.toBeNull();
  });

  it('says an image emptied by redaction (its metadata could not be taken out) is not shown, and writes nothing', () => {
    const before = assets.written.length;
    const el = render(toolCall('mcp__x__shot', {}, { content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: '' } }] }));
    expect(assets.written.length).toBe(before);
    expect(el.querySelector('img')).toBeNull();
    expect(el.querySelector('.image-missing')?.textContent).toMatch(/not shown \(its data was left out: only PNG, JPEG, GIF and WebP images whose metadata can be taken out are published\)/);
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

// ---------------------------------------------------------------------------
// Issue 11: the tools of Claude Code 2.1.x. Real calls where the corpus has
// them; otherwise the call shapes the peers document (claude-code-log's models,
// Claude Code's tool schemas). Each says what happened in words: no raw tags,
// no JSON dumps.

/** No JSON dump (a highlighted JSON block, or `{"` in the text) and no raw result tags. */
function expectNoRawDump(el: Element): void {
  expect(el.querySelector('pre[data-lang="json"]'), 'JSON block').toBeNull();
  expect(text(el), 'raw JSON').not.toMatch(/\{\s*"/);
  expect(text(el), 'raw tags').not.toMatch(/<\/?(task_id|status|retrieval_status|task_type|output|usage)>/);
}

describe('issue 11 tools from the corpus', () => {
  it('TaskOutput of a real timed-out poll names the task, its state and that it is still running', () => {
    const call = firstCall('TaskOutput', (c) => tur(c)?.retrieval_status === 'timeout');
    const el = render(call);
    expect(text(el)).toContain(call.input.task_id as string);
    expect(text(el.querySelector(':scope > summary, :scope > .tool-head'))).toContain(tur(call).task.status);
    expect(text(el.querySelector('.tool-output'))).toContain(tur(call).task.description);
    expect(text(el.querySelector('.tool-output'))).toContain('shell command');
    expect(text(el.querySelector('.tool-output'))).toContain('Still running');
    expectNoRawDump(el);
  });

  it('TaskOutput of a real failed poll shows the error without the error tag', () => {
    const call = firstCall('TaskOutput', (c) => !!c.result?.isError);
    const el = render(call);
    expect(el.classList.contains('is-error')).toBe(true);
    expect(text(el.querySelector('.tool-error'))).toContain(call.input.task_id as string);
    expect(el.innerHTML).not.toContain('tool_use_error');
  });

  it('TaskList of a real board shows each task with its status, from the structured result or the text', () => {
    const call = firstCall('TaskList', (c) => Array.isArray(tur(c)?.tasks));
    const tasks = tur(call).tasks as Array<{ id: string; subject: string; status: string }>;
    for (const c of [call, { ...call, result: { ...call.result!, toolUseResult: undefined } }]) {
      const el = render(c);
      const items = el.querySelectorAll('.todos li');
      expect(items.length).toBe(tasks.length);
      expect(text(items[0])).toContain(`#${tasks[0].id} ${tasks[0].subject}`);
      expect(items[0].className).toBe(tasks[0].status.replace('_', '-'));
    }
  });

  it('ToolSearch of a real call names the tools it loaded', () => {
    const call = firstCall('ToolSearch', (c) => Array.isArray(tur(c)?.matches) && tur(c).matches.length > 1);
    const el = render(call);
    const loaded = [...el.querySelectorAll('.tool-output code')].map((c) => c.textContent);
    expect(loaded).toEqual(tur(call).matches);
    expect(text(el.querySelector('.tool-output'))).toContain(`of ${tur(call).total_deferred_tools} deferred tools`);
    
    // The same from the tool_reference blocks alone.
    const bare = render({ ...call, result: { ...call.result!, toolUseResult: undefined } });
    expect([...bare.querySelectorAll('.tool-output code')].map((c) => c.textContent)).toEqual(tur(call).matches);
  });

  it('SendMessage of a real call shows the recipient, the summary, the message as text, and delivery', () => {
    const call = firstCall('SendMessage', (c) => typeof c.input.message === 'string' && tur(c)?.success === true);
    const el = render(call);
    expect(text(el)).toContain(`to ${call.input.to}`);
    expect(text(el.querySelector('.tool-input'))).toContain(call.input.summary as string);
    const firstLine = String(call.input.message).split('\n').find((l) => l.trim())!;
    expect(text(el.querySelector('.tool-input'))).toContain(squash(firstLine).slice(0, 20));
    expect(text(el.querySelector('.tool-output')).trim()).toBe(tur(call).message);
    expectNoRawDump(el);
  });

  it('Agent of a real teammate spawn shows its name, isolation and worktree like a Task, without the footer', () => {
    const call = firstCall('Agent', (c) => c.input.isolation === 'worktree' && !!c.result);
    const el = render(call);
    expect(text(el)).toContain(call.input.description as string);
    expect(text(el.querySelector('.badge-agent'))).toBe(call.input.subagent_type);
    const input = text(el.querySelector('.tool-input'));
    expect(input).toContain(`Name ${call.input.name}`);
    expect(input).toContain('Isolation worktree');
    expect(input).toMatch(/Worktree \S+agent-\w+ on worktree-agent-\w+/);
    expect(text(el.querySelector('.agent-result'))).not.toContain('agentId:');
    expect(el.querySelector('.agent-result')?.innerHTML).not.toContain('&lt;usage');
    expect(rendererFor('Agent')).toBe(rendererFor('Task'));
  });

  it('no Task or Agent result of the corpus shows the agentId footer, in either wording', () => {
    const calls = [...callsOf('Task'), ...callsOf('Agent')].filter((c) => c.result && !c.result.isError);
    expect(calls.some((c) => JSON.stringify(c.result).includes('for resuming to continue')), 'a result with the older footer').toBe(true);
    for (const call of calls) expect(text(render(call).querySelector('.agent-result') ?? render(call))).not.toMatch(/agentId: \w+ \((use SendMessage|for resuming)/);
  });

  it('a subagent whose last words are its answer shows them once, as the result (both footer wordings)', async () => {
    const sessions = await loadSessions(corpusRoot);
    const calls = sessions.flatMap((s) => s.messages.flatMap((m) => (m.kind === 'assistant' ? m.toolCalls : []))).filter((c) => c.subagent && c.result && !c.result.isError);
    const footers = new Set<string>();
    let once = 0;
    for (const call of calls) {
      const raw = JSON.stringify(call.result);
      await prepareMessages(call.subagent!.messages);
      const doc = parse(renderMessage(withCall(call), ctx));
      const answer = text(doc.querySelector('.agent-result .md'));
      const last = [...call.subagent!.messages].reverse().find((m) => m.kind === 'assistant');
      const lastText = last?.kind === 'assistant' ? last.blocks.filter((b) => b.type === 'text').map((b) => (b as { text: string }).text).join('\n').trim() : '';
      if (!lastText || !answer || !raw.includes(JSON.stringify(lastText).slice(1, 40))) continue;
      if (raw.includes('for resuming')) footers.add('for resuming');
      if (raw.includes('use SendMessage')) footers.add('use SendMessage');
      if (!/agentId: \w+ \(/.test(raw)) footers.add('none');
      const sub = doc.querySelector('[data-subagent]')!;
      expect(sub.querySelector('.tool-message.repeat'), `the transcript of ${call.id} says where its answer is`).not.toBeNull();
      once++;
    }
    expect(once).toBeGreaterThan(0);
    expect(footers.has('for resuming'), [...footers].join(', ')).toBe(true);
  });

  it('Agent shows team, mode and background, and labels the subagent by its type and description', () => {
    const call = toolCall('Agent', { description: 'Write tests', prompt: 'Go', subagent_type: 'general-purpose', team_name: 'crew', name: 'dana', mode: 'acceptEdits', run_in_background: true }, { content: 'Async agent launched' });
    call.subagent = { agentId: 'a1', prompt: 'Go', messages: [], turns: [], stats: { toolUseCount: 0 }, agentType: 'test-writer', description: 'Write the unit tests' };
    const el = render(call);
    expect(text(el)).toContain('Write the unit tests');
    expect(text(el.querySelector('.badge-agent'))).toBe('test-writer');
    expect(text(el.querySelector(':scope > summary, :scope > .tool-head'))).toContain('background');
    const input = text(el.querySelector('.tool-input'));
    for (const s of ['Team crew', 'Mode acceptEdits', 'Name dana']) expect(input).toContain(s);
  });
});

describe('issue 11 tools from documented shapes', () => {
  it('TaskOutput parses the tagged result text when there is no structured result', () => {
    const el = render(toolCall('TaskOutput', { task_id: 'b12', block: true, timeout: 30000 }, { content: '<retrieval_status>success</retrieval_status>\n\n<task_id>b12</task_id>\n\n<task_type>local_bash</task_type>\n\n<status>completed</status>\n\n<exit_code>0</exit_code>\n\n<output>\nall 42 tests passed\n</output>' }));
    expect(text(el)).toContain('b12 · wait up to 30.0 s');
    expect(text(el.querySelector(':scope > summary > .badge-ok'))).toBe('completed');
    expect(text(el.querySelector('.tool-output'))).toContain('all 42 tests passed');
    expect(text(el.querySelector('.tool-output'))).toContain('Exit code 0');
    expectNoRawDump(el);
  });

  it('TaskStop says which task stopped', () => {
    const el = render(toolCall('TaskStop', { task_id: 'b12' }, { content: '{"message":"Successfully stopped task: b12 (npm run dev)","task_id":"b12"}', toolUseResult: { message: 'Successfully stopped task: b12 (npm run dev)', task_id: 'b12', command: 'npm run dev' } }));
    expect(text(el)).toContain('b12 · npm run dev');
    expect(text(el.querySelector('.tool-output'))).toBe('Successfully stopped task: b12 (npm run dev)');
    expectNoRawDump(el);
  });

  it('TaskGet shows the task, its status, owner and dependencies', () => {
    const el = render(toolCall('TaskGet', { taskId: '3' }, { content: 'Task #3: Merge branches\nStatus: pending', toolUseResult: { task: { id: '3', subject: 'Merge branches', description: 'Octopus-merge **all** branches', status: 'pending', owner: 'carol', blocks: [], blockedBy: ['1', '2'] } } }));
    expect(text(el)).toContain('#3');
    const out = text(el.querySelector('.tool-output'));
    for (const s of ['Merge branches', 'Pending', 'Owner carol', 'Blocked by #1, #2']) expect(out).toContain(s);
    expect(el.querySelector('.tool-output strong')?.textContent).toBe('all');
  });

  it('EnterPlanMode says plan mode began, not the instructions the model got', () => {
    const el = render(toolCall('EnterPlanMode', {}, { content: 'Entered plan mode. You should now focus on exploring the codebase and designing an implementation approach.\n\nIn plan mode, you should:\n1. Thoroughly explore' }));
    expect(text(el.querySelector('.tool-output'))).toContain('switched to plan mode');
    expect(text(el)).not.toContain('Thoroughly explore');
  });

  it('EnterWorktree and ExitWorktree show the worktree, the branch and what was done with it', () => {
    const enter = render(toolCall('EnterWorktree', { name: 'fix-login' }, { content: 'Created worktree at /repo/.claude/worktrees/fix-login on branch worktree-fix-login.', toolUseResult: { worktreePath: '/repo/.claude/worktrees/fix-login', worktreeBranch: 'worktree-fix-login', message: 'Created worktree' } }));
    expect(text(enter)).toContain('fix-login');
    expect(text(enter.querySelector('.tool-output'))).toContain('Worktree /repo/.claude/worktrees/fix-login');
    expect(text(enter.querySelector('.tool-output'))).toContain('Branch worktree-fix-login');
    const exit = render(toolCall('ExitWorktree', { action: 'remove', discard_changes: true }, { content: 'Removed worktree', toolUseResult: { action: 'remove', originalCwd: '/repo', worktreePath: '/repo/.claude/worktrees/fix-login', worktreeBranch: 'worktree-fix-login', message: 'Removed worktree and branch worktree-fix-login.' } }));
    expect(text(exit.querySelector(':scope > summary, :scope > .tool-head'))).toContain('remove');
    expect(text(exit.querySelector(':scope > summary, :scope > .tool-head'))).toContain('discard changes');
    expect(text(exit.querySelector('.tool-output'))).toContain('Removed worktree and branch worktree-fix-login.');
    expect(text(exit.querySelector('.tool-output'))).toContain('Back in /repo');
    expectNoRawDump(enter);
    expectNoRawDump(exit);
  });

  it('Monitor shows the watched command, its timeout and the task carrying its events', () => {
    const el = render(toolCall('Monitor', { description: 'CI checks', command: 'gh pr checks --watch', timeout_ms: 600000, persistent: true }, { content: 'Monitor started (task m7, timeout 600000ms). You will be notified on each event. Keep working — do not poll or sleep.' }));
    expect(text(el)).toContain('CI checks');
    expect(el.querySelector('.tool-input pre[data-lang="shellscript"]')?.textContent).toContain('gh pr checks --watch');
    expect(text(el.querySelector('.tool-input'))).toContain('Timeout 10 min 0 s');
    expect(text(el.querySelector(':scope > summary, :scope > .tool-head'))).toContain('persistent');
    expect(text(el.querySelector('.tool-output'))).toContain('Watching as task m7');
    expect(text(el.querySelector('.tool-output'))).not.toContain('do not poll');
  });

  it('ScheduleWakeup says when Claude comes back, why, and with which prompt', () => {
    const el = render(toolCall('ScheduleWakeup', { delaySeconds: 270, reason: 'wait for the deploy', prompt: '/loop check the deploy' }, { content: 'Next wakeup scheduled for 14:05:00 (in 270s).' }));
    expect(text(el)).toContain('in 4 min 30 s');
    expect(text(el.querySelector('.tool-input'))).toContain('Reason wait for the deploy');
    expect(text(el.querySelector('.tool-input'))).toContain('/loop check the deploy');
    expect(text(el.querySelector('.tool-output'))).toContain('Next wakeup scheduled for 14:05:00');
  });

  it('CronCreate, CronList and CronDelete show the schedule, the jobs and the job cancelled', () => {
    const create = render(toolCall('CronCreate', { cron: '*/5 * * * *', prompt: 'check the build', recurring: true, durable: true }, { content: 'Scheduled cron job c1a2 (Every 5 minutes). It will fire until deleted.' }));
    expect(text(create)).toContain('*/5 * * * *');
    expect(text(create.querySelector(':scope > summary, :scope > .tool-head'))).toMatch(/recurring.*durable/);
    expect(text(create.querySelector('.tool-input'))).toContain('check the build');
    expect(text(create.querySelector('.tool-output'))).toContain('Scheduled as job c1a2');
    const list = render(toolCall('CronList', {}, { content: 'c1a2 — Every 5 minutes (recurring) [session]: check the build\nd3e4 — Daily at 8:57 (recurring) [durable]: summarise PRs' }));
    const rows = list.querySelectorAll('.job-list li');
    expect(rows.length).toBe(2);
    expect(rows[1].querySelector('code')?.textContent).toBe('d3e4');
    expect(text(rows[1])).toContain('Daily at 8:57');
    const del = render(toolCall('CronDelete', { id: 'c1a2' }, { content: 'Cancelled job c1a2.' }));
    expect(text(del)).toContain('c1a2');
    expect(text(del.querySelector('.tool-output'))).toBe('Cancelled job c1a2.');
  });

  it('SendMessage with a structured message shows its kind and fields in words', () => {
    const el = render(toolCall('SendMessage', { to: 'bob', message: { type: 'shutdown_request', reason: 'all tasks done' } }, { content: '{"success":true,"message":"Shutdown request sent to bob"}' }));
    expect(text(el.querySelector(':scope > summary, :scope > .tool-head'))).toContain('shutdown request');
    expect(text(el.querySelector('.tool-input'))).toContain('reason all tasks done');
    expect(text(el.querySelector('.tool-output'))).toBe('Shutdown request sent to bob');
    expectNoRawDump(el);
  });

  it('TeamCreate and TeamDelete show the team, its lead, and whether it was removed', () => {
    const create = render(toolCall('TeamCreate', { team_name: 'research', description: 'Three researchers', agent_type: 'team-lead' }, { content: '{"team_name":"research","team_file_path":"/home/u/.claude/teams/research.json","lead_agent_id":"team-lead@research"}' }));
    expect(text(create)).toContain('research');
    expect(text(create.querySelector('.tool-input'))).toContain('Purpose Three researchers');
    expect(text(create.querySelector('.tool-output'))).toContain('Lead agent team-lead@research');
    const del = render(toolCall('TeamDelete', {}, { content: '{"success":false,"message":"Cannot cleanup team with 2 active member(s): alice, bob","team_name":"research"}' }));
    expect(text(del.querySelector(':scope > summary, :scope > .tool-head'))).toContain('not deleted');
    expect(text(del.querySelector('.tool-output'))).toContain('2 active member(s): alice, bob');
    expectNoRawDump(create);
    expectNoRawDump(del);
  });

  it('LSP names the operation and the position, and shows the answer', () => {
    const el = render(toolCall('LSP', { operation: 'findReferences', filePath: '/repo/src/app.ts', line: 12, character: 5 }, { content: 'Found 3 references:\n/repo/src/app.ts:12:5\n/repo/src/b.ts:4:1\n/repo/src/c.ts:9:2' }));
    expect(text(el)).toContain('Find references /repo/src/app.ts:12:5');
    expect(text(el.querySelector('.tool-output'))).toContain('/repo/src/b.ts:4:1');
  });

  it('Workflow shows the name and purpose from the script meta, the script collapsed, and the task id', () => {
    const script = "export const meta = {\n  name: 'triage',\n  description: 'Sort open issues',\n  phases: [{ title: 'Map' }],\n}\nexport default async function run(ctx) {}\n";
    const el = render(toolCall('Workflow', { script, args: { repo: 'org/app', limit: 20 } }, { content: 'Workflow launched in the background. Task ID: wf42' }));
    expect(text(el)).toContain('triage');
    expect(text(el.querySelector('.tool-input'))).toContain('Purpose Sort open issues');
    expect(text(el.querySelector('.tool-input'))).toContain('repo org/app');
    expect(el.querySelector('details.workflow-script pre[data-lang="javascript"], details.workflow-script pre')).not.toBeNull();
    expect(el.querySelector('details.workflow-script')?.hasAttribute('open')).toBe(false);
    expect(text(el.querySelector('.tool-output'))).toContain('task wf42');
  });

  it('ListMcpResourcesTool and ReadMcpResourceTool list resources and show a resource text, not JSON', () => {
    const resources = [
      { uri: 'file:///docs/a.md', name: 'Guide', mimeType: 'text/markdown', server: 'docs' },
      { uri: 'db://tables/users', name: 'users', server: 'db', description: 'User table' },
    ];
    const list = render(toolCall('ListMcpResourcesTool', {}, { content: JSON.stringify(resources), toolUseResult: resources }));
    const rows = list.querySelectorAll('.resource-list li');
    expect(rows.length).toBe(2);
    expect(text(rows[1])).toContain('users db://tables/users · db — User table');
    const read = render(toolCall('ReadMcpResourceTool', { server: 'docs', uri: 'file:///docs/a.md' }, { content: '{"contents":[{"uri":"file:///docs/a.md","mimeType":"text/plain","text":"Hello from the guide"}]}' }));
    expect(text(read)).toContain('file:///docs/a.md');
    expect(text(read.querySelector('.tool-input'))).toContain('Server docs');
    expect(text(read.querySelector('.tool-output'))).toContain('Hello from the guide');
    expectNoRawDump(list);
    expectNoRawDump(read);
  });

  it('dispatches every issue 11 tool to its own renderer, never the JSON fallback', () => {
    const generic = rendererFor('SomethingNew');
    const names = ['TaskOutput', 'TaskGet', 'TaskStop', 'TaskList', 'EnterPlanMode', 'EnterWorktree', 'ExitWorktree', 'Monitor', 'ScheduleWakeup', 'CronCreate', 'CronList', 'CronDelete', 'SendMessage', 'TeamCreate', 'TeamDelete', 'ToolSearch', 'LSP', 'Workflow', 'ListMcpResourcesTool', 'ReadMcpResourceTool', 'Agent'];
    for (const name of names) expect(rendererFor(name), name).not.toBe(generic);
  });
});

describe('issue 11 tools: payloads in every new field are inert', () => {
  it('renders no executable markup from any field', () => {
    const at = (name: string, input: (p: string) => Record<string, unknown>, result: (p: string) => { content: string; toolUseResult?: unknown; isError?: boolean }): [string, (p: string) => string] => [
      name,
      (p) => renderMessage(withCall(toolCall(name, input(p), result(p))), ctx),
    ];
    expectInert([
      at('TaskOutput', (p) => ({ task_id: p }), (p) => ({ content: p, toolUseResult: { retrieval_status: p, task: { task_id: p, task_type: p, status: p, description: p, output: p } } })),
      at('TaskOutput', (p) => ({ task_id: p }), (p) => ({ content: `<task_id>${p}</task_id><status>${p}</status><output>${p}</output>` })),
      at('TaskStop', (p) => ({ task_id: p }), (p) => ({ content: p, toolUseResult: { message: p, command: p } })),
      at('TaskGet', (p) => ({ taskId: p }), (p) => ({ content: p, toolUseResult: { task: { subject: p, description: p, status: p, owner: p, blockedBy: [p] } } })),
      at('TaskList', () => ({}), (p) => ({ content: `#1 [pending] ${p}` })),
      at('EnterWorktree', (p) => ({ name: p }), (p) => ({ content: p, toolUseResult: { worktreePath: p, worktreeBranch: p } })),
      at('ExitWorktree', (p) => ({ action: p }), (p) => ({ content: p, toolUseResult: { message: p, originalCwd: p, worktreeBranch: p } })),
      at('Monitor', (p) => ({ description: p, command: p }), (p) => ({ content: `Monitor started (task ${p})` })),
      at('ScheduleWakeup', (p) => ({ delaySeconds: 60, reason: p, prompt: p }), (p) => ({ content: p })),
      at('CronCreate', (p) => ({ cron: p, prompt: p }), (p) => ({ content: `Scheduled cron job ${p}`, toolUseResult: { id: p, humanSchedule: p } })),
      at('CronList', () => ({}), (p) => ({ content: `abc — ${p}` })),
      at('CronDelete', (p) => ({ id: p }), (p) => ({ content: p })),
      at('SendMessage', (p) => ({ to: p, summary: p, message: p }), (p) => ({ content: JSON.stringify({ success: true, message: p }) })),
      at('SendMessage', (p) => ({ recipient: p, message: { type: p, reason: p } }), (p) => ({ content: p })),
      at('TeamCreate', (p) => ({ team_name: p, description: p, agent_type: p }), (p) => ({ content: JSON.stringify({ lead_agent_id: p, team_file_path: p }) })),
      at('TeamDelete', () => ({}), (p) => ({ content: JSON.stringify({ success: false, message: p }) })),
      at('ToolSearch', (p) => ({ query: p }), (p) => ({ content: p, toolUseResult: { matches: [p], query: p } })),
      at('LSP', (p) => ({ operation: p, filePath: p, line: 1 }), (p) => ({ content: p })),
      at('Workflow', (p) => ({ script: `export const meta = {\n  name: '${p}',\n}\n${p}`, scriptPath: p, args: { a: p } }), (p) => ({ content: `Task ID: ${p}` })),
      at('ListMcpResourcesTool', (p) => ({ server: p }), (p) => ({ content: JSON.stringify([{ uri: p, name: p, server: p, description: p }]) })),
      at('ReadMcpResourceTool', (p) => ({ server: p, uri: p }), (p) => ({ content: JSON.stringify({ contents: [{ uri: p, mimeType: 'text/plain', text: p }] }) })),
      at('Agent', (p) => ({ description: p, subagent_type: p, team_name: p, name: p, mode: p, isolation: p, prompt: p }), (p) => ({ content: `${p}\nagentId: a1 (use SendMessage with to: 'a1')\nworktreePath: ${p}` })),
      at('EnterPlanMode', () => ({}), (p) => ({ content: p, isError: true })),
    ]);
  });
});

// ---------------------------------------------------------------------------
// Issue 11: content blocks that are not client tool calls (documented API shapes).

describe('content blocks: documents, redacted thinking, server tools', () => {
  const article = (html: string) => parse(html).querySelector('article') as Element;

  it('a PDF attached to a prompt shows its name, type and size, and never its data', () => {
    const pdf = Buffer.from('%PDF-1.7\n' + 'x'.repeat(3000)).toString('base64');
    const m = userMsg('Summarise this', 'prompt', { blocks: [{ type: 'document', title: 'spec.pdf', source: { type: 'base64', media_type: 'application/pdf', data: pdf } }] });
    const el = article(renderMessage(m, ctx));
    expect(text(el.querySelector('.document'))).toBe('📄 spec.pdf · PDF · 3 KB (not shown)');
    expect(el.innerHTML).not.toContain(pdf.slice(0, 40));
    expect(el.querySelector('[href^="data:"], [src^="data:"], object, embed, iframe')).toBeNull();
  });

  it('a PDF an imported copy left out still shows its size, from what the copy recorded', () => {
    const m = userMsg('Summarise this', 'prompt', { blocks: [{ type: 'document', title: 'spec.pdf', source: { type: 'base64', media_type: 'application/pdf', data: '', [OMITTED_BYTES_KEY]: 3009 } }] });
    expect(text(article(renderMessage(m, ctx)).querySelector('.document'))).toBe('📄 spec.pdf · PDF · 3 KB (not shown)');
  });

  it('a text document shows its text collapsed', () => {
    const m = userMsg('Read this', 'prompt', { blocks: [{ type: 'document', title: 'notes.txt', source: { type: 'text', media_type: 'text/plain', data: 'line one\nline two' } }] });
    const d = article(renderMessage(m, ctx)).querySelector('details.document');
    expect(d?.hasAttribute('open')).toBe(false);
    expect(text(d?.querySelector('summary'))).toBe('📄 notes.txt · text · 2 lines');
    expect(d?.querySelector('pre')?.textContent).toContain('line two');
  });

  it('a model reached through a gateway is labelled with the gateway', () => {
    const el = article(renderMessage(assistantMsg([{ type: 'text', text: 'Hi' }], [], { model: 'openai/gpt-5', provider: 'openrouter' }), ctx));
    expect(text(el.querySelector('.model'))).toBe('openai/gpt-5');
    expect(text(el.querySelector('.provider'))).toBe('via openrouter');
    expect(article(renderMessage(assistantMsg([{ type: 'text', text: 'Hi' }]), ctx)).querySelector('.provider')).toBeNull();
  });

  it('redacted thinking is a quiet note, and nothing when thinking is not rendered', async () => {
    const m = assistantMsg([{ type: 'redacted_thinking', data: 'EuYBCkQYAiJA' }, { type: 'text', text: 'Answer' }]);
    const el = article(renderMessage(m, ctx));
    expect(text(el.querySelector('.thinking.redacted'))).toBe('Thinking withheld by the API (redacted)');
    expect(el.innerHTML).not.toContain('EuYBCkQYAiJA');
    const { ctx: noThinking } = await testContext({ renderThinking: false });
    expect(article(renderMessage(m, noThinking)).querySelector('.thinking')).toBeNull();
  });

  it('a server web search shows the query and the results as links, once', () => {
    const m = assistantMsg([
      { type: 'server_tool_use', id: 'srvtoolu_01', name: 'web_search', input: { query: 'astro content layer' } },
      { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_01', content: [
        { type: 'web_search_result', title: 'Content Layer', url: 'https://docs.astro.build/en/guides/content-collections/', page_age: 'April 2, 2025', encrypted_content: 'Eq0x' },
        { type: 'web_search_result', title: 'Astro 5', url: 'https://astro.build/blog/astro-5/', encrypted_content: 'Eq0y' },
      ] },
      { type: 'text', text: 'Found it.' },
    ]);
    const el = article(renderMessage(m, ctx));
    const frame = el.querySelector('[data-tool-use-id="srvtoolu_01"]');
    expect(frame?.getAttribute('data-tool')).toBe('web_search');
    expect(text(frame)).toContain('astro content layer');
    const links = [...el.querySelectorAll('ul.links a')];
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['https://docs.astro.build/en/guides/content-collections/', 'https://astro.build/blog/astro-5/']);
    expect(links[0].getAttribute('rel')).toContain('nofollow');
    expect(text(links[0])).toBe('Content Layer');
    expect(el.querySelectorAll('ul.links').length).toBe(1);
    expect(el.innerHTML).not.toContain('Eq0x');
  });

  it('a failed server search says so; a result without its call still shows its links', () => {
    const failed = article(renderMessage(assistantMsg([
      { type: 'server_tool_use', id: 's2', name: 'web_search', input: { query: 'q' } },
      { type: 'web_search_tool_result', tool_use_id: 's2', content: { type: 'web_search_tool_result_error', error_code: 'max_uses_exceeded' } },
    ]), ctx));
    expect(text(failed.querySelector('.tool-error'))).toBe('Search failed: max uses exceeded');
    const orphan = article(renderMessage(assistantMsg([{ type: 'web_search_tool_result', tool_use_id: 'gone', content: [{ type: 'web_search_result', title: 'T', url: 'https://example.com/' }] }]), ctx));
    expect(orphan.querySelector('.server-result a')?.getAttribute('href')).toBe('https://example.com/');
  });

  it('payloads in document and server tool fields are inert', () => {
    expectInert([
      ['document title', (p) => renderMessage(userMsg('x', 'prompt', { blocks: [{ type: 'document', title: p, context: p, source: { type: 'text', media_type: p, data: p } }] }), ctx)],
      ['document pdf', (p) => renderMessage(userMsg('x', 'prompt', { blocks: [{ type: 'document', title: p, source: { type: 'base64', media_type: 'application/pdf', data: Buffer.from(p).toString('base64') } }] }), ctx)],
      ['document url', (p) => renderMessage(userMsg('x', 'prompt', { blocks: [{ type: 'document', title: p, source: { type: 'url', url: p } }] }), ctx)],
      ['server search', (p) => renderMessage(assistantMsg([
        { type: 'server_tool_use', id: 's', name: p, input: { query: p, code: p } },
        { type: 'web_search_tool_result', tool_use_id: 's', content: [{ type: 'web_search_result', title: p, url: p, page_age: p }] },
      ]), ctx)],
      ['server error', (p) => renderMessage(assistantMsg([
        { type: 'server_tool_use', id: 's', name: 'web_search', input: { query: p } },
        { type: 'web_search_tool_result', tool_use_id: 's', content: { type: 'web_search_tool_result_error', error_code: p } },
      ]), ctx)],
      ['other server result', (p) => renderMessage(assistantMsg([
        { type: 'server_tool_use', id: 's', name: 'code_execution', input: { code: p } },
        { type: 'code_execution_tool_result', tool_use_id: 's', content: { type: 'code_execution_result', stdout: p } },
      ]), ctx)],
    ], ['document pdf', 'server error']);
  });
});

describe('Workflow run agents', () => {
  it('nests each agent of the run under the Workflow call, named by what it was asked (its type only when that says more)', () => {
    const call = toolCall('Workflow', { name: 'triage' }, { content: 'Task ID: wf1' });
    const answer = assistantMsg([{ type: 'text', text: 'Mapped 12 issues' }]);
    call.workflowAgents = [
      { agentId: 'w-a1', prompt: 'map', messages: [answer], turns: [], stats: { toolUseCount: 3, durationMs: 65000 }, agentType: 'workflow-subagent', description: 'map issues', workflowRunId: 'run1' },
      { agentId: 'w-a2', prompt: '**Sum** the open issues\n\nby label', messages: [answer], turns: [], stats: { toolUseCount: 1 }, agentType: 'triager', workflowRunId: 'run1' },
      { agentId: 'w-a3', prompt: '', messages: [], turns: [], stats: { toolUseCount: 0 }, workflowRunId: 'run1' },
      { agentId: 'w-a4', prompt: '', messages: [], turns: [], stats: { toolUseCount: 0 }, workflowRunId: 'run1', noTranscript: true, journalResult: 'web: 1 unused export' },
    ];
    const el = render(call);
    expect(text(el.querySelector('.workflow-agents .count'))).toBe('4 agents in this run · 1 without a transcript');
    const first = el.querySelector('details.workflow-agent[data-subagent="w-a1"]');
    expect(first?.hasAttribute('open')).toBe(false);
    expect(text(first?.querySelector('summary'))).toBe('map issues · 1 message · 1 min 5 s · 3 tool calls');
    expect(text(first?.querySelector('.subagent-body'))).toContain('Mapped 12 issues');
    expect(text(el.querySelector('details.workflow-agent[data-subagent="w-a2"] summary'))).toMatch(/^triager: Sum the open issues · 1 message/);
    expect(text(el.querySelector('details.workflow-agent[data-subagent="w-a3"] summary'))).toContain('Agent 3');
    const empty = el.querySelector('[data-workflow-agent="w-a4"]');
    expect(empty?.querySelector('details')).toBeNull();
    expect(text(empty)).toContain('Agent 4 · no transcript kept');
    expect(text(empty?.querySelector('.agent-result'))).toContain('web: 1 unused export');
  });
});
