import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { searchDigest, UNINDEXED_CLOSE, UNINDEXED_OPEN } from '../../../src/lib/search/page-digest.js';

const mark = (inner: string) => `${UNINDEXED_OPEN}${inner}${UNINDEXED_CLOSE}`;
const page = (counts: string, pager: string, text = '<p>the conversation</p>') =>
  `<head>${mark(`<meta name="description" content="${counts}">`)}</head><article data-pagefind-body><dl class="facts">${mark(`<dd>${counts}</dd>`)}</dl>${text}${mark(`<nav>${pager}</nav>`)}</article>`;
const digest = (html: string) => searchDigest(Buffer.from(html));

describe('searchDigest', () => {
  it('is the same when only the marked parts differ (a session grew: counts, page totals)', () => {
    expect(digest(page('12 prompts', 'Page 3 of 9'))).toBe(digest(page('15 prompts', 'Page 3 of 11')));
  });

  it('changes with anything outside them: text, a filter, an attribute, where a marked part sits', () => {
    const base = digest(page('12 prompts', 'Page 3 of 9'));
    expect(digest(page('12 prompts', 'Page 3 of 9', '<p>the conversation, edited</p>'))).not.toBe(base);
    expect(digest(page('12 prompts', 'Page 3 of 9').replace('<dl class="facts">', '<dl class="facts"><span data-pagefind-filter="tool">Bash</span>'))).not.toBe(base);
    expect(digest(page('12 prompts', 'Page 3 of 9').replace('data-pagefind-body', 'data-pagefind-body lang="de"'))).not.toBe(base);
    const moved = `<p>the conversation</p>${mark('x')}`;
    expect(digest(moved)).not.toBe(digest(`${mark('x')}<p>the conversation</p>`));
  });

  it('is the plain sha-256 of a page without markers', () => {
    const html = '<article data-pagefind-body><p>no markers</p></article>';
    expect(digest(html)).toBe(createHash('sha256').update(html).digest('hex'));
  });

  it('keeps everything after a marker that never closes (a damaged page is indexed again, not reused)', () => {
    const open = (tail: string) => `<p>a</p>${UNINDEXED_OPEN}<p>${tail}</p>`;
    expect(digest(open('one'))).not.toBe(digest(open('two')));
  });

  it('is not fooled by marker text that was escaped (transcript text)', () => {
    const escaped = (inner: string) => `<p>&lt;!--sp:unindexed--&gt;${inner}&lt;!--/sp:unindexed--&gt;</p>`;
    expect(digest(escaped('secret one'))).not.toBe(digest(escaped('secret two')));
  });

  it('reads a Uint8Array view at its offset, as it reads a Buffer', () => {
    const html = page('1 prompt', 'Page 1 of 2');
    const big = Buffer.from(`xxxx${html}yyyy`);
    const view = new Uint8Array(big.buffer, big.byteOffset + 4, Buffer.byteLength(html));
    expect(searchDigest(view)).toBe(digest(html));
  });
});
