/**
 * `sessionpress capture`, run as Claude Code runs a hook: the real command
 * (bin/sessionpress.mjs) with the hook's JSON piped into stdin, in a temporary
 * git repository, on a temporary copy of fixture sessions. Every expected
 * value (sessions, secrets, login name, markers) comes from the fixtures'
 * EXPECT files.
 */
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findRepoRoot } from '../../scripts/lib/capture/hook-input.js';
import { fixturePath, loadExpect, repoRoot } from '../helpers/shared.js';

const fixtures = join(repoRoot, 'test', 'fixtures', 'format-2.1.2xx');
const RECORDS = JSON.parse(readFileSync(join(fixtures, 'EXPECT.records.json'), 'utf8'));
const AGENTS = JSON.parse(readFileSync(join(fixtures, 'EXPECT.agents.json'), 'utf8'));
const SHARED = loadExpect();
const folder: string = RECORDS.projectFolder;
const keptId: string = RECORDS.sessions.kept;
const forksId: string = AGENTS.sessions.forks;
/** Everything that must never reach the copy: planted secrets, the login name, the home folder. */
const FORBIDDEN: string[] = [...Object.values<string>(RECORDS.secrets), ...Object.values<string>(AGENTS.secrets), AGENTS.homePath].filter(Boolean);
const username: string = AGENTS.username;

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `sessionpress capture` with `stdin` piped in, as a hook. */
function capture(stdin: string, args: string[] = [], cwd = repoRoot): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(repoRoot, 'bin', 'sessionpress.mjs'), 'capture', ...args], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

function payload(event: string, transcript: string, cwd: string): string {
  return JSON.stringify({ session_id: basename(transcript, '.jsonl'), transcript_path: transcript, cwd, hook_event_name: event, permission_mode: 'default', ...(event === 'SessionEnd' ? { reason: 'exit' } : { trigger: 'auto', custom_instructions: '' }) });
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/** The files of one session in a projects-like folder: its transcript and everything in its own folder. */
function sessionFiles(projectDir: string, id: string): string[] {
  return [join(projectDir, `${id}.jsonl`), ...filesUnder(join(projectDir, id))].map((f) => relative(projectDir, f)).sort();
}

function leaks(dir: string, forbidden: string[], name: string): string[] {
  const found: string[] = [];
  for (const f of filesUnder(dir)) {
    const rel = relative(dir, f);
    const text = readFileSync(f, 'utf8');
    if (rel.toLowerCase().includes(name.toLowerCase())) found.push(`file name ${rel}`);
    if (text.toLowerCase().includes(name.toLowerCase())) found.push(`${rel}: ${name}`);
    for (const s of forbidden) if (text.includes(s)) found.push(`${rel}: ${s.slice(0, 12)}…`);
  }
  return found;
}

describe('sessionpress capture, as a Claude Code hook', () => {
  let tmp: string;
  let projectDir: string;
  let repo: string;
  let copies: string;
  let first: Ran[];

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'sessionpress-capture-'));
    projectDir = join(tmp, 'projects', folder);
    cpSync(join(fixtures, folder), projectDir, { recursive: true });
    repo = join(tmp, 'repo');
    mkdirSync(join(repo, 'src'), { recursive: true });
    expect(spawnSync('git', ['init', '-q', repo]).status).toBe(0);
    copies = join(repo, '.claude-sessions');
    // PreCompact for the session with forked subagents, SessionEnd for the one with kept outputs; from a subfolder.
    first = [
      await capture(payload('PreCompact', join(projectDir, `${forksId}.jsonl`), join(repo, 'src'))),
      await capture(payload('SessionEnd', join(projectDir, `${keptId}.jsonl`), join(repo, 'src'))),
    ];
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  /** The folder the copies went into: one, with the login name taken out of its name. */
  function copiedProject(): string {
    const folders = readdirSync(copies, { withFileTypes: true }).filter((d) => d.isDirectory());
    expect(folders.map((d) => d.name)).toHaveLength(1);
    return join(copies, folders[0].name);
  }

  it('copies each session with its subagents, sidecars and kept outputs into .claude-sessions/ of the repository', () => {
    for (const r of first) expect(r, r.stderr).toMatchObject({ code: 0 });
    const target = copiedProject();
    expect(basename(target)).not.toBe(folder);
    for (const id of [forksId, keptId]) expect(sessionFiles(target, id)).toEqual(sessionFiles(projectDir, id));
    // Both kinds are really there (the listing above would also match two empty folders).
    expect(sessionFiles(target, forksId).filter((f) => /subagents\/agent-.+\.jsonl$/.test(f))).toHaveLength(AGENTS.forks.length);
    const kept = join(target, keptId, 'tool-results', RECORDS.keptOutputs.byPreview.file);
    expect(readFileSync(kept, 'utf8')).toContain(RECORDS.keptOutputs.byPreview.endMarker);
  });

  it('redacts: no planted secret, login name or home folder in any file name or content', () => {
    expect(leaks(copies, FORBIDDEN, username)).toEqual([]);
  });

  it('writes one log line per run to stderr and to capture.log, with counts', () => {
    const log = readFileSync(join(copies, 'capture.log'), 'utf8').trim().split('\n');
    expect(log).toHaveLength(2);
    expect(log[0]).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT\\S+Z PreCompact ${forksId}: copied \\d+ file\\(s\\) \\(${AGENTS.forks.length} agent\\(s\\), 0 kept output\\(s\\)\\), [1-9]\\d* redaction\\(s\\)`));
    const keptCount = readdirSync(join(projectDir, keptId, 'tool-results')).length;
    expect(log[1]).toContain(`SessionEnd ${keptId}: copied ${keptCount + 1} file(s) (0 agent(s), ${keptCount} kept output(s))`);
    expect(first.map((r) => r.stderr.trim())).toEqual(log);
  });

  it('run again after the session grew, updates the copy: new lines, a new subagent and a new kept output', async () => {
    const source = join(projectDir, `${keptId}.jsonl`);
    const lines = readFileSync(source, 'utf8').trim().split('\n');
    const last = JSON.parse(lines[lines.length - 1]);
    const marker = 'CAPTURE-GREW-MARKER-5d1e';
    const secret = AGENTS.secrets.forkFile;
    const grown = { ...last, uuid: '0c0c0c0c-0000-4000-8000-00000000c0de', parentUuid: last.uuid, type: 'user', message: { role: 'user', content: `${marker} token ${secret} in ${AGENTS.homePath}/work` } };
    appendFileSync(source, `${JSON.stringify(grown)}\n`);
    const subagent = join(projectDir, keptId, 'subagents', 'agent-acapture-grew-0001.jsonl');
    mkdirSync(dirname(subagent), { recursive: true });
    writeFileSync(subagent, `${JSON.stringify({ ...grown, isSidechain: true, agentId: 'acapture-grew-0001' })}\n`);
    writeFileSync(join(projectDir, keptId, 'tool-results', 'capturegrew.txt'), `${marker}\n${secret}\n`);

    const again = await capture(payload('SessionEnd', source, repo));
    expect(again.code, again.stderr).toBe(0);
    const target = copiedProject();
    expect(sessionFiles(target, keptId)).toEqual(sessionFiles(projectDir, keptId));
    const copy = readFileSync(join(target, `${keptId}.jsonl`), 'utf8').trim().split('\n');
    expect(copy.length).toBeGreaterThan(lines.length - 1);
    expect(copy[copy.length - 1]).toContain(marker);
    expect(readFileSync(join(target, keptId, 'subagents', basename(subagent)), 'utf8')).toContain(marker);
    expect(readFileSync(join(target, keptId, 'tool-results', 'capturegrew.txt'), 'utf8')).toContain(marker);
    expect(leaks(copies, FORBIDDEN, username)).toEqual([]);
    expect(again.stderr).toContain('(1 agent(s)');
  });

  it('two hooks of one session at once (PreCompact and SessionEnd) leave a whole copy and no lock behind', async () => {
    const source = join(projectDir, `${forksId}.jsonl`);
    const runs = await Promise.all([capture(payload('PreCompact', source, repo)), capture(payload('SessionEnd', source, repo))]);
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    const target = copiedProject();
    expect(sessionFiles(target, forksId)).toEqual(sessionFiles(projectDir, forksId));
    for (const f of sessionFiles(target, forksId).filter((f) => f.endsWith('.jsonl'))) {
      for (const line of readFileSync(join(target, f), 'utf8').trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
    }
    expect(filesUnder(copies).filter((f) => /\.(lock|tmp)$/.test(f))).toEqual([]);
  });

  it('copies a shared fixture session with its canary redacted (--to a folder of its own)', async () => {
    const s = SHARED.sessions.find((x: { file: string }) => x.file === SHARED.canary.file) ?? SHARED.sessions[0];
    const out = join(tmp, 'elsewhere');
    const r = await capture(payload('SessionEnd', fixturePath(s.file), repo), ['--to', out]);
    expect(r.code, r.stderr).toBe(0);
    const written = filesUnder(out).filter((f) => f.endsWith('.jsonl'));
    expect(written.map((f) => basename(f))).toContain(`${s.session_id}.jsonl`);
    const text = written.map((f) => readFileSync(f, 'utf8')).join('\n');
    expect(SHARED.must_not_appear.filter((v: string) => text.includes(v))).toEqual([]);
    expect(leaks(out, [SHARED.canary.email, SHARED.canary.home], SHARED.canary.username)).toEqual([]);
  });

  describe('problems: one line, exit code 1 (non-blocking), never 2, never a stack', () => {
    const oneLine = (r: Ran) => {
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^\S+Z \S.*\n$/);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    };

    it('stdin that is not JSON', async () => {
      const r = await capture('{"session_id": ');
      oneLine(r);
      expect(r.stderr).toContain('not JSON');
    });

    it('no transcript_path', async () => {
      const r = await capture(JSON.stringify({ session_id: 'x', cwd: repo, hook_event_name: 'SessionEnd' }));
      oneLine(r);
      expect(r.stderr).toContain('transcript_path');
    });

    it('a transcript that does not exist: logged in the repository, its login name redacted', async () => {
      const missing = join(projectDir, '00000000-dead-4000-8000-000000000000.jsonl');
      const r = await capture(payload('SessionEnd', missing, repo));
      oneLine(r);
      expect(r.stderr).toContain('does not exist');
      expect(r.stderr.toLowerCase()).not.toContain(username.toLowerCase());
      expect(readFileSync(join(copies, 'capture.log'), 'utf8').trim().split('\n').pop()).toBe(r.stderr.trim());
    });

    it('an unknown flag', async () => {
      const r = await capture(payload('SessionEnd', join(projectDir, `${keptId}.jsonl`), repo), ['--nope']);
      oneLine(r);
      expect(r.stderr).toContain('--nope');
    });
  });

  it('outside a git repository, copies nothing and says so (exit 0)', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'sessionpress-norepo-'));
    try {
      if (findRepoRoot(outside)) return; // the machine's temp folder is inside a repository: nothing to check
      const r = await capture(payload('SessionEnd', join(projectDir, `${keptId}.jsonl`), outside), [], outside);
      expect(r.code).toBe(0);
      expect(r.stderr).toContain('not in a git repository');
      expect(readdirSync(outside)).toEqual([]);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it("the README's hooks block is valid settings JSON that runs capture on PreCompact and SessionEnd, with a timeout", () => {
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('\n## Capture sessions from Claude Code\n'));
    const block = /```json\n([\s\S]*?)\n```/.exec(section.slice(0, section.indexOf('\n## ', 1)))?.[1];
    const settings = JSON.parse(block ?? 'null') as { hooks: Record<string, Array<{ hooks: Array<{ type: string; command: string; timeout?: number }> }>> };
    expect(Object.keys(settings.hooks).sort()).toEqual(['PreCompact', 'SessionEnd']);
    for (const groups of Object.values(settings.hooks)) {
      const hook = groups[0].hooks[0];
      expect(hook.type).toBe('command');
      expect(hook.command).toMatch(/\bsessionpress capture\b/);
      // SessionEnd hooks get 1.5 s in all unless they ask for more; a capture takes longer than that.
      expect(hook.timeout).toBeGreaterThanOrEqual(10);
    }
  });

  it('finds the root of a worktree, whose .git is a file', () => {
    const wt = join(tmp, 'worktree');
    mkdirSync(join(wt, 'a', 'b'), { recursive: true });
    writeFileSync(join(wt, '.git'), 'gitdir: /elsewhere/.git/worktrees/wt\n');
    expect(findRepoRoot(join(wt, 'a', 'b'))).toBe(wt);
  });
});
