import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { discoverSources, type SessionSource } from '../../../src/lib/discover.js';
import { assignSiblingAgents } from '../../../src/lib/build/sibling-agents.js';
import { processSession, type SessionJob } from '../../../src/lib/build/process-session.js';
import { createSessionPool, createThreadPool, HELPER_MIN_BYTES, prestartSessionPool, releasePrestarted, wantsHelperThread, type SessionPool } from '../../../src/lib/build/worker-pool.js';
import type { SessionProgress } from '../../../src/lib/build/progress.js';
import { loadConfig } from '../../../src/schemas/config.js';
import { corpusRoot, repoRoot } from '../../helpers/shared.js';
import { makeLargeSession } from '../../../scripts/lib/bench/large-session.js';

const work = mkdtempSync(join(tmpdir(), 'sp-worker-pool-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The threads started early, as the pool keeps them (on globalThis: the integration and the loader are different module instances). */
const startedEarly = () => (globalThis as unknown as Record<symbol, Map<string, unknown> | undefined>)[Symbol.for('sessionpress.prestarted-workers')] ?? new Map();

const config = loadConfig(repoRoot, { SESSIONPRESS_SOURCE: corpusRoot });
const layout = await discoverSources(corpusRoot);
const owners = await assignSiblingAgents(layout);
// A session with code in it, so that highlighting (which the warm-up touches) is part of what is compared.
const source: SessionSource = layout.sessions.filter((s) => s.size > 50_000).sort((a, b) => a.size - b.size)[0];
const job = (cacheDir: string): SessionJob => ({
  source,
  projectRoot: repoRoot,
  cacheDir,
  root: corpusRoot,
  siblingAgents: owners.get(source.sessionId) ?? [],
  cacheKey: 'k',
  redaction: config.redaction,
  render: { pageSize: config.pageSize, assetBase: '/a/', indexToolOutput: config.search.indexToolOutput, indexThinking: config.search.indexThinking },
  renderSalt: 'salt',
});
/** Every file the render cache holds for a session, by name. */
const rendered = (cacheDir: string) => {
  const dir = join(cacheDir, 'sessionpress');
  return Object.fromEntries(readdirSync(dir).filter((f) => f.startsWith('k.')).sort().map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
};

/** Runs `threaded` on the pool (then closes it) and `plain` in this thread: the same data and the same render cache files. */
async function expectSameRender(pool: SessionPool, threaded: SessionJob, plain: SessionJob): Promise<void> {
  try {
    const a = await pool.run(threaded);
    const b = await processSession(plain);
    expect(a.ok && b.ok).toBe(true);
    expect(JSON.stringify(a.ok && a.data)).toBe(JSON.stringify(b.ok && b.data));
    expect(rendered(threaded.cacheDir)).toEqual(rendered(plain.cacheDir));
  } finally {
    await pool.close();
  }
}

describe('worker threads started early', () => {
  it('are taken by the loader\'s pool (its cache folder named with or without a trailing slash) and render exactly what a session rendered without a warm-up gives', async () => {
    const early = join(work, 'early');
    prestartSessionPool(early);
    expect(startedEarly().size).toBe(1);
    const pool = (await createSessionPool(`${early}/`, 1))!;
    expect(startedEarly().size).toBe(0);
    // In this thread, with no warm-up: what warming up did must change nothing a render gives.
    await expectSameRender(pool, job(early), job(join(work, 'plain')));
  }, 120_000);

  it('report each step of a session as they go: the file read to its end, then every page rendered', async () => {
    const dir = join(work, 'progress');
    const pool = (await createSessionPool(dir, 1))!;
    try {
      const seen: SessionProgress[] = [];
      const result = await pool.run(job(dir), (p) => seen.push(p));
      if (!result.ok) throw new Error(`not processed: ${result.reason}`);
      expect(seen.map((p) => p.stage).filter((s, i, all) => s !== all[i - 1])).toEqual(['read', 'detect', 'redact', 'model', 'render']);
      const reads = seen.filter((p) => p.stage === 'read');
      expect(reads.at(-1)).toEqual({ stage: 'read', bytes: source.size, total: source.size });
      const looked = seen.filter((p) => p.stage === 'detect');
      expect(looked[0]).toMatchObject({ done: 0 });
      expect(looked.at(-1)!.done).toBe(looked.at(-1)!.total);
      expect(looked.at(-1)!.total).toBeGreaterThan(0);
      const pages = seen.filter((p) => p.stage === 'render');
      expect(pages.at(-1)).toEqual({ stage: 'render', pages: result.data.pageCount, total: result.data.pageCount });
      expect(pages.map((p) => p.pages)).toEqual([...pages.map((p) => p.pages)].sort((a, b) => a - b));
    } finally {
      await pool.close();
    }
  }, 120_000);

  it('are stopped when there is nothing to process, and a second start for the same folder starts nothing more', async () => {
    const dir = join(work, 'idle');
    prestartSessionPool(dir);
    prestartSessionPool(dir);
    expect(startedEarly().size).toBe(1);
    await releasePrestarted(dir);
    expect(startedEarly().size).toBe(0);
    // Nothing left to release, nothing to take: the pool starts its own thread.
    await releasePrestarted(dir);
    const pool = (await createSessionPool(dir, 1))!;
    try {
      expect((await pool.run(job(dir))).ok).toBe(true);
    } finally {
      await pool.close();
    }
  }, 120_000);

  it('never keep the process alive: a build that fails before its loader runs still exits', async () => {
    // A file, not --eval: the thread inherits Node's flags, and --input-type would stop it at once.
    const script = join(work, 'prestart-then-exit.mts');
    writeFileSync(
      script,
      `import { prestartSessionPool } from ${JSON.stringify(join(repoRoot, 'src/lib/build/worker-pool.ts'))};
prestartSessionPool(${JSON.stringify(join(work, 'exit'))});
const early = globalThis[Symbol.for('sessionpress.prestarted-workers')];
// Only once the thread is running does the script end: then only the thread could keep the process alive.
// (A timer holds the process until then: an unreferenced thread alone would not, even while starting.)
const hold = setInterval(() => {}, 1000);
const started = await [...early.values()][0];
await new Promise((resolve) => started.worker.once('online', resolve));
clearInterval(hold);
console.log('started');
`,
    );
    // A process the thread keeps alive is killed (and the test fails) rather than left behind.
    const child = spawn(process.execPath, ['--import', pathToFileURL(join(repoRoot, 'bin/register-typescript.mjs')).href, script], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], timeout: 45_000 });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code, out).toBe(0);
    expect(out).toContain('started');
  }, 60_000);
});

describe('the thread pool', () => {
  /** A thread that doubles numbers, throws for `throw`, and dies of an exception nothing catches for `die`. */
  const thread = () =>
    new Worker(
      `const { parentPort } = require('node:worker_threads');
parentPort.on('message', (job) => {
  if (job === 'die') setTimeout(() => { throw new TypeError('uncaught, with a secret in it'); });
  else if (job === 'throw') parentPort.postMessage({ error: { name: 'RangeError', message: 'thrown' } });
  else if (job === 'steps') for (const m of [{ progress: 1 }, { progress: 2 }, { result: 3 }]) parentPort.postMessage(m);
  else parentPort.postMessage({ result: job * 2 });
});`,
      { eval: true },
    );

  it('fails only the job of a thread that dies, and runs the next jobs on a new thread', async () => {
    const pool = createThreadPool<number | string, number>(thread, 1);
    try {
      await expect(pool.run('die')).rejects.toThrow('uncaught, with a secret in it');
      // One thread: these run only if a new one took the dead one's place.
      expect(await Promise.all([pool.run(1), pool.run(2), pool.run(3)])).toEqual([2, 4, 6]);
      await expect(pool.run('throw')).rejects.toMatchObject({ name: 'RangeError', message: 'thrown' });
      expect(await pool.run(4)).toBe(8);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it("hands a job's progress to its caller, and its result only when it comes", async () => {
    const pool = createThreadPool<number | string, number, number>(thread, 1);
    try {
      const seen: number[] = [];
      expect(await pool.run('steps', (p) => seen.push(p))).toBe(3);
      expect(seen).toEqual([1, 2]);
      // Without a listener the reports are dropped, and the thread is free for the next job.
      expect(await pool.run('steps')).toBe(3);
      expect(await pool.run(5)).toBe(10);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('gives up on threads that cannot start, failing the jobs rather than waiting forever', async () => {
    let started = 0;
    const broken = () => {
      started++;
      return new Worker(`throw new Error('cannot start')`, { eval: true });
    };
    const pool = createThreadPool<number, number>(broken, 2);
    try {
      const jobs = Array.from({ length: 20 }, (_, n) => n).map((n) => pool.run(n).then(() => 'done', (e: Error) => e.message));
      const outcomes = await Promise.all(jobs);
      expect(outcomes.every((o) => o === 'cannot start' || o === 'every worker thread stopped'), outcomes.join('; ')).toBe(true);
      expect(outcomes).toContain('every worker thread stopped');
      // Two at first, then a bounded number of new ones: more jobs than threads, so the last find none.
      expect(started).toBe(2 + 8);
    } finally {
      await pool.close();
    }
  }, 60_000);
});

describe('a helper thread', () => {
  it('goes to a big session processed alone, with a core to spare (a grown one too: it starts on demand), and to no other', () => {
    const big = { ...job(work), source: { ...source, size: HELPER_MIN_BYTES } };
    expect(wantsHelperThread(big, 1, 1, 2)).toBe(true);
    expect(wantsHelperThread({ ...big, previousKey: 'before' }, 1, 1, 2)).toBe(true);
    // Two sessions, or every core busy, or a small one: none.
    expect(wantsHelperThread(big, 2, 1, 2)).toBe(false);
    expect(wantsHelperThread(big, 1, 2, 2)).toBe(false);
    expect(wantsHelperThread(big, 1, 1, 1)).toBe(false);
    expect(wantsHelperThread({ ...big, source: { ...source, size: HELPER_MIN_BYTES - 1 } }, 1, 1, 2)).toBe(false);
  });

  it('changes nothing a render gives: a session rendered with one is rendered byte for byte as without', async () => {
    // A corpus session of every kind of tool call, with code shown on its pages: they share their blocks with the helper.
    const tools = layout.sessions.find((s) => s.relPath.endsWith('general-tool-calls.jsonl'))!;
    const heavy = (cacheDir: string): SessionJob => ({ ...job(cacheDir), source: tools, siblingAgents: owners.get(tools.sessionId) ?? [] });
    const dir = join(work, 'helped');
    await expectSameRender((await createSessionPool(dir, 1))!, { ...heavy(dir), helper: true }, heavy(join(work, 'unhelped')));
  }, 120_000);

  it('looks for secrets in a share of a big session\'s strings, and what it finds is numbered as one thread numbers it', async () => {
    // A generated session of several secretlint chunks, a distinct token every few hundred lines: each batch, whichever thread looks at it, holds some.
    const dir = join(work, 'secrets-source');
    const made = await makeLargeSession(dir, 20e6);
    const tokens: string[] = [];
    const result = '"type":"tool_result","content":"';
    let results = 0;
    const lines = readFileSync(made.file, 'utf8').split('\n').map((line) => {
      if (!line.includes(result) || results++ % 16 !== 8) return line;
      const token = `ghp_${createHash('sha256').update(String(results)).digest('base64url').replace(/[-_]/g, 'x').slice(0, 36)}`;
      tokens.push(token);
      return line.replace(result, `${result}deploy with ${token}: `);
    });
    writeFileSync(made.file, lines.join('\n'));
    expect(tokens.length).toBeGreaterThan(40);
    const big = (await discoverSources(dir)).sessions[0];
    const bigJob = (cacheDir: string): SessionJob => ({ ...job(cacheDir), source: big, root: dir, siblingAgents: [] });
    const helped = join(work, 'secrets-helped');
    await expectSameRender((await createSessionPool(helped, 1))!, { ...bigJob(helped), helper: true }, bigJob(join(work, 'secrets-unhelped')));
    const pages = Object.values(rendered(helped)).join('');
    for (const token of tokens) expect(pages).not.toContain(token);
    expect(pages).toContain(`[REDACTED:github-token#${tokens.length}]`);
  }, 180_000);
});
