/**
 * Worker-thread entry: runs `processSession` for jobs posted by the loader, so
 * a cold build uses every core. Bundled on the fly by `worker-pool.ts`.
 */
import { parentPort } from 'node:worker_threads';
import { processSession, type SessionJob, type SessionJobResult } from './process-session.js';
import type { ThreadAnswer } from './worker-pool.js';
import { warmUp } from './worker-warm-up.js';

// Started at once: a thread started early (prestartSessionPool) is warm when its first session comes.
const warm = warmUp();

parentPort?.on('message', async (job: SessionJob) => {
  await warm;
  let answer: ThreadAnswer<SessionJobResult>;
  try {
    answer = { result: await processSession(job) };
  } catch (err) {
    const e = err instanceof Error ? err : new Error(String(err));
    answer = { error: { name: e.name, message: e.message, ...(e.stack ? { stack: e.stack } : {}) } };
  }
  parentPort!.postMessage(answer);
});
