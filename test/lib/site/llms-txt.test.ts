import { marked, type Tokens } from 'marked';
import { describe, expect, it } from 'vitest';
import { llmsTxt } from '../../../src/lib/site/llms-txt.js';
import { sessionMarkdownUrl, sessionUrlFromMarkdown } from '../../../src/lib/site/urls.js';

/** A made-up stored entry: only the fields llms.txt reads. */
function entry(project: string, id: string, title: string, day: string, prompts: number) {
  const facts = { firstTimestamp: `${day}T10:00:00.000Z`, lastTimestamp: `${day}T11:00:00.000Z`, promptCount: prompts, toolCallCount: 2 * prompts } as never;
  return { data: { slug: `${project}/${id}`, projectSlug: project, projectName: `name of ${project}`, title, facts } };
}

const entries = [
  entry('alpha', 's1', 'Fix the [flaky] test <script>x</script> *now*', '2026-01-02', 3),
  entry('beta', 's2', 'Second project', '2026-01-05', 1),
  entry('alpha', 's3', 'Newer alpha session', '2026-01-04', 2),
];

describe('llms.txt', () => {
  it('has the llmstxt.org shape: the site title, a summary quote, a section per project, a link line per session', () => {
    const text = llmsTxt(entries, { title: 'My sessions', base: '/repo/' });
    const tokens = marked.lexer(text).filter((t) => t.type !== 'space');
    expect(tokens[0]).toMatchObject({ type: 'heading', depth: 1, text: 'My sessions' });
    expect(tokens[1].type).toBe('blockquote');
    expect(tokens[1].raw).toContain('3 sessions in 2 projects');
    const sections = tokens.filter((t): t is Tokens.Heading => t.type === 'heading' && t.depth === 2).map((t) => t.text);
    // Projects and sessions newest first.
    expect(sections).toEqual(['name of beta', 'name of alpha']);
    const lists = tokens.filter((t): t is Tokens.List => t.type === 'list');
    const links = lists.flatMap((l) => l.items.map((i) => i.tokens[0] as Tokens.Text)).map((t) => (t.tokens ?? []).find((x): x is Tokens.Link => x.type === 'link')!);
    expect(links.map((l) => l.href)).toEqual(['/repo/sessions/beta/s2/index.md', '/repo/sessions/alpha/s3/index.md', '/repo/sessions/alpha/s1/index.md']);
    expect(text).toContain('](/repo/sessions/alpha/s3/index.md): 2026-01-04, 2 prompts, 4 tool calls');
  });

  it('keeps a title from opening HTML or breaking its link', () => {
    const text = llmsTxt(entries, { title: 'T', base: '/' });
    expect(text).not.toContain('<script>');
    const html = marked.parse(text) as string;
    expect(html).not.toContain('<script>');
    expect(html).toContain('href="/sessions/alpha/s1/index.md"');
    expect(html).toContain('Fix the [flaky] test &lt;script&gt;x&lt;/script&gt; *now*');
  });

  it('links absolutely when the site address is known', () => {
    const text = llmsTxt(entries, { title: 'T', base: '/repo/sessions/', site: 'https://me.github.io' });
    // Under a host site's prefix (`sessions/`), session pages are `<prefix>sessions/<slug>/`.
    expect(text).toContain('(https://me.github.io/repo/sessions/sessions/beta/s2/index.md)');
  });
});

describe('Markdown URLs', () => {
  it('puts the Markdown beside the first page', () => {
    expect(sessionMarkdownUrl('/repo', 'p/s')).toBe('/repo/sessions/p/s/index.md');
    expect(sessionMarkdownUrl('/', 'p/s')).toBe('/sessions/p/s/index.md');
  });

  it('links from the Markdown to the pages relative to it', () => {
    expect(sessionUrlFromMarkdown()).toBe('./');
    expect(sessionUrlFromMarkdown({ page: 1, message: 'u1' })).toBe('./#m-u1');
    expect(sessionUrlFromMarkdown({ page: 3, message: 'u1' })).toBe('3/#m-u1');
    expect(sessionUrlFromMarkdown({ page: 2, tool: 't1' })).toBe('2/#t-t1');
    expect(sessionUrlFromMarkdown({ page: 2 })).toBe('2/');
  });
});
