import { describe, expect, it } from 'vitest';
import { realPathOf } from '../../src/lib/discover.js';

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
