/**
 * Measures the renderers on the 8 MB fixture session: markdown, highlighting,
 * sanitising and the whole transcript. Run: npm exec -- tsx scripts/bench-render.ts
 */
import { highlightCode, loadHighlighter, ensureLanguages, languageForPath } from '../src/lib/render/highlight.js';
import { markdownToUnsanitizedHtml } from '../src/lib/render/markdown.js';
import { prepareMessages, renderTranscript, renderMessageHtml } from '../src/lib/render/render-message.js';
import { sanitizeHtml } from '../src/lib/render/sanitize.js';
import type { Message } from '../src/lib/transcript/types.js';
import { fixturesRoot, loadExpect, loadSessions, testContext } from '../test/helpers/render.js';

const big = loadExpect().big;
const folder = big.file.split('/')[1];
const t0 = performance.now();
const [session] = await loadSessions(fixturesRoot, (s) => s.projectFolder === folder);
console.log(`load+build ${(performance.now() - t0).toFixed(0)} ms, ${session.messages.length} messages`);
const mb = (s: number) => (s / 1e6).toFixed(2);

const texts: string[] = [];
const code: Array<{ text: string; lang: string }> = [];
const walk = (ms: Message[]) => {
  for (const m of ms) {
    if (m.kind === 'user') texts.push(m.text);
    if (m.kind === 'assistant') {
      for (const b of m.blocks) if (b.type === 'text') texts.push((b as { text: string }).text);
      for (const c of m.toolCalls) {
        const p = typeof c.input.file_path === 'string' ? c.input.file_path : undefined;
        const r = c.result?.toolUseResult as any;
        if (c.name === 'Read' && typeof r?.file?.content === 'string') code.push({ text: r.file.content, lang: languageForPath(p) });
        if (c.name === 'Write' && typeof c.input.content === 'string') code.push({ text: c.input.content, lang: languageForPath(p) });
        if (c.name === 'Bash' && typeof c.input.command === 'string') code.push({ text: c.input.command, lang: 'shellscript' });
        if (c.subagent) walk(c.subagent.messages);
      }
    }
  }
};
walk(session.messages);

await loadHighlighter();
const { ctx } = await testContext({ indexToolOutput: true });
let t = performance.now();
await prepareMessages(session.messages);
await ensureLanguages(code.map((c) => c.lang));
console.log(`prepare languages ${(performance.now() - t).toFixed(0)} ms`);

const mdBytes = texts.reduce((a, s) => a + s.length, 0);
for (const s of texts) markdownToUnsanitizedHtml(s); // warm-up: first calls compile regexes
t = performance.now();
let mdOut = '';
for (const s of texts) mdOut += markdownToUnsanitizedHtml(s);
let ms = performance.now() - t;
console.log(`markdown: ${mb(mdBytes)} MB in ${ms.toFixed(0)} ms = ${mb(mdBytes / (ms / 1000))} MB/s (out ${mb(mdOut.length)} MB)`);

const codeBytes = code.reduce((a, c) => a + c.text.length, 0);
t = performance.now();
for (const c of code) highlightCode(c.text, { lang: c.lang, lineNumbers: true });
console.log(`highlight (cold, grammars compile on first use): ${(performance.now() - t).toFixed(0)} ms`);
t = performance.now();
let hlOut = 0;
for (const c of code) hlOut += highlightCode(c.text, { lang: c.lang, lineNumbers: true }).value.length;
ms = performance.now() - t;
console.log(`highlight: ${mb(codeBytes)} MB (${code.length} blocks) in ${ms.toFixed(0)} ms = ${mb(codeBytes / (ms / 1000))} MB/s (out ${mb(hlOut)} MB)`);

t = performance.now();
const raw = session.messages.map((m) => renderMessageHtml(m, ctx).value);
const rawMs = performance.now() - t;
const rawBytes = raw.reduce((a, s) => a + s.length, 0);
console.log(`render (placeholders unresolved): ${rawMs.toFixed(0)} ms, ${mb(rawBytes)} MB of HTML`);
t = performance.now();
let sanBytes = 0;
for (const h of raw) sanBytes += sanitizeHtml(h).length;
ms = performance.now() - t;
const mdOnly = texts.map((s) => markdownToUnsanitizedHtml(s));
const t2 = performance.now();
for (const h of mdOnly) sanitizeHtml(h);
console.log(`sanitize markdown output only: ${mb(mdOut.length)} MB in ${(performance.now() - t2).toFixed(0)} ms`);
console.log(`(what a whole-message pass would cost) sanitize: ${mb(rawBytes)} MB HTML in ${ms.toFixed(0)} ms = ${mb(rawBytes / (ms / 1000))} MB/s (out ${mb(sanBytes)} MB)`);
t = performance.now();
const all = renderTranscript(session.messages, ctx);
console.log(`renderTranscript total: ${(performance.now() - t).toFixed(0)} ms, ${mb(all.length)} MB`);
// A second run: the first still pays for grammars compiled on first use.
t = performance.now();
renderTranscript(session.messages, ctx);
console.log(`renderTranscript again: ${(performance.now() - t).toFixed(0)} ms`);
