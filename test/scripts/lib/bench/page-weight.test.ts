import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { countElements, heaviestPages, PAGE_LIMITS } from '../../../../scripts/lib/bench/page-weight.js';

const PAGE = `<!doctype html><html><head><title>t</title><style>a<b{}</style><script>if (a<b && "<div>") {}</script></head>
<body><!-- <p>not one</p> --><main><p>one <b>two</b></p><ul>${'<li>x</li>'.repeat(5)}</ul><img src=x><br/></main></body></html>`;

describe('countElements', () => {
  it('counts the elements a parser makes, not tags inside scripts, styles or comments', () => {
    const dom = new JSDOM(PAGE);
    expect(countElements(PAGE)).toBe(dom.window.document.querySelectorAll('*').length);
  });
});

describe('heaviestPages', () => {
  it('weighs every HTML page and lists those over the limits', async () => {
    const dist = await mkdtemp(join(tmpdir(), 'sp-weight-'));
    try {
      await mkdir(join(dist, 'a'), { recursive: true });
      await writeFile(join(dist, 'index.html'), PAGE);
      await writeFile(join(dist, 'a', 'index.html'), `<html><body>${'<i></i>'.repeat(PAGE_LIMITS.elements)}</body></html>`);
      await writeFile(join(dist, 'a', 'data.json'), 'x'.repeat(PAGE_LIMITS.bytes * 2));
      const w = await heaviestPages(dist, 1);
      expect(w.elements[0].path).toBe('a/index.html');
      expect(w.over.map((p) => p.path)).toEqual(['a/index.html']);
      expect(w.bytes).toHaveLength(1);
    } finally {
      await rm(dist, { recursive: true, force: true });
    }
  });
});
