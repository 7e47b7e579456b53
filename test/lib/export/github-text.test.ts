import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sessionToMarkdown } from '../../../src/lib/export/markdown.js';
import { markdownTwin } from '../../../src/lib/export/twin.js';
import { absoluteUrl, sessionUrl } from '../../../src/lib/site/urls.js';
import { LINE_TERMINATORS, RESULT_SENTINEL, liveOnGithub, renderLikeGithub, writeGithubTextSession } from '../../helpers/github-text.js';
import { fixtureSession } from '../../helpers/sessions.js';

const tmp = mkdtempSync(join(tmpdir(), 'sessionpress-github-text-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe.each(Object.entries(LINE_TERMINATORS))('export for GitHub: a %s in every text field', (name, terminator) => {
  const root = join(tmp, name);
  const id = `cafe00${name.length}${name.charCodeAt(0)}-0000-4000-8000-000000000001`;
  const { toolCalls } = writeGithubTextSession(root, id, terminator);

  it('leaves nothing live: no mention, image, handler, reference or backlink; each <details> holds its own tool call', async () => {
    const session = await fixtureSession(root, id);
    const [md] = sessionToMarkdown(session, {
      github: true,
      pageUrl: 'https://me.github.io/shop/sessions/x/',
      messageUrl: (uuid) => absoluteUrl(sessionUrl('/shop/', 'p/x', { message: uuid }), 'https://me.github.io'),
    });
    for (const [kind, doc] of Object.entries(renderLikeGithub(md))) {
      expect(liveOnGithub(doc), kind).toEqual([]);
      // The title is one heading, and the facts one list, whole.
      expect([...doc.querySelectorAll('h2')].map((h) => h.textContent!.slice(0, 7)), kind).toEqual(['Title X']);
      const facts = [...doc.querySelectorAll('ul')][0].textContent!;
      for (const fact of ['Project:', 'Models:', 'Pull request:', 'Full transcript:']) expect(facts, kind).toContain(fact);
      const details = [...doc.querySelectorAll('details')];
      expect(details.length, kind).toBe(toolCalls);
      // Nothing of ours is nested in another tool call's section, and every result stays in its own.
      expect(doc.querySelectorAll('details details').length, kind).toBe(0);
      const sentinels = [...doc.querySelectorAll('pre')].filter((p) => p.textContent?.includes(RESULT_SENTINEL));
      expect(sentinels.length, kind).toBe(toolCalls);
      for (const s of sentinels) expect(s.closest('details'), kind).not.toBeNull();
    }
    // The planted text is shown, not dropped: as text, with the URL pointing where it did without a backlink.
    const text = renderLikeGithub(md).sanitized.body.textContent!.replace(/\u200B/g, '');
    expect(text).toContain('@someone <img src=x onerror=alert(1)> </details> #12');
    expect(md).toContain('https://redirect.github.com/o/r/issues/2');
  });

  it('the Markdown twin (not for GitHub) keeps the same structure and shows no image', async () => {
    const session = await fixtureSession(root, id);
    const doc = renderLikeGithub(markdownTwin(session, {})).raw;
    expect(doc.querySelectorAll('img, script, iframe').length).toBe(0);
    expect(doc.querySelectorAll('details').length).toBe(toolCalls);
    expect(doc.querySelectorAll('details details').length).toBe(0);
  });
});

describe('a message cut to fit a part closes exactly the sections it opened', () => {
  // Tool outputs full of `</details>` lines (shown in fences) must not be counted as closing ours.
  const root = join(tmp, 'cut');
  const id = 'cafe0200-0000-4000-8000-000000000001';
  const dir = join(root, '-home-tester-work-widgets');
  mkdirSync(dir, { recursive: true });
  const common = { sessionId: id, cwd: '/home/tester/work/widgets', version: '2.1.90', isSidechain: false, userType: 'external' };
  const output = Array.from({ length: 40 }, (_, i) => (i % 4 === 0 ? '<details>' : '</details>')).join('\n');
  const calls = Array.from({ length: 6 }, (_, i) => ({ type: 'tool_use', id: `toolu_${i}`, name: 'Bash', input: { command: `echo ${i}` } }));
  const lines = [
    { ...common, parentUuid: null, type: 'user', uuid: 'u1', timestamp: '2026-03-01T10:00:00.000Z', message: { role: 'user', content: 'First' } },
    { ...common, parentUuid: 'u1', type: 'assistant', uuid: 'a1', timestamp: '2026-03-01T10:00:01.000Z', message: { id: 'msg_1', role: 'assistant', model: 'claude-sonnet-4-5', content: calls, usage: { input_tokens: 1, output_tokens: 1 } } },
    ...calls.map((c, i) => ({ ...common, parentUuid: i ? `r${i - 1}` : 'a1', type: 'user', uuid: `r${i}`, timestamp: '2026-03-01T10:00:02.000Z', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: c.id, content: `${output}\n${'x'.repeat(400)}` }] } })),
    { ...common, parentUuid: 'r5', type: 'user', uuid: 'u2', timestamp: '2026-03-01T10:00:03.000Z', message: { role: 'user', content: 'Second' } },
  ];
  writeFileSync(join(dir, `${id}.jsonl`), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);

  it.each([false, true])('github %s: after the cut, nothing is left inside a tool call\'s section', async (github) => {
    const session = await fixtureSession(root, id);
    const parts = sessionToMarkdown(session, { github, limit: 3_000, split: true });
    expect(parts.join('\n')).toMatch(/This message was cut to fit/);
    for (const part of parts) {
      const doc = renderLikeGithub(part).raw;
      expect(doc.querySelectorAll('details details').length).toBe(0);
      for (const el of doc.querySelectorAll('h3, hr')) expect(el.closest('details'), el.textContent!).toBeNull();
      for (const p of doc.querySelectorAll('p')) if (/^Part \d+ of \d+\.$/.test(p.textContent!)) expect(p.closest('details')).toBeNull();
    }
  });
});
