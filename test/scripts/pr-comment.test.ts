import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { JSDOM } from 'jsdom';
import { marked } from 'marked';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../scripts/pr-comment.js';
import { COMMENT_MARKER } from '../../scripts/lib/pr-comment/body.js';
import { GITHUB_COMMENT_LIMIT } from '../../src/lib/export/markdown.js';
import { issueComment, pullRequestFile } from '../fixtures/github-api.js';
import { startFakeGithub, type FakePullRequest } from '../helpers/github-server.js';
import { fixturePath, loadExpect, repoRoot } from '../helpers/shared.js';
import { projectSlugOf, sessionEntryId } from '../../src/lib/site/slug.js';
import { LINE_TERMINATORS, RESULT_SENTINEL, liveOnGithub, renderLikeGithub, writeGithubTextSession } from '../helpers/github-text.js';

// Our own 2.1.x fixture: two sessions name acme/shop#42 or are changed by it; planted secrets in EXPECT.json.
const FORMAT21 = join(repoRoot, 'test', 'fixtures', 'format-2.1');
const E21 = JSON.parse(readFileSync(join(FORMAT21, 'EXPECT.json'), 'utf8'));
const SHARED = loadExpect();
const fileOf = (id: string) => relative(repoRoot, join(FORMAT21, E21.projectFolder, `${id}.jsonl`)).split('\\').join('/');

const saved = { ...process.env };
const tmp = mkdtempSync(join(tmpdir(), 'sessionpress-pr-comment-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
afterEach(() => {
  process.env = { ...saved };
});

async function run(args: string[], env: Record<string, string | undefined>): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (l) => out.push(l), err: (l) => err.push(l), env: { ...process.env, ...env } });
  // The made-up pull requests name commits no checkout here has: the blame section's note is expected (test/scripts/pr-comment-blame.test.ts).
  return { code, out, err: err.filter((l) => !l.startsWith('No blame section: ')) };
}

/** The body as GitHub would render it (GFM, raw HTML kept), as a document. */
function rendered(body: string): Document {
  return new JSDOM(`<body>${marked.parse(body, { gfm: true, async: false }) as string}</body>`).window.document;
}

/** Text nodes outside code: where GitHub would find mentions and references. */
function proseTexts(doc: Document): string[] {
  const out: string[] = [];
  const walker = doc.createTreeWalker(doc.body, 4 /* NodeFilter.SHOW_TEXT */);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!n.parentElement?.closest('code, pre')) out.push(n.textContent ?? '');
  }
  return out;
}

const LIVE = [/(^|[^\w`])@[A-Za-z0-9]/, /(^|[\s(])#\d/, /[\w.-]+\/[\w.-]+#\d/, /\bGH-\d/i];

describe('sessionpress pr-comment against a GitHub REST server', () => {
  const pulls = new Map<number, FakePullRequest>();
  let gh: Awaited<ReturnType<typeof startFakeGithub>>;
  beforeAll(async () => {
    // The session that names #42 (E21.sessions.everything) is found by its pr-link; the others by their files.
    const [changed, removed] = [E21.sessions.command, E21.sessions.progress];
    pulls.set(42, {
      // Three pages of files, as GitHub pages them.
      files: [pullRequestFile('README.md', 'modified'), pullRequestFile(fileOf(changed), 'modified'), pullRequestFile(fileOf(removed), 'removed'), pullRequestFile('src/app.ts', 'added'), pullRequestFile('docs/x.md', 'renamed', 'docs/y.md')],
      // Someone quoting an earlier comment of ours: never the one to update.
      // and someone's comment that starts with our marker, which the token may not edit: passed over.
      comments: [
        issueComment('acme', 'shop', 42, 1, 'Looks good'),
        issueComment('acme', 'shop', 42, 2, `> ${COMMENT_MARKER}\n> quoted`, 'someone'),
        issueComment('acme', 'shop', 42, 3, `${COMMENT_MARKER}\nnot yours`, 'mallory'),
      ],
    });
    pulls.set(7, { files: [pullRequestFile('README.md', 'modified'), pullRequestFile(fileOf(removed), 'removed')], comments: [] });
    gh = await startFakeGithub('acme', 'shop', pulls);
  });
  afterAll(() => gh.close());

  const env = () => ({ GITHUB_TOKEN: 'test-token', GITHUB_API_URL: gh.apiUrl, SESSIONPRESS_SOURCE: FORMAT21, SESSIONPRESS_SITE: 'https://me.github.io', SESSIONPRESS_BASE: '/shop' });

  it('creates one comment, then updates that same comment; a PR without sessions gets none', async () => {
    const first = await run(['--repo', 'acme/shop', '--pr', '42'], env());
    expect(first.err).toEqual([]);
    expect(first.code).toBe(0);
    // mallory's copy of the marker cannot be edited (403): a comment of our own is created.
    expect(gh.writes().map((r) => `${r.method} ${r.url}`)).toEqual(['PATCH /api/v3/repos/acme/shop/issues/comments/3', 'POST /api/v3/repos/acme/shop/issues/42/comments']);
    const post = gh.writes()[1];
    expect(post.url).toBe('/api/v3/repos/acme/shop/issues/42/comments');
    expect(post.headers.accept).toBe('application/vnd.github+json');
    expect(post.headers['x-github-api-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // The files and comments were read to their last page.
    expect(gh.requests.filter((r) => r.url.includes('/pulls/42/files')).length).toBe(3);
    const body: string = post.body.body;
    expect(body.startsWith(COMMENT_MARKER)).toBe(true);
    expect(body.length).toBeLessThan(GITHUB_COMMENT_LIMIT);

    // Both sessions, with their titles and published pages; not the one whose file the PR removes.
    const doc = rendered(body);
    const headings = [...doc.querySelectorAll('body > h3')].map((h) => h.textContent);
    expect(headings).toEqual([E21.titles[E21.sessions.everything], E21.titles[E21.sessions.command]]);
    const links = [...doc.querySelectorAll('a')].map((a) => a.getAttribute('href'));
    for (const id of [E21.sessions.everything, E21.sessions.command]) {
      expect(links).toContain(`https://me.github.io/shop/sessions/${sessionEntryId(projectSlugOf(E21.projectFolder), id)}/`);
    }
    expect(body).not.toContain(E21.sessions.progress);
    // Facts and overview: an estimated cost, the prompts with their tool tallies, collapsed whole sessions.
    expect(body).toMatch(/\*\*Estimated cost\*\* /);
    expect(doc.querySelectorAll('body > details').length).toBe(2);
    expect([...doc.querySelectorAll('body > details > summary')].map((s) => s.textContent)).toEqual(['The whole session (Markdown)', 'The whole session (Markdown)']);
    expect(doc.querySelectorAll('body > ol > li').length).toBeGreaterThan(0);

    // Nothing secret or personal.
    for (const secret of Object.values(E21.secrets) as string[]) expect(body).not.toContain(secret);
    expect(body).not.toContain(E21.username);
    expect(body).not.toMatch(/\/home\/|\/Users\//);

    const second = await run(['--repo', 'acme/shop', '--pr', '42'], env());
    expect(second.code).toBe(0);
    const ours = pulls.get(42)!.comments[3];
    expect(gh.writes().map((r) => `${r.method} ${r.url}`)).toEqual([
      'PATCH /api/v3/repos/acme/shop/issues/comments/3',
      'POST /api/v3/repos/acme/shop/issues/42/comments',
      'PATCH /api/v3/repos/acme/shop/issues/comments/3',
      `PATCH /api/v3/repos/acme/shop/issues/comments/${ours.id}`,
    ]);
    expect(pulls.get(42)!.comments.filter((c) => c.user.login === 'github-actions[bot]' && c.body.startsWith(COMMENT_MARKER))).toHaveLength(1);
    expect(pulls.get(42)!.comments.map((c) => c.body.split('\n').pop())).toEqual(expect.arrayContaining(['> quoted', 'not yours']));

    const none = await run(['--repo', 'acme/shop', '--pr', '7'], env());
    expect(none.code).toBe(0);
    expect(none.out.join('\n')).toMatch(/No sessions for acme\/shop#7.*nothing posted/);
    expect(gh.writes()).toHaveLength(4);
    expect(gh.requests.some((r) => r.url.includes('/issues/7/'))).toBe(false);
  });

  it('needs GITHUB_TOKEN and says so; reports what GitHub answers', async () => {
    const before = gh.requests.length;
    const missing = await run(['--repo', 'acme/shop', '--pr', '42'], { ...env(), GITHUB_TOKEN: undefined });
    expect(missing.code).toBe(2);
    expect(missing.err.join('\n')).toMatch(/GITHUB_TOKEN is not set/);
    expect(gh.requests.length).toBe(before);
    const bad = await run(['--repo', 'acme/shop', '--pr', '42'], { ...env(), GITHUB_TOKEN: 'wrong' });
    expect(bad.code).toBe(1);
    expect(bad.err.join('\n')).toMatch(/401.*Bad credentials/);
    expect(bad.err.join('\n')).not.toContain('wrong');
    const usage = await run(['--repo', 'acme', '--pr', '42'], env());
    expect(usage.code).toBe(2);
  });
});

/** One JSONL line of a hand-made session. */
function line(value: Record<string, unknown>): string {
  return JSON.stringify(value);
}

/** A small session whose every kind of text holds GitHub-active strings, and optionally a planted secret. */
function writeHostileSession(root: string, id: string, payload: string, secret: string): string {
  const dir = join(root, '-home-tester-work-widgets');
  mkdirSync(dir, { recursive: true });
  const common = { sessionId: id, cwd: '/home/tester/work/widgets', version: '2.1.90', isSidechain: false, userType: 'external' };
  const lines = [
    line({ type: 'custom-title', customTitle: `Title ${payload}`, sessionId: id }),
    line({ ...common, parentUuid: null, type: 'user', uuid: `${id}-u1`, timestamp: '2026-03-01T10:00:00.000Z', message: { role: 'user', content: `Prompt ${payload} with a key ${secret}` } }),
    line({
      ...common,
      parentUuid: `${id}-u1`,
      type: 'assistant',
      uuid: `${id}-a1`,
      timestamp: '2026-03-01T10:00:10.000Z',
      message: {
        id: 'msg_h1',
        role: 'assistant',
        model: 'claude-sonnet-4-5-20250929',
        content: [
          { type: 'text', text: `Answer ${payload}\n\n- \`\`\`\n  x\n  \`\`\`\n</details>\n\n\`a\n\`${payload}\`` },
          { type: 'tool_use', id: 'toolu_H1', name: 'Write', input: { file_path: `/home/tester/work/widgets/${payload}.md`, content: payload } },
          { type: 'tool_use', id: 'toolu_H2', name: 'Bash', input: { command: `git commit -m "Commit ${payload.replace(/"/g, '')}"`, description: payload } },
        ],
        usage: { input_tokens: 10, output_tokens: 5 },
      },
    }),
    line({ ...common, parentUuid: `${id}-a1`, type: 'user', uuid: `${id}-r1`, timestamp: '2026-03-01T10:00:11.000Z', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_H1', content: `Wrote ${payload}` }] } }),
    line({ ...common, parentUuid: `${id}-r1`, type: 'user', uuid: `${id}-r2`, timestamp: '2026-03-01T10:00:12.000Z', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_H2', content: `[main 1a2b3c4] Commit ${payload}` }] } }),
    line({ type: 'pr-link', sessionId: id, prNumber: 5, prUrl: 'https://github.com/acme/widgets/pull/5', prRepository: 'acme/widgets', timestamp: '2026-03-01T10:00:20.000Z' }),
  ];
  writeFileSync(join(dir, `${id}.jsonl`), `${lines.join('\n')}\n`);
  return dir;
}

describe('pr-comment: transcript text cannot act on GitHub or break the comment', () => {
  const pulls = new Map<number, FakePullRequest>([[5, { files: [], comments: [] }]]);
  let gh: Awaited<ReturnType<typeof startFakeGithub>>;
  const source = join(tmp, 'hostile');
  const payload = '@octocat #1 acme/widgets#2 GH-3 </details> <img src=x onerror=alert(1)> ![t](https://example.com/t.png) ``<img src=y>`';
  // A planted secret of our 2.1 fixture (read from its EXPECT), pasted into a prompt.
  const secret: string = E21.secrets.sidecar;
  beforeAll(async () => {
    writeHostileSession(source, 'cafe0001-0000-4000-8000-000000000001', payload, secret);
    gh = await startFakeGithub('acme', 'widgets', pulls);
  });
  afterAll(() => gh.close());
  const env = () => ({ GITHUB_TOKEN: 'test-token', GITHUB_API_URL: gh.apiUrl, SESSIONPRESS_SOURCE: source, SESSIONPRESS_SITE: undefined });

  it('gives a body where no mention, reference, tag or image is live, and whose sections hold', async () => {
    const r = await run(['--repo', 'acme/widgets', '--pr', '5'], env());
    expect(r.err).toEqual([]);
    expect(r.code).toBe(0);
    const body: string = gh.writes()[0].body.body;
    expect(body).toContain('octocat');
    if (process.env.DUMP_BODY) writeFileSync(process.env.DUMP_BODY, body);
    expect(body).not.toContain(secret);
    const doc = rendered(body);
    expect(doc.querySelectorAll('img, script, iframe').length).toBe(0);
    expect([...doc.querySelectorAll('*')].some((el) => [...el.attributes].some((a) => a.name.startsWith('on')))).toBe(false);
    // Ours only: one collapsed session with one section per tool call inside it, nothing after it swallowed.
    const top = doc.querySelectorAll('body > details');
    expect(top.length).toBe(1);
    expect(top[0].querySelectorAll('details').length).toBe(2);
    expect(doc.querySelectorAll('details').length).toBe(3);
    expect(top[0].querySelector('summary')?.textContent).toBe('The whole session (Markdown)');
    for (const text of proseTexts(doc)) for (const re of LIVE) expect(text, text).not.toMatch(re);
    // The title, file name and commit message are there, as text.
    expect(doc.querySelector('h3')?.textContent).toContain('octocat');
    expect(doc.body.textContent).toContain('</details> <img src=x onerror=alert(1)>');
    expect(body).toMatch(/\*\*Commits\*\*/);
  });

  it('does not send a body in which a secret survived redaction (allow-listed), and says why without showing it', async () => {
    const config = join(tmp, 'allow.json');
    writeFileSync(config, JSON.stringify({ redaction: { allowlist: [secret] } }));
    const before = gh.writes().length;
    const r = await run(['--repo', 'acme/widgets', '--pr', '5', '--config', config], env());
    expect(r.code).toBe(1);
    const said = r.err.join('\n');
    expect(said).toMatch(/Not posted/);
    expect(said).toMatch(/…\[masked\]/);
    expect(said).not.toContain(secret);
    expect(gh.writes().length).toBe(before);
  });

  it('--dry-run prints the body and writes nothing', async () => {
    const before = gh.writes().length;
    const r = await run(['--repo', 'acme/widgets', '--pr', '5', '--dry-run'], env());
    expect(r.code).toBe(0);
    expect(r.out.join('\n').startsWith(COMMENT_MARKER)).toBe(true);
    expect(gh.writes().length).toBe(before);
  });
});

describe('pr-comment: a line terminator in any text field ends nothing and brings nothing alive', () => {
  // One session per terminator, each naming its own pull request; every text field holds the plant (see github-text.ts).
  const source = join(tmp, 'terminators');
  const cases = Object.entries(LINE_TERMINATORS).map(([name, terminator], i) => ({ name, terminator, pr: 100 + i, id: `cafe01${String(i).padStart(2, '0')}-0000-4000-8000-000000000001` }));
  const pulls = new Map<number, FakePullRequest>(cases.map((c) => [c.pr, { files: [], comments: [] }]));
  let gh: Awaited<ReturnType<typeof startFakeGithub>>;
  let toolCalls = 0;
  beforeAll(async () => {
    for (const c of cases) toolCalls = writeGithubTextSession(source, c.id, c.terminator, c.pr).toolCalls;
    gh = await startFakeGithub('acme', 'widgets', pulls);
  });
  afterAll(() => gh.close());
  const env = () => ({ GITHUB_TOKEN: 'test-token', GITHUB_API_URL: gh.apiUrl, SESSIONPRESS_SOURCE: source, SESSIONPRESS_SITE: 'https://me.github.io', SESSIONPRESS_BASE: '/widgets' });

  it.each(cases)('$name: no mention, image, handler, reference or backlink; the sections hold', async ({ pr }) => {
    const r = await run(['--repo', 'acme/widgets', '--pr', String(pr)], env());
    expect(r.err).toEqual([]);
    expect(r.code).toBe(0);
    const body: string = gh.writes().find((w) => w.url.endsWith(`/issues/${pr}/comments`))!.body.body;
    for (const [kind, doc] of Object.entries(renderLikeGithub(body))) {
      expect(liveOnGithub(doc), kind).toEqual([]);
      // One session: its title one heading, its whole Markdown one collapsed section holding one section per tool call.
      expect([...doc.querySelectorAll('body > h3')].map((h) => h.textContent!.slice(0, 7)), kind).toEqual(['Title X']);
      const top = doc.querySelectorAll('body > details');
      expect(top.length, kind).toBe(1);
      expect(top[0].querySelector('summary')?.textContent, kind).toBe('The whole session (Markdown)');
      expect(doc.querySelectorAll('details').length, kind).toBe(1 + toolCalls);
      expect(top[0].querySelectorAll(':scope > details').length, kind).toBe(toolCalls);
      const sentinels = [...doc.querySelectorAll('pre')].filter((p) => p.textContent?.includes(RESULT_SENTINEL));
      expect(sentinels.length, kind).toBe(toolCalls);
      for (const s of sentinels) expect(s.closest('details')?.parentElement, kind).toBe(top[0]);
      // The overview is whole: prompts, files changed and commits.
      expect(doc.querySelectorAll('body > ol > li').length, kind).toBeGreaterThanOrEqual(2);
      expect(doc.body.textContent, kind).toMatch(/Files changed \(1\)[\s\S]*Commits \(2\)/);
    }
    expect(body).toContain('https://redirect.github.com/o/r/issues/2');
  });
});

describe('pr-comment on the shared hostile fixtures', () => {
  // A checked-out repository whose pull request changes the XSS session and the canary's files.
  const repo = join(tmp, 'repo');
  const pulls = new Map<number, FakePullRequest>();
  let gh: Awaited<ReturnType<typeof startFakeGithub>>;
  beforeAll(async () => {
    mkdirSync(join(repo, '.git'), { recursive: true });
    const files = [];
    for (const rel of [SHARED.xss.file as string]) {
      const project = dirname(rel).split('/').pop()!;
      cpSync(dirname(fixturePath(rel)), join(repo, '.claude-sessions', project), { recursive: true });
      files.push(pullRequestFile(`.claude-sessions/${project}/${rel.split('/').pop()}`, 'added'));
    }
    pulls.set(11, { files, comments: [] });
    gh = await startFakeGithub('acme', 'shop', pulls);
  });
  afterAll(() => gh.close());

  it('posts a comment in which no payload is live and nothing that must not appear appears', async () => {
    const r = await run(['--repo', 'acme/shop', '--pr', '11', '--source', join(repo, '.claude-sessions')], { GITHUB_TOKEN: 'test-token', GITHUB_API_URL: gh.apiUrl, SESSIONPRESS_SOURCE: undefined });
    expect(r.err).toEqual([]);
    expect(r.code).toBe(0);
    const body: string = gh.writes()[0].body.body;
    expect(body.length).toBeLessThan(GITHUB_COMMENT_LIMIT);
    const doc = rendered(body);
    for (const sel of [...(SHARED.xss.forbidden_selectors as string[]), 'img', 'svg', 'a[href^="javascript" i]']) expect(doc.querySelectorAll(sel).length, sel).toBe(0);
    expect([...doc.querySelectorAll('*')].some((el) => [...el.attributes].some((a) => a.name.startsWith('on')))).toBe(false);
    expect(doc.querySelectorAll('body > details').length).toBe(1);
    expect((SHARED.xss.payloads as Array<{ marker: string }>).filter((p) => body.includes(p.marker)).length).toBeGreaterThan(3);
    expect((SHARED.must_not_appear as string[]).filter((v) => body.includes(v))).toEqual([]);
    for (const text of proseTexts(doc)) for (const re of LIVE) expect(text, text).not.toMatch(re);
  });
});
