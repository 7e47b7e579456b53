/**
 * Worker-thread entry: runs `processSession` for jobs posted by the loader, so
 * a cold build uses every core. Bundled on the fly by `worker-pool.ts`. The
 * same bundle, started with `HELPER_THREAD_ROLE`, is a session's helper
 * thread (helper-thread.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { HELPER_THREAD_ROLE, serveHelperThread, startHelperThread } from './helper-thread.js';
import { processSession, type SessionJob, type SessionJobResult } from './process-session.js';
import { createProgressThinner, type SessionProgress } from './progress.js';
import type { ThreadAnswer } from './worker-pool.js';
import { warmUp } from './worker-warm-up.js';

if ((workerData as { role?: string } | undefined)?.role === HELPER_THREAD_ROLE) serveHelperThread(parentPort!);
else serveSessions();

function serveSessions(): void {
  // Started at once: a thread started early (prestartSessionPool) is warm when its first session comes.
  const warm = warmUp();
  parentPort?.on('message', async (job: SessionJob) => {
    // Started before this thread's warm-up is awaited: the helper warms while the session is read.
    // A grown session's helper starts only if the session has much to look at for secrets again (helper-thread.ts).
    const helper = job.helper ? startHelperThread(new URL(import.meta.url), job.previousKey === undefined ? 'now' : 'on-demand') : undefined;
    await warm;
    let answer: ThreadAnswer<SessionJobResult>;
    // Thinned here: a huge session's every chunk and page would be thousands of messages.
    const progress = createProgressThinner((p) => parentPort!.postMessage({ progress: p } satisfies ThreadAnswer<never, SessionProgress>));
    try {
      answer = { result: await processSession(job, helper, progress) };
    } catch (err) {
      const e = err instanceof Error ? err : new Error(String(err));
      answer = { error: { name: e.name, message: e.message, ...(e.stack ? { stack: e.stack } : {}) } };
    } finally {
      await helper?.close();
    }
    parentPort!.postMessage(answer);
  });
}
