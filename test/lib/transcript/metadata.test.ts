import { describe, expect, it } from 'vitest';
import { readMetadata } from '../../../src/lib/transcript/metadata.js';
import type { Entry } from '../../../src/lib/transcript/types.js';

/** `worktree-state` lines as Claude Code writes them (shapes from the corpus `-fixtures-agent-sessions`). */
function states(...sessions: unknown[]): Entry[] {
  return sessions.map((worktreeSession, i) => ({
    line: i + 1,
    index: i,
    type: 'worktree-state',
    rawType: 'worktree-state',
    isSidechain: false,
    isMeta: false,
    raw: { type: 'worktree-state', worktreeSession, sessionId: 's' },
  }));
}

describe('readMetadata: worktree-state', () => {
  const made = { originalCwd: '~/api/web', preEnterOriginalCwd: '~/api', worktreePath: '~/api/.claude/worktrees/x', worktreeName: 'x', worktreeBranch: 'worktree-x', originalBranch: 'main', sessionId: 's' };

  it('reads the path, branch and name, and the folder the session entered from (the pre-enter one first)', () => {
    expect(readMetadata(states(made), {}).worktree).toEqual({ path: '~/api/.claude/worktrees/x', branch: 'worktree-x', name: 'x', enteredFrom: '~/api' });
    const { preEnterOriginalCwd: _, ...older } = made;
    expect(readMetadata(states(older), {}).worktree?.enteredFrom).toBe('~/api/web');
  });

  it('keeps the worktree the session was in when a later line says it left (null)', () => {
    expect(readMetadata(states(made, null), {}).worktree?.name).toBe('x');
    expect(readMetadata(states(null), {}).worktree).toBeUndefined();
  });

  it('reads a hook-made worktree without a branch', () => {
    expect(readMetadata(states({ originalCwd: '~/api', worktreePath: '/tmp/wt/x', worktreeName: 'x', hookBased: true }), {}).worktree).toEqual({ path: '/tmp/wt/x', name: 'x', enteredFrom: '~/api' });
  });
});
