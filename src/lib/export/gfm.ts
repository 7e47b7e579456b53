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

/** Where the Markdown goes: `github` when GitHub will render it (a pull request comment or description). */
export interface GfmTarget {
  github?: boolean;
}

/** One line of plain text for a `<summary>`: no newlines, HTML escaped, Markdown emphasis left inert (and, for GitHub, no mention or reference). */
export function summaryText(text: string, max = 160, target: GfmTarget = {}): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const cut = flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
  const line = escapeHtmlText(cut).replace(/([\\`*_[\]|])/g, '\\$1');
  return target.github ? breakGithubReferences(line) : line;
}

/** Shows nothing, and keeps GitHub from reading what follows it as part of a mention, a reference or a tag. */
const ZERO_WIDTH_SPACE = '\u200B';

/**
 * Transcript text that cannot act on GitHub: a zero-width space after `@`
 * (`@user`, `@org/team` notify nobody), after `#` and `GH-` before a digit
 * (`#123`, `owner/repo#123`, `GH-123` link no issue; `&#64;`, `&#x40;`, `&commat;`
 * and `&num;` are no references that become `@` or `#` once rendered), after `<` before a tag's
 * first character (no element, no `</details>`), inside `![` (no image is
 * fetched) and in `javascript:`, `vbscript:` and `data:` (no link runs a script). Character references would not do: GitHub finds mentions and
 * references in the rendered text. Applied everywhere, code included, because
 * no line-by-line scan can know for sure what GitHub's parser takes for code
 * (a fence in a list item, a code span across lines); in code the space is
 * invisible.
 */
export function breakGithubReferences(text: string): string {
  return text
    .replace(/@(?=[A-Za-z0-9])/g, `@${ZERO_WIDTH_SPACE}`)
    .replace(/#(?=\d|x[0-9a-f])/gi, `#${ZERO_WIDTH_SPACE}`)
    .replace(/&(?=(?:commat|num);)/gi, `&${ZERO_WIDTH_SPACE}`)
    .replace(/\b(GH-)(?=\d)/gi, `$1${ZERO_WIDTH_SPACE}`)
    .replace(/<(?=[A-Za-z/!?])/g, `<${ZERO_WIDTH_SPACE}`)
    .replace(/!\[/g, `!${ZERO_WIDTH_SPACE}[`)
    .replace(/\b(javascript|vbscript|data)(?=\s*:)/gi, (word: string) => `${word[0]}${ZERO_WIDTH_SPACE}${word.slice(1)}`);
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
export function neutralizeMarkdown(text: string, target: GfmTarget = {}): string {
  const safe = scanFences(text, neutralizeInline);
  return target.github ? breakGithubReferences(safe) : safe;
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

/**
 * Escapes tag starts outside inline code spans of one line. A span is a run of
 * backticks closed by the next run of exactly as many (as in GFM): ``` ``<img>` ```
 * is no span, so its `<` is escaped.
 */
function neutralizeInline(line: string): string {
  let out = '';
  let i = 0;
  while (i < line.length) {
    const tick = line.indexOf('`', i);
    if (tick === -1) break;
    out += line.slice(i, tick).replace(TAG_START, '&lt;');
    let end = tick;
    while (line[end] === '`') end++;
    const run = end - tick;
    const close = closingRun(line, end, run);
    if (close === -1) {
      out += line.slice(tick, end);
      i = end;
    } else {
      out += line.slice(tick, close + run);
      i = close + run;
    }
  }
  return out + line.slice(i).replace(TAG_START, '&lt;');
}

/** Where the next backtick run of exactly `run` characters starts at or after `from`, or -1. */
function closingRun(line: string, from: number, run: number): number {
  for (let j = from; j < line.length; ) {
    if (line[j] !== '`') {
      j++;
      continue;
    }
    let k = j;
    while (line[k] === '`') k++;
    if (k - j === run) return j;
    j = k;
  }
  return -1;
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
