import { marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { openSessionById } from '../../../src/lib/build/open-session.js';
import { GITHUB_COMMENT_LIMIT, sessionToMarkdown } from '../../../src/lib/export/markdown.js';
import { markdownTwin, twinParts } from '../../../src/lib/export/twin.js';
import { sessionUrlFromMarkdown } from '../../../src/lib/site/urls.js';
import { isContinuation, paginateTurns } from '../../../src/lib/site/pages.js';
import { corpusRoot } from '../../helpers/shared.js';

// A corpus session longer than a GitHub comment: the export cuts it, the twin must not.
const BIG = 'a7da6a22';

describe('markdownTwin', async () => {
  const session = (await openSessionById(corpusRoot, BIG, {})).result.session;
  // Three turns a page, so most prompts are on a later page.
  const pages = paginateTurns(session.turns, 3);
  const anchors: Record<string, number> = {};
  pages.forEach((turns, i) => turns.forEach((t) => t.messages.forEach((m) => (anchors[m.uuid] = i + 1))));
  const twin = markdownTwin(session, anchors);

  it('is the whole session in one document, where the export cuts it to a comment', () => {
    const [cut] = sessionToMarkdown(session);
    expect(cut).toMatch(/Cut to stay under GitHub's/);
    expect(twin.length).toBeGreaterThan(GITHUB_COMMENT_LIMIT);
    expect(twin).not.toMatch(/Cut to stay under|This message was cut to fit/);
    expect(twin.startsWith(`## ${session.title.split('\n')[0].slice(0, 20)}`)).toBe(true);
  });

  it('is its header and the Markdown of each page joined, as the export writes the whole session', () => {
    const parts = twinParts(session, anchors);
    expect(pages.length).toBeGreaterThan(3);
    expect(parts.header + pages.map((turns) => parts.turns(turns)).join('')).toBe(twin);
    const [whole] = sessionToMarkdown(session, { limit: Infinity, pageUrl: sessionUrlFromMarkdown(), messageUrl: (uuid) => sessionUrlFromMarkdown({ page: anchors[uuid], message: uuid }) });
    expect(twin).toBe(whole);
    // Cut by weight too, so that turns are split across pages.
    const cut = paginateTurns(session.turns, 3, { bytes: 20_000, elements: 300 });
    expect(cut.flat().some(isContinuation)).toBe(true);
    expect(parts.header + cut.map((turns) => parts.turns(turns)).join('')).toBe(twin);
  });

  it('links each prompt to its page relative to the twin: ./#m-<uuid> on page 1, <n>/#m-<uuid> after', () => {
    const prompts = session.turns.filter((t) => t.prompt && t.prompt.text.trim());
    expect(prompts.length).toBeGreaterThan(3);
    for (const t of prompts) {
      const page = anchors[t.prompt!.uuid];
      const href = page === 1 ? `./#m-${t.prompt!.uuid}` : `${page}/#m-${t.prompt!.uuid}`;
      expect(twin, `prompt ${t.index}`).toContain(`### [Prompt ${t.index}](${href})`);
    }
    expect(prompts.some((t) => anchors[t.prompt!.uuid] > 1)).toBe(true);
  });

  it('holds no link that depends on where the site is published', () => {
    const hrefs: string[] = [];
    marked.use({ walkTokens: (t) => void (t.type === 'link' && hrefs.push(t.href)) });
    marked.parse(twin);
    expect(hrefs.length).toBeGreaterThan(3);
    // Links the transcript itself holds (web addresses) are kept; ours are relative.
    expect(hrefs.filter((h) => !/^(\.\/|\d+\/|https?:)/.test(h))).toEqual([]);
    expect(twin).toContain('**Full transcript:** [the published page](./)');
  });
});
