/**
 * Markdown as plain words, for the places that show one line of text where
 * markdown is not rendered: session titles, table-of-contents lines, search
 * result rows. The one markdown stripper of the site. No imports: the page
 * script bundles it (through src/lib/search/excerpt.ts).
 *
 * Syntax goes only where it is syntax: `**` must pair with a `**` that closes
 * it at a word's edge, so `2**3`, `a*b`, `2 * 3`, `**kwargs`, `src/*.ts`,
 * `snake_case_names`, `src/__init__.py` and `C#` keep every character.
 * `\u0001` and `\u0002` (search hits' edges, see cleanExcerpt) may sit between
 * syntax and its word, and are kept.
 */

export interface StripMarkdownOptions {
  /**
   * Also turn HTML elements into their text (`<b>bold</b>` → `bold`, an image
   * → its alt text, `<br>` → a space). For titles made from what someone
   * typed; not for search excerpts, which are page text, where a tag is text
   * the page shows.
   */
  html?: boolean;
}

/** HTML element names turned into their text; any other `<name>` (`Vec<String>`, `<ide_opened_file>`) is left alone. */
const HTML_ELEMENTS = new Set(
  'a abbr b bdi bdo big blockquote br center cite code dd del details dfn div dl dt em font h1 h2 h3 h4 h5 h6 hr i img ins kbd li mark ol p pre q s samp small span strike strong sub summary sup table tbody td th thead tr tt u ul var'.split(' '),
);

/** Whether a lower-case tag name is a standard HTML element (as opposed to a generated wrapper such as `<system-reminder>`). */
export function isHtmlElement(name: string): boolean {
  return HTML_ELEMENTS.has(name);
}

// Code kept aside while the rest is cleaned: private-use characters around its index.
const KEEP_OPEN = '\uE000';
const KEEP_CLOSE = '\uE001';

/** A search hit's edge, allowed between syntax and the word it wraps. */
const MARK = '[\\u0001\\u0002]?';
/** What may come before an opening delimiter: a line start, a space, an opening bracket or quote. */
const OPEN_BEFORE = '(^|[\\s(\\[{"\'\\u0001\\u0002])';
/** What an opening delimiter must touch: a word, a quote or bracket, or kept code. */
const OPEN_AFTER = `(?=${MARK}[\\p{L}\\p{N}"'(\\[\\uE000])`;
/** What a closing delimiter must touch on its left. */
const CLOSE_BEFORE = `[\\p{L}\\p{N}.,:;!?)\\]"'\\uE001]${MARK}`;
/** What may follow a closing delimiter: a line end, a space, punctuation, or a full stop ending a sentence (not `.py`). */
const CLOSE_AFTER = '(?=$|[\\s),;:!?\\]}"\'\\u0001\\u0002]|\\.(?:\\s|$))';

/**
 * A pair of emphasis delimiters around text on one line, e.g. `**strong**`; replaced by `$1$2`.
 * The text between is bounded, so a long line of lone `*` costs linear time, not quadratic.
 */
function pair(delimiter: string): RegExp {
  return new RegExp(`${OPEN_BEFORE}${delimiter}${OPEN_AFTER}([^\\n]{0,300}?${CLOSE_BEFORE})${delimiter}${CLOSE_AFTER}`, 'gmu');
}

const EMPHASIS = ['\\*\\*\\*', '___', '\\*\\*', '__', '~~', '\\*', '_'].map((d) => ({ re: pair(d), underscores: d.startsWith('__') }));

/** `__init__`, `__name__`: a Python name, not strong emphasis (people write `**` for bold). */
const DUNDER = /^[\p{L}\p{N}_]+$/u;

const FENCED_CODE = /^ {0,3}(`{3,}|~{3,})[^\n]*\n?([\s\S]*?)(?:^ {0,3}\1[`~]*[ \t]*$|(?![\s\S]))/gm;
/** An inline code span; it never crosses a blank line. */
const CODE_SPAN = /(?<!`)(`+)(?!`)((?:(?!\n[ \t]*\n)[\s\S])*?[^`])\1(?!`)/g;
/** `[text](url "title")` and `![alt](url)`; the URL may hold one level of parentheses. */
const INLINE_LINK = /!?\[([^[\]\n]{0,300})\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+(?:"[^"\n]*"|'[^'\n]*'))?\)/g;
/** `[text][ref]`: the text. A lone `[Image #1]` is text and stays. */
const REFERENCE_LINK = /!?\[([^[\]\n]{1,300})\]\[[^[\]\n]{0,100}\]/g;
const AUTOLINK = /<((?:https?|mailto):[^\s<>]+|[^\s<>@]+@[^\s<>@]+\.[a-z]{2,})>/gi;
/** A heading marker at a line start, and a closing run of `#`. */
const HEADING = /^ {0,3}#{1,6}(?:[ \t]+|$)(?:(.*?)[ \t]+#+[ \t]*$)?/gm;
/** A heading flattened into running text (search excerpts have no lines): `## ` before a capitalised word. */
const INLINE_HEADING = /(^|[\s(])#{2,6}[ \t]+(?=[\u0001\u0002]?\p{Lu})/gmu;
/** Bullet markers (and a task box) at a line start; ordered list numbers are kept, as words. */
const BULLET = /^[ \t]*[-*+][ \t]+(?:\[[ xX]\][ \t]+)?/gm;
const QUOTE = /^[ \t]*(?:>[ \t]?)+/gm;
/** Thematic breaks and setext underlines: lines of only `-`, `*`, `_` or `=`. */
const RULE = /^ {0,3}(?:(?:[-*_][ \t]*){3,}|=+[ \t]*)$/gm;

const ATTRIBUTES = '(?:\\s+[\\w:-]+(?:\\s*=\\s*(?:"[^"]*"|\'[^\']*\'|[^\\s"\'=<>`]+))?)*\\s*\\/?';
const HTML_TAG = new RegExp(`<\\/?([a-z][a-z0-9]*)${ATTRIBUTES}>`, 'g');
const HTML_COMMENT = /<!--[\s\S]*?-->/g;

/**
 * Removes markdown syntax and keeps the words: emphasis, strong and
 * strikethrough markers, inline-code backticks and code fences (the code stays
 * as written), links (their text) and images (their alt text), heading,
 * bullet and quote markers, rules. With `html`, HTML elements become their
 * text too. Line breaks are kept; callers fold whitespace as they need.
 */
export function stripMarkdown(text: string, options: StripMarkdownOptions = {}): string {
  const kept: string[] = [];
  const keep = (code: string) => `${KEEP_OPEN}${kept.push(code) - 1}${KEEP_CLOSE}`;
  let t = text
    .replace(/[\uE000\uE001]/g, '')
    .replace(FENCED_CODE, (_all, _fence: string, code: string) => keep(code))
    .replace(CODE_SPAN, (_all, _ticks: string, code: string) => keep(code));
  if (options.html) t = htmlToText(t);
  t = t
    .replace(INLINE_LINK, '$1')
    .replace(REFERENCE_LINK, '$1')
    .replace(AUTOLINK, '$1')
    .replace(RULE, '')
    .replace(QUOTE, '')
    .replace(BULLET, '')
    .replace(HEADING, (_all, words?: string) => words ?? '')
    .replace(INLINE_HEADING, '$1')
    // A backtick left without its partner (an excerpt cut mid-span) is syntax too.
    .replace(/`+/g, '');
  for (const { re, underscores } of EMPHASIS) {
    t = t.replace(re, (all, before: string, words: string) => (underscores && DUNDER.test(words) ? all : before + words));
  }
  return t.replace(new RegExp(`${KEEP_OPEN}(\\d+)${KEEP_CLOSE}`, 'g'), (_all, i: string) => kept[Number(i)] ?? '');
}

/** HTML elements as their text: tags dropped, `<br>` a space, an image its alt text, comments gone. */
function htmlToText(text: string): string {
  return text.replace(HTML_COMMENT, '').replace(HTML_TAG, (tag, name: string) => {
    if (!HTML_ELEMENTS.has(name)) return tag;
    if (name === 'img') return tag.match(/\balt\s*=\s*(?:"([^"]*)"|'([^']*)')/)?.slice(1).find((v) => v !== undefined) ?? '';
    return name === 'br' || name === 'hr' ? ' ' : '';
  });
}
