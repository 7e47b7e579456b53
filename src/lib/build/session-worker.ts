/**
 * Worker-thread entry: runs `processSession` for jobs posted by the loader, so
 * a cold build uses every core. Bundled on the fly by `worker-pool.ts`.
 */
import { parentPort } from 'node:worker_threads';
import { processSession, type SessionJob } from './process-session.js';
import { warmUp } from './worker-warm-up.js';

// Started at once: a thread started early (prestartSessionPool) is warm when its first session comes.
const warm = warmUp();

parentPort?.on('message', async ({ id, job }: { id: number; job: SessionJob }) => {
  await warm;
  try {
    parentPort!.postMessage({ id, result: await processSession(job) });
  } catch (err) {
    parentPort!.postMessage({ id, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  }
});
