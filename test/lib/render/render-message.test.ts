/** The message renderer and its HTML contract, on hand-built messages and real sessions. */
import { PERMALINK } from '../../../src/lib/render/interface-labels.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRenderContext, prepareMessages, renderMessage, renderTranscript, type RenderContext } from '../../../src/lib/render/render-message.js';
import type { Message, Session } from '../../../src/lib/transcript/types.js';
import { parse } from './dom.js';
import { corpusRoot, fixturesRoot, loadExpect, loadSessions, testContext } from '../../helpers/render.js';
import { assistantMsg, systemMsg, toolCall, userMsg, withCall } from './make.js';

let ctx: RenderContext;
beforeAll(async () => {
  ({ ctx } = await testContext());
});

function article(htmlText: string): Element {
  const doc = parse(htmlText);
  const a = doc.querySelectorAll('article.msg');
  expect(a.length).toBe(1);
  return a[0];
}

describe('HTML contract', () => {
  it('wraps every message in an article with id, uuid, kind and permalink', () => {
    const m = userMsg('hello');
    const el = article(renderMessage(m, ctx, { promptIndex: 3 }));
    // Prompts and assistant messages carry the permalink id on their heading, for search sub-results.
    expect(el.querySelector('.msg-title')?.id).toBe(`m-${m.uuid}`);
    expect(el.getAttribute('data-uuid')).toBe(m.uuid);
    expect(el.getAttribute('data-kind')).toBe('prompt');
    expect(el.classList.contains('msg-prompt')).toBe(true);
    expect(el.getAttribute('data-prompt')).toBe('3');
    expect(el.querySelector(`h2#m-${el.getAttribute('data-uuid')}`)).not.toBeNull();
    const link = el.querySelector(PERMALINK);
    expect(link?.getAttribute('href')).toBe(`#m-${m.uuid}`);
    expect(link?.getAttribute('aria-label')).toBe('Link to this message');
    // The copy-link button is the page script's; the HTML holds none.
    expect(el.querySelector('button')).toBeNull();
    expect(el.querySelector('.md')?.getAttribute('data-pagefind-weight')).toBe('5');
  });

  it('gives each kind its data-kind', () => {
    const cases: Array<[Message, string]> = [
      [assistantMsg([{ type: 'text', text: 'hi' }]), 'assistant'],
      [userMsg('x', 'command', { command: { name: '/status', args: '', output: 'ok' } }), 'command'],
      [userMsg('<bash-input>ls</bash-input>', 'bash-input'), 'bash'],
      [userMsg('<bash-stdout>a</bash-stdout><bash-stderr></bash-stderr>', 'bash-output'), 'bash'],
      [userMsg('[Request interrupted by user]', 'interruption'), 'interruption'],
      [{ kind: 'compaction', uuid: 'c1', summary: 'sum', trigger: 'auto', preTokens: 1000, line: 1 }, 'compaction'],
      [systemMsg('informational', 'note'), 'system'],
      [systemMsg('api_error', '', { cause: { code: 'ECONNRESET' }, retryAttempt: 2, maxRetries: 10, retryInMs: 1200 }), 'api-error'],
      [assistantMsg([{ type: 'text', text: 'API Error: 500' }], [], { assistantKind: 'api-error' }), 'api-error'],
      [userMsg('orphan output', 'tool-result'), 'tool-result'],
    ];
    for (const [m, kind] of cases) {
      const el = article(renderMessage(m, ctx));
      expect(el.getAttribute('data-kind'), kind).toBe(kind);
      expect(el.classList.contains(`msg-${kind}`)).toBe(true);
    }
  });

  it('hides meta caveats and synthetic filler', () => {
    expect(renderMessage(userMsg('<local-command-caveat>x</local-command-caveat>', 'meta'), ctx)).toBe('');
    expect(renderMessage(assistantMsg([{ type: 'text', text: 'No response requested.' }], [], { assistantKind: 'synthetic', model: '<synthetic>' }), ctx)).toBe('');
  });

  it('shows API retries plainly', () => {
    const el = article(renderMessage(systemMsg('api_error', '', { cause: { code: 'FailedToOpenSocket' }, retryAttempt: 2, maxRetries: 10, retryInMs: 530 }), ctx));
    expect(el.textContent).toContain('FailedToOpenSocket');
    expect(el.textContent).toContain('retry 2 of 10');
  });

  it('collapses thinking with its length and keeps it out of search by default', async () => {
    const thinking = 'x'.repeat(1234);
    const el = article(renderMessage(assistantMsg([{ type: 'thinking', thinking }, { type: 'text', text: 'answer' }]), ctx));
    const d = el.querySelector('details.thinking');
    expect(d).not.toBeNull();
    expect(d!.hasAttribute('open')).toBe(false);
    expect(d!.querySelector('summary')?.textContent).toBe('Thinking · 1,234 chars');
    expect(d!.hasAttribute('data-pagefind-ignore')).toBe(true);
    expect(el.querySelector('.md[data-pagefind-weight="3"]')?.textContent?.trim()).toBe('answer');
    const { ctx: indexing } = await testContext({ indexThinking: true });
    expect(parse(renderMessage(assistantMsg([{ type: 'thinking', thinking }]), indexing)).querySelector('details.thinking')?.hasAttribute('data-pagefind-ignore')).toBe(false);
    const { ctx: hidden } = await testContext({ renderThinking: false });
    expect(parse(renderMessage(assistantMsg([{ type: 'thinking', thinking }, { type: 'text', text: 'a' }]), hidden)).querySelector('.thinking')).toBeNull();
  });

  it('renders tool calls inside their assistant message, in block order', () => {
    const call = toolCall('Bash', { command: 'echo hi', description: 'say hi' }, { content: 'hi', toolUseResult: { stdout: 'hi', stderr: '', interrupted: false } });
    const m = assistantMsg([{ type: 'text', text: 'before' }, { type: 'tool_use', id: call.id, name: call.name, input: call.input }, { type: 'text', text: 'after' }], [call]);
    const el = article(renderMessage(m, ctx));
    // The blocks sit in the article after its header, in order (no body wrapper).
    const children = [...el.children].filter((c) => !c.matches('header')).map((c) => (c.hasAttribute('data-tool') ? 'tool' : c.textContent?.trim()));
    expect(children).toEqual(['before', 'tool', 'after']);
  });

  it('shows a compaction as a divider whose summary opens', () => {
    const el = article(renderMessage({ kind: 'compaction', uuid: 'c2', summary: '## Summary\n\nwork so far', trigger: 'manual', preTokens: 15808, line: 1 }, ctx));
    expect(el.querySelector('.divider')).not.toBeNull();
    const d = el.querySelector('details.compaction-summary');
    expect(d?.querySelector('summary')?.textContent).toContain('15,808 tokens');
    expect(d?.textContent).toContain('work so far');
  });

  it('shows slash commands as a command line with their output', () => {
    const el = article(renderMessage(userMsg('x', 'command', { command: { name: '/model', args: 'opus', output: 'Set model to \u001b[1mopus\u001b[22m' } }), ctx));
    expect(el.querySelector('.command-line')?.textContent).toBe('/model opus');
    expect(el.querySelector('.command-output')?.textContent).toContain('Set model to opus');
    expect(el.innerHTML).not.toContain('\u001b');
  });

  it('writes pasted images as assets, never inline', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5f0f1b10000000049454e44ae426082', 'hex');
    const { ctx: c, assets } = await testContext();
    const m = userMsg('look [Image #1]', 'prompt', { blocks: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: png.toString('base64') } }] });
    const out = renderMessage(m, c);
    expect(assets.written).toHaveLength(1);
    expect(assets.written[0].mediaType).toBe('image/png');
    const img = parse(out).querySelector('img');
    expect(img?.getAttribute('src')).toBe(assets.written[0].url);
    expect(img?.getAttribute('alt')).toMatch(/Pasted image/);
    expect(out).not.toContain('base64');
  });
});

describe('prompt numbering', () => {
  it('matches Turn.index when the transcript is rendered in pieces', async () => {
    const sessions = await loadSessions(corpusRoot);
    const session = sessions.find((s) => s.turns.filter((t) => t.prompt).length >= 3) as Session;
    expect(session).toBeDefined();
    const c = createRenderContext({ emitAsset: () => '/a.png', turns: session.turns });
    const lazy = createRenderContext({ emitAsset: () => '/a.png' });
    for (const turn of session.turns) {
      if (!turn.prompt) continue;
      // Render each turn on its own, in two halves, as the site's paginator does.
      const half = Math.ceil(turn.messages.length / 2);
      for (const cc of [c, lazy]) {
        const out = renderTranscript(turn.messages.slice(0, half), cc) + renderTranscript(turn.messages.slice(half), cc);
        const el = parse(out).querySelector(`[data-uuid="${turn.prompt.uuid}"]`);
        expect(el?.getAttribute('data-prompt')).toBe(String(turn.index));
        expect(el?.querySelector(`h2#m-${turn.prompt!.uuid}`)).not.toBeNull();
      }
    }
  });
});

describe('real sessions', () => {
  it('renders every visible message of every corpus session exactly once, with unique ids', async () => {
    const sessions = await loadSessions(corpusRoot);
    expect(sessions.length).toBeGreaterThan(20);
    let checked = 0;
    for (const s of sessions) {
      await prepareMessages(s.messages);
      const c = createRenderContext({ emitAsset: () => '/assets/x.png', turns: s.turns });
      const doc = parse(renderTranscript(s.messages, c));
      const ids = [...doc.querySelectorAll('[id^="m-"]')].map((a) => a.id);
      expect(new Set(ids).size, s.file).toBe(ids.length);
      for (const m of s.messages) {
        const hidden = (m.kind === 'user' && m.userKind === 'meta') || (m.kind === 'assistant' && m.assistantKind === 'synthetic');
        const el = doc.getElementById(`m-${m.uuid}`)?.closest('[data-uuid]');
        if (hidden) continue;
        // An assistant message with no visible blocks (e.g. empty text) may render nothing.
        if (!el && m.kind === 'assistant' && m.blocks.every((b) => b.type === 'text' && !String((b as { text?: string }).text ?? '').trim())) continue;
        expect(el, `${s.file} ${m.kind} ${m.uuid}`).not.toBeNull();
        checked++;
      }
      // Every tool call of the session appears once, with its contract attributes.
      for (const m of s.messages) {
        if (m.kind !== 'assistant' || m.assistantKind !== 'normal') continue;
        for (const call of m.toolCalls) expect(doc.querySelectorAll(`[data-tool-use-id="${call.id.replace(/"/g, '\\"')}"]`).length, call.id).toBe(1);
      }
    }
    expect(checked).toBeGreaterThan(500);
  }, 300_000);

  it('renders the big fixture session with its first and last prompt markers', async () => {
    const big = loadExpect().big;
    const [session] = await loadSessions(fixturesRoot, (s) => s.projectFolder === big.file.split('/')[1]);
    await prepareMessages(session.messages);
    const c = createRenderContext({ emitAsset: () => '/assets/x.png', turns: session.turns, finalSanitize: false });
    const out = renderTranscript(session.messages, c);
    const doc = parse(out);
    expect(doc.querySelectorAll('article[data-prompt]').length).toBe(big.human_prompts);
    expect(doc.querySelectorAll('[data-tool-use-id]').length).toBe(big.tool_calls);
    expect(doc.body.textContent).toContain(big.first_prompt_marker);
    expect(doc.body.textContent).toContain(big.last_prompt_marker);
  }, 300_000);
});
