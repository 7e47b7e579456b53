/**
 * THE sanitiser, plus escaping helpers. Every transcript string reaches HTML
 * either through `escapeHtml` (text) or through `sanitizeHtml` (markup we built
 * from it); the message renderer runs its final output through `sanitizeHtml`
 * again, so `set:html` is only ever given sanitiser output.
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
const ESCAPE_RE = /[&<>"']/g;
// NUL and other C0 controls (except tab, newline, carriage return) have no place in HTML text.
const CONTROL_RE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/** Escapes text for HTML text nodes and double- or single-quoted attribute values. */
export function escapeHtml(text: unknown): string {
  const s = text === null || text === undefined ? '' : String(text);
  return s.replace(ESCAPE_RE, (c) => ESCAPES[c]).replace(CONTROL_RE, '\uFFFD');
}

const BRAND = Symbol('SafeHtml');

/**
 * Markup that is already safe: produced by `html`, by `sanitized`, or by our own
 * renderers from escaped text. Interpolating it into `html` does not escape it again.
 */
export class SafeHtml {
  readonly [BRAND] = true;
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** Whether a value is trusted markup. */
export function isSafeHtml(v: unknown): v is SafeHtml {
  return v instanceof SafeHtml;
}

/**
 * Brands markup that our own code built from escaped text (e.g. highlighter
 * output) as trusted. Never pass transcript text here: use `escapeHtml` or
 * `sanitized`. Grep for this name when auditing.
 */
export function trustedHtml(markup: string): SafeHtml {
  return new SafeHtml(markup);
}

/** Sanitises markup and brands the result as trusted. */
export function sanitized(markup: string): SafeHtml {
  return new SafeHtml(sanitizeHtml(markup));
}

/** Interpolation values `html` accepts: arrays are joined, nullish and `false` render nothing. */
export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

function interpolate(v: HtmlValue): string {
  if (v === null || v === undefined || v === false || v === true) return '';
  if (v instanceof SafeHtml) return v.value;
  if (Array.isArray(v)) return (v as readonly HtmlValue[]).map(interpolate).join('');
  return escapeHtml(v);
}

/**
 * Tagged template for markup: every interpolation is escaped unless it is a
 * `SafeHtml`. Attribute values must be quoted in the template.
 */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += interpolate(values[i]) + strings[i + 1];
  return new SafeHtml(out);
}

/** Joins fragments into one. */
export function joinHtml(parts: readonly HtmlValue[], separator = ''): SafeHtml {
  return new SafeHtml(parts.map(interpolate).filter((s) => s !== '').join(separator));
}
