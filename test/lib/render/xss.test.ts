/**
 * Every XSS payload of the fixtures, rendered in every position transcript text
 * can take: nothing executable may survive, and the payload's marker must still
 * be readable as text.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createMarkdownRenderer } from '../../../src/lib/render/markdown.js';
import { renderToolCall } from '../../../src/lib/render/render-tool.js';
import { prepareMessages, renderMessage, renderTranscript, type RenderContext } from '../../../src/lib/render/render-message.js';
import type { Message, ToolCall } from '../../../src/lib/transcript/types.js';
import { eventHandlerAttributes, forbiddenMatches, parse } from './dom.js';
import { fixturesRoot, loadExpect, loadSessions, testContext } from '../../helpers/render.js';
import { assistantMsg, systemMsg, toolCall, userMsg, withCall } from './make.js';

const expectJson = loadExpect();
const xss = expectJson.xss as { forbidden_selectors: string[]; payloads: Array<{ id: string; marker: string; payload: string }> };

let ctx: RenderContext;
beforeAll(async () => {
  ({ ctx } = await testContext({ indexToolOutput: true }));
});

/** The positions a payload is put in: each returns rendered HTML. */
function positions(p: string): Array<[string, () => string]> {
  const bash = (tur: unknown, content: string, isError = false) => toolCall('Bash', { command: 'ls', description: p }, { content, isError, toolUseResult: tur });
  const calls: Array<[string, ToolCall]> = [
    ['bash command', toolCall('Bash', { command: p, description: 'run' }, { content: 'ok' })],
    ['bash stdout', bash({ stdout: p, stderr: p, interrupted: false }, p)],
    ['bash error', bash(undefined, p, true)],
    ['read path+content', toolCall('Read', { file_path: p }, { content: `     1→${p}\n     2→x`, toolUseResult: { type: 'text', file: { filePath: p, content: p, startLine: 1, numLines: 1 } } })],
    ['read numbered only', toolCall('Read', { file_path: `/x/${p}.ts` }, { content: `     1→${p}` })],
    ['write', toolCall('Write', { file_path: p, content: p }, { content: `File created successfully at: ${p}`, toolUseResult: { type: 'create', filePath: p, content: p, structuredPatch: [] } })],
    ['edit computed', toolCall('Edit', { file_path: p, old_string: p, new_string: `${p}\n${p}` }, { content: p })],
    ['edit patch', toolCall('Edit', { file_path: 'a.html', old_string: 'a', new_string: p }, { content: 'ok', toolUseResult: { structuredPatch: [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: [`-${p}`, `+${p}`] }] } })],
    ['multiedit', toolCall('MultiEdit', { file_path: p, edits: [{ old_string: p, new_string: p + 'x' }] }, { content: p, isError: true })],
    ['grep', toolCall('Grep', { pattern: p, path: p, glob: p }, { content: p, toolUseResult: { mode: 'files_with_matches', filenames: [p], numFiles: 1 } })],
    ['grep content', toolCall('Grep', { pattern: p, output_mode: 'content' }, { content: p, toolUseResult: { mode: 'content', content: p, numLines: 1 } })],
    ['glob', toolCall('Glob', { pattern: p }, { content: p, toolUseResult: { filenames: [p], numFiles: 1 } })],
    ['ls', toolCall('LS', { path: p }, { content: p })],
    ['todo', toolCall('TodoWrite', { todos: [{ content: p, status: 'in_progress', activeForm: p }, { content: p, status: p }] }, { content: 'ok' })],
    ['task', toolCall('Task', { description: p, subagent_type: p, prompt: p }, { content: [{ type: 'text', text: p }] })],
    ['webfetch', toolCall('WebFetch', { url: p, prompt: p }, { content: p, toolUseResult: { url: p, result: p, code: 200 } })],
    ['websearch', toolCall('WebSearch', { query: p }, { content: p, toolUseResult: { query: p, results: [p, { tool_use_id: 'x', content: [{ title: p, url: p }] }] } })],
    ['ask', toolCall('AskUserQuestion', { questions: [{ question: p, header: p, options: [{ label: p, description: p }], multiSelect: false }] }, { content: p, toolUseResult: { answers: { [p]: p } } })],
    ['plan', toolCall('ExitPlanMode', { plan: p }, { content: p })],
    ['notebook', toolCall('NotebookEdit', { notebook_path: p, new_source: p, cell_type: 'markdown' }, { content: p })],
    ['skill', toolCall('Skill', { skill: p }, { content: p })],
    ['bashoutput', toolCall('BashOutput', { bash_id: p }, { content: p, toolUseResult: { shellId: p, command: p, status: p, stdout: p, stderr: p } })],
    ['kill', toolCall('KillShell', { shell_id: p }, { content: p, toolUseResult: { message: p } })],
    ['taskcreate', toolCall('TaskCreate', { subject: p, description: p }, { content: p })],
    ['taskupdate', toolCall('TaskUpdate', { taskId: p, status: p }, { content: p })],
    ['slashcommand', toolCall('SlashCommand', { command: p }, { content: p })],
    ['tasklist', toolCall('TaskList', {}, { content: p, toolUseResult: { tasks: [{ id: p, subject: p, status: p, owner: p }] } })],
    ['mcp', toolCall(`mcp__${p}__tool`, { [p]: p }, { content: [{ type: 'text', text: p }] })],
    ['unknown tool', toolCall(p, { [p]: p }, { content: p })],
  ];
  return [
    ['prompt', () => renderMessage(userMsg(p), ctx)],
    ['queued prompt', () => renderMessage(userMsg(p, 'queued-prompt'), ctx)],
    ['assistant markdown', () => renderMessage(assistantMsg([{ type: 'text', text: p }]), ctx)],
    ['thinking', () => renderMessage(assistantMsg([{ type: 'thinking', thinking: p }]), ctx)],
    ['api error', () => renderMessage(assistantMsg([{ type: 'text', text: p }], [], { assistantKind: 'api-error' }), ctx)],
    ['command', () => renderMessage(userMsg(p, 'command', { command: { name: `/${p}`, args: p, output: p } }), ctx)],
    ['bash input', () => renderMessage(userMsg(`<bash-input>${p}</bash-input>`, 'bash-input'), ctx)],
    ['bash output', () => renderMessage(userMsg(`<bash-stdout>${p}</bash-stdout><bash-stderr>${p}</bash-stderr>`, 'bash-output'), ctx)],
    ['interruption', () => renderMessage(userMsg(p, 'interruption'), ctx)],
    ['orphan result', () => renderMessage(userMsg(p, 'tool-result'), ctx)],
    ['system', () => renderMessage(systemMsg(p, p, { level: p }), ctx)],
    ['compaction', () => renderMessage({ kind: 'compaction', uuid: 'c-1', summary: p, trigger: p, line: 1 }, ctx)],
    ['markdown renderer', () => createMarkdownRenderer().render(p)],
    ...calls.map(([name, call]): [string, () => string] => [`tool ${name}`, () => renderMessage(withCall(call), ctx)]),
    ...calls.slice(0, 3).map(([name, call]): [string, () => string] => [`standalone ${name}`, () => renderToolCall(call, ctx)]),
  ];
}

describe('XSS payloads from EXPECT.json', () => {
  it('has payloads to test', () => {
    expect(xss.payloads.length).toBeGreaterThan(10);
    expect(xss.forbidden_selectors.length).toBeGreaterThan(5);
  });

  for (const payload of xss.payloads) {
    it(`${payload.id} is inert in every position`, () => {
      const rendered = positions(payload.payload).map(([where, render]) => ({ where, out: render() }));
      // One parse for all positions keeps this fast: each output sits in its own wrapper.
      const doc = parse(rendered.map((r, i) => `<div data-pos="${i}">${r.out}</div>`).join('\n'));
      const bad = (root: ParentNode & Node) => [
        ...forbiddenMatches(root as Document, xss.forbidden_selectors),
        ...eventHandlerAttributes(root as Document),
        ...(root.querySelector('[style]') ? ['[style]'] : []),
      ];
      if (bad(doc).length) {
        for (let i = 0; i < rendered.length; i++) {
          const pos = doc.querySelector(`[data-pos="${i}"]`);
          expect(pos ? bad(pos) : ['missing wrapper'], `${payload.id} as ${rendered[i].where}`).toEqual([]);
        }
      }
      // A payload that carries its marker must still show it to the reader, in every position.
      if (payload.payload.includes(payload.marker)) {
        for (let i = 0; i < rendered.length; i++) {
          const text = doc.querySelector(`[data-pos="${i}"]`)?.textContent ?? '';
          expect(text, `${payload.id} as ${rendered[i].where}: marker visible`).toContain(payload.marker);
        }
      }
    });
  }

  it('shows raw HTML in markdown as text', () => {
    const doc = parse(renderMessage(userMsg('before <b>bold</b> <div class="x">block</div> after'), ctx));
    expect(doc.querySelector('.md b')).toBeNull();
    expect(doc.querySelector('.md div.x')).toBeNull();
    expect(doc.querySelector('.md')?.textContent).toContain('<b>bold</b>');
  });

  it('renders the XSS fixture session without anything executable', async () => {
    const folder = (expectJson.xss.file as string).split('/')[1];
    const sessions = await loadSessions(fixturesRoot, (s) => s.projectFolder === folder);
    expect(sessions.length).toBe(1);
    const messages: Message[] = [...sessions[0].messages, ...sessions[0].abandoned.flatMap((b) => b.messages)];
    await prepareMessages(messages);
    const out = renderTranscript(messages, ctx);
    const doc = parse(out);
    expect(forbiddenMatches(doc, xss.forbidden_selectors)).toEqual([]);
    expect(eventHandlerAttributes(doc)).toEqual([]);
    expect(doc.querySelector('[src^="data:" i], [href^="data:" i]')).toBeNull();
    // Markers of payloads that sit in rendered message text (not in cwd/gitBranch, which the page frame shows).
    const text = doc.body.textContent ?? '';
    const inMessages = xss.payloads.filter((p: any) =>
      p.payload.includes(p.marker) && (p.found_in as string[]).some((f) => /message\.content|toolUseResult/.test(f)),
    );
    expect(inMessages.length).toBeGreaterThan(5);
    for (const p of inMessages) expect(text, p.id).toContain(p.marker);
  });
});
