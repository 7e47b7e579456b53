import { mkdtempSync, rmSync } from 'node:fs';
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
