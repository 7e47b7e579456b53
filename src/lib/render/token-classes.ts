/**
 * How shiki's tokens become class names: shared by the build's highlighter
 * (highlight.ts) and the browser's, which highlights code left plain in a
 * closed `<details>` when it is opened (src/scripts/lazy-highlight.ts). Pure,
 * with no import of shiki itself, so the page script stays small until used.
 */
import type { ThemedToken } from 'shiki';

/**
 * Marks a code block left plain because it sat in a closed `<details>` when the
 * page was built (with a value: the sanitiser drops empty attributes).
 */
export const LAZY_ATTR = 'data-hl="lazy"';
/** Selects the blocks marked with `LAZY_ATTR`. */
export const LAZY_SELECTOR = `pre[${LAZY_ATTR}]`;

/** The css-variables theme every highlighter uses: token colours are `var(--shiki-…)`, turned into classes below. */
export const THEME_NAME = 'sp-css-variables';
export const THEME_OPTIONS = { name: THEME_NAME, variablePrefix: '--shiki-', fontStyle: true } as const;

/** One line of code: runs of text, each with the class of its colour (none for plain text). */
export type Line = Array<{ content: string; cls?: string }>;

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

/** Turns a line's tokens (theme colours as CSS variable references, font styles) into runs with class names. */
export function toLine(tokens: ThemedToken[]): Line {
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

/**
 * A block's lines as numbers, to cross to another thread cheaply (its text
 * stays behind): per line its token count, per token its class (an index into
 * `classes`, -1 for none) and its length. The tokens of a line are its text.
 */
export interface EncodedLines {
  classes: string[];
  data: Int32Array;
}

/** Encodes a tokenised block (see `EncodedLines`). */
export function encodeLines(lines: Line[]): EncodedLines {
  const classes: string[] = [];
  const index = new Map<string, number>();
  const data: number[] = [lines.length];
  for (const line of lines) {
    data.push(line.length);
    for (const tok of line) {
      let c = -1;
      if (tok.cls) {
        c = index.get(tok.cls) ?? -1;
        if (c === -1) index.set(tok.cls, (c = classes.push(tok.cls) - 1));
      }
      data.push(c, tok.content.length);
    }
  }
  return { classes, data: Int32Array.from(data) };
}

/**
 * The lines `encodeLines` encoded, rebuilt from the block's text (lines
 * separated by `\n`); undefined when the two disagree, so a caller tokenises
 * the block itself rather than show text that is not the block's.
 */
export function decodeLines(text: string, encoded: EncodedLines): Line[] | undefined {
  const { classes, data } = encoded;
  const texts = text.split('\n');
  if (data[0] !== texts.length) return undefined;
  const lines: Line[] = [];
  let at = 1;
  for (const lineText of texts) {
    const count = data[at++];
    const line: Line = [];
    let pos = 0;
    for (let t = 0; t < count; t++) {
      const c = data[at++];
      const length = data[at++];
      if (c >= classes.length || length < 0 || pos + length > lineText.length) return undefined;
      const content = lineText.slice(pos, pos + length);
      pos += length;
      line.push(c >= 0 ? { content, cls: classes[c] } : { content });
    }
    if (pos !== lineText.length || at > data.length) return undefined;
    lines.push(line);
  }
  return at === data.length ? lines : undefined;
}
