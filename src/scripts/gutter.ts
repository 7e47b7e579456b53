/**
 * Line numbers of code blocks that the build sent without them: a block left
 * plain inside a closed `<details>` carries the number of its first line in
 * `data-start` (it is always a lazy block), and its gutter is drawn here when
 * the lazy highlighter (lazy-highlight.ts) sees it shown, with the markup the
 * build writes for open blocks (src/lib/render/highlight.ts). Without
 * JavaScript such a block reads the same, without numbers. The existing nodes
 * are moved, not re-created: search marks in them survive.
 */

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
