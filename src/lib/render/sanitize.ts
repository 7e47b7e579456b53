/**
 * THE sanitiser, the escaping `html` tag, and `SafeHtml`, the only type the
 * page's one `set:html` (src/components/Html.astro) accepts.
 *
 * A `SafeHtml` is made in exactly two ways:
 * - `html`: a tagged template whose literal parts are our code and whose every
 *   interpolated value is escaped unless it is itself `SafeHtml`;
 * - `sanitized`: the sanitiser, through which everything `marked` writes goes
 *   (and anything else a third-party HTML producer writes).
 * `joinHtml` and `spliceHtml` only rearrange `SafeHtml` they are given. Our own
 * renderers' output is therefore safe by construction and is not sanitised a
 * second time. The one further door, `reviveCachedHtml`, is for the render
 * cache alone (see there; a test checks no other module calls it).
 *
 * The sanitiser is sanitize-html: an allow-list sanitiser that tokenises with
 * htmlparser2 and writes every kept tag and attribute out again itself, text and
 * attribute values escaped. It replaced DOMPurify (on jsdom), which was ~12×
 * slower on our pages and took most of a cold build: in Node, DOMPurify has to
 * build a full jsdom tree of every page. What keeps it safe with a parser that is
 * not the browser's: nothing that changes how a browser tokenises survives (no
 * raw-text or RCDATA elements, no foreign content, no comments), every value is
 * re-escaped on output, and URLs are checked after entity decoding.
 */
import sanitize from 'sanitize-html';
import type { IOptions, Attributes } from 'sanitize-html';

/**
 * Tags our renderers emit or that GFM markdown produces. An allow-list, not a
 * deny-list: anything new (svg, math, form, style, template, noscript...) is
 * dropped without us having to know it exists.
 */
const ALLOWED_TAGS = [
  'a', 'abbr', 'article', 'aside', 'b', 'blockquote', 'br', 'button', 'caption', 'cite', 'code',
  'col', 'colgroup', 'dd', 'del', 'details', 'dfn', 'div', 'dl', 'dt', 'em', 'figcaption', 'figure',
  'footer', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'i', 'img', 'input', 'ins', 'kbd',
  'li', 'mark', 'nav', 'ol', 'p', 'pre', 'q', 's', 'samp', 'section', 'small', 'span', 'strong',
  'sub', 'summary', 'sup', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'time', 'tr', 'u', 'ul',
  'var', 'wbr',
];

/** No `style` (CSS injection can restyle or overlay the page) and no event handlers. */
const GLOBAL_ATTR = [
  'class', 'id', 'title', 'role', 'lang', 'dir', 'hidden', 'tabindex', 'data-*', 'aria-*',
];
const TAG_ATTR: Record<string, string[]> = {
  a: ['href', 'rel'],
  img: ['src', 'alt', 'loading', 'decoding', 'width', 'height'],
  td: ['colspan', 'rowspan', 'align', 'scope'],
  th: ['colspan', 'rowspan', 'align', 'scope'],
  ol: ['start', 'reversed', 'type'],
  li: ['value'],
  input: ['type', 'checked', 'disabled'],
  button: ['type', 'disabled'],
  details: ['open'],
  time: ['datetime'],
  col: ['span'],
  colgroup: ['span'],
};

/**
 * http(s), mailto, fragment and relative URLs only. "Relative" means no scheme:
 * the text before the first `/`, `?` or `#` holds no colon. Values arrive
 * entity-decoded; whitespace and control characters are removed before testing,
 * as browsers ignore them inside a scheme.
 */
const ALLOWED_URI = /^(?:(?:https?|mailto):|[^:/?#]*(?:[/?#]|$))/i;
/** `//host` and `\\host` (browsers read `\` as `/`) name another host without a scheme. */
const PROTOCOL_RELATIVE = /^[/\\]{2}/;
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const URL_NOISE = /[\u0000-\u0020\u007f-\u009f]/g;

function urlAllowed(value: string): boolean {
  const v = value.replace(URL_NOISE, '');
  return ALLOWED_URI.test(v) && !PROTOCOL_RELATIVE.test(v);
}

/** Per-tag rules on top of the allow-lists: URLs, link rel, images, checkboxes and buttons. */
function transform(tagName: string, attribs: Attributes): { tagName: string; attribs: Attributes } {
  const a: Attributes = { ...attribs };
  if (tagName === 'a') {
    if (a.href !== undefined && !urlAllowed(a.href)) delete a.href;
    if (a.href !== undefined && !a.href.trim().startsWith('#')) a.rel = 'nofollow noopener noreferrer';
  } else if (tagName === 'img') {
    // Images only from our own (relative) asset URLs: no tracking pixels, no data: URIs.
    const src = (a.src ?? '').replace(URL_NOISE, '');
    if (!src || HAS_SCHEME.test(src) || !urlAllowed(src)) delete a.src;
    a.loading ??= 'lazy';
  } else if (tagName === 'input') {
    // Only read-only task-list checkboxes survive; anything else is dropped below.
    a.disabled = '';
  } else if (tagName === 'button') {
    a.type = 'button';
  }
  return { tagName, attribs: a };
}

// `allowedEmptyAttributes` exists in sanitize-html 2.12+ but not yet in its type definitions.
const OPTIONS: IOptions & { allowedEmptyAttributes: string[] } = {
  allowedTags: ALLOWED_TAGS,
  allowedAttributes: { '*': GLOBAL_ATTR, ...TAG_ATTR },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite', 'action', 'formaction', 'poster', 'background', 'data'],
  allowProtocolRelative: false,
  // Text inside a dropped tag stays visible as text (a pasted `<img onerror>` is shown, not lost),
  // except in elements whose content is code or markup rather than prose.
  disallowedTagsMode: 'discard',
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'template', 'xmp', 'noembed', 'noframes', 'iframe', 'title', 'svg', 'math'],
  allowedEmptyAttributes: ['alt', 'disabled', 'checked', 'hidden', 'open', 'reversed'],
  allowVulnerableTags: false,
  parseStyleAttributes: false,
  selfClosing: ['img', 'br', 'hr', 'input', 'wbr', 'col'],
  transformTags: { '*': transform },
  exclusiveFilter: (frame) => frame.tag === 'input' && (frame.attribs.type ?? '').toLowerCase() !== 'checkbox',
  // Comments, CDATA and processing instructions never reach the output.
  parser: { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: false },
};

/**
 * Sanitises an HTML fragment with the project's one sanitiser configuration.
 * Safe to call on its own output (idempotent).
 */
export function sanitizeHtml(markup: string): string {
  if (!markup) return '';
  return sanitize(markup, OPTIONS);
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
// The five markup characters, and NUL and the other C0 controls (except tab, newline, carriage return),
// which have no place in HTML text: one pass finds both kinds.
const ESCAPE_RE = /[&<>"'\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/** Escapes text for HTML text nodes and double- or single-quoted attribute values. */
export function escapeHtml(text: unknown): string {
  const s = text === null || text === undefined ? '' : String(text);
  return s.replace(ESCAPE_RE, (c) => ESCAPES[c] ?? '\uFFFD');
}

/** Held only by this module: without it no `SafeHtml` can be constructed. */
const MAKER: unique symbol = Symbol('SafeHtml maker');

/**
 * Markup that is safe to put in a page as it is. A plain `string` is not a
 * `SafeHtml` (the private field makes the type nominal), and the constructor
 * refuses callers without this module's private key, so the only ways to get
 * one are `html` and `sanitized` (and the composition helpers below).
 */
export class SafeHtml {
  readonly #brand = true;
  readonly value: string;
  constructor(key: typeof MAKER, value: string) {
    if (key !== MAKER) throw new TypeError('SafeHtml is made by html`` or sanitized(), never directly');
    this.value = value;
  }
  toString(): string {
    return this.value;
  }
}

/** Whether a value is `SafeHtml` made by this module. */
export function isSafeHtml(v: unknown): v is SafeHtml {
  return v instanceof SafeHtml;
}

/** Sanitises markup (maker 2 of 2): what `marked` and any other HTML producer writes goes through here. */
export function sanitized(markup: string): SafeHtml {
  return new SafeHtml(MAKER, sanitizeHtml(markup));
}

/** Interpolation values `html` accepts: arrays are joined, nullish and booleans render nothing. */
export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

function interpolate(v: HtmlValue): string {
  if (v === null || v === undefined || v === false || v === true) return '';
  if (v instanceof SafeHtml) return v.value;
  if (Array.isArray(v)) {
    let out = '';
    for (const x of v as readonly HtmlValue[]) out += interpolate(x);
    return out;
  }
  return escapeHtml(v);
}

/** Where an interpolation sits in a template: text, a quoted attribute value, inside a tag, or an unquoted value. */
type Slot = 'text' | 'attr' | 'tag' | 'unquoted';

/** The slot of each interpolation of a template, worked out once per call site (the strings array is one object per site). */
const slotsOf = new WeakMap<TemplateStringsArray, Slot[]>();

function templateSlots(strings: TemplateStringsArray): Slot[] {
  let slots = slotsOf.get(strings);
  if (slots) return slots;
  slots = [];
  let state: 'text' | 'tag' | '"' | "'" = 'text';
  for (let i = 0; i < strings.length - 1; i++) {
    const lit = strings[i];
    for (let j = 0; j < lit.length; j++) {
      const c = lit[j];
      if (state === 'text') {
        // A `<` that ends the literal starts a tag whose name would be interpolated: a tag too.
        if (c === '<' && (j === lit.length - 1 || /[a-zA-Z/!?]/.test(lit[j + 1]))) state = 'tag';
      } else if (state === 'tag') {
        if (c === '"' || c === "'") state = c;
        else if (c === '>') state = 'text';
      } else if (c === state) state = 'tag';
    }
    slots.push(state === 'tag' ? (/=\s*$/.test(lit) ? 'unquoted' : 'tag') : state === 'text' ? 'text' : 'attr');
  }
  slotsOf.set(strings, slots);
  return slots;
}

const SLOT_RULE: Record<Exclude<Slot, 'text'>, string> = {
  attr: 'a quoted attribute value takes text, not markup',
  tag: 'a value inside a tag, outside quotes, must be SafeHtml (attributes we wrote) or nothing',
  unquoted: 'attribute values must be quoted in the template',
};

function isAllowedIn(slot: Exclude<Slot, 'text'>, v: HtmlValue): boolean {
  if (slot === 'unquoted') return false;
  const nothing = v === '' || v === null || v === undefined || typeof v === 'boolean';
  // Markup in an attribute value would end it at its first quote; text is escaped and stays inside.
  if (slot === 'attr') return !(v instanceof SafeHtml) && !Array.isArray(v);
  return nothing || v instanceof SafeHtml;
}

/**
 * Tagged template for markup (maker 1 of 2): every interpolation is escaped
 * unless it is a `SafeHtml`. Escaping protects text and quoted attribute
 * values only, so the template's shape is checked too (once per call site):
 * inside a tag but outside quotes only `SafeHtml` (attributes we wrote) or
 * nothing may go, a quoted attribute value takes text but never `SafeHtml`,
 * and an unquoted attribute value is refused whatever it is. A URL from a
 * transcript must still be checked before it goes into `href`/`src` (escaping
 * keeps it inside the attribute; it does not make `javascript:` safe).
 */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  const slots = templateSlots(strings);
  let out = strings[0];
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    const slot = slots[i];
    if (slot !== 'text' && !isAllowedIn(slot, v)) {
      throw new TypeError(`html\`\`: ${SLOT_RULE[slot]} (near ${JSON.stringify(strings[i].slice(-40))})`);
    }
    out += interpolate(v) + strings[i + 1];
  }
  return new SafeHtml(MAKER, out);
}

/** Joins fragments into one; strings among them (and the separator) are escaped like `html` interpolations. */
export function joinHtml(parts: readonly HtmlValue[], separator: HtmlValue = ''): SafeHtml {
  const sep = interpolate(separator);
  let out = '';
  let first = true;
  for (const p of parts) {
    const s = interpolate(p);
    if (s === '') continue;
    out += first ? s : sep + s;
    first = false;
  }
  return new SafeHtml(MAKER, out);
}

/**
 * Replaces matches of `pattern` (global) in safe markup by safe markup: `replace`
 * returns the `SafeHtml` to put in place of a match, or `undefined` to keep the
 * match as it was. Only a run of plain text (no `<>"'&=`) may be replaced, so no
 * tag or quote of `markup` is cut: the result is markup's own structure with
 * `SafeHtml` put in at text positions. The deferred highlighter uses it to put
 * code blocks in place of its placeholders.
 */
export function spliceHtml(markup: SafeHtml, pattern: RegExp, replace: (match: string, groups: Array<string | undefined>) => SafeHtml | undefined): SafeHtml {
  if (!pattern.global) throw new TypeError('spliceHtml needs a global pattern');
  const out = markup.value.replace(pattern, (match: string, ...rest: unknown[]) => {
    const groups = rest.slice(0, -2).filter((g): g is string | undefined => typeof g === 'string' || g === undefined);
    const r = replace(match, groups);
    if (r === undefined) return match;
    if (/[<>"'&=]/.test(match)) throw new TypeError('spliceHtml replaces plain text only, never markup');
    return r.value;
  });
  return new SafeHtml(MAKER, out);
}

/**
 * The same markup with the quotes of its text nodes written as themselves:
 * `html` escapes `"` and `'` in every string it is given, because it cannot
 * always know that a value lands in text rather than in an attribute, and on a
 * long session page those entities alone were 4 % of the bytes. Here the whole
 * fragment is read from its start, so text is told from tags exactly: only
 * `&quot;` and `&#39;` between tags become quotes, which are inert there;
 * tags, attribute values, comments and the bodies of `script` and `style` are
 * copied as they are. `markup` must be a whole fragment (it starts in text), as
 * a rendered page is.
 */
export function unescapeTextQuotes(markup: SafeHtml): SafeHtml {
  const s = markup.value;
  let out = '';
  let i = 0;
  while (i < s.length) {
    const lt = s.indexOf('<', i);
    const text = s.slice(i, lt === -1 ? s.length : lt);
    out += text.includes('&') ? text.replace(QUOTE_ENTITY_RE, (e) => (e === '&quot;' ? '"' : "'")) : text;
    if (lt === -1) break;
    const end = markupEnd(s, lt);
    out += s.slice(lt, end);
    i = end;
  }
  return new SafeHtml(MAKER, out);
}

const QUOTE_ENTITY_RE = /&quot;|&#39;/g;
const RAW_TEXT_RE = /^<(script|style)[\s>]/i;
/** A tag's inside up to its closing `>`: anything but quotes and `>`, and quoted values (an unclosed one to the end). */
const TAG_BODY_RE = /(?:[^"'>]+|"[^"]*(?:"|$)|'[^']*(?:'|$))*/y;

/** Where the tag, comment or raw-text element starting at `lt` ends (the index after it). */
function markupEnd(s: string, lt: number): number {
  if (s.startsWith('<!--', lt)) {
    const close = s.indexOf('-->', lt + 4);
    return close === -1 ? s.length : close + 3;
  }
  // The end of the tag: the first `>` outside a quoted attribute value (an unclosed quote runs to the end).
  TAG_BODY_RE.lastIndex = lt + 1;
  TAG_BODY_RE.test(s);
  const tagEnd = Math.min(TAG_BODY_RE.lastIndex + 1, s.length);
  // Only `<s…` and `<S…` can open a script or a style.
  const c = s.charCodeAt(lt + 1);
  const raw = c === 115 || c === 83 ? RAW_TEXT_RE.exec(s.slice(lt, lt + 8)) : null;
  if (!raw) return tagEnd;
  // A script's or style's body is not HTML text: it is copied up to its end tag, untouched.
  const close = new RegExp(`</${raw[1]}`, 'gi');
  close.lastIndex = tagEnd;
  return close.exec(s)?.index ?? s.length;
}

/**
 * The render cache's door back in, and no one else's: pages are rendered as
 * `SafeHtml` in the loader (often in a worker thread), written to Astro's cache
 * folder as files, and read back when the page is built. A file cannot carry
 * the brand, and sanitising it again would bring back the very cost this type
 * removes, so the module that wrote the file (src/lib/build/render-cache.ts, which
 * takes only `SafeHtml` to write) revives what it reads. The cache folder is as
 * trusted as `dist/` itself: whoever can write one can write the other.
 * test/lib/render/safe-html.test.ts checks that render-cache.ts is the only caller.
 */
export function reviveCachedHtml(markup: string): SafeHtml {
  return new SafeHtml(MAKER, markup);
}
