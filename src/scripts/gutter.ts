/**
 * Line numbers of code blocks that the build sent without them: a block left
 * plain inside a closed `<details>` carries the number of its first line in
 * `data-start`, and its gutter is drawn here when it is shown, with the markup
 * the build writes for open blocks (src/lib/render/highlight.ts). Without
 * JavaScript such a block reads the same, without numbers. The existing nodes
 * are moved, not re-created: search marks in them survive.
 */

/** Blocks whose gutter is still to be drawn. */
const PENDING = 'pre[data-start]';

/** Draws the gutter of one block (once: the attribute goes when it is drawn). */
export function drawGutter(pre: HTMLElement): void {
  const start = Number.parseInt(pre.dataset.start ?? '', 10);
  const code = pre.querySelector(':scope > code');
  pre.removeAttribute('data-start');
  if (!Number.isInteger(start) || !code || code.querySelector(':scope > .gutter')) return;
  const doc = pre.ownerDocument;
  const src = doc.createElement('span');
  src.className = 'src';
  src.append(...code.childNodes);
  const count = (src.textContent ?? '').split('\n').length;
  const gutter = doc.createElement('span');
  gutter.className = 'gutter';
  gutter.setAttribute('aria-hidden', 'true');
  gutter.textContent = Array.from({ length: count }, (_, i) => String(start + i)).join('\n');
  code.replaceChildren(gutter, src);
}

/** Draws the gutters of the blocks under `root` that nothing closed hides. */
function drawShown(root: ParentNode): void {
  for (const pre of root.querySelectorAll<HTMLElement>(PENDING)) {
    if (!pre.closest('details:not([open])')) drawGutter(pre);
  }
}

/** Draws gutters as their `<details>` open (and now for any already shown). */
export function initGutters(): void {
  // `toggle` does not bubble: listen in the capture phase, once for the whole page.
  document.addEventListener('toggle', (e) => {
    if (e.target instanceof HTMLDetailsElement && e.target.open) drawShown(e.target);
  }, true);
  drawShown(document);
}
