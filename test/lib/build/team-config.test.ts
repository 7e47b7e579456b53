import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readTeamConfig } from '../../../src/lib/build/team-config.js';
import type { Diagnostic } from '../../../src/lib/diagnostics.js';

/**
 * A team's config is read only from inside the source root: Claude Code keeps
 * it in ~/.claude/teams/, outside ~/.claude/projects, and a symlink (of the
 * file or of its folder) pointing out of the root is never followed.
 */
const base = mkdtempSync(join(tmpdir(), 'sp-team-'));
const root = join(base, 'projects');
const outside = join(base, 'teams-outside');
const id = 'e2600004-0000-4000-8000-000000000004';
const rel = (p: string) => p.slice(root.length + 1);
const config = JSON.stringify({ name: 'harbor-parsers', members: [{ name: 'scout' }] });

afterAll(() => rmSync(base, { recursive: true, force: true }));

function setup(layout: 'inside' | 'file-link' | 'dir-link' | 'none' | 'broken'): Diagnostic[] {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
  mkdirSync(join(outside, `session-${id.slice(0, 8)}`), { recursive: true });
  writeFileSync(join(outside, `session-${id.slice(0, 8)}`, 'config.json'), config);
  mkdirSync(join(root, 'teams'), { recursive: true });
  const dir = join(root, 'teams', `session-${id.slice(0, 8)}`);
  if (layout === 'inside' || layout === 'file-link' || layout === 'broken') mkdirSync(dir);
  if (layout === 'inside') writeFileSync(join(dir, 'config.json'), config);
  if (layout === 'broken') writeFileSync(join(dir, 'config.json'), '{"name": ');
  if (layout === 'file-link') symlinkSync(join(outside, `session-${id.slice(0, 8)}`, 'config.json'), join(dir, 'config.json'));
  if (layout === 'dir-link') symlinkSync(join(outside, `session-${id.slice(0, 8)}`), dir);
  return [];
}

describe('a team config beside the sessions', () => {
  it('is read when it lies inside the source root', async () => {
    const d = setup('inside');
    expect((await readTeamConfig(root, id, rel, d))?.value).toMatchObject({ name: 'harbor-parsers' });
    expect(d).toEqual([]);
  });

  it('is never required: none is a quiet fact', async () => {
    const d = setup('none');
    expect(await readTeamConfig(root, id, rel, d)).toBeUndefined();
    expect(d).toEqual([]);
  });

  it('is not read through a symlinked file or a symlinked folder that points out of the root', async () => {
    for (const layout of ['file-link', 'dir-link'] as const) {
      const d = setup(layout);
      expect(await readTeamConfig(root, id, rel, d), layout).toBeUndefined();
    }
  });

  it('is reported, on its file, when it is not JSON', async () => {
    const d = setup('broken');
    expect(await readTeamConfig(root, id, rel, d)).toBeUndefined();
    expect(d.map((x) => [x.file, x.code])).toEqual([[`teams/session-${id.slice(0, 8)}/config.json`, 'not-json']]);
  });
});
