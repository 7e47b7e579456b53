/**
 * Syntax highlighting with one shiki highlighter for the whole build.
 *
 * Shiki tokenises synchronously once a grammar is loaded, but loading is async.
 * So the renderers stay synchronous: `ensureLanguages` (called by the render
 * context before rendering a transcript) loads the grammars a transcript needs,
 * and `highlightCode` falls back to escaped plain text for anything not loaded.
 *
 * Output carries no inline styles: tokens get classes derived from shiki's
 * css-variables theme (`var(--shiki-token-keyword)` becomes `class="t-k"`),
 * and transcript.css maps the classes to colours for the light and dark themes.
 * Thousands of blocks stay small, and the sanitiser can forbid `style` outright.
 *
 * The markup is built from shiki's tokens (`codeToTokensBase`), never from its
 * HTML, with the `html` tag: token text is escaped and class names come from
 * token-classes.ts, so the output is `SafeHtml` without a sanitiser pass.
 */
import { bundledLanguages, createCssVariablesTheme, createHighlighter, type Highlighter } from 'shiki';
import { createJavaScriptRegexEngine } from 'shiki/engine/javascript';
import { cleanTerminal, hasAnsi, stripAnsi } from './ansi.js';
import { PLAIN_LANGS, resolveLanguage } from './languages.js';
import { html, spliceHtml, type HtmlValue, type SafeHtml } from './sanitize.js';
import { decodeLines, encodeLines, LAZY_ATTR, THEME_NAME, THEME_OPTIONS, toLine, type EncodedLines, type Line } from './token-classes.js';

// Re-exported: renderers and tests import the whole highlighting API from this module.
export { cleanTerminal, hasAnsi, stripAnsi } from './ansi.js';
export { languageForPath, resolveLanguage } from './languages.js';

const theme = createCssVariablesTheme(THEME_OPTIONS);

/** Inputs larger than this are shown plain: tokenising runs at 1-2 MB/s and builds must stay fast. */
export const HIGHLIGHT_MAX_LINES = 2000;
export const HIGHLIGHT_MAX_BYTES = 200 * 1024;

/** Loaded before any transcript asks, because nearly every transcript needs them. */
const CORE_LANGS = ['shellscript', 'json', 'typescript', 'javascript', 'tsx', 'python', 'diff', 'yaml', 'html', 'css'];

let highlighterPromise: Promise<Highlighter> | undefined;
let highlighter: Highlighter | undefined;
const loaded = new Set<string>();
const failed = new Set<string>();

/**
 * Creates (once) the shared highlighter. The JavaScript regex engine was measured
 * at least as fast as oniguruma on TypeScript, Python and shell (0.8-1.8 MB/s vs
 * 0.6-2.1 MB/s) and needs no WASM; `forgiving` skips the rare unsupported pattern.
 */
export function loadHighlighter(): Promise<Highlighter> {
  highlighterPromise ??= createHighlighter({
    themes: [theme],
    langs: CORE_LANGS,
    engine: createJavaScriptRegexEngine({ forgiving: true }),
  }).then((h) => {
    highlighter = h;
    for (const l of h.getLoadedLanguages()) loaded.add(l);
    return h;
  });
  return highlighterPromise;
}

/**
 * A grammar plus every grammar it may embed lazily (`<style lang="scss">` in
 * Vue, say), transitively. Loading them together makes a language's output
 * independent of what was loaded before.
 */
async function withLazyEmbeds(id: string, into: Set<string>): Promise<void> {
  if (into.has(id) || PLAIN_LANGS.has(id)) return;
  into.add(id);
  const load = (bundledLanguages as Record<string, () => Promise<{ default: Array<{ name: string; embeddedLangsLazy?: string[] }> }>>)[id];
  if (!load) return;
  const regs = (await load()).default;
  for (const reg of regs) for (const lazy of reg.embeddedLangsLazy ?? []) await withLazyEmbeds(lazy, into);
}

/** Loads grammars on demand; unknown names are ignored (they render as plain text). */
export async function ensureLanguages(langs: Iterable<string | undefined>): Promise<void> {
  const h = await loadHighlighter();
  const wanted = new Set<string>();
  for (const l of langs) {
    const id = resolveLanguage(l);
    if (id && !loaded.has(id) && !failed.has(id)) await withLazyEmbeds(id, wanted);
  }
  // Sorted, so that the order of loading never depends on the order of the transcript.
  for (const id of [...wanted].sort()) {
    if (loaded.has(id) || failed.has(id)) continue;
    try {
      await h.loadLanguage(id as never);
      for (const l of h.getLoadedLanguages()) loaded.add(l);
      loaded.add(id);
    } catch {
      // A grammar the engine cannot compile: plain text is an acceptable answer.
      failed.add(id);
    }
  }
}

/** Whether the shared highlighter is ready and has this language. */
export function isLanguageLoaded(lang: string | undefined): boolean {
  const id = resolveLanguage(lang);
  return !!id && !!highlighter && loaded.has(id);
}

export interface HighlightOptions {
  /** Fence label, shiki id, alias or `ansi`; unknown or unloaded means plain text. */
  lang?: string;
  /** Number of the first line, when lines are numbered. */
  startLine?: number;
  /** Show line numbers (in a gutter that copying, screen readers and search skip). */
  lineNumbers?: boolean;
  /** Per-line number label (overrides `startLine`); `undefined` leaves a line unnumbered. */
  lineLabel?: (index: number) => string | number | undefined;
  /** Extra class on the `<pre>`. */
  className?: string;
}

/**
 * Highlights code into `<pre class="code"><code>`, lines separated by newlines.
 * Line numbers go in a `<span class="gutter">` beside a `<span class="src">`
 * (diffs build their own lines: tools/files.ts). Never throws: an unknown language, an unloaded grammar or an input
 * over the size guard gives the same structure with plain escaped text.
 */
export function highlightCode(code: string, options: HighlightOptions = {}): SafeHtml {
  const text = code.replace(/\r\n?/g, '\n');
  const id = resolveLanguage(options.lang);
  if (deferring && isDeferrable(text, id)) return deferring.add(() => codeBlock(text, id, options, true), () => codeBlock(text, id, options, false), { text, id: id! });
  return codeBlock(text, id, options, true);
}

/**
 * The `<pre>` of a code block, highlighted or (`lazy`: to be highlighted in the browser when opened) plain.
 * A lazy block numbered 1, 2, 3… from some line carries that line in `data-start` instead of its gutter:
 * the page script draws the gutter when the block is shown (src/scripts/gutter.ts). Most numbered code
 * (files read and written) starts closed, and its gutters were ~3% of a long page.
 */
function codeBlock(text: string, id: string | undefined, options: HighlightOptions, highlight: boolean): SafeHtml {
  let lines = highlight ? tokenize(text, id) : plainLines(text);
  const cls = ['code', options.className].filter(Boolean).join(' ');
  const langAttr = id ? html` data-lang="${id}"` : '';
  const lazy = highlight ? '' : LAZY_ATTR_HTML;
  let numbering = options;
  let startAttr: HtmlValue = '';
  if (!highlight) {
    lines = withoutTrailingEmpty(lines);
    const start = consecutiveStart(lines.length, options);
    if (start !== undefined) {
      numbering = { ...options, lineNumbers: false, lineLabel: undefined };
      startAttr = html` data-start="${start}"`;
    }
  }
  // tabindex: a block that scrolls sideways must be reachable with the keyboard; one that wraps never does.
  const focus = wraps(options.className) ? '' : TABINDEX_HTML;
  return html`<pre class="${cls}"${langAttr}${lazy}${startAttr}${focus}><code>${renderLines(lines, numbering)}</code></pre>`;
}

/** `LAZY_ATTR` with its leading space, as markup (a literal in `html`; checked against the constant below). */
export const LAZY_ATTR_HTML = html` data-hl="lazy"`;
const TABINDEX_HTML = html` tabindex="0"`;

/** Blocks whose lines wrap instead of scrolling sideways (transcript.css: `pre.command, pre.plain`). */
const WRAPPING_CLASSES = new Set(['command', 'plain']);

function wraps(className: string | undefined): boolean {
  return !!className && className.split(/\s+/).some((c) => WRAPPING_CLASSES.has(c));
}

/** Where a lazy block's line numbering starts, for the page script's gutter (see `codeBlock`). */
export const GUTTER_START_ATTR = 'data-start';

// The attribute is a literal in `html` (a template never takes markup from a variable); the
// constant is what the page script looks for, so the two must agree.
if (LAZY_ATTR_HTML.value !== ` ${LAZY_ATTR}`) throw new Error('highlight.ts: LAZY_ATTR_HTML and LAZY_ATTR disagree');

/** The number of the first line when a block's lines are numbered one after another; else undefined. */
function consecutiveStart(count: number, options: HighlightOptions): number | undefined {
  if (!options.lineLabel) return options.lineNumbers ? (options.startLine ?? 1) : undefined;
  const first = Number(options.lineLabel(0));
  if (!Number.isInteger(first)) return undefined;
  for (let i = 1; i < count; i++) if (Number(options.lineLabel(i)) !== first + i) return undefined;
  return first;
}

/** Lines without the empty last one a trailing newline leaves (it would show as an empty line). */
function withoutTrailingEmpty(lines: Line[]): Line[] {
  return lines.length > 1 && lines[lines.length - 1].length === 0 ? lines.slice(0, -1) : lines;
}

// Marks a code block left plain because it sat in a closed `<details>`: the page's script highlights it when opened.
export { LAZY_ATTR } from './token-classes.js';

/**
 * Deferred highlighting. Tokenising is most of a cold build's CPU, and most
 * code on a page (tool output, file contents, diffs) sits in collapsed
 * `<details>`. Inside `withDeferredHighlighting`, `highlightCode` returns a
 * placeholder; once the markup of the whole message is known, each
 * placeholder becomes the highlighted block when no closed `<details>`
 * encloses it, or the plain block (marked `LAZY_ATTR`) when one does.
 * Placeholders carry a random nonce, so transcript text cannot forge one.
 */
let deferring: DeferredScope | undefined;

interface DeferredScope {
  add(highlighted: () => SafeHtml, plain: () => SafeHtml, need: TokenizeNeed): SafeHtml;
}

interface DeferredItem {
  highlighted: () => SafeHtml;
  plain: () => SafeHtml;
  /** What `highlighted` tokenises. */
  need: TokenizeNeed;
}

const NONCE = Math.random().toString(36).slice(2, 10);
const PLACEHOLDER_RE = new RegExp(`<details\\b[^>]*>|</details\\s*>|\uE000${NONCE}:(\\d+)\uE001`, 'gi');
const OPEN_ATTR_RE = /\sopen(?=[\s=>/]|$)/i;

/** Only blocks that would be tokenised by a grammar are worth deferring; the rest are plain anyway. */
function isDeferrable(text: string, id: string | undefined): boolean {
  return !!id && id !== 'ansi' && !!highlighter && loaded.has(id) && text.length <= HIGHLIGHT_MAX_BYTES;
}

/** Runs `render` with highlighting deferred: its markup, with a placeholder for each item. */
function renderDeferred<T extends SafeHtml | string>(render: () => T): { markup: T; items: DeferredItem[] } {
  const items: DeferredItem[] = [];
  deferring = {
    add(highlighted, plain, need) {
      items.push({ highlighted, plain, need });
      // Escaping leaves these characters as they are: the placeholder is found again in the markup.
      return html`${`\uE000${NONCE}:${items.length - 1}\uE001`}`;
    },
  };
  try {
    return { markup: render(), items };
  } finally {
    deferring = undefined;
  }
}

/**
 * Reads the markup's placeholders and `<details>` tags in order: for each
 * placeholder `visit` gets its item and whether a closed `<details>` encloses
 * it, and what it returns takes the placeholder's place (a tag stays).
 */
function visitPlaceholders<T>(items: DeferredItem[], visit: (item: DeferredItem | undefined, hidden: boolean) => T): (match: string, index: string | undefined) => T | undefined {
  // A stack of the enclosing <details>: true for each one that is closed.
  const closed: boolean[] = [];
  let closedDepth = 0;
  return (match, index) => {
    if (index !== undefined) return visit(items[Number(index)], closedDepth > 0);
    if (match[1] === '/') {
      if (closed.pop()) closedDepth--;
    } else {
      const isClosed = !OPEN_ATTR_RE.test(match.slice(8, -1));
      closed.push(isClosed);
      if (isClosed) closedDepth++;
    }
    return undefined;
  };
}

/** The markup with each placeholder replaced: the highlighted block where it is shown, the plain one in a closed `<details>`. */
function resolveDeferred<T extends SafeHtml | string>(markup: T, items: DeferredItem[]): T {
  const resolve = visitPlaceholders(items, (item, hidden) => (item ? (hidden ? item.plain() : item.highlighted()) : html``));
  if (typeof markup === 'string') return markup.replace(PLACEHOLDER_RE, (match: string, index: string | undefined) => resolve(match, index)?.value ?? match) as T;
  return spliceHtml(markup, PLACEHOLDER_RE, (match, [index]) => resolve(match, index)) as T;
}

/**
 * Runs `render` (synchronous: it builds one message's markup) with highlighting
 * deferred, then resolves the placeholders in its result, highlighting only
 * the code that is shown without opening anything. With `SafeHtml` in, the
 * result is `SafeHtml` (placeholders are replaced by `SafeHtml` code blocks);
 * a plain string in gives a plain string out.
 */
export function withDeferredHighlighting(render: () => SafeHtml): SafeHtml;
export function withDeferredHighlighting(render: () => string): string;
export function withDeferredHighlighting(render: () => SafeHtml | string): SafeHtml | string {
  if (deferring) return render();
  const { markup, items } = renderDeferred(render);
  return items.length ? resolveDeferred(markup, items) : markup;
}

/** Code a shown block needs tokenised: its text (line ends already `\n`) and its grammar. */
export interface TokenizeNeed {
  text: string;
  id: string;
}

/**
 * Tokenises blocks on another thread (src/lib/build/helper-thread.ts):
 * with the grammars loaded here (`langs`, so that the other thread's output is
 * this one's), it answers with each block's lines encoded, and how long that took.
 */
export type Tokenizer = (needs: TokenizeNeed[], langs: string[]) => Promise<TokenizerAnswer>;

export interface TokenizerAnswer {
  lines: EncodedLines[];
  ms: number;
}

/** What share of a page's code each tokenizer takes: it follows how fast each thread turned out, and what else this one does for a page (see `startDeferredHighlighting`). */
const shares = new WeakMap<Tokenizer, { share: number; resumed?: number }>();

/** Tokens made ahead for the blocks being resolved (see `startDeferredHighlighting`), by grammar and text. */
let prefetched: Map<string, Line[]> | undefined;
const needKey = (id: string, text: string) => `${id}\u0000${text}`;

/** Below this much code, a page's blocks are tokenised here: handing them over would cost more. */
const SHARE_MIN_BYTES = 1024;

/** The most of a page's code the other thread takes: this one always keeps some, so a slow answer never leaves it nothing to do. */
const MAX_SHARE = 0.9;

/** A page being highlighted (`startDeferredHighlighting`): `finish` gives its markup, highlighted. */
export interface HighlightingPage {
  finish(): Promise<SafeHtml>;
}

/**
 * `withDeferredHighlighting` for a whole page (`render` gives its markup),
 * with the code it shows tokenised on two threads: `tokenizer`'s, handed its
 * share at once, and this one, in `finish`. Then the placeholders are
 * resolved as `withDeferredHighlighting` resolves them, from those tokens:
 * the markup is the same. A block the other thread fails on, or answers for
 * with lines that are not its text, is tokenised here.
 *
 * A caller that starts the next page before finishing this one (render-session.ts)
 * keeps the other thread busy while this one builds markup, resolves and
 * writes pages, which only it can do: the other thread's share is sized so
 * that its tokenising takes as long as all this thread does for a page.
 * Without a tokenizer, the page is rendered at once, each message resolving
 * its own placeholders, as it always did.
 */
export function startDeferredHighlighting(render: () => SafeHtml, tokenizer: Tokenizer | undefined): HighlightingPage {
  if (deferring || !tokenizer) {
    const page = render();
    return { finish: async () => page };
  }
  const { markup, items } = renderDeferred(render);
  if (!items.length) return { finish: async () => markup };
  const shown = new Map<string, TokenizeNeed>();
  const scan = visitPlaceholders(items, (item, hidden) => {
    if (item && !hidden) shown.set(needKey(item.need.id, item.need.text), item.need);
  });
  for (const m of markup.value.matchAll(PLACEHOLDER_RE)) scan(m[0], m[1]);
  const needs = [...shown.values()];
  const total = needs.reduce((n, need) => n + need.text.length, 0);
  if (total < SHARE_MIN_BYTES) return { finish: async () => resolveWith(markup, items, new Map()) };
  // The first blocks, about the other thread's share of the code, to it now; the rest here in `finish`.
  const state = shares.get(tokenizer) ?? { share: 0.5 };
  shares.set(tokenizer, state);
  let split = 0;
  let theirBytes = 0;
  for (; split < needs.length && theirBytes < total * state.share; split++) theirBytes += needs[split].text.length;
  const theirs = needs.slice(0, split);
  const answer = tokenizer(theirs, [...loaded].sort()).catch(() => undefined);
  return {
    async finish() {
      const started = performance.now();
      const tokens = new Map<string, Line[]>();
      for (const need of needs.slice(split)) tokens.set(needKey(need.id, need.text), tokenize(need.text, need.id));
      const ownMs = performance.now() - started;
      const encoded = await answer;
      const resumed = performance.now();
      theirs.forEach((need, i) => {
        const lines = encoded?.lines[i] ? decodeLines(need.text, encoded.lines[i]) : undefined;
        if (lines) tokens.set(needKey(need.id, need.text), lines);
      });
      // Each thread's speed on this page sets the next page's split, so that the other thread's share takes
      // as long as everything this thread does for a page: its own share, the markup, resolving, what the
      // caller does between pages (a helper starts slower: shiki's JavaScript engine translates each grammar
      // rule on its first use, per thread). The cycle runs from the last page's answer to this one's.
      const cycle = state.resumed === undefined ? undefined : resumed - state.resumed;
      state.resumed = resumed;
      const waited = resumed - started - ownMs;
      const ownBytes = total - theirBytes;
      if (cycle !== undefined && encoded && encoded.ms > 0 && ownMs > 0 && theirBytes > 0 && ownBytes > 0) {
        // Waiting means the other thread was busy all the cycle: its time is the cycle, more than it counts
        // itself (the copying of its blocks and answer, outside its count).
        const theirMsPerByte = (waited > 1 ? Math.max(encoded.ms, cycle) : encoded.ms) / theirBytes;
        const ownMsPerByte = ownMs / ownBytes;
        const otherMs = Math.max(0, cycle - waited - ownMs);
        const balanced = (total * ownMsPerByte + otherMs) / (total * (theirMsPerByte + ownMsPerByte));
        state.share = Math.min(MAX_SHARE, Math.max(0.1, state.share * 0.7 + balanced * 0.3));
      }
      return resolveWith(markup, items, tokens);
    },
  };
}

/** The markup with its placeholders resolved, `tokens` used for the blocks they hold. */
function resolveWith(markup: SafeHtml, items: DeferredItem[], tokens: Map<string, Line[]>): SafeHtml {
  prefetched = tokens;
  try {
    return resolveDeferred(markup, items);
  } finally {
    prefetched = undefined;
  }
}

/**
 * The tokens of blocks for another thread (`Tokenizer`): loads the grammars
 * the asking thread has loaded, then tokenises each block as `highlightCode`
 * would.
 */
export async function tokenizeEncoded(needs: TokenizeNeed[], langs: string[]): Promise<TokenizerAnswer> {
  await ensureLanguages(langs);
  const started = performance.now();
  const lines = needs.map((need) => encodeLines(tokenize(need.text, need.id)));
  return { lines, ms: performance.now() - started };
}

/**
 * For callers that build their own `<pre>` (diffs): `highlighted()` where the
 * block will be shown without opening anything, `plain()` (which must mark its
 * `<pre>` with `LAZY_ATTR` for the browser) where a closed `<details>` hides
 * it; decided like `highlightCode` once the message's markup is known. Outside
 * `withDeferredHighlighting`, or for code no grammar would colour, it is
 * `highlighted()` at once.
 */
export function highlightWhenShown(code: string, lang: string | undefined, highlighted: () => SafeHtml, plain: () => SafeHtml): SafeHtml {
  const id = resolveLanguage(lang);
  if (deferring && isDeferrable(code, id)) return deferring.add(highlighted, plain, { text: code.replace(/\r\n?/g, '\n'), id: id! });
  return highlighted();
}

/** Highlights code and returns the markup of each line (for callers that build their own `<pre>`: diffs). */
export function highlightLines(code: string, options: Pick<HighlightOptions, 'lang'> = {}): SafeHtml[] {
  const id = resolveLanguage(options.lang);
  return withoutTrailingEmpty(tokenize(code.replace(/\r\n?/g, '\n'), id)).map((line) => html`${lineParts(line, [])}`);
}

function tokenize(text: string, id: string | undefined): Line[] {
  const ready = id && prefetched?.get(needKey(id, text));
  if (ready) return ready;
  const tooBig = text.length > HIGHLIGHT_MAX_BYTES || countLines(text) > HIGHLIGHT_MAX_LINES;
  if (id === 'ansi') {
    const clean = cleanTerminal(text);
    if (!tooBig && highlighter) {
      try {
        return highlighter.codeToTokensBase(clean, { lang: 'ansi', theme: THEME_NAME as never, ...TOKENIZE_LIMITS }).map(toLine);
      } catch {
        // fall through to plain
      }
    }
    return plainLines(stripAnsi(clean));
  }
  if (id && !tooBig && highlighter && loaded.has(id)) {
    try {
      return highlighter.codeToTokensBase(text, { lang: id as never, theme: THEME_NAME as never, ...TOKENIZE_LIMITS }).map(toLine);
    } catch {
      // fall through to plain
    }
  }
  return plainLines(text);
}

function countLines(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function plainLines(text: string): Line[] {
  return text.split('\n').map((content) => (content ? [{ content }] : []));
}

/**
 * No time limit on a line (shiki's default 500 ms cut made output depend on how
 * busy the machine was); instead, very long lines are not tokenised at all.
 */
const TOKENIZE_LIMITS = { tokenizeTimeLimit: 0, tokenizeMaxLineLength: 10_000 } as const;

/** The opening `<span>` of each token class, made once: a page has tens of thousands of token spans. */
const spanOpen = new Map<string, SafeHtml>();
const SPAN_CLOSE = html`</span>`;
const NEWLINE = html`\n`;

/** Appends a line's tokens to `out`: token text as strings (which `html` escapes), spans as `SafeHtml`. */
function lineParts(line: Line, out: HtmlValue[]): HtmlValue[] {
  for (const tok of line) {
    if (!tok.cls) {
      out.push(tok.content);
      continue;
    }
    let open = spanOpen.get(tok.cls);
    if (!open) spanOpen.set(tok.cls, (open = html`<span class="${tok.cls}">`));
    out.push(open, tok.content, SPAN_CLOSE);
  }
  return out;
}

function renderLines(lines: Line[], options: HighlightOptions): SafeHtml {
  lines = withoutTrailingEmpty(lines);
  const start = options.startLine ?? 1;
  const numbered = !!options.lineLabel || !!options.lineNumbers;
  const label = (i: number): string => {
    if (!options.lineLabel) return options.lineNumbers ? String(start + i) : '';
    const l = options.lineLabel(i);
    return l === undefined ? '' : String(l);
  };
  const parts: HtmlValue[] = [];
  lines.forEach((line, i) => {
    if (i > 0) parts.push(NEWLINE);
    lineParts(line, parts);
  });
  const code = html`${parts}`;
  if (!numbered) return code;
  // Numbers sit in a gutter column beside the code, one per line: an element per line with its
  // number in an attribute was a tenth of a site's bytes. The gutter is not copied, read out or indexed.
  const gutter = lines.map((_, i) => label(i)).join('\n');
  // Search skips the gutter by its class (interface-labels.ts); src/scripts/gutter.ts draws the same markup.
  return html`<span class="gutter" aria-hidden="true">${gutter}</span><span class="src">${code}</span>`;
}

/** Renders terminal output: colours when it has ANSI codes, plain text otherwise. */
export function highlightTerminal(text: string, className = 'terminal'): SafeHtml {
  if (hasAnsi(text)) return highlightCode(text, { lang: 'ansi', className });
  return highlightCode(stripAnsi(text), { className });
}
