/**
 * Sessions of people whose login name the project folder's encoding cuts in
 * two (`/Users/first.last` → `-Users-first-last-proj`) or who have a Windows
 * folder named for them (`C:\Users\First Last`): no part of the name reaches
 * a URL, a page, the search index, the content store or a cache, and `link`
 * prints the URL the build made.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main as link } from '../../scripts/link.js';
import { buildSite, listFiles, readAllText, type BuildRun } from '../helpers/build.js';
import { rand } from '../helpers/credentials.js';

const LOWER = 'bcdfghjklmnpqrstvwxz';
/** Invented names, fresh on every run: nothing else in a site can hold them. */
const first = `q${rand(LOWER, 6)}`;
const last = `z${rand(LOWER, 7)}`;
const cap = (s: string) => s[0].toUpperCase() + s.slice(1);
const tmp = mkdtempSync(join(tmpdir(), 'sp-home-names-'));
const root = join(tmp, 'projects');
const out = join(tmp, 'dist');
const ids: Record<"dotted" | "noCwdHead" | "windows", string> = { dotted: randomUUID(), noCwdHead: randomUUID(), windows: randomUUID() };
let run: BuildRun;

function session(folder: string, id: string, cwd: string | undefined, prompt: string): void {
  const base = { sessionId: id, version: '2.1.100', gitBranch: 'main', userType: 'external', isSidechain: false, ...(cwd ? { cwd } : {}) };
  const lines = [
    { type: 'user', uuid: `${id}-u`, parentUuid: null, timestamp: '2026-11-01T10:00:00Z', message: { role: 'user', content: prompt }, ...base },
    { type: 'assistant', uuid: `${id}-a`, parentUuid: `${id}-u`, timestamp: '2026-11-01T10:00:05Z', message: { id: `msg_${id.slice(0, 8)}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'Done.' }], stop_reason: 'end_turn', usage: { input_tokens: 1, output_tokens: 1 } }, ...base },
  ];
  mkdirSync(join(root, folder), { recursive: true });
  writeFileSync(join(root, folder, `${id}.jsonl`), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
}

beforeAll(async () => {
  const dotted = `-Users-${first}-${last}-shop`;
  session(dotted, ids.dotted, `/Users/${first}.${last}/shop`, 'Fix the cart');
  // Sorted first in its folder and without a cwd: the folder's home comes from the next session.
  const noCwd = `00000000-${ids.noCwdHead.slice(9)}`;
  ids.noCwdHead = noCwd;
  session(dotted, noCwd, undefined, 'A session that never recorded its cwd');
  session(`C--Users-${cap(first)}-${cap(last)}-api`, ids.windows, `C:\\Users\\${cap(first)} ${cap(last)}\\api`, `Build it in C:\\Users\\${cap(first)} ${cap(last)}\\api, ${cap(last)} here`);
  run = await buildSite(out, { SESSIONPRESS_SOURCE: root });
  if (run.code !== 0) throw new Error(`build failed:\n${run.log.slice(-3000)}`);
}, 600_000);

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('a person whose name the folder encoding cuts in two', () => {
  it('gets URLs without any part of the name, every session of a folder under one project', () => {
    expect(existsSync(join(out, 'sessions', 'shop', ids.dotted, 'index.html'))).toBe(true);
    expect(existsSync(join(out, 'sessions', 'shop', ids.noCwdHead, 'index.html'))).toBe(true);
    expect(existsSync(join(out, 'sessions', 'api', ids.windows, 'index.html'))).toBe(true);
    for (const file of listFiles(out)) expect(file.toLowerCase(), file).not.toMatch(new RegExp(`${first}|${last}`));
  });

  it('leaves no part of the name in the site, its search index, the content store or the caches', () => {
    for (const dir of [out, `${out}-cache`]) {
      for (const { file, text } of readAllText(dir)) {
        expect(text.toLowerCase().includes(first), file).toBe(false);
        expect(text.toLowerCase().includes(last), file).toBe(false);
      }
    }
  });

  it('is linked by `link` at the URL the build made', async () => {
    const saved = { ...process.env };
    try {
      process.env.SESSIONPRESS_SOURCE = root;
      process.env.SESSIONPRESS_SITE = 'https://me.github.io';
      for (const [id, slug] of [[ids.dotted, 'shop'], [ids.windows, 'api']]) {
        const lines: string[] = [];
        expect(await link([id.slice(0, 8)], (l) => lines.push(l))).toBe(0);
        expect(lines[0]).toBe(`https://me.github.io/sessions/${slug}/${id}/`);
      }
    } finally {
      process.env = saved;
    }
  });
});
