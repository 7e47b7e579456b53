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
 */
import { bundledLanguages, createCssVariablesTheme, createHighlighter, type Highlighter, type ThemedToken } from 'shiki';
import { createJavaScriptRegexEngine } from 'shiki/engine/javascript';
import { escapeHtml, trustedHtml, type SafeHtml } from './sanitize.js';

const THEME_NAME = 'sp-css-variables';
const theme = createCssVariablesTheme({ name: THEME_NAME, variablePrefix: '--shiki-', fontStyle: true });

/** Inputs larger than this are shown plain: tokenising runs at 1-2 MB/s and builds must stay fast. */
export const HIGHLIGHT_MAX_LINES = 2000;
export const HIGHLIGHT_MAX_BYTES = 200 * 1024;

/** Loaded before any transcript asks, because nearly every transcript needs them. */
const CORE_LANGS = ['shellscript', 'json', 'typescript', 'javascript', 'tsx', 'python', 'diff', 'yaml', 'html', 'css'];

/**
 * Grammars that colour embedded code with whatever other grammars happen to be
 * loaded (markdown fences name any of 57 languages). Their output would depend on
 * what the process highlighted before, so builds would not be reproducible; they
 * are shown as plain text instead.
 */
const PLAIN_LANGS = new Set(['markdown', 'mdx']);

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

/** The shiki id for a fence label or alias, or undefined when shiki has no such grammar. */
export function resolveLanguage(lang: string | undefined): string | undefined {
  if (!lang) return undefined;
  const l = lang.trim().toLowerCase();
  if (!l) return undefined;
  const mapped = LANG_ALIASES[l] ?? l;
  if (mapped === 'text' || mapped === 'plaintext' || mapped === 'txt') return undefined;
  if (mapped === 'ansi') return 'ansi';
  if (PLAIN_LANGS.has(mapped)) return undefined;
  return Object.prototype.hasOwnProperty.call(bundledLanguages, mapped) ? mapped : undefined;
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
  /** Extra class for a line (0-based index), e.g. diff `add`/`del`. */
  lineClass?: (index: number) => string | undefined;
  /** Extra class on the `<pre>`. */
  className?: string;
}

/**
 * Highlights code into `<pre class="code"><code>`, lines separated by newlines.
 * Line numbers go in a `<span class="gutter">` beside a `<span class="src">`;
 * classed lines (diffs) each sit in a `<span class="line">` with their number in
 * `data-ln`. Never throws: an unknown language, an unloaded grammar or an input
 * over the size guard gives the same structure with plain escaped text.
 */
export function highlightCode(code: string, options: HighlightOptions = {}): SafeHtml {
  const text = code.replace(/\r\n?/g, '\n');
  const id = resolveLanguage(options.lang);
  const lines = tokenize(text, id);
  const cls = ['code', options.className].filter(Boolean).join(' ');
  const langAttr = id ? ` data-lang="${escapeHtml(id)}"` : '';
  // tabindex: a block that scrolls sideways must be reachable with the keyboard.
  return trustedHtml(`<pre class="${escapeHtml(cls)}"${langAttr} tabindex="0"><code>${renderLines(lines, options)}</code></pre>`);
}

/** Highlights code and returns only the inner line markup (for callers that build their own `<pre>`). */
export function highlightLines(code: string, options: HighlightOptions = {}): SafeHtml {
  const id = resolveLanguage(options.lang);
  return trustedHtml(renderLines(tokenize(code.replace(/\r\n?/g, '\n'), id), options));
}

type Line = Array<{ content: string; cls?: string }>;

function tokenize(text: string, id: string | undefined): Line[] {
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

const VAR_RE = /^var\(--shiki-([a-z0-9-]+)\)$/i;

/**
 * Short class names for the syntax colours: a highlighted page holds tens of
 * thousands of token spans, and `s-token-punctuation` on each of them made
 * class attributes close to half of a page's bytes.
 */
const TOKEN_CLASS: Record<string, string> = {
  'token-keyword': 't-k',
  'token-string': 't-s',
  'token-string-expression': 't-se',
  'token-comment': 't-c',
  'token-constant': 't-n',
  'token-function': 't-f',
  'token-parameter': 't-p',
  'token-link': 't-l',
  'token-inserted': 't-i',
  'token-deleted': 't-d',
  'token-changed': 't-g',
};

/** Turns a token's theme colour (a CSS variable reference) and font style into class names. */
function toLine(tokens: ThemedToken[]): Line {
  const out: Line = [];
  for (const t of tokens) {
    const classes: string[] = [];
    const fg = t.color ? VAR_RE.exec(t.color)?.[1] : undefined;
    // Punctuation keeps the text colour: colouring it doubled the spans per line for little gain.
    if (fg && fg !== 'foreground' && fg !== 'token-punctuation') classes.push(TOKEN_CLASS[fg] ?? `s-${fg}`);
    const bg = t.bgColor ? VAR_RE.exec(t.bgColor)?.[1] : undefined;
    if (bg && bg !== 'background') classes.push(`sb-${bg}`);
    const fs = t.fontStyle ?? 0;
    if (fs > 0) {
      if (fs & 1) classes.push('s-i');
      if (fs & 2) classes.push('s-b');
      if (fs & 4) classes.push('s-u');
      if (fs & 8) classes.push('s-x');
    }
    const cls = classes.length ? classes.join(' ') : undefined;
    const prev = out[out.length - 1];
    // Adjacent tokens of the same colour become one span: far fewer elements per page.
    if (prev && prev.cls === cls) prev.content += t.content;
    else out.push({ content: t.content, cls });
  }
  return out;
}

function renderLines(lines: Line[], options: HighlightOptions): string {
  // A trailing newline would show as an empty last line.
  if (lines.length > 1 && lines[lines.length - 1].length === 0) lines = lines.slice(0, -1);
  const start = options.startLine ?? 1;
  const numbered = !!options.lineLabel || !!options.lineNumbers;
  const label = (i: number): string => {
    if (!options.lineLabel) return options.lineNumbers ? String(start + i) : '';
    const l = options.lineLabel(i);
    return l === undefined ? '' : String(l);
  };
  const classes = options.lineClass ? lines.map((_, i) => options.lineClass!(i)) : [];
  const body = (line: Line): string => {
    let out = '';
    for (const tok of line) {
      const content = escapeHtml(tok.content);
      out += tok.cls ? `<span class="${tok.cls}">${content}</span>` : content;
    }
    return out;
  };
  if (classes.some(Boolean)) {
    // Classed lines (diffs) need an element each for their background; the number rides on it.
    return lines
      .map((line, i) => {
        const ln = numbered ? label(i) : '';
        const cls = classes[i] ? `line ${escapeHtml(classes[i]!)}` : 'line';
        return `<span class="${cls}"${ln ? ` data-ln="${escapeHtml(ln)}"` : ''}>${body(line)}</span>`;
      })
      .join('\n');
  }
  const code = lines.map(body).join('\n');
  if (!numbered) return code;
  // Numbers sit in a gutter column beside the code, one per line: an element per line with its
  // number in an attribute was a tenth of a site's bytes. The gutter is not copied, read out or indexed.
  const gutter = lines.map((_, i) => escapeHtml(label(i))).join('\n');
  return `<span class="gutter" aria-hidden="true" data-pagefind-ignore>${gutter}</span><span class="src">${code}</span>`;
}

// ---------------------------------------------------------------------------
// Terminal output

const ANSI_SGR = /\u001b\[[0-9;:]*m/;
// OSC (e.g. OSC 8 hyperlinks, window titles), ended by BEL or ST.
const OSC_RE = /\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?/g;
// CSI sequences other than SGR (`m`): cursor moves, erase line, etc.
const CSI_NON_SGR_RE = /\u001b\[[0-?]*[ -/]*[@-ln-~]/g;
// Any other two-character escape.
const ESC_OTHER_RE = /\u001b(?![[\]])[@-Z\\-_]?/g;
const SGR_ALL_RE = /\u001b\[[0-9;:]*m/g;

/** Whether text carries ANSI colour codes worth rendering. */
export function hasAnsi(text: string): boolean {
  return ANSI_SGR.test(text);
}

/**
 * Drops the terminal sequences a page cannot show (links, cursor moves, titles)
 * and applies carriage returns the way a terminal would (progress bars keep only
 * their last state), keeping colour codes for the highlighter.
 */
export function cleanTerminal(text: string): string {
  const noOsc = text.replace(OSC_RE, '').replace(CSI_NON_SGR_RE, '').replace(ESC_OTHER_RE, '');
  return noOsc
    .replace(/\r\n/g, '\n')
    .split('\n')
    .map((line) => {
      const cr = line.lastIndexOf('\r', line.length - 2);
      return (cr === -1 ? line : line.slice(cr + 1)).replace(/\r$/, '');
    })
    .join('\n');
}

/** Removes every escape sequence, leaving plain text. */
export function stripAnsi(text: string): string {
  return cleanTerminal(text).replace(SGR_ALL_RE, '').replace(/\u001b/g, '');
}

/** Renders terminal output: colours when it has ANSI codes, plain text otherwise. */
export function highlightTerminal(text: string, className = 'terminal'): SafeHtml {
  if (hasAnsi(text)) return highlightCode(text, { lang: 'ansi', className });
  return highlightCode(stripAnsi(text), { className });
}

// ---------------------------------------------------------------------------
// Languages

/** Fence labels and aliases shiki does not know under that name. */
const LANG_ALIASES: Record<string, string> = {
  sh: 'shellscript',
  shell: 'shellscript',
  bash: 'shellscript',
  zsh: 'shellscript',
  console: 'shellscript',
  'shell-session': 'shellscript',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  py: 'python',
  rb: 'ruby',
  yml: 'yaml',
  md: 'markdown',
  rs: 'rust',
  'c++': 'cpp',
  cs: 'csharp',
  kt: 'kotlin',
  golang: 'go',
  dockerfile: 'docker',
  patch: 'diff',
  jsonl: 'jsonl',
  ndjson: 'jsonl',
  plain: 'text',
  none: 'text',
  output: 'text',
  log: 'log',
};

/** File extension to shiki language id. Extensions that are already ids resolve on their own. */
const EXT_LANGS: Record<string, string> = {
  ts: 'typescript', mts: 'typescript', cts: 'typescript', tsx: 'tsx',
  js: 'javascript', mjs: 'javascript', cjs: 'javascript', jsx: 'jsx',
  py: 'python', pyi: 'python', rb: 'ruby', rs: 'rust', go: 'go', java: 'java', kt: 'kotlin', kts: 'kotlin',
  swift: 'swift', c: 'c', h: 'c', cc: 'cpp', cpp: 'cpp', cxx: 'cpp', hpp: 'cpp', hh: 'cpp', cs: 'csharp',
  php: 'php', sh: 'shellscript', bash: 'shellscript', zsh: 'shellscript', fish: 'fish', ps1: 'powershell',
  json: 'json', jsonc: 'jsonc', json5: 'json5', jsonl: 'jsonl', ndjson: 'jsonl', ipynb: 'json',
  yml: 'yaml', yaml: 'yaml', toml: 'toml', ini: 'ini', cfg: 'ini', conf: 'ini', env: 'dotenv',
  md: 'markdown', mdx: 'mdx', markdown: 'markdown', rst: 'rst', tex: 'latex',
  html: 'html', htm: 'html', xml: 'xml', svg: 'xml', plist: 'xml', css: 'css', scss: 'scss', sass: 'sass', less: 'less',
  vue: 'vue', svelte: 'svelte', astro: 'astro', sql: 'sql', graphql: 'graphql', gql: 'graphql', proto: 'proto',
  lua: 'lua', r: 'r', dart: 'dart', scala: 'scala', ex: 'elixir', exs: 'elixir', erl: 'erlang', hs: 'haskell',
  clj: 'clojure', ml: 'ocaml', nim: 'nim', zig: 'zig', pl: 'perl', tf: 'hcl', hcl: 'hcl', nix: 'nix',
  diff: 'diff', patch: 'diff', dockerfile: 'docker', makefile: 'make', mk: 'make', cmake: 'cmake',
  gradle: 'groovy', groovy: 'groovy', vim: 'viml', prisma: 'prisma', sol: 'solidity', csv: 'csv', tsv: 'tsv',
  txt: 'text', log: 'log', lock: 'text',
};

/** Whole file names that say their language. */
const NAME_LANGS: Record<string, string> = {
  dockerfile: 'docker',
  makefile: 'make',
  gnumakefile: 'make',
  'cmakelists.txt': 'cmake',
  '.bashrc': 'shellscript',
  '.zshrc': 'shellscript',
  '.profile': 'shellscript',
  '.bash_profile': 'shellscript',
  '.gitignore': 'text',
  '.env': 'dotenv',
  gemfile: 'ruby',
  rakefile: 'ruby',
  justfile: 'just',
};

/** Language for a file path, by name then extension; `text` when nothing matches. */
export function languageForPath(path: string | undefined): string {
  if (!path) return 'text';
  const base = path.split(/[\\/]/).pop()?.toLowerCase() ?? '';
  if (NAME_LANGS[base]) return NAME_LANGS[base];
  if (base.startsWith('dockerfile')) return 'docker';
  if (base.startsWith('.env')) return 'dotenv';
  const dot = base.lastIndexOf('.');
  if (dot === -1) return 'text';
  const ext = base.slice(dot + 1);
  const lang = EXT_LANGS[ext] ?? ext;
  return resolveLanguage(lang) ?? 'text';
}
