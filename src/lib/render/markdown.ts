/**
 * Markdown for prompts, assistant text, plans and subagent prompts: one `Marked`
 * instance for the whole build, GFM, raw HTML shown as text, links marked
 * nofollow, fenced code through the shared highlighter, output sanitised.
 */
import { Marked, type Tokens } from 'marked';
import { highlightCode, resolveLanguage } from './highlight.js';
import { escapeHtml, sanitizeHtml } from './sanitize.js';

/** Only web, mail and in-page links become anchors; anything else renders as its text. */
const SAFE_HREF = /^(?:https?:\/\/|mailto:|#)/i;

/** Decodes the character references a browser would decode in an attribute, to judge the real URL. */
function decodeEntities(s: string): string {
  return s
    .replace(/&#x([0-9a-f]+);?/gi, (_, h: string) => String.fromCodePoint(Number.parseInt(h, 16) % 0x110000))
    .replace(/&#(\d+);?/g, (_, d: string) => String.fromCodePoint(Number.parseInt(d, 10) % 0x110000))
    .replace(/&colon;?/gi, ':')
    .replace(/&tab;?|&newline;?/gi, '');
}

/** The href to emit, or undefined when the link must not be clickable. */
export function safeHref(href: string | null | undefined): string | undefined {
  if (!href) return undefined;
  const decoded = decodeEntities(href).replace(/[\u0000-\u0020\u007f]/g, '');
  return SAFE_HREF.test(decoded) ? decoded : undefined;
}

const marked = new Marked({
  gfm: true,
  // Prompts are typed in a terminal where a newline is a newline; the terminal
  // shows assistant text the same way, so both keep their line breaks.
  breaks: true,
  async: false,
  renderer: {
    html(token: Tokens.HTML | Tokens.Tag): string {
      // Raw HTML in a transcript is something someone typed or a model wrote: show it.
      const block = 'block' in token && token.block === true;
      return block ? `<p class="raw-html">${escapeHtml(token.text)}</p>\n` : escapeHtml(token.text);
    },
    code({ text, lang }: Tokens.Code): string {
      const label = (lang ?? '').trim().split(/\s+/)[0] || undefined;
      return highlightCode(text, { lang: label, className: 'md-code' }).value + '\n';
    },
    heading({ tokens, depth }: Tokens.Heading): string {
      // Page and prompt headings are h1/h2; transcript headings start at h3.
      const level = Math.min(depth + 2, 6);
      return `<h${level}>${this.parser.parseInline(tokens)}</h${level}>\n`;
    },
    link({ href, title, tokens }: Tokens.Link): string {
      const inner = this.parser.parseInline(tokens);
      const url = safeHref(href);
      if (!url) return `<span class="link-removed">${inner}</span>`;
      const t = title ? ` title="${escapeHtml(title)}"` : '';
      return `<a href="${escapeHtml(url)}"${t} rel="nofollow noopener noreferrer">${inner}</a>`;
    },
    image({ href, text }: Tokens.Image): string {
      // Remote images would leak readers' addresses and data: images can carry
      // script (SVG): show a link to the image instead.
      const url = safeHref(href);
      const label = escapeHtml(text || 'image');
      if (!url || url.startsWith('#') || url.startsWith('mailto:')) return `<span class="md-image">${label}</span>`;
      return `<a class="md-image" href="${escapeHtml(url)}" rel="nofollow noopener noreferrer">${label}</a>`;
    },
    checkbox({ checked }: Tokens.Checkbox): string {
      return `<input type="checkbox" disabled${checked ? ' checked' : ''}> `;
    },
  },
});

/** Text longer than this is not parsed as markdown. */
export const MARKDOWN_MAX_CHARS = 200_000;

export interface MarkdownRenderer {
  /** Markdown to sanitised HTML. Never throws: unparseable input renders as escaped text. */
  render(md: string): string;
}

/**
 * The newline marked writes after each block tag: between blocks it renders as
 * nothing, and long replies have hundreds. (Inside code, tags are our own spans:
 * none of these.)
 */
const BLOCK_NEWLINE = /(<\/(?:p|li|ul|ol|h[1-6]|blockquote|pre|table|thead|tbody|tr|th|td)>|<(?:ul|ol|thead|tbody|tr|blockquote)>|<hr>)\n/g;

/**
 * Markdown to HTML, not yet sanitised: a plain string, which nothing takes as
 * markup until `sanitized` (tools/common.ts `markdownHtml`) has been through it.
 */
export function markdownToUnsanitizedHtml(md: string): string {
  if (!md) return '';
  // marked's emphasis rules are quadratic on very long paragraphs (a 3 MB line of
  // pasted text took 20 s); such text is shown as it was written instead.
  if (md.length > MARKDOWN_MAX_CHARS) return `<pre class="plain-text" tabindex="0">${escapeHtml(md)}</pre>`;
  try {
    const out = (marked.parse(md) as string).replace(BLOCK_NEWLINE, '$1');
    // Wide tables scroll inside their own box instead of widening the page.
    return out.replace(/<table>/g, '<div class="table-wrap"><table>').replace(/<\/table>/g, '</table></div>');
  } catch {
    return `<p>${escapeHtml(md)}</p>`;
  }
}

/**
 * Returns the markdown renderer. Code blocks are highlighted only for languages
 * already loaded (see `ensureLanguages` / `collectFenceLanguages`); others are plain.
 */
export function createMarkdownRenderer(): MarkdownRenderer {
  return { render: (md: string) => sanitizeHtml(markdownToUnsanitizedHtml(md)) };
}

const FENCE_RE = /^ {0,3}(?:`{3,}|~{3,})[ \t]*([^\s`~{]+)/gm;

/** Languages named by the fenced code blocks of a markdown text (resolved shiki ids). */
export function collectFenceLanguages(md: string, into: Set<string> = new Set()): Set<string> {
  for (const m of md.matchAll(FENCE_RE)) {
    const id = resolveLanguage(m[1]);
    if (id) into.add(id);
  }
  return into;
}
