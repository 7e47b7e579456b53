/**
 * THE sanitiser, plus escaping helpers. Every transcript string reaches HTML
 * either through `escapeHtml` (text) or through `sanitizeHtml` (markup we built
 * from it); the message renderer runs its final output through `sanitizeHtml`
 * again, so `set:html` is only ever given sanitiser output.
 */
import DOMPurify from 'isomorphic-dompurify';
import type { Config } from 'isomorphic-dompurify';

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
const ALLOWED_ATTR = [
  'class', 'id', 'href', 'src', 'alt', 'title', 'rel', 'loading', 'decoding', 'width', 'height',
  'colspan', 'rowspan', 'align', 'start', 'reversed', 'type', 'checked', 'disabled', 'open',
  'hidden', 'datetime', 'role', 'lang', 'dir', 'scope', 'value', 'tabindex',
];

/**
 * http(s), mailto, fragment and relative URLs only. "Relative" means no scheme:
 * the text before the first `/`, `?` or `#` holds no colon. DOMPurify strips
 * whitespace and control characters before testing, and entity-encoded schemes
 * (`&#x6A;avascript:`) are decoded by the parser first, so both are caught.
 */
const ALLOWED_URI = /^(?:(?:https?|mailto):|[^:/?#]*(?:[/?#]|$))/i;

const CONFIG: Config = {
  ALLOWED_TAGS,
  ALLOWED_ATTR,
  ALLOW_DATA_ATTR: true,
  ALLOW_ARIA_ATTR: true,
  ALLOWED_URI_REGEXP: ALLOWED_URI,
  // Only href and src hold URLs; DOMPurify would otherwise test these values
  // (e.g. a `datetime` with colons) against the URL pattern and drop them.
  ADD_URI_SAFE_ATTR: ['datetime', 'lang', 'dir', 'scope', 'align', 'start', 'width', 'height', 'colspan', 'rowspan', 'loading', 'decoding', 'rel', 'type', 'open', 'hidden', 'checked', 'disabled', 'reversed', 'role', 'tabindex'],
  ALLOW_UNKNOWN_PROTOCOLS: false,
  // `data:` images are never allowed: images are written as files by the build.
  ADD_DATA_URI_TAGS: [],
  FORBID_TAGS: ['style', 'script', 'form', 'iframe', 'frame', 'object', 'embed', 'svg', 'math', 'meta', 'link', 'base', 'template', 'noscript'],
  FORBID_ATTR: ['style', 'srcdoc', 'formaction', 'action', 'srcset', 'xlink:href', 'ping', 'background', 'poster'],
  KEEP_CONTENT: true,
  WHOLE_DOCUMENT: false,
  RETURN_TRUSTED_TYPE: false,
};

const ABSOLUTE_OR_PROTOCOL_RELATIVE = /^(?:[a-z][a-z0-9+.-]*:|\/\/|\\\\)/i;

// Hooks live on the shared isomorphic-dompurify instance; this module is the only
// place in the project that configures it, and it does so exactly once.
DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  const el = node as Element;
  const tag = el.tagName?.toLowerCase();
  if (!tag) return;
  if (tag === 'img') {
    // Images only from our own (relative) asset URLs: no tracking pixels, no data: URIs.
    const src = (el.getAttribute('src') ?? '').replace(/[\u0000-\u0020]/g, '');
    if (src && ABSOLUTE_OR_PROTOCOL_RELATIVE.test(src)) el.removeAttribute('src');
    if (!el.hasAttribute('loading')) el.setAttribute('loading', 'lazy');
  }
  if (tag === 'a' && el.hasAttribute('href')) {
    const href = (el.getAttribute('href') ?? '').trim();
    if (!href.startsWith('#')) el.setAttribute('rel', 'nofollow noopener noreferrer');
  }
  if (tag === 'input') {
    // Only read-only task-list checkboxes survive.
    if ((el.getAttribute('type') ?? '').toLowerCase() !== 'checkbox') {
      el.remove();
      return;
    }
    el.setAttribute('disabled', '');
  }
  if (tag === 'button') el.setAttribute('type', 'button');
});

/**
 * Sanitises an HTML fragment with the project's one DOMPurify configuration.
 * Safe to call on its own output (idempotent).
 */
export function sanitizeHtml(html: string): string {
  if (!html) return '';
  return DOMPurify.sanitize(html, CONFIG) as unknown as string;
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
