import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { failedResult } from '../../../src/lib/build/failed-result.js';
import { createThreadPool } from '../../../src/lib/build/worker-pool.js';
import type { SessionJob } from '../../../src/lib/build/process-session.js';
import type { SessionSource } from '../../../src/lib/discover.js';

const GHP = 'ghp_' + 'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z05';
const source = { relPath: '-home-zorbwick-proj/s1.jsonl', projectFolder: '-home-zorbwick-proj', size: 1234, sessionId: 's1' } as SessionSource;
const job = { source, redaction: {} } as SessionJob;

/** An error thrown where the session's text is in reach: its message quotes it. */
function thrown(): Error {
  function parseLine(): never {
    throw new SyntaxError(`Unexpected token in "token=${GHP} for zorbwick"`);
  }
  try {
    parseLine();
  } catch (e) {
    return e as Error;
  }
}

describe('a session whose processing threw', () => {
  it('gets no page and one problem naming the error and where it came from, never its message, the file redacted', async () => {
    const result = await failedResult(job, thrown());
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason).toBe('failed');
    expect(result.bytes).toBe(1234);
    expect(result.diagnostics).toHaveLength(1);
    const [d] = result.diagnostics;
    expect(d.code).toBe('process-error');
    expect(d.file).toBe(result.sourceFile);
    expect(d.reason).toMatch(/^could not be processed \(SyntaxError in parseLine\); no page is made/);
    const all = JSON.stringify(result);
    expect(all).not.toContain(GHP);
    expect(all).not.toContain('zorbwick');
    expect(all).not.toContain('Unexpected token');
  });

  it('says what was thrown when it is not an Error', async () => {
    const result = await failedResult(job, 'a string');
    expect(!result.ok && result.diagnostics[0].reason).toMatch(/^could not be processed \(string\)/);
  });

  it('says a thread that ran out of memory met a limit the user can raise, not a bug', async () => {
    // A real thread with a small heap, filled: the error is the one the pool really hands on.
    const pool = createThreadPool<string, never>(
      () => new Worker(`require('node:worker_threads').parentPort.on('message', () => { const a = []; for (;;) a.push(new Array(1e5).fill(1)); });`, { eval: true, resourceLimits: { maxOldGenerationSizeMb: 16 } }),
      1,
    );
    let error: unknown;
    try {
      await pool.run('fill');
    } catch (e) {
      error = e;
    } finally {
      await pool.close();
    }
    const result = await failedResult(job, error);
    const reason = !result.ok ? result.diagnostics[0].reason : '';
    expect(reason).toMatch(/ran out of memory/);
    expect(reason).toMatch(/--max-old-space-size/);
    expect(reason).not.toMatch(/bug/);
  }, 60_000);

  it('says a string past V8\'s length limit is a size, not a bug', async () => {
    let error: unknown;
    try {
      'x'.repeat(2 ** 30);
    } catch (e) {
      error = e;
    }
    const result = await failedResult(job, error);
    expect(!result.ok && result.diagnostics[0].reason).toMatch(/larger than a JavaScript string/);
  });
});
