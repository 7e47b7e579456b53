import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JSDOM } from 'jsdom';
import { marked } from 'marked';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../scripts/pr-comment.js';
import { pullRequestFile } from '../fixtures/github-api.js';
import { gitIn } from '../helpers/blame-fixture.js';
import { buildScenario, SECRET, type Scenario } from '../helpers/blame-scenario.js';
import { startFakeGithub, type FakePullRequest } from '../helpers/github-server.js';

const tmp = mkdtempSync(join(tmpdir(), 'sessionpress-pr-blame-'));
let s: Scenario;
let gh: Awaited<ReturnType<typeof startFakeGithub>>;
const pulls = new Map<number, FakePullRequest>();
afterAll(async () => {
  await gh?.close?.();
  rmSync(tmp, { recursive: true, force: true });
});

async function comment(env: Record<string, string>): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(['--repo', 'acme/shop', '--pr', '7', '--source', join(s.repo, '.claude-sessions'), '--dry-run'], { out: (l) => out.push(l), err: (l) => err.push(l), env: { ...process.env, GITHUB_TOKEN: 'test-token', GITHUB_API_URL: gh.apiUrl, ...env } });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('pr-comment: who wrote the added lines', () => {
  beforeAll(async () => {
    s = buildScenario(join(tmp, 'story'), { committed: true });
    gitIn(s.repo, ['checkout', '-q', 'squashed']);
    const sha = (ref: string) => gitIn(s.repo, ['rev-parse', ref]).trim();
    const files = gitIn(s.repo, ['diff', '--name-only', 'base-old', 'squashed']).trim().split('\n');
    pulls.set(7, { files: files.map((f) => pullRequestFile(f, 'added')), comments: [], pull: { base: { ref: 'main', sha: sha('base-old') }, head: { ref: 'feature', sha: sha('squashed') } } });
    gh = await startFakeGithub('acme', 'shop', pulls);
  });

  it("summarises each file: lines per call with links to the calls, and a person's", async () => {
    const r = await comment({ SESSIONPRESS_SITE: 'https://example.github.io', SESSIONPRESS_BASE: '/shop' });
    expect(r.code, r.err).toBe(0);
    const doc = new JSDOM(marked.parse(r.out, { gfm: true, async: false }) as string).window.document;
    const heading = [...doc.querySelectorAll('h3')].find((h) => h.textContent === 'Who wrote the added lines');
    expect(heading).toBeDefined();
    const items = [...heading!.nextElementSibling!.nextElementSibling!.querySelectorAll('li')];
    const item = (path: string) => items.find((li) => li.querySelector('code')?.textContent === path)!;
    const retry = item('src/retry.py');
    expect(retry.textContent).toBe('src/retry.py: 6 of 12 added lines by prompt 1 (Write), 2 by prompt 2 (Edit), 1 by prompt 2 (Edit, subagent Explore), 1 by prompt 2 (Edit), 1 by prompt 2 (Edit), 1 by a person or unknown');
    const links = [...retry.querySelectorAll('a')].map((a) => a.getAttribute('href'));
    expect(links[0]).toMatch(new RegExp(`^https://example\\.github\\.io/shop/sessions/[^#]+/#t-${s.calls.W1}$`));
    expect(links).toContain(links[0]!.replace(s.calls.W1, s.calls.S1));
    expect(item('src/config.py').textContent).toContain('1 by prompt 3 (Bash command)');
    expect(item('README.md').textContent).toBe('README.md: 4 of 4 added lines by prompt 2 (Edit, teammate docs-writer)');
    expect(item('logo.png').textContent).toBe('logo.png: binary file, not blamed line by line');
    expect(item('package-lock.json').textContent).toContain('lockfile');
    expect(r.out).not.toContain(SECRET);
  });

  it("without the site's address names the calls without links", async () => {
    const r = await comment({ SESSIONPRESS_SITE: '' });
    expect(r.code, r.err).toBe(0);
    const section = r.out.slice(r.out.indexOf('### Who wrote the added lines'));
    expect(section).toContain('`src/retry.py`: 6 of 12 added lines by prompt 1 (Write), ');
    expect(section.slice(0, section.indexOf('\n###'))).not.toMatch(/\]\(/);
  });

  it('leaves the section out, saying why, when the checkout lacks the commits', async () => {
    pulls.get(7)!.pull = { base: { sha: '0'.repeat(40) }, head: { sha: '1'.repeat(40) } };
    const r = await comment({});
    expect(r.code, r.err).toBe(0);
    expect(r.out).not.toContain('Who wrote the added lines');
    expect(r.err).toContain('No blame section');
  });
});
