import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main as audit } from '../../scripts/audit.js';
import { main as exportSession } from '../../scripts/export.js';
import { main as importSessions } from '../../scripts/import.js';
import { main as prComment } from '../../scripts/pr-comment.js';
import { buildSite, listFiles, readAllText, type BuildRun } from '../helpers/build.js';
import { GENERATED_PROJECT, writeCredentialTree, type GeneratedTree } from '../helpers/credentials.js';
import { pullRequestFile } from '../fixtures/github-api.js';
import { startFakeGithub, type FakePullRequest } from '../helpers/github-server.js';
import { repoRoot } from '../helpers/shared.js';

/**
 * A session holding more than a hundred generated credentials (fresh random
 * values every run) in prose, commands, a `.env` read back, JSON, headers,
 * URLs, a kept output past the 30,000-character cut and a subagent, run
 * through every way out: `sessionpress build` (pages, JSON, Markdown twins,
 * llms.txt, the pagefind index decompressed, Astro's caches), `import`,
 * `capture`, `export` (md and html) and a pull request comment. None of the
 * values may reach any of them, and `audit --strict` passes the built site.
 */
const tmp = mkdtempSync(join(tmpdir(), 'sp-gen-creds-'));
const out = join(tmp, 'dist');
let tree: GeneratedTree;
let run: BuildRun;

afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
  rmSync(`${out}-cache`, { recursive: true, force: true });
});

beforeAll(async () => {
  tree = writeCredentialTree(join(tmp, 'projects'));
  run = await buildSite(out, { SESSIONPRESS_SOURCE: tree.root });
  if (run.code !== 0) throw new Error(`build failed:\n${run.log.slice(-3000)}`);
}, 600_000);

/** Secret values found in texts, as `file: ab…yz` (never the value itself in a message). */
function leaks(texts: Array<{ file: string; text: string }>): string[] {
  const found: string[] = [];
  for (const { file, text } of texts) {
    for (const s of tree.secrets) if (text.includes(s)) found.push(`${file}: ${s.slice(0, 2)}…${s.slice(-2)}`);
  }
  return found;
}

const textsUnder = (dir: string): Array<{ file: string; text: string }> => readAllText(dir).map((t) => ({ file: t.file.slice(dir.length), text: t.text }));

describe('generated credentials through every way out', () => {
  it('the build publishes none: HTML, JSON, Markdown twins, llms.txt, the search index, Astro caches', () => {
    const texts = [...textsUnder(out), ...textsUnder(`${out}-cache`), ...textsUnder(join(repoRoot, '.astro'))];
    // The page, its twin, llms.txt and the index are there, and the kept output was read whole into the page.
    const page = listFiles(join(out, 'sessions')).filter((f) => f.includes(`/${tree.sessionId}/`));
    expect(page.some((f) => f.endsWith('index.html'))).toBe(true);
    expect(page.some((f) => f.endsWith('index.md'))).toBe(true);
    expect(existsSync(join(out, 'llms.txt'))).toBe(true);
    expect(texts.some((t) => t.file.endsWith('.pf_fragment'))).toBe(true);
    const html = page.filter((f) => f.endsWith('.html')).map((f) => readFileSync(f, 'utf8')).join('\n');
    expect(html).toContain(tree.keptMarker);
    expect(html).toContain('[REDACTED:');
    expect(leaks(texts)).toEqual([]);
  });

  it('audit --strict passes the built site (nothing leaked, nothing over-flagged on a page full of placeholders)', async () => {
    const lines: string[] = [];
    const code = await audit([tree.root, '--strict', '--dist', out], { out: (l) => lines.push(l), redaction: {} });
    expect(lines.join('\n')).toMatch(/nothing detected/);
    expect(code).toBe(0);
  });

  it('import writes a redacted copy', async () => {
    const dest = join(tmp, 'imported');
    const code = await importSessions([tree.root, '--out', dest], { out: () => {}, redaction: {}, progress: false });
    expect(code).toBe(0);
    const texts = textsUnder(dest);
    expect(texts.some((t) => t.text.includes(tree.keptMarker))).toBe(true);
    expect(leaks(texts)).toEqual([]);
  });

  it('capture (run as a hook) writes a redacted copy', async () => {
    const repo = join(tmp, 'repo');
    mkdirSync(repo, { recursive: true });
    expect(spawnSync('git', ['init', '-q', repo]).status).toBe(0);
    const transcript = join(tree.root, GENERATED_PROJECT, `${tree.sessionId}.jsonl`);
    const stdin = JSON.stringify({ session_id: tree.sessionId, transcript_path: transcript, cwd: repo, hook_event_name: 'SessionEnd', reason: 'exit', permission_mode: 'default' });
    const r = await new Promise<{ code: number; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [join(repoRoot, 'bin', 'sessionpress.mjs'), 'capture'], { cwd: repo, stdio: ['pipe', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      child.on('close', (code) => resolve({ code: code ?? -1, stderr }));
      child.stdin.end(stdin);
    });
    expect(r.code, r.stderr).toBe(0);
    const texts = textsUnder(join(repo, '.claude-sessions'));
    expect(texts.some((t) => t.text.includes(tree.keptMarker))).toBe(true);
    expect(leaks(texts)).toEqual([]);
  });

  it('export writes redacted Markdown and HTML', async () => {
    const saved = process.env.SESSIONPRESS_SOURCE;
    process.env.SESSIONPRESS_SOURCE = tree.root;
    try {
      for (const format of ['md', 'html']) {
        const file = join(tmp, `export.${format}`);
        const err: string[] = [];
        const code = await exportSession([tree.sessionId, '--format', format, '--out', file], { out: () => {}, err: (l) => err.push(l) });
        expect(code, err.join('\n')).toBe(0);
        const text = readFileSync(file, 'utf8');
        expect(text).toContain('[REDACTED:');
        expect(leaks([{ file: basename(file), text }])).toEqual([]);
      }
    } finally {
      if (saved === undefined) delete process.env.SESSIONPRESS_SOURCE;
      else process.env.SESSIONPRESS_SOURCE = saved;
    }
  });

  it('a pull request comment holds none, and passes the check before sending', async () => {
    const repo = join(tmp, 'pr-repo');
    mkdirSync(join(repo, '.git'), { recursive: true });
    cpSync(join(tree.root, GENERATED_PROJECT), join(repo, '.claude-sessions', GENERATED_PROJECT), { recursive: true });
    const pulls = new Map<number, FakePullRequest>([[11, { files: [pullRequestFile(`.claude-sessions/${GENERATED_PROJECT}/${tree.sessionId}.jsonl`, 'added')], comments: [] }]]);
    const gh = await startFakeGithub('acme', 'shop', pulls);
    try {
      const lines: string[] = [];
      const err: string[] = [];
      const code = await prComment(['--repo', 'acme/shop', '--pr', '11', '--source', join(repo, '.claude-sessions')], {
        out: (l) => lines.push(l),
        err: (l) => err.push(l),
        env: { ...process.env, GITHUB_TOKEN: 'test-token', GITHUB_API_URL: gh.apiUrl, SESSIONPRESS_SOURCE: undefined },
      });
      // The only other line allowed: blame has no git history in this folder to compare.
      expect(err.filter((l) => !l.startsWith('No blame section:'))).toEqual([]);
      expect(code).toBe(0);
      const body: string = gh.writes()[0].body.body;
      // The first prompt, which held three of the credentials, is in the comment, redacted.
      expect(body).toContain('Rotate the credentials');
      expect(body).toContain('[REDACTED:');
      expect(leaks([{ file: 'comment', text: body }])).toEqual([]);
    } finally {
      await gh.close();
    }
  });
});
