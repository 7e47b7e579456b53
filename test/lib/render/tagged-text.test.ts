/**
 * Tags inside prompts (teammate messages, task notifications, IDE context,
 * reminders, command tags) rendered as what they mean: real prompts from the
 * corpus where it has them, documented shapes otherwise. A reader never sees
 * a raw tag.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { prepareMessages, renderMessage, type RenderContext } from '../../../src/lib/render/render-message.js';
import { hasPromptTags, splitTaggedText } from '../../../src/lib/transcript/prompt-tags.js';
import type { Message, UserMessage } from '../../../src/lib/transcript/types.js';
import { parse } from './dom.js';
import { corpusRoot, loadSessions, testContext } from '../../helpers/render.js';
import { jsonlFiles, rawEntries } from '../../helpers/shared.js';
import { userMsg } from './make.js';
import { expectInert } from './xss-check.js';

let ctx: RenderContext;
let corpusPrompts: UserMessage[] = [];
beforeAll(async () => {
  ({ ctx } = await testContext());
  const folders = new Set(['-Users-dain-workspace-danieldemmel-me-next', '-Users-dain-workspace-JSSoundRecorder', '-samples-session-share']);
  const sessions = await loadSessions(corpusRoot, (s) => folders.has(s.projectFolder));
  const all: Message[] = sessions.flatMap((s) => s.messages);
  await prepareMessages(all);
  corpusPrompts = all.filter((m): m is UserMessage => m.kind === 'user' && (m.userKind === 'prompt' || m.userKind === 'queued-prompt'));
});

const text = (el: Element | null | undefined) => (el?.textContent ?? '').replace(/\s+/g, ' ');
const RAW_TAG = /<\/?(teammate-message|task-notification|task-id|status|summary|result|local-command-caveat|system-reminder|ide_selection|ide_opened_file|command-name|command-message|command-args)\b/;

function renderPrompt(m: UserMessage): Element {
  const doc = parse(renderMessage(m, ctx));
  const el = doc.querySelector('article');
  expect(el).not.toBeNull();
  return el as Element;
}

/** The first corpus prompt whose text holds the tag (fails when the corpus has none). */
function corpusPrompt(tag: string): UserMessage {
  const m = corpusPrompts.find((p) => p.text.includes(`<${tag}>`));
  expect(m, `a corpus prompt with <${tag}>`).toBeDefined();
  return m as UserMessage;
}

/** The text of the first real `<task-notification>` queued in the corpus (queue-operation `content`). */
function queuedNotification(): string {
  for (const file of jsonlFiles(corpusRoot)) {
    for (const o of rawEntries(file, '<task-notification>')) {
      if (o.type === 'queue-operation' && typeof o.content === 'string') return o.content;
    }
  }
  throw new Error('no queued task notification in the corpus');
}


describe('tags in real prompts', () => {
  it('<ide_opened_file> becomes a chip naming the file; the prompt text stays', () => {
    const m = corpusPrompt('ide_opened_file');
    const path = /The user opened the file (.+?) in the IDE/.exec(m.text)![1];
    const el = renderPrompt(m);
    const chip = el.querySelector('p.ide-context');
    expect(text(chip)).toBe(`Opened ${path} in the IDE`);
    expect(chip?.querySelector('code.path')?.textContent).toBe(path);
    const rest = m.text.replace(/<ide_opened_file>[\s\S]*?<\/ide_opened_file>/, '').trim().split('\n')[0];
    expect(text(el.querySelector('.md'))).toContain(rest.replace(/\s+/g, ' ').replace(/[`*@]/g, '').slice(0, 15));
    expect(el.textContent).not.toMatch(RAW_TAG);
    expect(el.textContent).not.toContain('This may or may not be related');
  });

  it('<ide_selection> becomes a collapsed chip with the lines and file; the selection inside', () => {
    const m = corpusPrompt('ide_selection');
    const [, from, to, path, selected] = /selected the lines? (\d+) to (\d+) from (.+?):\n([\s\S]*?)\n\nThis may/.exec(m.text)!;
    const el = renderPrompt(m);
    const chip = el.querySelector('details.ide-context');
    expect(chip?.hasAttribute('open')).toBe(false);
    const lines = from === to ? `line ${from}` : `lines ${from}–${to}`;
    expect(text(chip?.querySelector('summary'))).toBe(`Selected ${lines} of ${path} in the IDE`);
    expect(chip?.querySelector('pre')?.textContent).toContain(selected.trim());
    expect(el.textContent).not.toMatch(RAW_TAG);
  });

  it('<task-notification> becomes a card: task id, status, summary, result collapsed', () => {
    // The corpus holds real notifications in queue-operation entries (the text that was delivered as the next prompt).
    const m = userMsg(queuedNotification());
    const id = /<task-id>(.*?)<\/task-id>/.exec(m.text)![1];
    const status = /<status>(.*?)<\/status>/.exec(m.text)![1];
    const summary = /<summary>([\s\S]*?)<\/summary>/.exec(m.text)![1];
    const el = renderPrompt(m);
    const card = el.querySelector('.task-notification');
    expect(card).not.toBeNull();
    expect(card!.querySelector('code')?.textContent).toBe(id);
    expect(text(card!.querySelector('.badge'))).toBe(status);
    expect(text(card!.querySelector('.task-notification-head'))).toContain(summary);
    const result = card!.querySelector('details.task-result');
    expect(result?.hasAttribute('open')).toBe(false);
    const resultFirst = /<result>\s*([^\n]+)/.exec(m.text)![1];
    expect(text(result)).toContain(resultFirst.slice(0, 30));
    expect(el.textContent).not.toMatch(RAW_TAG);
  });
});

describe('tags in documented shapes', () => {
  it('<teammate-message> becomes a quoted message from the teammate, with its summary and markdown body', () => {
    const m = userMsg('<teammate-message teammate_id="alice" color="blue" summary="relay tests complete">\nRelay coverage is now **96%**.\n- 10 tests for `deliver`\n</teammate-message>');
    const el = renderPrompt(m);
    const q = el.querySelector('blockquote.teammate-message');
    expect(q).not.toBeNull();
    expect(q!.classList.contains('teammate-blue')).toBe(true);
    expect(text(q!.querySelector('.teammate-from'))).toBe('Message from alice · relay tests complete');
    expect(q!.querySelector('strong:not(.teammate-from strong)')?.textContent ?? q!.querySelectorAll('strong')[1]?.textContent).toBe('96%');
    expect(q!.querySelector('li code')?.textContent).toBe('deliver');
    expect(el.textContent).not.toMatch(RAW_TAG);
  });

  it('several teammate messages in one prompt each get their card; a JSON notice reads as words', () => {
    const m = userMsg('<teammate-message teammate_id="bob" summary="done">Finished.</teammate-message>\n<teammate-message teammate_id="system">{"type":"teammate_terminated","message":"carol exited cleanly"}</teammate-message>');
    const el = renderPrompt(m);
    const cards = el.querySelectorAll('blockquote.teammate-message');
    expect(cards.length).toBe(2);
    expect(text(cards[1].querySelector('.teammate-from'))).toBe('Team notice');
    expect(text(cards[1].querySelector('.teammate-notice'))).toBe('teammate terminated: carol exited cleanly');
    expect(el.textContent).not.toContain('{"type"');
  });

  it('<system-reminder> is collapsed and labelled; <local-command-caveat> is dropped', () => {
    const m = userMsg('Fix the bug\n<system-reminder>The user edited a.ts</system-reminder>\n<local-command-caveat>Caveat: do not respond</local-command-caveat>');
    const el = renderPrompt(m);
    const r = el.querySelector('details.system-reminder');
    expect(r?.hasAttribute('open')).toBe(false);
    expect(text(r?.querySelector('summary'))).toBe('System reminder');
    expect(text(r)).toContain('The user edited a.ts');
    expect(el.textContent).not.toContain('Caveat: do not respond');
    expect(text(el.querySelector('.md'))).toContain('Fix the bug');
  });

  it('command tags inside a prompt become one command chip', () => {
    const m = userMsg('<command-message>review is running…</command-message>\n<command-name>/review</command-name>\n<command-args>PR 12</command-args>');
    const el = renderPrompt(m);
    expect(el.querySelectorAll('.command-chip').length).toBe(1);
    expect(text(el.querySelector('.command-chip code'))).toBe('/review PR 12');
    expect(el.textContent).not.toMatch(RAW_TAG);
  });

  it('a slash command shows the expanded text Claude received, collapsed under its chip', () => {
    const m = userMsg('<command-name>/init</command-name>', 'command', { command: { name: '/init', args: '', expansion: 'Please analyze this codebase and create a **CLAUDE.md** file' } as UserMessage['command'] });
    const doc = parse(renderMessage(m, ctx));
    const d = doc.querySelector('details.command-expansion');
    expect(d?.hasAttribute('open')).toBe(false);
    expect(text(d?.querySelector('summary'))).toContain('What Claude received');
    expect(d?.querySelector('strong')?.textContent).toBe('CLAUDE.md');
  });

  it('text without known tags renders as before; unknown or unclosed tags stay text', () => {
    expect(hasPromptTags('plain <div>text</div>')).toBe(false);
    expect(splitTaggedText('a <system-reminder>never closed')).toEqual([{ attrs: {}, body: 'a <system-reminder>never closed' }]);
    const el = renderPrompt(userMsg('use <T> generics and <system-reminder>open'));
    expect(el.textContent).toContain('<system-reminder>open');
  });
});

describe('tags in prompts: payloads are inert', () => {
  it('renders no executable markup from any tag field', () => {
    const at = (where: string, make: (p: string) => string): [string, (p: string) => string] => [where, (p) => renderMessage(userMsg(make(p)), ctx)];
    const esc = (p: string) => p.replace(/"/g, '&quot;');
    expectInert(
      [
        at('teammate body', (p) => `<teammate-message teammate_id="alice">${p}</teammate-message>`),
        at('teammate attrs', (p) => `<teammate-message teammate_id="${esc(p)}" color="${esc(p)}" summary="${esc(p)}">x</teammate-message>`),
        at('teammate attrs raw', (p) => `<teammate-message teammate_id='${p}' summary='${p}'>x</teammate-message>`),
        at('teammate notice', (p) => `<teammate-message teammate_id="system">${JSON.stringify({ type: p, message: p, from: p })}</teammate-message>`),
        at('task notification', (p) => `<task-notification><task-id>${p}</task-id><status>${p}</status><summary>${p}</summary><result>${p}</result><output-file>${p}</output-file><usage>${p}</usage></task-notification>`),
        at('system reminder', (p) => `<system-reminder>${p}</system-reminder>`),
        at('ide selection', (p) => `<ide_selection>The user selected the lines 1 to 2 from ${p}:\n${p}\n\nThis may or may not be related to the current task.</ide_selection>`),
        at('ide opened file', (p) => `<ide_opened_file>The user opened the file ${p} in the IDE.</ide_opened_file>`),
        at('command tags', (p) => `<command-name>${p}</command-name><command-args>${p}</command-args>`),
        at('text around tags', (p) => `${p}<system-reminder>x</system-reminder>${p}`),
        ['command expansion', (p) => renderMessage(userMsg('<command-name>/x</command-name>', 'command', { command: { name: '/x', args: '', expansion: p } as UserMessage['command'] }), ctx)],
      ],
      // Attribute values with a double quote cannot be one attribute: the tag is then shown as text (still inert).
      ['teammate attrs raw'],
    );
  });
});

describe('tags mentioned in prose', () => {
  it('a tag inside a sentence stays text; one at the start of a line is rendered', () => {
    const el = renderPrompt(userMsg('Why does <system-reminder>x</system-reminder> appear in my logs?'));
    expect(el.querySelector('details.system-reminder')).toBeNull();
    expect(el.textContent).toContain('<system-reminder>x</system-reminder>');
    const indented = renderPrompt(userMsg('<command-name>/exit</command-name>\n            <command-message>exit</command-message>\n            <command-args></command-args>'));
    expect(text(indented.querySelector('.command-chip'))).toBe('/exit');
  });
});
