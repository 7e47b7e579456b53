/**
 * The commands against a hostile folder layout, as a cloned repository can
 * commit one: links to what lies outside the source or the target, and file
 * names that make unsafe ids. Each test tries the attack: nothing outside the
 * source is read, nothing outside the target is written or deleted, and a
 * capture stopped at any step leaves one whole copy.
 */
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main as importMain } from '../../scripts/import.js';
import { main as exportMain } from '../../scripts/export.js';
import { captureSession, locateSession } from '../../scripts/lib/capture/capture-session.js';
import { discoverSources } from '../../src/lib/discover.js';
import { makeHostileTree, type HostileTree } from '../helpers/hostile-tree.js';
import { repoRoot } from '../helpers/shared.js';

/** Every file below a folder (links listed as themselves, never followed). */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return lstatSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

function textUnder(dir: string): string {
  return filesUnder(dir)
    .map((f) => `${relative(dir, f)}\n${lstatSync(f).isSymbolicLink() ? '' : readFileSync(f, 'utf8')}`)
    .join('\n');
}

describe('import over a hostile tree', () => {
  let tree: HostileTree;
  let out: string;
  let printed: string[];
  let code: number;
  afterAll(() => tree?.remove());
  beforeAll(async () => {
    tree = makeHostileTree();
    out = join(tree.tmp, 'content', 'sessions');
    // What the output folder already holds: another project's copy and a file beside this project's.
    mkdirSync(join(out, '-work-other'), { recursive: true });
    writeFileSync(join(out, '-work-other', 'keep.jsonl'), '{}\n');
    mkdirSync(join(out, '-work-api'), { recursive: true });
    writeFileSync(join(out, '-work-api', 'keep-me.txt'), 'mine\n');
    printed = [];
    code = await importMain([tree.root, '--out', out], { out: (l) => printed.push(l), redaction: {} });
  });

  it('copies every real session and nothing from outside', () => {
    expect(code).toBe(0);
    const all = textUnder(out);
    expect(all).toContain(tree.insideMarker);
    expect(all).not.toContain(tree.outsideMarker);
    expect(all).not.toContain(tree.username);
    for (const id of [tree.ids.linkedResults, tree.ids.linkedSubagents, tree.ids.linkedKeptFile, tree.ids.plain]) expect(existsSync(join(out, '-work-api', `${id}.jsonl`)), id).toBe(true);
    expect(existsSync(join(out, '-work-api', `${tree.ids.linkedSessionFile}.jsonl`))).toBe(false);
    for (const f of filesUnder(out)) expect(lstatSync(f).isSymbolicLink(), f).toBe(false);
  });

  it('deletes nothing it did not write: `...jsonl` and `..jsonl` are refused, not copied over the folder', () => {
    expect(readFileSync(join(out, '-work-other', 'keep.jsonl'), 'utf8')).toBe('{}\n');
    expect(readFileSync(join(out, '-work-api', 'keep-me.txt'), 'utf8')).toBe('mine\n');
  });

  it('says what it did not read, by file', () => {
    const text = printed.join('\n');
    expect(text).toMatch(/Not read \(\d+\):/);
    for (const name of ['...jsonl', '..jsonl', `${tree.ids.linkedSessionFile}.jsonl`, `${tree.ids.linkedResults}/tool-results`, `${tree.ids.linkedSubagents}/subagents`]) expect(text, name).toContain(name);
    expect(text).toMatch(/symlink-skipped/);
    expect(text).toMatch(/unsafe-name/);
  });

  it('refuses an output folder that is a link, writing nothing through it', async () => {
    const victim = join(tree.tmp, 'victim');
    mkdirSync(victim);
    writeFileSync(join(victim, '.bashrc'), 'original\n');
    const linked = join(tree.tmp, 'linked-out');
    symlinkSync(victim, linked);
    const lines: string[] = [];
    const c = await importMain([tree.root, '--out', linked], { out: (l) => lines.push(l), redaction: {} });
    expect(c).toBe(1);
    expect(lines.join('\n')).toMatch(/symbolic link/);
    expect(readdirSync(victim)).toEqual(['.bashrc']);
  });
});

describe('export over a hostile tree', () => {
  it('prints nothing of a kept output that lies outside the source', async () => {
    const tree = makeHostileTree();
    const saved = { ...process.env };
    try {
      process.env.SESSIONPRESS_SOURCE = tree.root;
      for (const id of [tree.ids.linkedResults, tree.ids.linkedKeptFile]) {
        for (const format of ['md', 'html']) {
          let text = '';
          const code = await exportMain([id, '--format', format], { out: (t) => (text += t), err: () => undefined });
          expect(code).toBe(0);
          expect(text).toContain(tree.insideMarker);
          expect(text, `${id} ${format}`).not.toContain(tree.outsideMarker);
          expect(text).not.toContain(tree.username);
        }
      }
    } finally {
      process.env = saved;
      tree.remove();
    }
  });
});

interface Ran {
  code: number;
  stderr: string;
}

/** Runs `sessionpress capture` as Claude Code runs a hook: the hook's JSON on stdin. */
function runCapture(transcript: string, cwd: string): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(repoRoot, 'bin', 'sessionpress.mjs'), 'capture'], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code: code ?? -1, stderr }));
    child.stdin.end(JSON.stringify({ session_id: basename(transcript, '.jsonl'), transcript_path: transcript, cwd, hook_event_name: 'SessionEnd', reason: 'exit' }));
  });
}

describe('capture through links a repository commits', () => {
  let tree: HostileTree;
  let repo: string;
  let victim: string;
  let transcript: string;
  afterAll(() => tree?.remove());
  beforeAll(() => {
    tree = makeHostileTree();
    repo = join(tree.tmp, 'repo');
    mkdirSync(repo);
    spawnSync('git', ['init', '-q', repo]);
    victim = join(tree.tmp, 'home');
    mkdirSync(victim);
    writeFileSync(join(victim, '.bashrc'), 'original\n');
    transcript = join(tree.root, tree.projectFolder, `${tree.ids.plain}.jsonl`);
  });

  it('writes nothing through a `.claude-sessions` that is a link, and says so', async () => {
    symlinkSync(victim, join(repo, '.claude-sessions'));
    try {
      const ran = await runCapture(transcript, repo);
      expect(ran.code).toBe(1);
      expect(ran.stderr).toMatch(/symbolic link/);
      expect(readdirSync(victim)).toEqual(['.bashrc']);
      expect(readFileSync(join(victim, '.bashrc'), 'utf8')).toBe('original\n');
    } finally {
      spawnSync('rm', [join(repo, '.claude-sessions')]);
    }
  });

  it('appends nothing to what a `capture.log` link points at, and still copies the session', async () => {
    mkdirSync(join(repo, '.claude-sessions'), { recursive: true });
    symlinkSync(join(victim, '.bashrc'), join(repo, '.claude-sessions', 'capture.log'));
    const ran = await runCapture(transcript, repo);
    expect(ran.code).toBe(0);
    expect(readFileSync(join(victim, '.bashrc'), 'utf8')).toBe('original\n');
    expect(ran.stderr).toMatch(/capture\.log not written/);
    expect(existsSync(join(repo, '.claude-sessions', '-work-api', `${tree.ids.plain}.jsonl`))).toBe(true);
  });
});

describe('capture stopped at any step', () => {
  const fixtures = join(repoRoot, 'test', 'fixtures', 'format-2.1.2xx');
  const RECORDS = JSON.parse(readFileSync(join(fixtures, 'EXPECT.records.json'), 'utf8'));
  let projectDir: string;
  let outDir: string;
  let sessionId: string;
  let tmp: string;

  /** Every file of the copy parses line by line, and the copy is found as one session with its agents. */
  async function expectWholeCopy(): Promise<string[]> {
    const files = filesUnder(outDir).filter((f) => !f.endsWith('.lock') && !f.endsWith('capture.log'));
    for (const f of files) {
      expect(basename(f), 'no temporary file is taken for part of the copy').not.toMatch(/\.tmp$/);
      if (f.endsWith('.jsonl') || f.endsWith('.json')) for (const line of readFileSync(f, 'utf8').split('\n').filter(Boolean)) expect(() => JSON.parse(line), f).not.toThrow();
    }
    const layout = await discoverSources(outDir);
    const copy = layout.sessions.find((s) => s.sessionId === sessionId)!;
    expect(copy).toBeDefined();
    return [copy.path, ...copy.subagentPaths, ...(copy.toolResultPaths ?? [])].map((p) => relative(outDir, p)).sort();
  }

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'sessionpress-capture-kill-'));
    const projects = join(tmp, 'projects');
    cpSync(join(fixtures, RECORDS.projectFolder), join(projects, RECORDS.projectFolder), { recursive: true });
    projectDir = join(projects, RECORDS.projectFolder);
    sessionId = RECORDS.sessions.kept;
    outDir = join(tmp, 'repo', '.claude-sessions');
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('a stop after writing the new files, before swapping, leaves the old copy whole; the next run finishes', async () => {
    const transcript = join(projectDir, `${sessionId}.jsonl`);
    const located = (await locateSession(transcript))!;
    await captureSession(located, { outDir, redaction: {}, cwd: tmpdir() });
    const first = await expectWholeCopy();
    const before = readFileSync(filesUnder(outDir).find((f) => f.endsWith(`${sessionId}.jsonl`))!, 'utf8');

    // The session grows, then a capture is killed at each step of writing its copy.
    appendFileSync(transcript, `${JSON.stringify({ type: 'user', uuid: 'grown-1', parentUuid: null, sessionId, timestamp: new Date().toISOString(), message: { role: 'user', content: 'grown' } })}\n`);
    for (const step of ['staged', 'swapped-one'] as const) {
      const again = (await locateSession(transcript))!;
      await expect(
        captureSession(again, {
          outDir,
          redaction: {},
          cwd: tmpdir(),
          onStep: (s) => {
            if (s === step) throw new Error(`killed at ${s}`);
          },
        }),
      ).rejects.toThrow(`killed at ${step}`);
      expect(await expectWholeCopy(), step).toEqual(first);
      const main = readFileSync(filesUnder(outDir).find((f) => f.endsWith(`${sessionId}.jsonl`))!, 'utf8');
      // The session's file is whole: the old copy, or (once swapped) the new one with the grown line.
      expect([before, main.includes('grown-1') ? main : before]).toContain(main);
    }
    // The next capture finishes: the new copy, no temporary files left.
    await captureSession((await locateSession(transcript))!, { outDir, redaction: {}, cwd: tmpdir() });
    expect(await expectWholeCopy()).toEqual(first);
    expect(readFileSync(filesUnder(outDir).find((f) => f.endsWith(`${sessionId}.jsonl`))!, 'utf8')).toContain('grown-1');
    expect(filesUnder(outDir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});
