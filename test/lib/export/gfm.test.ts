import { JSDOM } from 'jsdom';
import { marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { breakGithubReferences, neutralizeMarkdown, summaryText } from '../../../src/lib/export/gfm.js';

/** GitHub-rendered HTML of some Markdown (GFM, raw HTML kept), as a document. */
function dom(md: string): Document {
  return new JSDOM(`<body>${marked.parse(md, { gfm: true, async: false }) as string}</body>`).window.document;
}

/** Text outside code, where GitHub finds mentions and references. */
function prose(doc: Document): string {
  const clone = doc.body.cloneNode(true) as HTMLElement;
  for (const c of clone.querySelectorAll('code, pre')) c.remove();
  return clone.textContent ?? '';
}

describe('breakGithubReferences', () => {
  it('leaves no mention, issue reference, tag or image, and reads the same', () => {
    const text = '@octocat @org/team #1 acme/widgets#2 GH-3 gh-4 &#64;ghost &#x40;ghost &commat;ghost &num;5 </details> <img src=x> ![t](https://e.x/t.png) [x](JaVaScRiPt:alert(1))';
    const out = breakGithubReferences(text);
    expect(out.replace(/\u200B/g, '')).toBe(text);
    expect(out).not.toMatch(/@[A-Za-z0-9]|#\d|#x[0-9a-f]|GH-\d|<[a-z/]|!\[|&(commat|num);|javascript:/i);
    expect(dom(out).querySelectorAll('img, a[href^="javascript" i]').length).toBe(0);
  });

  it('keeps e-mail-free words, headings and anchors as they are', () => {
    for (const plain of ['## Heading', 'see #readme', 'a # b', 'page.html#m-abc']) expect(breakGithubReferences(plain)).toBe(plain);
  });
});

describe('neutralizeMarkdown', () => {
  it('for GitHub: inert in code spans and fences too, so no misread fence or span lets HTML through', () => {
    // A fence in a list item (a line scan sees a fence open at its end) and a code span across lines.
    const text = '- ```\n  x\n  ```\n</details>\n\n`a\n`</details> @octocat`\n\n``<img src=x onerror=alert(1)>`';
    const md = `<details>\n<summary>s</summary>\n\n${neutralizeMarkdown(text, { github: true })}\n\n</details>\n\nafter`;
    const doc = dom(md);
    expect(doc.querySelectorAll('img').length).toBe(0);
    expect(doc.querySelectorAll('details').length).toBe(1);
    expect(doc.querySelector('details')!.textContent).toContain('x');
    expect(prose(doc)).not.toMatch(/@[A-Za-z0-9]/);
  });

  it('a code span needs a closing run of as many backticks: ``<img>` is no span, its tag is shown as text', () => {
    const doc = dom(neutralizeMarkdown('``<img src=x onerror=alert(1)>`\n\nand `<b>` kept'));
    expect(doc.querySelectorAll('img').length).toBe(0);
    expect(doc.querySelector('code')?.textContent).toBe('<b>');
  });

  it('without the GitHub target, text is left as written apart from tag starts', () => {
    expect(neutralizeMarkdown('@octocat #1 <b>')).toBe('@octocat #1 &lt;b>');
    expect(summaryText('@octocat <b>', 100, { github: true })).toBe('@\u200Boctocat &lt;b&gt;');
  });
});
