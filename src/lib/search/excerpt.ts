/**
 * Search excerpts as plain data. pagefind returns excerpts as HTML: the page's
 * text, entity-escaped, with `<mark>` around the hits. These helpers turn one
 * into text runs (marked or not) without ever parsing it as markup, so
 * transcript text can only reach a result row as text. No DOM and no Node
 * imports: the page script bundles this file, and tests run it as it is.
 */
import { stripMarkdown } from '../plain-text.js';

/** A run of excerpt text; `mark` when pagefind marked it as a hit. */
export interface ExcerptPart {
  text: string;
  mark: boolean;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Undoes HTML character references: named ones pagefind writes, and numeric ones. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[ref.toLowerCase()] ?? whole;
  });
}

/**
 * Splits a pagefind excerpt into text runs. Only `<mark>` and `</mark>` have
 * a meaning; any other tag-like text stays text, shown as written.
 */
export function parseExcerpt(excerpt: string): ExcerptPart[] {
  const parts: ExcerptPart[] = [];
  let mark = false;
  for (const piece of excerpt.split(/(<\/?mark>)/i)) {
    if (/^<mark>$/i.test(piece)) mark = true;
    else if (/^<\/mark>$/i.test(piece)) mark = false;
    else if (piece) parts.push({ text: decodeEntities(piece), mark });
  }
  return parts;
}

const MARK_START = '\u0001';
const MARK_END = '\u0002';

/**
 * The excerpt of one hit as clean text runs: markdown syntax removed (across
 * the hits, so `**<mark>word</mark>**` loses its stars), whitespace folded,
 * the section heading pagefind repeats at the start taken off, empty runs dropped.
 */
export function cleanExcerpt(excerpt: string, heading = ''): ExcerptPart[] {
  const joined = parseExcerpt(excerpt)
    .map((p) => {
      const text = p.text.replace(/[\u0001\u0002]/g, '');
      return p.mark ? `${MARK_START}${text}${MARK_END}` : text;
    })
    .join('');
  const parts: ExcerptPart[] = [];
  let mark = false;
  for (const piece of stripMarkdown(joined).replace(/\s+/g, ' ').split(/([\u0001\u0002])/)) {
    if (piece === MARK_START) mark = true;
    else if (piece === MARK_END) mark = false;
    else if (piece) parts.push({ text: piece, mark });
  }
  dropLeadingHeading(parts, heading);
  return parts.filter((p) => p.text !== '');
}

/**
 * pagefind starts the excerpt of a section with the section's heading
 * ("Claude. They differ…"); the result row names the message already, so the
 * repeated heading is taken off the first run.
 */
function dropLeadingHeading(parts: ExcerptPart[], heading: string): void {
  const first = parts[0];
  if (!heading || !first || first.mark) return;
  const prefix = `${heading}.`;
  if (first.text.startsWith(prefix)) first.text = first.text.slice(prefix.length).replace(/^\s+/, '');
}

/**
 * The words pagefind marked in some excerpts, lower-cased and without the
 * punctuation around them: the exact words a landing page then marks (a
 * search for `run` may hit `running`, which only the excerpt knows).
 */
export function markedWords(excerpts: string[], limit = 8): string[] {
  const words = new Set<string>();
  for (const e of excerpts) {
    for (const p of parseExcerpt(e)) {
      if (!p.mark) continue;
      for (const w of stripMarkdown(p.text).split(/\s+/)) {
        const word = w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '').toLowerCase();
        if (word.length >= 2) words.add(word);
      }
    }
  }
  return [...words].slice(0, limit);
}

/** The words of a query, as a landing page marks them when no excerpt says better. */
export function queryWords(query: string, limit = 8): string[] {
  const words = query
    .toLowerCase()
    .split(/\s+/)
    .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter((w) => w.length >= 2);
  return [...new Set(words)].slice(0, limit);
}
