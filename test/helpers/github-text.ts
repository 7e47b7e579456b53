/**
 * Hostile text for every GitHub-bound field, and GitHub-like rendering to see
 * what comes alive: a session whose every text field (title, prompt, slash
 * command, shell input, project, model, tool names, file path, command, commit
 * message, subagent prompt, system note, pull request link, message id) holds
 * a line terminator followed by a mention, an image, a `</details>`, an issue
 * reference and a full issue URL.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { JSDOM } from 'jsdom';
import { Marked } from 'marked';
import { sanitizeHtml } from '../../src/lib/render/sanitize.js';

/** Every character (or pair) some Markdown parser, HTML or a JavaScript pattern may take for the end of a line. */
export const LINE_TERMINATORS: Record<string, string> = {
  CR: '\r',
  CRLF: '\r\n',
  LF: '\n',
  LS: '\u2028',
  PS: '\u2029',
  NEL: '\u0085',
  FF: '\f',
  VT: '\v',
};

/**
 * What is planted: the terminator, then everything that must not come alive on
 * GitHub; then the terminator twice (a blank line ends a paragraph, and with it
 * any code span) and at the start of lines a `</details>` and a `<details>`
 * (both start an HTML block even inside a paragraph), a second mention, image
 * and pull request URL.
 */
export function plant(terminator: string): string {
  const t = terminator;
  return `X${t}@someone <img src=x onerror=alert(1)> </details> #12 https://github.com/o/r/issues/2${t}${t}</details>${t}<details>${t}@other <img src=y onerror=alert(2)> #13 https://github.com/o/r/pull/3`;
}

/** The plant for a field that ends at a slash (the project name is the last two parts of a path): no `</details>`, no URL. */
export function plantWithoutSlashes(terminator: string): string {
  const t = terminator;
  return `X${t}@someone <img src=x onerror=alert(1)> #12${t}${t}<details>${t}@other <img src=y onerror=alert(2)> #13`;
}

const line = (value: Record<string, unknown>): string => JSON.stringify(value);

/** Text each tool result ends with: found inside its own `<details>` only when no planted `</details>` closed it early. */
export const RESULT_SENTINEL = 'result-sentinel';

/**
 * Writes a session with `plant(terminator)` in every text field the export and
 * the pull request comment show. Returns its folder and how many tool calls it has.
 */
export function writeGithubTextSession(root: string, id: string, terminator: string, pr = 5): { dir: string; toolCalls: number } {
  const p = plant(terminator);
  const dir = join(root, '-home-tester-work-widgets');
  mkdirSync(dir, { recursive: true });
  // The project name is the cwd's last two parts.
  const cwd = `/home/tester/work/${plantWithoutSlashes(terminator)}`;
  const common = { sessionId: id, cwd, version: '2.1.90', isSidechain: false, userType: 'external', gitBranch: `feature/${p}` };
  const model = `claude-sonnet-4-5-20250929${p}`;
  // A message id the permalinks carry: one unbalanced `)` ends a Markdown link destination.
  const u1 = `${id}-u1)${p}`;
  const at = (s: number) => `2026-03-01T10:00:${String(s).padStart(2, '0')}.000Z`;
  const calls = [
    { type: 'tool_use', id: 'toolu_W', name: 'Write', input: { file_path: `${cwd}/src/${p}.md`, content: p } },
    { type: 'tool_use', id: 'toolu_B', name: 'Bash', input: { command: `git commit -m "Commit ${p.replace(/"/g, '')}"`, description: p } },
    { type: 'tool_use', id: 'toolu_C', name: 'Bash', input: { command: `git commit -m "Other ${p}"`, description: `Other ${p}` } },
    { type: 'tool_use', id: 'toolu_T', name: 'Task', input: { description: p, prompt: `Look ${p}`, subagent_type: p } },
    { type: 'tool_use', id: 'toolu_M', name: `mcp__srv__tool${p}`, input: { [`key${p}`]: p } },
  ];
  const results: Record<string, string> = {
    toolu_W: `Wrote ${p}`,
    toolu_B: `[main 1a2b3c4] Commit ${p}`,
    toolu_C: `error ${p}`,
    toolu_T: `Found ${p}`,
    toolu_M: `MCP ${p}`,
  };
  const lines = [
    line({ type: 'custom-title', customTitle: `Title ${p}`, sessionId: id }),
    line({ ...common, parentUuid: null, type: 'user', uuid: u1, timestamp: at(0), message: { role: 'user', content: `Prompt ${p}` } }),
    line({ ...common, parentUuid: u1, type: 'assistant', uuid: `${id}-a0`, timestamp: at(1), message: { id: 'msg_0', role: 'assistant', model, content: [{ type: 'text', text: `Answer ${p}` }], usage: { input_tokens: 10, output_tokens: 5 } } }),
    line({ ...common, parentUuid: `${id}-a0`, type: 'user', uuid: `${id}-c1`, timestamp: at(2), message: { role: 'user', content: `<command-name>/deploy${p}</command-name>\n<command-message>deploy</command-message>\n<command-args>${p}</command-args>` } }),
    line({ ...common, parentUuid: `${id}-c1`, type: 'user', uuid: `${id}-b1`, timestamp: at(3), message: { role: 'user', content: `<bash-input>ls ${p}</bash-input>` } }),
    line({ ...common, parentUuid: `${id}-b1`, type: 'system', subtype: `note${p}`, uuid: `${id}-s1`, timestamp: at(4), content: `System ${p}`, level: 'info' }),
    line({ ...common, parentUuid: `${id}-s1`, type: 'user', uuid: `${id}-u2`, timestamp: at(5), message: { role: 'user', content: `Second prompt ${p}` } }),
    line({ ...common, parentUuid: `${id}-u2`, type: 'assistant', uuid: `${id}-a1`, timestamp: at(6), message: { id: 'msg_1', role: 'assistant', model, content: [{ type: 'text', text: `Working ${p}` }, ...calls], usage: { input_tokens: 10, output_tokens: 5 } } }),
  ];
  let parent = `${id}-a1`;
  calls.forEach((c, i) => {
    const uuid = `${id}-r${i}`;
    lines.push(line({ ...common, parentUuid: parent, type: 'user', uuid, timestamp: at(7 + i), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: c.id, content: `${results[c.id]}\n${RESULT_SENTINEL}`, is_error: c.id === 'toolu_C' }] } }));
    parent = uuid;
  });
  lines.push(line({ type: 'pr-link', sessionId: id, prNumber: pr, prUrl: `https://github.com/acme/widgets/pull/${pr}`, prRepository: 'acme/widgets', timestamp: at(20) }));
  lines.push(line({ type: 'pr-link', sessionId: id, prNumber: 77, prUrl: `https://github.com/acme/widgets/pull/77${p}`, prRepository: `acme/widgets${p}`, timestamp: at(21) }));
  writeFileSync(join(dir, `${id}.jsonl`), `${lines.join('\n')}\n`);
  return { dir, toolCalls: calls.length };
}

/** Markdown rendered as GitHub does (GFM, raw HTML kept), before and after the site's sanitiser (an allow-list like GitHub's). */
export function renderLikeGithub(md: string): { raw: Document; sanitized: Document } {
  const markup = new Marked({ gfm: true, async: false }).parse(md) as string;
  const doc = (html: string) => new JSDOM(`<body>${html}</body>`).window.document;
  return { raw: doc(markup), sanitized: doc(sanitizeHtml(markup)) };
}

const LINE_END = /[\r\n\u2028\u2029\u0085\f\v]/;
/** A mention, an issue or pull request reference, as GitHub finds them in text outside code. */
const REFERENCES = [/(^|[^\w`])@[A-Za-z0-9]/, /(^|[^\w&])#\d/, /[\w.-]+\/[\w.-]+#\d/, /\bGH-\d/i];
/** A full issue or pull request URL of github.com, which GitHub links and cross-references. */
const ISSUE_URL = /(?<![\w.-])(?:www\.)?github\.com\/[^\s/]+\/[^\s/]+\/(?:issues|pulls?|discussions)\/\d/i;

/** Whether an address points at an issue, pull request or discussion of github.com (which makes a backlink). */
function isIssueLink(href: string): boolean {
  let url: URL;
  try {
    url = new URL(href, 'https://github.com/acme/widgets/pull/5');
  } catch {
    return false;
  }
  return /^(www\.)?github\.com$/i.test(url.hostname) && /^\/[^/]+\/[^/]+\/(issues|pulls?|discussions)\/\d/i.test(url.pathname);
}

/**
 * What would act on GitHub in a rendered document: an image, script or frame,
 * an event handler, a mention or reference in text outside code, a link or
 * text that GitHub turns into a cross-reference, and a one-line field of ours
 * (inline code, heading, summary, link text outside the quoted transcript
 * prose) that holds a line terminator.
 */
export function liveOnGithub(doc: Document): string[] {
  const found: string[] = [];
  for (const el of doc.querySelectorAll('img, script, iframe, svg, object, embed, form, style')) found.push(`element <${el.tagName.toLowerCase()}>`);
  for (const el of doc.querySelectorAll('*')) for (const a of el.attributes) if (/^on/i.test(a.name)) found.push(`${a.name} on <${el.tagName.toLowerCase()}>`);
  for (const a of doc.querySelectorAll('a[href]')) if (isIssueLink(a.getAttribute('href')!)) found.push(`issue link ${a.getAttribute('href')}`);
  const walker = doc.createTreeWalker(doc.body, 4 /* NodeFilter.SHOW_TEXT */);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n.textContent ?? '';
    if (n.parentElement?.closest('code, pre')) continue;
    for (const re of REFERENCES) if (re.test(text)) found.push(`reference ${re} in ${JSON.stringify(text)}`);
    if (ISSUE_URL.test(text)) found.push(`issue URL in ${JSON.stringify(text)}`);
  }
  for (const el of doc.querySelectorAll('h1, h2, h3, h4, h5, h6, summary, a, :not(pre) > code')) {
    // Quoted transcript prose is multi-line text of its own (an autolink in it may run over a NEL); our one-line fields are outside quotes.
    if (el.closest('blockquote')) continue;
    if (LINE_END.test(el.textContent ?? '')) found.push(`line terminator in <${el.tagName.toLowerCase()}> ${JSON.stringify(el.textContent)}`);
  }
  return found;
}
