/** Markdown, highlighting and the sanitiser on their own. */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  cleanTerminal,
  HIGHLIGHT_MAX_LINES,
  highlightCode,
  highlightTerminal,
  languageForPath,
  loadHighlighter,
  resolveLanguage,
  stripAnsi,
} from '../../../src/lib/render/highlight.js';
import { collectFenceLanguages, createMarkdownRenderer } from '../../../src/lib/render/markdown.js';
import { escapeHtml, html, sanitizeHtml, sanitized } from '../../../src/lib/render/sanitize.js';
import { parse } from './dom.js';

beforeAll(async () => {
  await loadHighlighter();
});

describe('markdown', () => {
  const md = createMarkdownRenderer();

  it('renders GFM tables inside a scrolling wrapper', () => {
    const doc = parse(md.render('| a | b |\n|---|:-:|\n| 1 | 2 |\n| 3 | 4 |'));
    expect(doc.querySelectorAll('.table-wrap > table tbody tr').length).toBe(2);
    expect(doc.querySelector('th')?.textContent).toBe('a');
  });

  it('renders task lists as disabled checkboxes', () => {
    const doc = parse(md.render('- [x] done\n- [ ] todo'));
    const boxes = doc.querySelectorAll('input');
    expect(boxes.length).toBe(2);
    for (const b of boxes) {
      expect(b.getAttribute('type')).toBe('checkbox');
      expect(b.hasAttribute('disabled')).toBe(true);
    }
    expect(boxes[0].hasAttribute('checked')).toBe(true);
    expect(boxes[1].hasAttribute('checked')).toBe(false);
  });

  it('gives links rel=nofollow noopener', () => {
    const doc = parse(md.render('[site](https://example.com) and <https://auto.example>'));
    const links = doc.querySelectorAll('a');
    expect(links.length).toBe(2);
    for (const a of links) expect(a.getAttribute('rel')?.split(' ')).toEqual(expect.arrayContaining(['nofollow', 'noopener']));
  });

  it('strips javascript:, data: and entity-encoded links but keeps their text', () => {
    for (const src of ['[x1](javascript:alert(1))', '[x2](JaVaScRiPt:alert(1))', '[x3](&#106;avascript:alert(1))', '[x4](data:text/html;base64,PHNjcmlwdD4=)', '<javascript:alert(1)> x5', '[x6]( javascript:alert(1))']) {
      const doc = parse(md.render(src));
      expect(doc.querySelector('a'), src).toBeNull();
      expect(doc.body.textContent, src).toMatch(/x\d/);
    }
  });

  it('shows raw HTML as text', () => {
    const doc = parse(md.render('<script>alert(1)</script>\n\ntext <img src=x onerror=alert(1)> more'));
    expect(doc.querySelector('script, img')).toBeNull();
    expect(doc.body.textContent).toContain('<script>alert(1)</script>');
    expect(doc.body.textContent).toContain('<img src=x onerror=alert(1)>');
  });

  it('turns images into links (no remote or data images)', () => {
    const doc = parse(md.render('![chart](https://example.com/c.png) ![x](data:image/png;base64,AAAA)'));
    expect(doc.querySelector('img')).toBeNull();
    expect(doc.querySelector('a.md-image')?.getAttribute('href')).toBe('https://example.com/c.png');
  });

  it('shifts headings below the page headings and highlights fenced code', () => {
    const doc = parse(md.render('# Title\n\n```ts\nconst x = 1;\n```'));
    expect(doc.querySelector('h1, h2')).toBeNull();
    expect(doc.querySelector('h3')?.textContent).toBe('Title');
    expect(doc.querySelector('pre.code[data-lang="typescript"] span[class^="t-"]')).not.toBeNull();
  });

  it('collects fence languages', () => {
    expect([...collectFenceLanguages('```py\nx\n```\n~~~ bash\ny\n~~~\n```nosuch\n```')].sort()).toEqual(['python', 'shellscript']);
  });
});

describe('highlighting', () => {
  it('falls back to plain text for unknown languages', () => {
    const out = highlightCode('<b>x</b> & y', { lang: 'no-such-language' }).value;
    const doc = parse(out);
    expect(doc.querySelector('pre.code')?.hasAttribute('data-lang')).toBe(false);
    expect(doc.querySelector('pre span.line span')).toBeNull();
    expect(doc.body.textContent).toBe('<b>x</b> & y');
  });

  it('uses classes, not inline colours', () => {
    const out = highlightCode('function f(a: number): string { return "x" + a; } // c', { lang: 'ts' }).value;
    expect(out).not.toMatch(/style=/);
    expect(out).not.toMatch(/#[0-9a-f]{6}/i);
    expect(parse(out).querySelectorAll('span.t-k, span.t-s, span.t-c').length).toBeGreaterThan(2);
  });

  it('renders ANSI as coloured spans and leaves no escape codes', () => {
    const ansi = '\u001b[31mred\u001b[0m \u001b[1;32mbold green\u001b[0m \u001b[2mdim\u001b[0m \u001b]8;;https://x.example\u001b\\link\u001b]8;;\u001b\\ \u001b[2Kdone';
    const out = highlightTerminal(ansi).value;
    expect(out).not.toContain('\u001b');
    expect(out).not.toContain('\uFFFD');
    const doc = parse(out);
    expect(doc.querySelector('.s-ansi-red')?.textContent).toBe('red');
    expect(doc.querySelector('.s-ansi-green.s-b')?.textContent).toBe('bold green');
    expect(doc.body.textContent).toBe('red bold green dim link done');
    expect(doc.querySelector('a')).toBeNull();
  });

  it('applies carriage returns like a terminal', () => {
    expect(cleanTerminal('10%\r50%\r100%\nnext')).toBe('100%\nnext');
    expect(stripAnsi('\u001b[33mwarn\u001b[0m')).toBe('warn');
  });

  it('numbers lines from startLine and by label', () => {
    const doc = parse(highlightCode('a\nb\nc', { lineNumbers: true, startLine: 41 }).value);
    expect(doc.querySelector('.gutter')!.textContent!.split('\n')).toEqual(['41', '42', '43']);
    // The numbers stay out of the code's own text, so copying it leaves them behind.
    expect(doc.querySelector('.src')!.textContent).toBe('a\nb\nc');
    expect(doc.querySelector('.gutter')!.getAttribute('aria-hidden')).toBe('true');
    const doc2 = parse(highlightCode('a\nb', { lineLabel: (i) => (i === 0 ? 7 : undefined) }).value);
    expect(doc2.querySelector('.gutter')!.textContent!.split('\n')).toEqual(['7', '']);
  });

  it('does not highlight very large inputs', () => {
    const big = Array.from({ length: HIGHLIGHT_MAX_LINES + 5 }, (_, i) => `const v${i} = ${i};`).join('\n');
    const doc = parse(highlightCode(big, { lang: 'ts' }).value);
    expect(doc.querySelector('code')!.textContent!.split('\n')).toHaveLength(HIGHLIGHT_MAX_LINES + 5);
    expect(doc.querySelector('code span')).toBeNull();
  });

  it('wraps no line in an element of its own (diff lines are built by tools/files.ts, tested in diff-markup.test.ts)', () => {
    const plain = highlightCode('a < b\nc', { lang: 'text' }).value;
    expect(plain).toBe('<pre class="code" tabindex="0"><code>a &lt; b\nc</code></pre>');
  });

  it('maps file paths to languages', () => {
    expect(languageForPath('/a/b/c.ts')).toBe('typescript');
    expect(languageForPath('x.PY')).toBe('python');
    expect(languageForPath('Dockerfile')).toBe('docker');
    expect(languageForPath('/x/Makefile')).toBe('make');
    expect(languageForPath('notes.weird-ext')).toBe('text');
    expect(languageForPath(undefined)).toBe('text');
    expect(resolveLanguage('sh')).toBe('shellscript');
    expect(resolveLanguage('nope')).toBeUndefined();
  });
});

describe('sanitizer and escaping', () => {
  it('escapes text and quotes', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    expect(escapeHtml(null)).toBe('');
  });

  it('html`` escapes interpolations unless they are SafeHtml', () => {
    const evil = '<img src=x onerror=alert(1)>';
    const out = html`<p title="${evil}">${evil}${html`<b>ok</b>`}${[evil, html`<i>${evil}</i>`]}</p>`.value;
    const doc = parse(out);
    expect(doc.querySelector('img')).toBeNull();
    expect(doc.querySelector('b')?.textContent).toBe('ok');
    expect(doc.querySelector('p')?.getAttribute('title')).toBe(evil);
    expect(doc.querySelector('i')?.textContent).toBe(evil);
  });

  it('removes forbidden elements, handlers, styles and bad URLs', () => {
    const dirty =
      '<p style="color:red" onclick="x()">t</p><script>1</script><style>*{}</style><iframe></iframe><svg><set/></svg><math></math><form><button formaction="javascript:1">b</button></form>' +
      '<a href="javascript:alert(1)">j</a><a href="&#x6A;avascript:1">e</a><a href="data:text/html,1">d</a><a href="vbscript:1">v</a>' +
      '<img src="https://evil.example/p.png"><img src="//evil.example/p.png"><img src="data:image/png;base64,AAAA"><img src="/assets/ok.png">' +
      '<meta http-equiv="refresh"><link rel="stylesheet"><base href="/"><object data="x"></object><embed src="x"><input type="text"><noscript><p>n</p></noscript>';
    const doc = parse(sanitizeHtml(dirty));
    expect(doc.querySelector('script, style, iframe, svg, math, form, meta, link, base, object, embed, noscript, [style], [onclick], [formaction]')).toBeNull();
    expect(doc.querySelector('input[type="text"]')).toBeNull();
    for (const a of doc.querySelectorAll('a')) expect(a.hasAttribute('href'), a.textContent ?? '').toBe(false);
    const srcs = [...doc.querySelectorAll('img')].map((i) => i.getAttribute('src'));
    expect(srcs.filter(Boolean)).toEqual(['/assets/ok.png']);
  });

  it('survives parser-differential (mutation XSS) and URL-obfuscation vectors', () => {
    // Each is sanitised, then parsed the way a browser parses the page, and the tree is checked:
    // the sanitiser's parser is not the browser's, so what matters is what the browser would build.
    const vectors = [
      '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
      '<math><mi><mglyph><style><img src=x onerror=alert(1)></style></mglyph></mi></math>',
      '<svg></p><style><a id="</style><img src=1 onerror=alert(1)>">',
      '<form><math><mtext></form><form><mglyph><style></math><img src onerror=alert(1)>',
      '<template><img src=x onerror=alert(1)></template>',
      '<textarea><img src=x onerror=alert(1)></textarea>',
      '<title><img src=x onerror=alert(1)></title>',
      '<xmp><img src=x onerror=alert(1)></xmp>',
      '<!--><img src=x onerror=alert(1)>-->',
      '<![CDATA[><img src=x onerror=alert(1)>]]>',
      '<a href="jav&#x09;ascript:alert(1)">t</a>',
      '<a href=" &#14; javascript:alert(1)">t</a>',
      '<a href="JaVaScRiPt&colon;alert(1)">t</a>',
      '<a href="\\\\evil.example/x">t</a>',
      '<img src="/\\evil.example/x.png">',
      '<details open ontoggle=alert(1)><summary>s</summary></details>',
      '<input type="image" src=x onerror=alert(1)>',
      '<a href="#" style="position:fixed;inset:0">overlay</a>',
    ];
    for (const v of vectors) {
      const out = sanitizeHtml(v);
      const doc = parse(out);
      const bad = doc.querySelector('script, style, iframe, svg, math, template, textarea, title, xmp, noscript, [onerror], [ontoggle], [style]');
      expect(bad, `${v} → ${out}`).toBeNull();
      // Links and images may only point into the site: no scheme, no protocol-relative host (`//`, `\\\\`, `/\\`).
      const offSite = /^\s*(?:[a-z][a-z0-9+.-]*:|[/\\]{2})/i;
      for (const a of doc.querySelectorAll('a[href]')) expect(a.getAttribute('href'), `${v} → ${out}`).not.toMatch(offSite);
      for (const i of doc.querySelectorAll('img[src]')) expect(i.getAttribute('src'), `${v} → ${out}`).not.toMatch(offSite);
      // Sanitising the output again changes nothing: what was kept is stable.
      expect(sanitizeHtml(out), v).toBe(out);
    }
  });

  it('keeps what our renderers use', () => {
    const ok =
      '<article class="msg" id="m-1" data-uuid="1" data-kind="prompt" data-pagefind-weight="5"><details open><summary>s</summary><table><tr><td colspan="2">c</td></tr></table></details>' +
      '<input type="checkbox" disabled checked><time datetime="2025-01-01T00:00:00.000Z">t</time><a href="#m-1" class="permalink" aria-label="Link">#</a><a href="https://x.example/a?b=1">x</a><a href="mailto:a@b.example">m</a><a href="rel/path">r</a>' +
      '<button class="copy-link" data-href="#m-1" hidden>c</button></article>';
    const doc = parse(sanitizeHtml(ok));
    const art = doc.querySelector('article#m-1.msg');
    expect(art?.getAttribute('data-kind')).toBe('prompt');
    expect(art?.getAttribute('data-pagefind-weight')).toBe('5');
    expect(doc.querySelector('details[open] > summary')).not.toBeNull();
    expect(doc.querySelector('td[colspan="2"]')).not.toBeNull();
    expect(doc.querySelector('input[type="checkbox"][disabled][checked]')).not.toBeNull();
    expect(doc.querySelector('time')?.getAttribute('datetime')).toBe('2025-01-01T00:00:00.000Z');
    expect([...doc.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual(['#m-1', 'https://x.example/a?b=1', 'mailto:a@b.example', 'rel/path']);
    expect(doc.querySelector('a[href^="https"]')?.getAttribute('rel')).toContain('nofollow');
    expect(doc.querySelector('a[aria-label="Link"]')).not.toBeNull();
    expect(doc.querySelector('button.copy-link[hidden][data-href="#m-1"]')).not.toBeNull();
  });

  it('is idempotent', () => {
    const once = sanitizeHtml('<p>a <b>b</b> &amp; <a href="https://x.example">c</a></p>');
    expect(sanitizeHtml(once)).toBe(once);
    expect(sanitized('<i>x</i>').value).toBe('<i>x</i>');
  });
});
