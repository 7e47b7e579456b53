/**
 * The reading layout: one header per assistant reply, tool calls as rows that
 * open in place, empty prompts kept only as anchors, long output previewed,
 * repeated blocks linked, changed words marked in diffs, subagents named.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createRenderContext, prepareMessages, renderTranscript, type RenderContext } from '../../../src/lib/render/render-message.js';
import { renderToolCall } from '../../../src/lib/render/render-tool.js';
import { summarizeToolCall } from '../../../src/lib/render/tool-summary.js';
import { PREVIEW_LINES, TOOL_ROW } from '../../../src/lib/render/tools/common.js';
import { INTERFACE_LABELS } from '../../../src/lib/render/interface-labels.js';
import { callsOf, firstCall, tur } from '../../helpers/corpus-calls.js';
import { testContext } from '../../helpers/render.js';
import { parse } from './dom.js';
import { assistantMsg, toolCall, userMsg, withCall } from './make.js';

let ctx: RenderContext;
beforeAll(async () => {
  ({ ctx } = await testContext());
});

const text = (el: Element | null | undefined) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();

describe('one header per assistant reply', () => {
  it('gives the first message of a reply the header; the rest keep their ids, anchors and permalinks', () => {
    const prompt = userMsg('do it');
    const a = assistantMsg([{ type: 'text', text: 'First I look.' }]);
    const calls = [toolCall('Read', { file_path: '/a.ts' }, { content: '1→x' }), toolCall('Glob', { pattern: '*.ts' }, { content: 'a.ts' })];
    const b = withCall(calls[0]);
    const c = withCall(calls[1]);
    const d = assistantMsg([{ type: 'text', text: 'Done.' }]);
    const doc = parse(renderTranscript([prompt, a, b, c, d], ctx));
    const articles = [...doc.querySelectorAll('article[data-kind="assistant"]')];
    expect(articles.map((e) => e.getAttribute('data-uuid'))).toEqual([a.uuid, b.uuid, c.uuid, d.uuid]);
    // One visible "Claude · model · time" header (and heading) for the whole reply.
    expect(doc.querySelectorAll('article[data-kind="assistant"] > header.msg-head').length).toBe(1);
    expect(doc.querySelectorAll('article[data-kind="assistant"] h3').length).toBe(1);
    expect(articles[0].querySelector(':scope > header.msg-head .model')).not.toBeNull();
    expect(articles[0].querySelector(`:scope > header.msg-head > h3#m-${a.uuid}`)).not.toBeNull();
    for (const el of articles.slice(1)) {
      expect(el.classList.contains('cont')).toBe(true);
      const uuid = el.getAttribute('data-uuid');
      // The anchor is the article itself; its permalink is its first child.
      expect(el.id).toBe(`m-${uuid}`);
      expect(el.firstElementChild?.matches(`a[href="#m-${uuid}"][aria-label]`)).toBe(true);
      expect(el.querySelector('time')).toBeNull();
    }
    // Each call still has its own anchor.
    for (const call of calls) expect(doc.getElementById(`t-${call.id}`)?.getAttribute('data-tool-use-id')).toBe(call.id);
  });

  it('starts a new header when the model changes or something else was shown between', () => {
    const a = assistantMsg([{ type: 'text', text: 'one' }], [], { model: 'model-a' });
    const b = assistantMsg([{ type: 'text', text: 'two' }], [], { model: 'model-b' });
    const p = userMsg('next');
    const c = assistantMsg([{ type: 'text', text: 'three' }], [], { model: 'model-b' });
    const doc = parse(renderTranscript([a, b, p, c], ctx));
    expect(doc.querySelectorAll('article[data-kind="assistant"] > header.msg-head').length).toBe(3);
  });
});

describe('prompts', () => {
  it('keeps an empty prompt as an anchor with its number, never as an empty box', () => {
    const empty = userMsg('   ');
    // A fresh context: prompts are numbered in the order it first renders them.
    const fresh = createRenderContext({ emitAsset: () => '/a.png' });
    const doc = parse(renderTranscript([userMsg('first'), empty, assistantMsg([{ type: 'text', text: 'ok' }])], fresh));
    const el = doc.getElementById(`m-${empty.uuid}`)!;
    expect(el).not.toBeNull();
    expect(el.hasAttribute('hidden')).toBe(true);
    expect(el.getAttribute('data-kind')).toBe('prompt');
    expect(el.getAttribute('data-prompt')).toBe('2');
    expect(el.textContent).toBe('');
    expect([...doc.querySelectorAll('h2.msg-title')].map((h) => h.textContent)).toEqual(['Prompt 1']);
  });
});

describe('tool calls as rows', () => {
  it('shows the tool, key argument and outcome of summarizeToolCall in a summary that opens in place', () => {
    const call = firstCall('Bash', (c) => !!c.result && !c.result.isError && typeof tur(c)?.stdout === 'string');
    const el = parse(renderToolCall(call, ctx)).querySelector(`[data-tool-use-id="${call.id}"]`)!;
    const s = summarizeToolCall(call);
    expect(el.tagName).toBe('DETAILS');
    expect(el.hasAttribute('open')).toBe(false);
    expect(el.querySelector(':scope > summary')).not.toBeNull();
    expect(text(el.querySelector(TOOL_ROW.name))).toBe(s.tool);
    expect(text(el.querySelector(TOOL_ROW.target))).toBe(s.target!.replace(/\s+/g, ' '));
    expect(text(el.querySelector(TOOL_ROW.outcome))).toBe(s.outcome);
    // Labels stay out of search excerpts (by the selectors search skips); the key argument is content.
    const skipped = (part: Element | null) => !!part && INTERFACE_LABELS.some((sel) => part.matches(sel));
    expect(skipped(el.querySelector(TOOL_ROW.name))).toBe(true);
    expect(skipped(el.querySelector(TOOL_ROW.outcome))).toBe(true);
    expect(skipped(el.querySelector(TOOL_ROW.target))).toBe(false);
  });

  it('opens edits (their diff is the point) unless they failed', () => {
    const ok = firstCall('Edit', (c) => !!c.result && !c.result.isError);
    const failed = firstCall('Edit', (c) => !!c.result?.isError);
    expect(parse(renderToolCall(ok, ctx)).querySelector('details.tool')?.hasAttribute('open')).toBe(true);
    expect(parse(renderToolCall(failed, ctx)).querySelector('details.tool')?.hasAttribute('open')).toBe(false);
  });

  it('links a long output shown again on the same page to the call that showed it first', async () => {
    const read = firstCall('Read', (c) => !!c.result && !c.result.isError && typeof tur(c)?.file?.content === 'string' && tur(c).file.content.length > 3000);
    const again = { ...read, id: `${read.id}x` };
    const page = createRenderContext({ emitAsset: () => '/a.png' });
    await prepareMessages([withCall(read)]);
    const doc = parse(renderTranscript([withCall(read), withCall(again)], page));
    const second = doc.getElementById(`t-${again.id}`)!;
    expect(second.querySelector('.repeat a')?.getAttribute('href')).toBe(`#t-${read.id}`);
    expect(doc.getElementById(`t-${read.id}`)?.querySelector('.repeat')).toBeNull();
    expect(second.textContent!.length).toBeLessThan(doc.getElementById(`t-${read.id}`)!.textContent!.length / 4);
  });

  it('looks at the whole of a long output to find its repeat only when another call on the page had the same input', async () => {
    const read = firstCall('Read', (c) => !!c.result && !c.result.isError && typeof tur(c)?.file?.content === 'string' && tur(c).file.content.length > 3000);
    let serialised = 0;
    // The structured result says when it is serialised; the page reads its fields, never its JSON, apart from the repeat check.
    const counted = (id: string, path: string) => {
      const data = { ...tur(read), file: { ...tur(read).file, filePath: path } };
      Object.defineProperty(data, 'toJSON', { enumerable: false, value: () => (serialised++, { ...data }) });
      return { ...read, id, input: { ...read.input, file_path: path }, result: { ...read.result!, toolUseResult: data } };
    };
    const page = createRenderContext({ emitAsset: () => '/a.png' });
    const first = counted(`${read.id}a`, '/repo/a.ts');
    await prepareMessages([withCall(first)]);
    renderTranscript([withCall(first), withCall(counted(`${read.id}b`, '/repo/b.ts'))], page);
    expect(serialised, 'two files read once each: no output is a repeat').toBe(0);
    const doc = parse(renderTranscript([withCall(counted(`${read.id}c`, '/repo/c.ts')), withCall(counted(`${read.id}d`, '/repo/c.ts'))], page));
    expect(serialised, 'one file read twice: both outputs looked at').toBe(2);
    expect(doc.getElementById(`t-${read.id}d`)?.querySelector('.repeat a')?.getAttribute('href')).toBe(`#t-${read.id}c`);
  });
});

describe('long output', () => {
  it(`shows the first ${PREVIEW_LINES} lines of a long Read, the rest behind "show more", numbered on`, () => {
    const call = firstCall('Read', (c) => !!c.result && !c.result.isError && tur(c)?.file?.numLines > 60);
    const el = parse(renderToolCall(call, ctx)).querySelector('.tool-output .preview')!;
    expect(el).not.toBeNull();
    const start = tur(call).file.startLine ?? 1;
    const head = el.querySelector(':scope > pre .gutter')!.textContent!.split('\n');
    expect(head).toHaveLength(PREVIEW_LINES);
    expect(head[0]).toBe(String(start));
    const rest = el.querySelector(':scope > details.more pre .gutter')!.textContent!.split('\n');
    expect(rest[0]).toBe(String(start + PREVIEW_LINES));
    expect(text(el.querySelector(':scope > details.more > summary'))).toBe(`Show ${tur(call).file.numLines - PREVIEW_LINES} more lines`);
  });
});

describe('Edit diffs', () => {
  it('marks the changed words of a changed line, and leaves unrelated rewrites unmarked', () => {
    const call = toolCall('Edit', { file_path: '/a.py', old_string: 'total = compute(items, fast=True)\n', new_string: 'total = compute(items, fast=False)\n' }, { content: 'ok' });
    const doc = parse(renderToolCall(call, ctx));
    expect([...doc.querySelectorAll('pre.diff del mark')].map((m) => m.textContent)).toEqual(['True']);
    expect([...doc.querySelectorAll('pre.diff ins mark')].map((m) => m.textContent)).toEqual(['False']);
    const rewrite = toolCall('Edit', { file_path: '/a.py', old_string: 'alpha beta gamma\n', new_string: 'one two three four\n' }, { content: 'ok' });
    expect(parse(renderToolCall(rewrite, ctx)).querySelector('pre.diff mark')).toBeNull();
  });

  it('marks words in real corpus edits that change part of a line', () => {
    const calls = callsOf('Edit', (c) => !!c.result && !c.result.isError && typeof c.input.old_string === 'string' && !(c.input.old_string as string).includes('\n') && typeof c.input.new_string === 'string' && !(c.input.new_string as string).includes('\n'));
    expect(calls.length).toBeGreaterThan(0);
    let marked = 0;
    for (const call of calls) {
      const doc = parse(renderToolCall(call, ctx));
      for (const m of doc.querySelectorAll('pre.diff del mark')) {
        expect(call.input.old_string as string).toContain(m.textContent!);
        marked++;
      }
    }
    expect(marked).toBeGreaterThan(0);
  });
});

describe('subagents', () => {
  it('names a nested transcript by its agent, in its summary label and a label that stays in view', () => {
    const inner = assistantMsg([{ type: 'text', text: 'working' }]);
    const call = toolCall('Task', { description: 'Find the bug', subagent_type: 'Explore', prompt: 'look' }, { content: 'found it' });
    call.subagent = { prompt: 'look', messages: [inner], turns: [], stats: { toolUseCount: 0 }, agentType: 'Explore', description: 'Find the bug' };
    const doc = parse(renderToolCall(call, ctx));
    const sub = doc.querySelector('[data-subagent]')!;
    expect(sub).not.toBeNull();
    expect(text(sub.querySelector('.subagent-label'))).toBe('Subagent · Explore: Find the bug');
    // A label: kept out of search by the selectors search skips.
    expect(INTERFACE_LABELS.some((s) => sub.querySelector('.subagent-label')!.matches(s))).toBe(true);
    expect(text(sub.querySelector(':scope > summary'))).toMatch(/^Transcript · 1 message\b/);
    expect(sub.querySelector(`[data-uuid="${inner.uuid}"]`)).not.toBeNull();
  });
});
