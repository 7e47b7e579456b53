import { beforeAll, describe, expect, it } from 'vitest';
import { ensureLanguages, highlightCode, tokenizeEncoded, withDeferredHighlighting, startDeferredHighlighting, type Tokenizer } from '../../../src/lib/render/highlight.js';
import { html, joinHtml, type SafeHtml } from '../../../src/lib/render/sanitize.js';

beforeAll(() => ensureLanguages(['typescript', 'python', 'shellscript']));

const ts = Array.from({ length: 60 }, (_, i) => `export const value${i} = compute(${i}, "text ${i}") as number; // note ${i}`).join('\n');
const py = 'def f(x):\r\n    return [y * 2 for y in x if y]\r\n';
const hidden = 'def hidden():\n    return "only in a closed details"\n';

/** A page's markup: messages with code in a closed `<details>`, code shown, and code in an open one. */
const page = (): SafeHtml =>
  joinHtml(
    [
      // First: the other thread's share starts with the page's first blocks, so this one would be in it, were it asked for.
      withDeferredHighlighting(() => html`<details><summary>Output</summary>${highlightCode(hidden, { lang: 'python' })}</details>`),
      withDeferredHighlighting(() => html`<div class="message">${highlightCode(ts, { lang: 'ts', lineNumbers: true })}</div>`),
      withDeferredHighlighting(() => html`<details open><summary>File</summary>${highlightCode(py, { lang: 'python', startLine: 4, lineNumbers: true })}${highlightCode('ls -la ~/x', { lang: 'sh' })}</details>`),
    ],
    html`\n`,
  );

describe('startDeferredHighlighting', () => {
  it('gives a page the markup its messages give one by one, with part of the shown code tokenised by the other thread', async () => {
    const expected = page().value;
    const asked: string[] = [];
    const other: Tokenizer = async (needs, langs) => {
      asked.push(...needs.map((n) => n.text));
      return tokenizeEncoded(needs, langs);
    };
    // Twice: the second page is split by the speeds the first one measured.
    for (let round = 0; round < 2; round++) expect((await startDeferredHighlighting(page, other).finish()).value).toBe(expected);
    // The other thread had some of the shown code, never the block hidden in the closed <details>...
    expect(asked.length).toBeGreaterThan(0);
    expect(asked).not.toContain(hidden);
    // (Line ends made \n first, as the block is tokenised here.)
    expect(asked).not.toContain(py);
    // ...and the page shows code in colour.
    expect(expected).toContain('class="t-k"');
  });

  it('tokenises here what the other thread fails on or answers for wrongly', async () => {
    const expected = page().value;
    const failing: Tokenizer = async () => {
      throw new Error('thread gone');
    };
    expect((await startDeferredHighlighting(page, failing).finish()).value).toBe(expected);
    // Tokens of other text: they do not fit the block, and are not used.
    const wrong: Tokenizer = async (needs, langs) => tokenizeEncoded(needs.map((n) => ({ ...n, text: `${n.text}\nextra line` })), langs);
    expect((await startDeferredHighlighting(page, wrong).finish()).value).toBe(expected);
  });

  it('without another thread, leaves each message to resolve its own code', async () => {
    expect((await startDeferredHighlighting(page, undefined).finish()).value).toBe(page().value);
  });
});
