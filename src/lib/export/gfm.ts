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

/**
 * Every character or pair that some reader takes for the end of a line: CR,
 * LF and CRLF (CommonMark, so GitHub), and LS, PS, NEL, form feed and vertical
 * tab (HTML, JavaScript patterns, other Markdown parsers). In a field that must
 * stay on one line (a code span, a label, a heading) any of them could end it
 * and let what follows be read as Markdown or HTML.
 */
const LINE_TERMINATOR = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/g;

/** Text on one line: every line terminator (see `LINE_TERMINATOR`) becomes a space. */
export function oneLine(text: string): string {
  return text.replace(LINE_TERMINATOR, ' ');
}

/**
 * A code span that holds `text` on one line, whatever backticks it has. For
 * GitHub, mentions and references inside are broken too (see
 * `breakGithubReferences`): in a code span the zero-width space shows nothing,
 * and should anything ever end the span early, what follows is still inert.
 */
export function inlineCode(text: string, target: GfmTarget = {}): string {
  const flat = oneLine(text);
  const t = target.github ? breakGithubReferences(flat) : flat;
  const ticks = '`'.repeat((t.match(/`+/g) ?? []).reduce((n, r) => Math.max(n, r.length), 0) + 1);
  const pad = t.startsWith('`') || t.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${t}${pad}${ticks}`;
}

/**
 * The text of a heading: transcript Markdown neutralised (see
 * `neutralizeMarkdown`) on one line, so no terminator ends the heading and
 * nothing after it becomes a block of its own.
 */
export function headingText(text: string, target: GfmTarget = {}): string {
  // Flattened first, so the scan sees the line GitHub will; again after, for the fence a scan may close.
  return oneLine(neutralizeMarkdown(oneLine(text), target));
}

/**
 * A link destination no character of can end the link: whitespace, controls,
 * line terminators, brackets, parentheses, quotes, backslashes, backticks and
 * angle brackets are percent-encoded (a message id from a transcript is part
 * of a permalink). For GitHub, an issue or pull request address also makes no
 * backlink (see `withoutBacklink`).
 */
export function linkDestination(url: string, target: GfmTarget = {}): string {
  const safe = url.replace(/[\s\u0000-\u001f\u007f-\u009f\u2028\u2029<>()[\]\\`"']/g, (c) => {
    const code = c.charCodeAt(0);
    return code < 0x80 ? `%${code.toString(16).toUpperCase().padStart(2, '0')}` : encodeURIComponent(c);
  });
  return target.github ? withoutBacklink(safe) : safe;
}

/**
 * github.com's issue, pull request and discussion addresses turned into
 * `redirect.github.com` ones: GitHub makes a backlink ("mentioned this") from
 * every link to an issue or pull request, autolinked or written as a link, and
 * documents `redirect.github.com` as the way to link without one (it leads to
 * the same page). Matched anywhere (with or without a scheme, `www.` or not),
 * so a Markdown link, an autolink and text GitHub may link all change.
 */
export function withoutBacklink(text: string): string {
  return text.replace(GITHUB_ISSUE_HOST, 'redirect.github.com');
}

/** The host of a github.com address of an issue, pull request or discussion (not a subdomain's, such as `redirect.github.com`). */
const GITHUB_ISSUE_HOST = /(?<![\w.-])(?:www\.)?github\.com(?=\/[^\s/]+\/[^\s/]+\/(?:issues|pulls?|discussions)(?![\w-]))/gi;

/** One line of plain text for a `<summary>`: no newlines, HTML escaped, Markdown emphasis left inert (and, for GitHub, no mention or reference). */
export function summaryText(text: string, max = 160, target: GfmTarget = {}): string {
  const flat = oneLine(text).replace(/[\s\u0085]+/g, ' ').trim();
  const cut = flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
  const line = escapeHtmlText(cut).replace(/([\\`*_[\]|])/g, '\\$1');
  return target.github ? breakGithubReferences(line) : line;
}

/** Shows nothing, and keeps GitHub from reading what follows it as part of a mention, a reference or a tag. */
const ZERO_WIDTH_SPACE = '\u200B';

/**
 * Transcript text that cannot act on GitHub: a zero-width space after `@`
 * (`@user`, `@org/team` notify nobody), after `#` and `GH-` before a digit
 * (`#123`, `owner/repo#123`, `GH-123` link no issue; `&#64;`, `&#x40;`, `&commat;`,
 * `&num;`, `&sol;`, `&colon;` and every other named or numeric character reference
 * but `&amp;`, `&lt;`, `&gt;`, `&quot;` and `&apos;` is shown as written, so none
 * becomes part of a mention, a reference or an address once rendered),
 * github.com addresses of issues and pull requests made into ones that make no
 * backlink (see `withoutBacklink`), after `<` before a tag's
 * first character (no element, no `</details>`), inside `![` (no image is
 * fetched) and in `javascript:`, `vbscript:` and `data:` (no link runs a script). Character references would not do: GitHub finds mentions and
 * references in the rendered text. Applied everywhere, code included, because
 * no line-by-line scan can know for sure what GitHub's parser takes for code
 * (a fence in a list item, a code span across lines); in code the space is
 * invisible.
 */
export function breakGithubReferences(text: string): string {
  return withoutBacklink(text)
    .replace(/@(?=[A-Za-z0-9])/g, `@${ZERO_WIDTH_SPACE}`)
    .replace(/#(?=\d|x[0-9a-f])/gi, `#${ZERO_WIDTH_SPACE}`)
    .replace(/&(?!(?:amp|lt|gt|quot|apos);)(?=[A-Za-z][A-Za-z0-9]{1,31};)/g, `&${ZERO_WIDTH_SPACE}`)
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

/**
 * How many of our `<details>` are still open at the end of `text`: the
 * `<details>` and `</details>` lines outside code fences. Transcript text
 * writes neither there (its tags are escaped, or broken for GitHub), while a
 * tool's output may hold them as lines of its fence, which close nothing.
 */
export function openDetails(text: string): number {
  let open = 0;
  scanFences(text, (line) => {
    if (line === '<details>') open++;
    else if (line === '</details>') open = Math.max(0, open - 1);
    return line;
  });
  return open;
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
