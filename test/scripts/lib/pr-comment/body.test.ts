import { JSDOM } from 'jsdom';
import { marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { COMMENT_MARKER, commentBody, isOurComment } from '../../../../scripts/lib/pr-comment/body.js';
import { openSessionById } from '../../../../src/lib/build/open-session.js';
import { GITHUB_COMMENT_LIMIT } from '../../../../src/lib/export/markdown.js';
import { corpusRoot } from '../../../helpers/shared.js';

// The corpus's largest session (also the export's cut test): far more than one comment can hold.
const BIG = 'a7da6a22';

function dom(md: string): Document {
  return new JSDOM(`<body>${marked.parse(md, { gfm: true, async: false }) as string}</body>`).window.document;
}

describe('commentBody', () => {
  it('stays under GitHub limit with a huge session, says what was cut, and keeps its sections whole', async () => {
    const { result } = await openSessionById(corpusRoot, BIG, {});
    const one = { session: result.session, reasons: ['pr-link' as const], pageUrl: 'https://me.github.io/sessions/x/' };
    for (const n of [1, 3, 12]) {
      const body = commentBody(Array.from({ length: n }, () => one), { pageSize: 40 });
      expect(body.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);
      expect(body.startsWith(COMMENT_MARKER)).toBe(true);
      const doc = dom(body);
      const sessions = doc.querySelectorAll('body > h3').length;
      expect(sessions).toBeGreaterThan(0);
      if (sessions < n) expect(body).toMatch(new RegExp(`${n - sessions} more sessions? left out to stay under GitHub's 65,536-character limit`));
      else expect(body).toMatch(/Cut to keep this comment under GitHub's 65,536-character limit: the last [\d,]+ of [\d,]+ blocks are left out; read it whole on \[the published page\]/);
      // Each shown session: its summary, then its whole Markdown collapsed (or a note that there was no room).
      const top = doc.querySelectorAll('body > details');
      expect(top.length).toBeLessThanOrEqual(sessions);
      for (const d of top) expect(d.querySelector(':scope > summary')?.textContent).toBe('The whole session (Markdown)');
    }
  });
});

describe('isOurComment', () => {
  it('is the comment that starts with the marker, not one that quotes it', () => {
    expect(isOurComment(`${COMMENT_MARKER}\n## Claude Code sessions`)).toBe(true);
    expect(isOurComment(`> ${COMMENT_MARKER}`)).toBe(false);
    expect(isOurComment(`Look: ${COMMENT_MARKER}`)).toBe(false);
    expect(isOurComment(undefined)).toBe(false);
  });
});
