/**
 * Invariant 2 of notes/common.md, as the code keeps it: transcript text reaches
 * the page only escaped (`html`) or through the sanitiser (`sanitized`), and
 * `set:html` appears in one component, which takes only `SafeHtml`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { assertSafeHtml } from '../../../src/components/html-props.js';
import { highlightCode, withDeferredHighlighting } from '../../../src/lib/render/highlight.js';
import { prepareMessages, renderTranscript } from '../../../src/lib/render/render-message.js';
import { html, isSafeHtml, joinHtml, SafeHtml, sanitized, sanitizeHtml, spliceHtml, unescapeTextQuotes } from '../../../src/lib/render/sanitize.js';
import { renderSession } from '../../../src/lib/build/render-session.js';
import { fixturesRoot, loadSessions, repoRoot, testContext } from '../../helpers/render.js';
import { eventHandlerAttributes, parse } from './dom.js';

const EVIL = `<img src=x onerror="alert(1)">"'&`;

/** Every file below a folder, as paths relative to the repository. */
function files(dir: string): string[] {
  return readdirSync(join(repoRoot, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(repoRoot, join(e.parentPath, e.name)))
    .sort();
}

/** Files below `dirs` whose text matches `re`. */
function filesMatching(dirs: string[], re: RegExp): string[] {
  return dirs.flatMap(files).filter((f) => re.test(readFileSync(join(repoRoot, f), 'utf8')));
}

describe('where markup enters a page', () => {
  it('set:html is written in one component only: src/components/Html.astro', () => {
    // As an attribute (`set:html={…}` or `set:html="…"`); prose that names it does not count.
    expect(filesMatching(['src', 'scripts'], /set:html\s*=/)).toEqual(['src/components/Html.astro']);
  });

  it('the component passes on nothing but SafeHtml, and checks it when the page is built', () => {
    const source = readFileSync(join(repoRoot, 'src/components/Html.astro'), 'utf8');
    expect(source).toMatch(/set:html=\{markup\}/);
    expect(source).toMatch(/const markup = assertSafeHtml\(html\)\.value;/);
    expect(() => assertSafeHtml('<b>x</b>')).toThrow(TypeError);
    expect(() => assertSafeHtml({ value: '<b>x</b>' })).toThrow(TypeError);
    expect(assertSafeHtml(html`<b>x</b>`).value).toBe('<b>x</b>');
  });

  it('no SafeHtml is made outside sanitize.ts, and only the render cache revives one', () => {
    expect(filesMatching(['src', 'scripts'], /\btrustedHtml\b/)).toEqual([]);
    expect(filesMatching(['src', 'scripts'], /new SafeHtml\(/)).toEqual(['src/lib/render/sanitize.ts']);
    expect(filesMatching(['src', 'scripts'], /\breviveCachedHtml\b/)).toEqual(['src/lib/build/render-cache.ts', 'src/lib/render/sanitize.ts']);
  });
});

describe('the type checker keeps strings out (test/types/safe-html.ts)', () => {
  const configPath = join(repoRoot, 'test/types/tsconfig.json');
  const file = resolve(repoRoot, 'test/types/safe-html.ts');
  const source = readFileSync(file, 'utf8');

  /** Type errors of the test file, `text` standing in for its contents: line (1-based) and message. */
  function typeErrors(text: string): Array<{ line: number; message: string }> {
    const parsed = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(String(d.messageText)); } });
    if (!parsed) throw new Error('test/types/tsconfig.json does not parse');
    const host = ts.createCompilerHost(parsed.options);
    const getSourceFile = host.getSourceFile;
    host.getSourceFile = (name, lang, ...rest) => (resolve(name) === file ? ts.createSourceFile(name, text, lang) : getSourceFile(name, lang, ...rest));
    const program = ts.createProgram(parsed.fileNames, parsed.options, host);
    return ts.getPreEmitDiagnostics(program).map((d) => ({
      line: d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0,
      message: `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
    }));
  }

  it('every line marked @ts-expect-error is an error, and nothing else is', () => {
    expect(typeErrors(source)).toEqual([]);
  }, 60_000);

  it('without the markers, exactly the marked lines fail (so the check above can fail)', () => {
    const lines = source.split('\n');
    const marked = lines.flatMap((l, i) => (l.trim().startsWith('// @ts-expect-error') ? [i + 2] : []));
    expect(marked.length).toBeGreaterThanOrEqual(8);
    const unmarked = lines.map((l) => (l.trim().startsWith('// @ts-expect-error') ? '//' : l)).join('\n');
    const failing = new Set(typeErrors(unmarked).map((e) => e.line));
    expect([...failing].sort((a, b) => a - b)).toEqual(marked);
  }, 60_000);
});

describe('the two makers', () => {
  it('html escapes every interpolated string, in text and in quoted attributes', () => {
    const out = html`<p title="${EVIL}" data-x='${EVIL}'>${EVIL}</p>`;
    expect(isSafeHtml(out)).toBe(true);
    expect(out.value).not.toMatch(/<img|"'/);
    const p = parse(out.value).querySelector('p')!;
    expect(p.textContent).toBe(EVIL);
    expect(p.getAttribute('title')).toBe(EVIL);
    expect(p.getAttribute('data-x')).toBe(EVIL);
    expect(p.children.length).toBe(0);
  });

  it('html keeps SafeHtml as it is, joins arrays, and renders nullish and booleans as nothing', () => {
    const inner = html`<b>${EVIL}</b>`;
    const out = html`<div>${inner}${[EVIL, inner, [1, null]]}${undefined}${false}${true}${0}</div>`;
    const doc = parse(out.value);
    expect(doc.querySelectorAll('b').length).toBe(2);
    expect(doc.querySelector('img')).toBeNull();
    expect(doc.querySelector('div')!.textContent).toBe(`${EVIL}${EVIL}${EVIL}10`);
  });

  it('a string that only looks like SafeHtml, or a String, is escaped', () => {
    const fake = { value: '<img src=x onerror=alert(1)>', toString: () => '<img src=x onerror=alert(1)>' };
    expect(html`${fake as never}`.value).toBe(escapeOf(String(fake)));
    expect(isSafeHtml(fake)).toBe(false);
    expect(isSafeHtml('<b>')).toBe(false);
  });

  it('SafeHtml cannot be constructed outside sanitize.ts', () => {
    const Ctor = SafeHtml as unknown as new (key: unknown, value: string) => SafeHtml;
    expect(() => new Ctor(Symbol('SafeHtml maker'), '<img src=x onerror=alert(1)>')).toThrow(TypeError);
    expect(() => new Ctor(undefined, '<b>')).toThrow(TypeError);
  });

  it('sanitized runs the sanitiser: scripts, handlers and bad URLs go', () => {
    const out = sanitized(`<p onclick="x()">a<script>alert(1)</script><a href="javascript:alert(1)">l</a><img src="https://evil.example/p.png"></p>`);
    expect(isSafeHtml(out)).toBe(true);
    expect(out.value).toBe(sanitizeHtml(out.value));
    const doc = parse(out.value);
    expect(doc.querySelector('script')).toBeNull();
    expect(eventHandlerAttributes(doc)).toEqual([]);
    expect(doc.querySelector('a')?.hasAttribute('href')).toBe(false);
    expect(doc.querySelector('img')?.hasAttribute('src')).toBe(false);
  });

  it('joinHtml escapes strings and separators like html does', () => {
    expect(joinHtml([html`<i>a</i>`, EVIL, '', html``], '<hr>').value).toBe(`<i>a</i>&lt;hr&gt;${escapeOf(EVIL)}`);
    expect(joinHtml([html`<i>a</i>`, html`<i>b</i>`], html`<br>`).value).toBe('<i>a</i><br><i>b</i>');
  });

  it('spliceHtml puts SafeHtml in place of matches and keeps the rest', () => {
    const base = html`<p>@1@ and @2@ ${EVIL}</p>`;
    const out = spliceHtml(base, /@(\d)@/g, (_m, [n]) => (n === '1' ? html`<b>one</b>` : undefined));
    expect(out.value).toBe(`<p><b>one</b> and @2@ ${escapeOf(EVIL)}</p>`);
    expect(() => spliceHtml(base, /@/, () => undefined)).toThrow(TypeError);
    // Cutting markup (a quote, a tag) could let text out of an attribute: refused.
    expect(() => spliceHtml(html`<p title="${'a'}">x</p>`, /"/g, () => html``)).toThrow(TypeError);
    expect(spliceHtml(html`<p title="a">x</p>`, /"/g, () => undefined).value).toBe('<p title="a">x</p>');
  });
});

/** What `html` makes of a string: the expected escaping, spelt out here rather than imported. */
function escapeOf(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

describe('highlighted code is made with html, from tokens', () => {
  it('token text is escaped, and deferred blocks come back as SafeHtml', async () => {
    await testContext();
    const code = `const a = "</code></pre><script>alert(1)</script>";`;
    const direct = highlightCode(code, { lang: 'typescript', lineNumbers: true });
    expect(isSafeHtml(direct)).toBe(true);
    const doc = parse(direct.value);
    expect(doc.querySelector('script')).toBeNull();
    expect(doc.querySelector('.src')?.textContent).toBe(code);
    expect(doc.querySelectorAll('span[class^="t-"]').length).toBeGreaterThan(1);
    const deferred = withDeferredHighlighting(() => html`<details><summary>x</summary>${highlightCode(code, { lang: 'typescript' })}</details>${highlightCode(code, { lang: 'typescript' })}`);
    expect(isSafeHtml(deferred)).toBe(true);
    const d = parse(deferred.value);
    expect(d.querySelectorAll('pre').length).toBe(2);
    expect(d.querySelector('details pre')?.getAttribute('data-hl')).toBe('lazy');
    expect(d.querySelector('script')).toBeNull();
    expect(deferred.value).not.toMatch(/\uE000/);
  });
});

describe('without a whole-message pass', () => {
  it('the sanitiser would change nothing in what the renderers write, on every hostile fixture session', async () => {
    const sessions = await loadSessions(fixturesRoot);
    expect(sessions.length).toBeGreaterThan(5);
    const { ctx } = await testContext({ indexToolOutput: true, indexThinking: true });
    const asDom = (markup: string) => parse(markup).body.innerHTML;
    for (const s of sessions) {
      const messages = [...s.messages, ...s.abandoned.flatMap((b) => b.messages)];
      await prepareMessages(messages);
      const ours = renderTranscript(messages, ctx);
      expect(ours, s.file).not.toContain('class="render-error"');
      const a = asDom(ours);
      const b = asDom(sanitizeHtml(ours));
      if (a !== b) {
        let i = 0;
        while (a[i] === b[i]) i++;
        expect.fail(`${s.file}: the sanitiser changes our markup at ${i}:\n ours: ${a.slice(Math.max(0, i - 120), i + 120)}\n sanitised: ${b.slice(Math.max(0, i - 120), i + 120)}`);
      }
    }
  }, 300_000);
});

describe('unescapeTextQuotes', () => {
  it('writes the quotes of text nodes as themselves, and leaves tags, attribute values, comments, scripts and styles alone', () => {
    const attr = `a "b" 'c' > d`;
    const text = `say "hi" it's <not a tag>`;
    const page = html`<p title="${attr}" data-x='${attr}'>${text}</p><!-- &quot; --><script>let s = "${text}";</script><style>/* &#39; */</style><em>${text}</em>`;
    const out = unescapeTextQuotes(page).value;
    expect(out).toBe(
      `<p title="a &quot;b&quot; &#39;c&#39; &gt; d" data-x='a &quot;b&quot; &#39;c&#39; &gt; d'>say "hi" it's &lt;not a tag&gt;</p><!-- &quot; --><script>let s = "say &quot;hi&quot; it&#39;s &lt;not a tag&gt;";</script><style>/* &#39; */</style><em>say "hi" it's &lt;not a tag&gt;</em>`,
    );
    // An escaped ampersand stays one: `&amp;quot;` is text reading "&quot;", not a quote.
    expect(unescapeTextQuotes(html`<b>${'&quot;'}</b>`).value).toBe('<b>&amp;quot;</b>');
  });

  it('ends a tag at its first `>` outside quotes; an unclosed quote or tag runs to the end', () => {
    expect(unescapeTextQuotes(html`<b title="x>&quot;" data-y='>&#39;'>&quot;&#39;</b>`).value).toBe(`<b title="x>&quot;" data-y='>&#39;'>"'</b>`);
    expect(unescapeTextQuotes(html`<b>&quot;</b><i title='open>&quot;</i>&quot;`).value).toBe(`<b>"</b><i title='open>&quot;</i>&quot;`);
    expect(unescapeTextQuotes(html`&#39;<i class="a"`).value).toBe(`'<i class="a"`);
    expect(unescapeTextQuotes(html`<STYLE>&quot;</style>&quot;<s>&quot;</s>`).value).toBe(`<STYLE>&quot;</style>"<s>"</s>`);
  });

  it('changes no element, attribute or text of any hostile fixture session page (the DOM is the same)', async () => {
    const sessions = await loadSessions(fixturesRoot);
    const asDom = (markup: string) => parse(markup).body.innerHTML;
    let changed = 0;
    for (const s of sessions) {
      const rendered = await renderSession(s, { pageSize: 40, assetBase: '/assets/', indexToolOutput: true, indexThinking: true });
      for (const page of [...rendered.pages, rendered.abandoned]) {
        // What the page would be without the step: the same pieces, quotes escaped everywhere.
        const escaped = page.value.replace(/>([^<]*)</g, (_, t: string) => `>${t.replace(/"/g, '&quot;').replace(/'/g, '&#39;')}<`);
        if (escaped !== page.value) changed++;
        expect(asDom(page.value), s.file).toBe(asDom(escaped));
        expect(eventHandlerAttributes(parse(page.value))).toEqual([]);
      }
    }
    expect(changed).toBeGreaterThan(0);
  }, 300_000);
});

describe('html checks the shape of its template', () => {
  it('refuses a string inside a tag outside quotes, an unquoted attribute value, or an interpolated tag name', () => {
    const attr = ' onmouseover=alert(1)';
    expect(() => html`<div${attr}>x</div>`).toThrow(TypeError);
    expect(() => html`<div class="a" ${attr}>x</div>`).toThrow(TypeError);
    expect(() => html`<div title=${'x onclick=alert(1)'}>x</div>`).toThrow(TypeError);
    expect(() => html`<div title=${html`x`}>x</div>`).toThrow(TypeError);
    expect(() => html`<${'script'}>alert(1)</script>`).toThrow(TypeError);
    // Markup in a quoted value would end it at its first quote.
    expect(() => html`<p title="${html`<a href="x" onclick="alert(1)">`}">x</p>`).toThrow(TypeError);
  });

  it('allows SafeHtml attributes and nothing inside a tag, and strings in text and quoted values', () => {
    expect(html`<div${html` open`}${''}${false}${undefined} title="${'a>b'}" data-x='${"'"}'>${'<i>'}</div>`.value).toBe(`<div open title="a&gt;b" data-x='&#39;'>&lt;i&gt;</div>`);
    // A `>` inside a quoted value does not end the tag; a `<` in text that starts no tag is text.
    expect(() => html`<a title="x>y"${' z'}>`).toThrow(TypeError);
    expect(html`1 < 2 ${'<b>'}`.value).toBe('1 < 2 &lt;b&gt;');
  });
});
