import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeLargeSession } from '../../../../scripts/lib/bench/large-session.js';
import { fixtureSession } from '../../../helpers/sessions.js';

describe('the bench large session', () => {
  const dirs: string[] = [];
  afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));
  const make = async (bytes: number) => {
    const dir = await mkdtemp(join(tmpdir(), 'sp-large-'));
    dirs.push(dir);
    return { dir, ...(await makeLargeSession(dir, bytes)) };
  };

  it('reaches the size asked for, and the same size gives the same bytes', async () => {
    const a = await make(2e6);
    const b = await make(2e6);
    expect(a.bytes).toBeGreaterThanOrEqual(2e6);
    expect(a.bytes).toBeLessThan(2.2e6);
    expect(await readFile(a.file, 'utf8')).toBe(await readFile(b.file, 'utf8'));
    expect((await readFile(a.file, 'utf8')).split('\n').filter(Boolean)).toHaveLength(a.lines);
  });

  it('is one ordinary conversation: every line on the active branch, every tool call answered', async () => {
    const made = await make(1e6);
    const id = made.file.split('/').pop()!.replace('.jsonl', '');
    const session = await fixtureSession(made.dir, id, false);
    const calls = session.messages.flatMap((m) => (m.kind === 'assistant' ? m.toolCalls : []));
    expect(calls.length).toBeGreaterThan(20);
    expect(calls.every((c) => c.result !== undefined)).toBe(true);
    expect(session.abandoned).toHaveLength(0);
    expect(session.diagnostics).toHaveLength(0);
    expect(session.facts.promptCount).toBe(session.turns.length);
  });
});
