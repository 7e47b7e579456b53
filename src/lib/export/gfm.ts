/**
 * Small GitHub-flavoured Markdown helpers for the export: fences that transcript
 * text cannot close, text that cannot open or close HTML (so it can never end
 * our `<details>`/`<summary>`), quotes and single-line summaries.
 */

/** The longest run of `ch` in `text`. */
function longestRun(text: string, ch: '`' | '~'): number {
  let best = 0;
  let run = 0;
  for (const c of text) {
    run = c === ch ? run + 1 : 0;
    if (run > best) best = run;
  }
  return best;
}

/**
 * A fenced code block the content cannot close: the fence is one backtick
 * longer than any backtick run inside (at least three), as GFM requires.
 */
export function fence(content: string, lang = ''): string {
  const ticks = '`'.repeat(Math.max(3, longestRun(content, '`') + 1));
  const body = content.endsWith('\n') ? content : `${content}\n`;
  return `${ticks}${safeInfo(lang)}\n${body}${ticks}`;
}

/** A fence info string holds a language name only: no backticks, no spaces. */
function safeInfo(lang: string): string {
  return lang.replace(/[^A-Za-z0-9_+#.-]/g, '');
}

/** Escapes text for HTML (the `<summary>` line). */
export function escapeHtmlText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** One line of plain text for a `<summary>`: no newlines, HTML escaped, Markdown emphasis left inert. */
export function summaryText(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const cut = flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
  return escapeHtmlText(cut).replace(/([\\`*_[\]|])/g, '\\$1');
}

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;
/** `<` that would start an HTML tag, comment, declaration or processing instruction. */
const TAG_START = /<(?=[A-Za-z/!?])/g;

/**
 * Makes transcript Markdown safe to embed in ours: raw HTML outside code is
 * shown as text (`<` becomes `&lt;`), so it can neither close our `<details>`
 * nor open an element of its own; a code fence left open at the end is closed,
 * so it cannot swallow what follows. Code spans and fenced code are kept as written.
 */
export function neutralizeMarkdown(text: string): string {
  return scanFences(text, neutralizeInline);
}

/** Closes a code fence left open at the end of our own Markdown (a cut block); HTML is left alone. */
export function closeOpenFence(text: string): string {
  return scanFences(text, (line) => line);
}

/** Walks lines, tracking fenced code; `outside` rewrites the lines outside fences; an open fence is closed. */
function scanFences(text: string, outside: (line: string) => string): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  let open: { ch: string; len: number } | undefined;
  for (const line of lines) {
    const m = FENCE_OPEN.exec(line);
    if (open) {
      out.push(line);
      if (m && m[1][0] === open.ch && m[1].length >= open.len && line.trim() === m[1]) open = undefined;
      continue;
    }
    if (m && !(m[1][0] === '`' && line.slice(m[0].length).includes('`'))) {
      open = { ch: m[1][0], len: m[1].length };
      out.push(line);
      continue;
    }
    out.push(outside(line));
  }
  if (open) out.push(open.ch.repeat(open.len));
  return out.join('\n');
}

/** Escapes tag starts outside inline code spans of one line. */
function neutralizeInline(line: string): string {
  const parts = line.split(/(`+[^`]*?`+)/);
  return parts.map((p, i) => (i % 2 === 1 ? p : p.replace(TAG_START, '&lt;'))).join('');
}

/** Quotes Markdown as a blockquote (every line, blank ones too). */
export function blockquote(md: string): string {
  return md
    .split('\n')
    .map((l) => (l ? `> ${l}` : '>'))
    .join('\n');
}

/** A text cut to at most `maxLines` lines and `maxChars` characters, with what was left out. */
export function cutText(text: string, maxLines: number, maxChars: number): { text: string; cutLines: number; totalLines: number } {
  const lines = text.split('\n');
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  const totalLines = lines.length;
  let kept = lines.slice(0, maxLines);
  let joined = kept.join('\n');
  if (joined.length > maxChars) {
    joined = joined.slice(0, maxChars);
    const nl = joined.lastIndexOf('\n');
    if (nl > maxChars / 2) joined = joined.slice(0, nl);
    kept = joined.split('\n');
  }
  return { text: joined, cutLines: totalLines - kept.length, totalLines };
}
