import { JSDOM } from 'jsdom';
import { marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { breakGithubReferences, fence, headingText, inlineCode, linkDestination, neutralizeMarkdown, oneLine, summaryText, withoutBacklink } from '../../../src/lib/export/gfm.js';
import { LINE_TERMINATORS } from '../../helpers/github-text.js';

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

describe('one-line fields: every line terminator becomes a space', () => {
  const hostile = (t: string) => `a${t}${t}</details>${t}<img src=x onerror=alert(1)>${t}@octocat #1`;

  it.each(Object.entries(LINE_TERMINATORS))('%s: a code span, a summary and a heading stay on their line', (_name, t) => {
    expect(oneLine(`a${t}b`)).toBe('a b');
    for (const github of [false, true]) {
      const md = `<details>\n<summary>${summaryText(hostile(t), 200, { github })}</summary>\n\n- ${inlineCode(hostile(t), { github })}\n\n</details>\n\n## ${headingText(hostile(t), { github })}\n\nafter`;
      expect(md).not.toMatch(/[\r\u2028\u2029\u0085\f\v]/);
      const doc = dom(md);
      expect(doc.querySelectorAll('img').length).toBe(0);
      expect(doc.querySelectorAll('details').length).toBe(1);
      expect(doc.querySelector('details li code')?.textContent?.replace(/\u200B/g, '')).toBe('a  </details> <img src=x onerror=alert(1)> @octocat #1');
      expect(doc.querySelector('h2')?.textContent?.replace(/\u200B/g, '')).toContain('@octocat #1');
      if (github) expect(prose(doc)).not.toMatch(/@[A-Za-z0-9]|#\d/);
    }
  });

  it('inlineCode for GitHub breaks references inside the span too, invisibly; without the target it keeps the text', () => {
    expect(inlineCode('@octocat acme/widgets#2 <b>', { github: true })).toBe('`@\u200Boctocat acme/widgets#\u200B2 <\u200Bb>`');
    expect(inlineCode('@octocat #2')).toBe('`@octocat #2`');
    expect(inlineCode('a`b')).toBe('``a`b``');
  });
});

describe('github.com issue and pull request addresses make no backlink', () => {
  it('are written as redirect.github.com, with or without scheme or www, in text, autolinks and Markdown links', () => {
    for (const [from, to] of [
      ['https://github.com/o/r/issues/2', 'https://redirect.github.com/o/r/issues/2'],
      ['http://www.github.com/o/r/pull/3/files', 'http://redirect.github.com/o/r/pull/3/files'],
      ['see GitHub.com/o/r/discussions/4.', 'see redirect.github.com/o/r/discussions/4.'],
      ['[x](https://github.com/o/r/pulls/5)', '[x](https://redirect.github.com/o/r/pulls/5)'],
      ['<https://github.com/o/r/issues/6>', '<https://redirect.github.com/o/r/issues/6>'],
    ]) {
      expect(withoutBacklink(from)).toBe(to);
      expect(breakGithubReferences(from).replace(/\u200B/g, '')).toBe(to);
    }
  });

  it('leaves other addresses alone: other hosts, subdomains, repositories, commits', () => {
    for (const same of ['https://redirect.github.com/o/r/issues/2', 'https://api.github.com/repos/o/r/issues/2', 'https://notgithub.com/o/r/issues/2', 'https://github.com/o/r', 'https://github.com/o/r/commit/abc1234', 'git@github.com:o/r.git', 'https://gitlab.com/o/r/-/issues/2']) {
      expect(withoutBacklink(same)).toBe(same);
    }
  });

  it('rendered, no link or text points at an issue of github.com; an address spelled with character references is shown as written', () => {
    const md = neutralizeMarkdown('https://github.com/o/r/issues/2 and [x](https://github.com/o/r/pull/3) and https&colon;&sol;&sol;github&period;com/o/r/issues/4', { github: true });
    const doc = dom(md);
    const hrefs = [...doc.querySelectorAll('a')].map((a) => new URL(a.getAttribute('href')!).hostname);
    expect(hrefs).toEqual(['redirect.github.com', 'redirect.github.com']);
    expect(doc.body.textContent).not.toMatch(/(?<![\w.])github\.com\/o\/r\/issues/);
    expect(doc.body.textContent!.replace(/\u200B/g, '')).toContain('https&colon;&sol;&sol;github&period;com/o/r/issues/4');
    // The five references GitHub and we write ourselves still read as characters.
    expect(breakGithubReferences('&amp; &lt; &gt; &quot; &apos;')).toBe('&amp; &lt; &gt; &quot; &apos;');
  });
});

describe('linkDestination', () => {
  it('percent-encodes what could end a link, so text after it stays in the address', () => {
    const id = 'u1) @octocat <img src=x>\r\n[x]\u2028"\'`\\';
    const url = linkDestination(`https://me.github.io/s/#m-${id}`);
    expect(url).toBe('https://me.github.io/s/#m-u1%29%20@octocat%20%3Cimg%20src=x%3E%0D%0A%5Bx%5D%E2%80%A8%22%27%60%5C');
    const doc = dom(`[Prompt 1](${url}) after`);
    expect(doc.querySelectorAll('a').length).toBe(1);
    expect(doc.querySelector('a')!.textContent).toBe('Prompt 1');
    expect(doc.body.textContent!.trim()).toBe('Prompt 1 after');
    expect(linkDestination('https://github.com/o/r/pull/5', { github: true })).toBe('https://redirect.github.com/o/r/pull/5');
    expect(linkDestination('./2/#m-abc')).toBe('./2/#m-abc');
  });
});

describe('fence', () => {
  it.each(Object.entries(LINE_TERMINATORS))('%s: no terminator, fence line or tag in the content or language ends the block or the section around it', (_name, t) => {
    const content = `a${t}\`\`\`${t}</details>${t}~~~~${t}<img src=x onerror=alert(1)>${t}\`\`\`\`${t}${t}@octocat`;
    const md = `<details>\n<summary>s</summary>\n\n${fence(content, `sh${t}</details>`)}\n\n</details>\n\nafter`;
    const doc = dom(md);
    expect(doc.querySelectorAll('img').length).toBe(0);
    expect(doc.querySelectorAll('details').length).toBe(1);
    expect(doc.querySelectorAll('pre').length).toBe(1);
    const pre = doc.querySelector('details pre')!;
    expect(pre.textContent).toContain('</details>');
    expect(pre.textContent).toContain('@octocat');
    expect(doc.querySelector('details')!.textContent).not.toContain('after');
  });
});
