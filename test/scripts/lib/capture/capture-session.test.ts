import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withSessionLock } from '../../../../scripts/lib/capture/capture-session.js';

describe('withSessionLock: two captures of one session take turns', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sessionpress-lock-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('runs the second only after the first has finished, and removes the lock', async () => {
    const events: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const first = withSessionLock(dir, 's1', async () => {
      events.push('first in');
      await held;
      events.push('first out');
    });
    // Let the first take the lock before the second asks for it.
    while (!events.length) await new Promise((r) => setImmediate(r));
    const second = withSessionLock(dir, 's1', async () => {
      events.push('second in');
    });
    // The second polls while the first holds the lock; it must not get in.
    await new Promise((r) => setTimeout(r, 250));
    expect(events).toEqual(['first in']);
    release();
    await Promise.all([first, second]);
    expect(events).toEqual(['first in', 'first out', 'second in']);
    expect(existsSync(join(dir, '.capture-s1.lock'))).toBe(false);
  });

  it('does not make different sessions wait for each other', async () => {
    const order: string[] = [];
    await withSessionLock(dir, 'a', async () => {
      await withSessionLock(dir, 'b', async () => {
        order.push('b inside a');
      });
    });
    expect(order).toEqual(['b inside a']);
  });

  it('takes over a lock whose process no longer runs (a capture killed by the hook timeout)', async () => {
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    writeFileSync(join(dir, '.capture-s2.lock'), gone.stdout);
    let ran = false;
    await withSessionLock(dir, 's2', async () => {
      ran = true;
    });
    expect(ran).toBe(true);
  });

  it('releases the lock when the work throws', async () => {
    await expect(withSessionLock(dir, 's3', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(existsSync(join(dir, '.capture-s3.lock'))).toBe(false);
  });
});
