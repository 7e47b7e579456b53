import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { discoverSources, noSessionsMessage, realPathOf } from '../../src/lib/discover.js';

describe('realPathOf', () => {
  const candidates = [
    '-Users-dain-workspace-app/agent-388fb764.jsonl',
    '-Users-dain-workspace-app/agent-12345678.jsonl',
    '-home-ana-x/s1/subagents/agent-a1.jsonl',
  ];

  it('finds the real file a redacted name stands for', () => {
    expect(realPathOf('-Users-[REDACTED:username]-workspace-app/agent-388fb764.jsonl', () => candidates)).toBe(candidates[0]);
    expect(realPathOf('-home-[REDACTED:username#2]-x/s1/subagents/agent-a1.jsonl', () => candidates)).toBe(candidates[2]);
  });

  it('keeps a name with no placeholder, one that matches nothing, and one that matches several', () => {
    expect(realPathOf('-Users-dain-workspace-app/agent-388fb764.jsonl', () => [])).toBe('-Users-dain-workspace-app/agent-388fb764.jsonl');
    expect(realPathOf('-Users-[REDACTED:username]-elsewhere/agent-388fb764.jsonl', () => candidates)).toBe('-Users-[REDACTED:username]-elsewhere/agent-388fb764.jsonl');
    expect(realPathOf('-Users-[REDACTED:username]-workspace-app/agent-[REDACTED:hex]', () => candidates)).toBe('-Users-[REDACTED:username]-workspace-app/agent-[REDACTED:hex]');
  });

  it('never lets a placeholder span folders or treats dots in names as wildcards', () => {
    expect(realPathOf('[REDACTED:username]/agent-a1.jsonl', () => candidates)).toBe('[REDACTED:username]/agent-a1.jsonl');
    expect(realPathOf('-Users-[REDACTED:username]-workspace-app/agent-388fb764xjsonl', () => candidates)).toBe('-Users-[REDACTED:username]-workspace-app/agent-388fb764xjsonl');
  });
});

describe('noSessionsMessage', () => {
  const work = mkdtempSync(join(tmpdir(), 'sp-no-sessions-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  /** A folder laid out like ~/.claude/projects, with `n` sessions of one project under `dir`. */
  const projects = (dir: string, n: number) => {
    mkdirSync(join(dir, '-home-ada-app'), { recursive: true });
    for (let i = 0; i < n; i++) writeFileSync(join(dir, '-home-ada-app', `s${i}.jsonl`), '{"type":"user"}\n');
  };

  it('names the layout expected, and no folder when none below holds a session', async () => {
    const empty = join(work, 'empty');
    mkdirSync(join(empty, 'projects', 'nothing-here'), { recursive: true });
    const line = await noSessionsMessage(empty);
    expect(line).toContain(`No Claude Code session files in ${empty}`);
    expect(line).toContain('<project folder>/<session id>.jsonl');
    expect(line).not.toMatch(/give that folder/);
  });

  it('points at ~/.claude/projects when ~/.claude or the home folder is given', async () => {
    const claude = join(work, 'claude');
    projects(join(claude, 'projects'), 2);
    expect(await noSessionsMessage(claude)).toMatch(new RegExp(`${join(claude, 'projects')} holds 2 sessions: give that folder instead\\.$`));
    const home = join(work, 'home');
    projects(join(home, '.claude', 'projects'), 1);
    expect(await noSessionsMessage(home)).toMatch(new RegExp(`${join(home, '.claude', 'projects')} holds 1 session: give that folder instead\\.$`));
  });

  it('never follows a link to a folder of sessions elsewhere', async () => {
    const elsewhere = join(work, 'elsewhere');
    projects(elsewhere, 3);
    const linked = join(work, 'linked');
    mkdirSync(linked);
    symlinkSync(elsewhere, join(linked, 'projects'));
    const viaClaude = join(work, 'via-claude');
    mkdirSync(viaClaude);
    symlinkSync(join(work, 'claude'), join(viaClaude, '.claude'));
    for (const root of [linked, viaClaude]) expect(await noSessionsMessage(root)).not.toMatch(/holds/);
  });
});

describe('the login name of a project folder', () => {
  const root = mkdtempSync(join(tmpdir(), 'sp-home-name-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const write = (folder: string, id: string, cwd?: string) => {
    mkdirSync(join(root, folder), { recursive: true });
    const line = { type: 'user', uuid: 'u1', parentUuid: null, sessionId: id, message: { role: 'user', content: 'hi' }, ...(cwd ? { cwd } : {}) };
    writeFileSync(join(root, folder, `${id}.jsonl`), `${JSON.stringify({ type: 'summary', summary: 'x' })}\n${JSON.stringify(line)}\n`);
  };

  it("is read from a cwd at the head of the folder's sessions, the same for each of them", async () => {
    write('-Users-qa-zb-shop', 'a-first', undefined);
    write('-Users-qa-zb-shop', 'b-second', '/Users/qa.zb/shop');
    write('-Users-qa-zb-shop', 'c-third', '/Users/qa.zb/shop/sub');
    write('C--Users-Qa-Zb-api', 's1', 'C:\\Users\\Qa Zb\\api');
    write('-home-solo-x', 's2', '/home/solo/x');
    // A cwd in another home (a copied session) says nothing of this folder's; nor does a folder outside a home.
    write('-home-ann-y', 's3', '/home/bob/y');
    write('-srv-app', 's4', '/srv/app');
    const layout = await discoverSources(root);
    const homes = new Map(layout.sessions.map((s) => [s.sessionId, s.homeName]));
    expect(Object.fromEntries(homes)).toEqual({ 'a-first': 'qa.zb', 'b-second': 'qa.zb', 'c-third': 'qa.zb', s1: 'Qa Zb', s2: 'solo', s3: undefined, s4: undefined });
    // A caller that only counts sessions reads no file for them.
    expect((await discoverSources(root, { homeNames: false })).sessions.every((s) => s.homeName === undefined)).toBe(true);
  });
});
