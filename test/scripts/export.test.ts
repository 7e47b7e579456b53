import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { marked, type Token, type Tokens } from 'marked';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { main } from '../../scripts/export.js';
import { fence, neutralizeMarkdown } from '../../src/lib/export/gfm.js';
import { GITHUB_COMMENT_LIMIT } from '../../src/lib/export/markdown.js';
import { openSessionById } from '../../src/lib/build/open-session.js';
import type { Message, ToolCall } from '../../src/lib/transcript/types.js';
import { corpusRoot, fixturesRoot, loadExpect } from '../helpers/shared.js';

const E = loadExpect();
const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
});
const tmp = mkdtempSync(join(tmpdir(), 'sessionpress-export-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function run(args: string[]): Promise<{ code: number; text: string; err: string[] }> {
  let text = '';
  const err: string[] = [];
  const code = await main(args, { out: (t) => (text += t), err: (l) => err.push(l) });
  return { code, text, err };
}

/** Every token, nested ones included. */
function walk(tokens: Token[]): Token[] {
  const out: Token[] = [];
  for (const t of tokens) {
    out.push(t);
    const kids = (t as { tokens?: Token[] }).tokens;
    if (kids) out.push(...walk(kids));
    if (t.type === 'list') for (const item of (t as Tokens.List).items) out.push(...walk(item.tokens));
  }
  return out;
}

/** Code tokens right after our labels (**Output**, **Input**, **Command**, …). */
function labelledFences(tokens: Token[]): Tokens.Code[] {
  const out: Tokens.Code[] = [];
  const seq = tokens.filter((t) => t.type !== 'space');
  for (let i = 1; i < seq.length; i++) {
    if (seq[i].type === 'code' && seq[i - 1].type === 'paragraph' && /^\*\*(Output|Input|Command|Edit|Error|Content of .*)\*\*$/.test(seq[i - 1].raw.trim())) out.push(seq[i] as Tokens.Code);
  }
  return out;
}

/** Tool calls of a message list, subagents' included: counted from the model, not from the export. */
function toolCallsOf(messages: Message[]): ToolCall[] {
  return messages.flatMap((m) => (m.kind === 'assistant' ? m.toolCalls.flatMap((c) => [c, ...(c.subagent ? toolCallsOf(c.subagent.messages) : [])]) : []));
}

// A corpus session with subagents, file reads, shell commands and edits.
const CORPUS_SESSION = 'ef958aa1-0e93-49f0-bb71-150f63befcd1';

describe('npm run export --format md', () => {
  it('parses as GFM: a heading, a quote per prompt, a details per tool call, fenced input and output with languages, under the limit', async () => {
    process.env.SESSIONPRESS_SOURCE = corpusRoot;
    process.env.SESSIONPRESS_SITE = 'https://me.github.io';
    const r = await run([CORPUS_SESSION.slice(0, 8), '--split', '--out', join(tmp, 'corpus.md')]);
    expect(r.code).toBe(0);
    const files = readdirSync(tmp).filter((f) => f.startsWith('corpus')).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
    const parts = files.map((f) => readFileSync(join(tmp, f), 'utf8'));
    for (const p of parts) expect(p.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);

    const { result } = await openSessionById(corpusRoot, CORPUS_SESSION, {});
    const session = result.session;
    const tokens = parts.flatMap((p) => walk(marked.lexer(p)));
    const first = marked.lexer(parts[0])[0] as Tokens.Heading;
    expect(first.type).toBe('heading');
    expect(first.text).toContain(session.title.slice(0, 20));

    const promptHeadings = tokens.filter((t) => t.type === 'heading' && /^Prompt \d+$/.test((t as Tokens.Heading).tokens.map((x) => ('text' in x ? x.text : '')).join('')));
    expect(promptHeadings).toHaveLength(session.turns.filter((t) => t.prompt).length);
    expect(tokens.filter((t) => t.type === 'blockquote').length).toBeGreaterThanOrEqual(promptHeadings.length);

    const opened = tokens.filter((t) => t.type === 'html').reduce((n, t) => n + (t.raw.match(/<details>/g) ?? []).length, 0);
    const closed = tokens.filter((t) => t.type === 'html').reduce((n, t) => n + (t.raw.match(/<\/details>/g) ?? []).length, 0);
    const calls = toolCallsOf(session.messages);
    expect(calls.length).toBeGreaterThan(10);
    expect(calls.some((c) => c.subagent)).toBe(true);
    expect(opened).toBe(calls.length);
    expect(closed).toBe(opened);

    // Each labelled input or output of a call is a fence with a language (transcript text may hold bare fences).
    const codes = parts.flatMap((p) => labelledFences(marked.lexer(p)));
    expect(codes.length).toBeGreaterThan(calls.length / 2);
    for (const c of codes) expect(c.lang, c.text.slice(0, 80)).toMatch(/^[a-z0-9+#-]+$/);
    if (calls.some((c) => c.name === 'Bash')) expect(codes.some((c) => c.lang === 'sh')).toBe(true);
    const readTs = calls.find((c) => c.name === 'Read' && /\.tsx?$/.test(String(c.input.file_path)) && c.result && !c.result.isError);
    if (readTs) expect(codes.some((c) => c.lang === 'typescript' || c.lang === 'tsx')).toBe(true);
  });

  it('stays under GitHub limit by cutting, with a link to the full page, or by numbered parts with --split', async () => {
    process.env.SESSIONPRESS_SOURCE = corpusRoot;
    process.env.SESSIONPRESS_SITE = 'https://me.github.io';
    const big = 'a7da6a22';
    const cut = await run([big]);
    expect(cut.code).toBe(0);
    expect(cut.text.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);
    expect(cut.text).toMatch(/Cut to stay under GitHub's 65,536-character limit: .* left out; read the whole session on \[the published page\]\(https:\/\/me\.github\.io\/sessions\//);
    const split = await run([big, '--split']);
    const parts = split.text.split('\n\n<!-- ✂ next part ✂ -->\n\n');
    expect(parts.length).toBeGreaterThan(1);
    for (const [i, p] of parts.entries()) {
      expect(p.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);
      expect(p).toContain(`_Part ${i + 1} of ${parts.length}._`);
    }
  });

  it('exports one prompt or one message, and rejects bad options', async () => {
    process.env.SESSIONPRESS_SOURCE = fixturesRoot;
    const bs = E.branches_streaming;
    const one = await run([bs.session_id.slice(0, 8), '--prompt', '1']);
    expect(one.code).toBe(0);
    expect(one.text.match(/^### .*Prompt \d+/gm)).toEqual(['### Prompt 1']);
    const msg = await run([bs.session_id.slice(0, 8), '--message', bs.active_leaf_uuid.slice(0, 8)]);
    expect(msg.code).toBe(0);
    expect(msg.text).not.toMatch(/^### Prompt/m);
    expect((await run([bs.session_id.slice(0, 8), '--prompt', '999'])).err[0]).toMatch(/has no prompt 999/);
    expect((await run([bs.session_id.slice(0, 8), '--format', 'pdf'])).code).toBe(2);
    expect((await run([bs.session_id.slice(0, 8), '--prompt', '1', '--message', 'ab'])).code).toBe(2);
  });

  it('--plain writes the Markdown for anywhere but GitHub: nothing made inert, the assistant not quoted', async () => {
    process.env.SESSIONPRESS_SOURCE = corpusRoot;
    const github = await run([CORPUS_SESSION.slice(0, 8)]);
    const plain = await run([CORPUS_SESSION.slice(0, 8), '--plain']);
    expect([github.code, plain.code]).toEqual([0, 0]);
    const { result } = await openSessionById(corpusRoot, CORPUS_SESSION, {});
    const said = result.session.messages
      .flatMap((m) => (m.kind === 'assistant' ? m.blocks : []))
      .map((b) => (b.type === 'text' && typeof b.text === 'string' ? b.text.trim().split('\n')[0] : ''))
      .find((line) => /^[A-Za-z][^<>`@#*_[\]]{20,}$/.test(line));
    expect(said).toBeDefined();
    expect(plain.text.split('\n')).toContain(said);
    expect(github.text.split('\n')).toContain(`> ${said}`);
    expect(plain.text).not.toContain('\u200b');
    expect((await run([CORPUS_SESSION.slice(0, 8), '--plain', '--format', 'html'])).code).toBe(2);
  });

  it('keeps hostile transcript text from closing a details, opening HTML or escaping a fence', async () => {
    process.env.SESSIONPRESS_SOURCE = fixturesRoot;
    const r = await run([E.xss.session_id.slice(0, 8), '--split']);
    expect(r.code).toBe(0);
    const html = walk(marked.lexer(r.text)).filter((t) => t.type === 'html');
    // The only HTML left is ours: details and summary lines (and the part separator comment).
    for (const t of html) expect(t.raw.trim(), t.raw).toMatch(/^(<\/?details>|<summary>[^<]*<\/summary>|<!-- ✂ next part ✂ -->|\s)+$/s);
    const payloads = (E.xss.payloads as Array<{ marker: string }>).filter((p) => r.text.includes(p.marker));
    expect(payloads.length).toBeGreaterThan(5);
  });
});

describe('export redaction', () => {
  it('no must_not_appear value of the fixtures reaches a Markdown or HTML export of any fixture session', async () => {
    process.env.SESSIONPRESS_SOURCE = fixturesRoot;
    let all = '';
    for (const s of E.sessions as Array<{ session_id: string }>) {
      const md = await run([s.session_id, '--split']);
      // A file with no conversation has no page, so nothing to export either.
      if (md.code === 1 && /has no page/.test(md.err.join(''))) continue;
      expect(md.code, md.err.join('\n')).toBe(0);
      const html = await run([s.session_id, '--format', 'html']);
      expect(html.code, html.err.join('\n')).toBe(0);
      all += md.text + html.text;
    }
    expect(all.length).toBeGreaterThan(100_000);
    expect((E.must_not_appear as string[]).filter((v) => all.includes(v))).toEqual([]);
    expect(all.toLowerCase()).not.toContain(`/home/${String(E.canary.username).toLowerCase()}`);
  }, 120_000);
});

describe('GFM helpers', () => {
  it('fences content with a fence longer than any backtick run in it', () => {
    const md = fence('a\n````\nb ``````` c\n', 'ts');
    const [code] = marked.lexer(md) as Tokens.Code[];
    expect(code.type).toBe('code');
    expect(code.text).toBe('a\n````\nb ``````` c');
    expect(code.lang).toBe('ts');
  });

  it('closes a fence the transcript left open and shows raw HTML as text', () => {
    const text = neutralizeMarkdown('see </details><img src=x onerror=alert(1)> and `<b>` kept\n```js\nconst a = "</details>";');
    const tokens = marked.lexer(`<details>\n<summary>x</summary>\n\n${text}\n\n</details>`);
    expect(tokens.at(-1)?.raw.trim()).toBe('</details>');
    expect(walk(tokens).filter((t) => t.type === 'html').map((t) => t.raw.trim())).toEqual(['<details>\n<summary>x</summary>', '</details>']);
    expect(text).toContain('`<b>`');
  });
});
