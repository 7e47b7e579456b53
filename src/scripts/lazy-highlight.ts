/**
 * Highlights, in the browser, the code blocks the build left plain because they
 * sat in a closed `<details>` (most tool output): when such a block is shown
 * (its `<details>` opened), shiki is loaded from the site itself
 * (src/integrations/lazy-highlight.ts: one file, then one per grammar; no
 * request elsewhere) and the block's text is re-drawn as coloured runs, with the same classes the build
 * uses. Without JavaScript the code stays readable, plain. Text is only ever
 * set through `textContent`: nothing from the page is parsed as HTML.
 */
import { highlightFolder } from 'virtual:sessionpress/lazy-highlight';
import { LAZY_SELECTOR, type Line } from '../lib/render/token-classes';
import { drawGutter } from './gutter';

type Tokenize = (code: string, lang: string, langsUrl: string) => Promise<Line[] | undefined>;
let engine: Promise<Tokenize> | undefined;

/** The highlighter's folder on this site: under the base the layout puts on <body>. */
function folderUrl(): string {
  return new URL(`${document.body.dataset.base ?? '/'}${highlightFolder}`, location.href).href;
}

/** Starts highlighting code blocks as their `<details>` open. */
export function initLazyHighlight(): void {
  // `toggle` does not bubble: listen in the capture phase, once for the whole page.
  document.addEventListener('toggle', (e) => {
    if (e.target instanceof HTMLDetailsElement && e.target.open) highlightShown(e.target);
  }, true);
  // Blocks already shown (a <details> opened before this ran, e.g. by a link to a message inside it).
  highlightShown(document.body);
}

/** Every lazy block under `root` that nothing closed hides. */
function highlightShown(root: Element): void {
  for (const pre of root.querySelectorAll<HTMLElement>(LAZY_SELECTOR)) {
    if (pre.closest('details:not([open])')) continue;
    pre.removeAttribute('data-hl');
    void highlightBlock(pre).catch(() => {
      // Plain text is an acceptable answer (a grammar that failed to load, say).
    });
  }
}

async function highlightBlock(pre: HTMLElement): Promise<void> {
  // The gutter first (src/scripts/gutter.ts): the text read below excludes it.
  drawGutter(pre);
  const lang = pre.dataset.lang;
  const code = pre.querySelector(':scope > code');
  if (!lang || !code) return;
  // Not bundled by Vite (see src/integrations/lazy-highlight.ts): loaded from the site by URL.
  engine ??= import(/* @vite-ignore */ `${folderUrl()}engine.mjs`).then((m: { tokenize: Tokenize }) => m.tokenize);
  const tokenize = await engine;
  // Diffs: one element per line (`del`, `ins`, `span`: it carries the line's background and number);
  // otherwise one text run, maybe beside a gutter.
  const lineEls = pre.classList.contains('diff') ? [...code.querySelectorAll<HTMLElement>(':scope > del, :scope > ins, :scope > span')] : [];
  const target = lineEls.length ? undefined : (code.querySelector<HTMLElement>(':scope > span.src') ?? code);
  const text = lineEls.length ? lineEls.map((el) => el.textContent ?? '').join('\n') : (target!.textContent ?? '');
  const lines = await tokenize(text, lang, `${folderUrl()}langs/`);
  if (!lines) return;
  if (lineEls.length) {
    // A line with marked words keeps them (and no colours), as the build does.
    lineEls.forEach((el, i) => {
      if (!el.querySelector('mark')) el.replaceChildren(...runs(lines[i] ?? [{ content: el.textContent ?? '' }]));
    });
  } else {
    const nodes: Node[] = [];
    lines.forEach((line, i) => {
      if (i > 0) nodes.push(document.createTextNode('\n'));
      nodes.push(...runs(line));
    });
    target!.replaceChildren(...nodes);
  }
}

/** A line's runs as nodes: text, or a span with the run's class. */
function runs(line: Line): Node[] {
  return line.map(({ content, cls }) => {
    if (!cls) return document.createTextNode(content);
    const span = document.createElement('span');
    span.className = cls;
    span.textContent = content;
    return span;
  });
}
