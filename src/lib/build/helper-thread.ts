/**
 * A second thread for a session processed alone, so that the machine's other
 * core works on it too:
 * - while the session's thread looks for secrets in a batch of its strings,
 *   the helper looks at another batch (detect-batch.ts): on a generated 630 MB
 *   session, looking for secrets took 30 s of the 100 s its thread spent on it;
 * - while the session's thread renders a page, the helper tokenises a share of
 *   the code the page shows (in one thread, shiki's tokeniser took 1.9 s of the
 *   3.1 s a generated 40 MB session spent rendering, of 6.1 s in all).
 * It runs the same bundle as the session's thread, started with
 * `HELPER_THREAD_ROLE` (src/lib/build/session-worker.ts). Only findings and
 * encoded tokens (src/lib/render/token-classes.ts) come back; what it is sent
 * is a copy, and what the session's thread keeps is its own. Who gets one:
 * `wantsHelperThread` (worker-pool.ts).
 */
import type { MessagePort } from 'node:worker_threads';
import { Worker } from 'node:worker_threads';
import { detectBatch, type BatchDetector, type BatchFindings } from '../redact/detect-batch.js';
import { compilePatterns } from '../redact/rules.js';
import type { ExtraPattern } from '../redact/types.js';
import { tokenizeEncoded, type TokenizeNeed, type Tokenizer, type TokenizerAnswer } from '../render/highlight.js';
import { createThreadPool, type ThreadAnswer, type ThreadPool } from './worker-pool.js';
import { warmHighlighter } from './worker-warm-up.js';

/** The `workerData.role` of a helper thread. */
export const HELPER_THREAD_ROLE = 'sessionpress-helper-thread';

type HelperJob = { tokenize: { needs: TokenizeNeed[]; langs: string[] } } | { detect: { strings: string[]; extraPatterns: readonly ExtraPattern[] } };
type HelperAnswer = TokenizerAnswer | BatchFindings;

/**
 * A helper thread: what it does for the session's thread, and `close` to stop
 * it. `tokenizer` is undefined while a thread started `on-demand` has not
 * started (the session's thread then tokenises everything itself).
 */
export interface HelperThread {
  readonly tokenizer: Tokenizer | undefined;
  detector: BatchDetector;
  close(): Promise<void>;
}

/**
 * Starts a helper thread from `bundle` (the session worker's own file), or
 * none when no thread can start. `now`: at once, so that it warms its
 * highlighter while the session is still being read (a session processed from
 * scratch uses it for both). `on-demand`: when first asked to look for
 * secrets, which a grown session does only when much of it is new to its
 * clean strings (its first prompt edited); a page render never starts it, as
 * a thread still warming would only make the pages wait. If it dies, what it
 * was asked is done by the session's thread.
 */
export function startHelperThread(bundle: URL, when: 'now' | 'on-demand' = 'now'): HelperThread | undefined {
  let pool: ThreadPool<HelperJob, HelperAnswer> | undefined;
  const start = () => (pool ??= createThreadPool<HelperJob, HelperAnswer>(() => new Worker(bundle, { workerData: { role: HELPER_THREAD_ROLE } }), 1));
  try {
    if (when === 'now') start();
  } catch {
    // A helper only saves time: without one, the session's thread does everything, as it always did.
    return undefined;
  }
  const tokenizer: Tokenizer = (needs, langs) => start().run({ tokenize: { needs, langs } }) as Promise<TokenizerAnswer>;
  return {
    get tokenizer() {
      return pool ? tokenizer : undefined;
    },
    // A thread that cannot start throws here, and the session's thread looks at the batch itself (redactor.ts).
    detector: async (strings, extraPatterns) => start().run({ detect: { strings, extraPatterns } }) as Promise<BatchFindings>,
    close: async () => pool?.close(),
  };
}

/** The helper thread's side: answers each job with its blocks' tokens, or with what a batch of strings holds. */
export function serveHelperThread(port: MessagePort): void {
  const warm = warmHighlighter();
  port.on('message', async (job: HelperJob) => {
    let answer: ThreadAnswer<HelperAnswer>;
    let transfer: ArrayBuffer[] = [];
    try {
      if ('detect' in job) {
        answer = { result: await detectBatch(job.detect.strings, compilePatterns(job.detect.extraPatterns)) };
      } else {
        await warm;
        const result = await tokenizeEncoded(job.tokenize.needs, job.tokenize.langs);
        answer = { result };
        transfer = result.lines.map((e) => e.data.buffer as ArrayBuffer);
      }
    } catch (err) {
      const e = err instanceof Error ? err : new Error(String(err));
      answer = { error: { name: e.name, message: e.message } };
    }
    port.postMessage(answer, transfer);
  });
}
