import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderSession, type RenderSessionOptions } from '../../../src/lib/build/render-session.js';
import { loadHighlighter, tokenizeEncoded, type Tokenizer } from '../../../src/lib/render/highlight.js';
import type { Session } from '../../../src/lib/transcript/types.js';
import { loadSessionFile } from '../../helpers/sessions.js';

/**
 * With another thread to tokenise for it, a session's pages are rendered in a
 * pipeline: the other thread tokenises its share of one page while this one
 * builds the next. The pages must be those rendered without it.
 */
const work = mkdtempSync(join(tmpdir(), 'sp-render-'));
let session: Session;
/** One turn a page: each page shows its own TypeScript, more than a page keeps to itself (highlight.ts). */
const options: RenderSessionOptions = { pageSize: 1, assetBase: '/a/', indexToolOutput: true, indexThinking: false };
const TURNS = 6;
/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

beforeAll(async () => {
  await loadHighlighter();
  const lines: string[] = [];
  let parentUuid: string | null = null;
  const entry = (uuid: string, rest: Record<string, unknown>) => {
    lines.push(JSON.stringify({ parentUuid, uuid, sessionId: 's', cwd: '/w', timestamp: new Date(Date.UTC(2026, 0, 1, 0, lines.length)).toISOString(), ...rest }));
    parentUuid = uuid;
  };
  for (let t = 0; t < TURNS; t++) {
    const code = Array.from({ length: 40 }, (_, i) => `export const value${t}_${i} = compute(${i}, "text") as number;`).join('\n');
    const prompt = { type: 'text', text: `Turn ${t}: write the values` };
    // The third page shows an image, known only by rendering the page.
    const content = t === 2 ? [prompt, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }] : [prompt];
    entry(`u${t}`, { type: 'user', message: { role: 'user', content } });
    entry(`a${t}`, { type: 'assistant', message: { id: `msg_${t}`, role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: `Here:\n\n\`\`\`ts\n${code}\n\`\`\`` }] } });
  }
  mkdirSync(join(work, 'p'));
  writeFileSync(join(work, 'p', 's.jsonl'), `${lines.join('\n')}\n`);
  session = await loadSessionFile(work, join('p', 's.jsonl'));
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('renderSession with a tokenizer', () => {
  it("asks for the next page's tokens before it finishes a page, and renders the pages it renders alone", async () => {
    const alone = await renderSession(session, options);
    expect(alone.pageCount).toBe(TURNS);

    // What happened, in order: the other thread asked for a page's share ("ask"), a page handed over ("page N").
    const events: string[] = [];
    const other: Tokenizer = async (needs, langs) => {
      events.push('ask');
      return tokenizeEncoded(needs, langs);
    };
    const written: string[] = [];
    const sink = async (n: number, page: { value: string }) => {
      events.push(`page ${n}`);
      written[n - 1] = page.value;
    };
    const piped = await renderSession(session, options, undefined, sink, other);

    expect(written).toEqual(alone.pages.map((p) => p.value));
    expect(piped.toc).toEqual(alone.toc);
    expect(piped.anchors).toEqual(alone.anchors);
    // Each page's share is asked for before the page before it is handed over; each page is handed over once, in order.
    expect(events).toEqual(['ask', ...alone.pages.flatMap((_, i) => (i + 1 < TURNS ? ['ask', `page ${i + 1}`] : [`page ${i + 1}`]))]);
    // The pages show code in colour.
    expect(written[TURNS - 1]).toContain('class="t-k"');
  }, 120_000);

  it('knows the page that shows an image while the next page is being built, and renders only that one again', async () => {
    const other: Tokenizer = (needs, langs) => tokenizeEncoded(needs, langs);
    const first = await renderSession(session, options, { salt: 's' }, async () => {}, other);
    expect(first.assets.length).toBe(1);
    expect(first.pageDigests!.map((d) => d !== '')).toEqual([true, true, false, true, true, true]);
    const digests = first.pageDigests!;
    const again = await renderSession(session, options, { salt: 's', previous: { digests, read: async () => ({ value: '' }) as never, keep: async () => {} } }, async () => {}, other);
    expect(again.reused).toEqual([true, true, false, true, true, true]);
  }, 120_000);
});
