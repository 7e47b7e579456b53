/**
 * A second thread for a session processed alone: while the session's thread
 * renders a page, the helper tokenises a share of the code the page shows (in
 * one thread, shiki's tokeniser took 1.9 s of the 3.1 s a generated 40 MB
 * session spent rendering, of 6.1 s in all). It runs the same bundle as the
 * session's thread, started with `HIGHLIGHT_HELPER_ROLE`
 * (src/lib/build/session-worker.ts), and answers with the tokens encoded
 * (src/lib/render/token-classes.ts), so only numbers come back; the text stays
 * where it is. Who gets one: `wantsHighlightHelper` (worker-pool.ts).
 */
import type { MessagePort } from 'node:worker_threads';
import { Worker } from 'node:worker_threads';
import { tokenizeEncoded, type TokenizeNeed, type Tokenizer, type TokenizerAnswer } from '../render/highlight.js';
import { createThreadPool, type ThreadAnswer } from './worker-pool.js';
import { warmHighlighter } from './worker-warm-up.js';

/** The `workerData.role` of a helper thread. */
export const HIGHLIGHT_HELPER_ROLE = 'sessionpress-highlight-helper';

interface HelperJob {
  needs: TokenizeNeed[];
  langs: string[];
}

/** A helper thread: its tokenizer for `withDeferredHighlightingAsync`, and `close` to stop it. */
export interface HighlightHelper {
  tokenizer: Tokenizer;
  close(): Promise<void>;
}

/**
 * Starts a helper thread from `bundle` (the session worker's own file), or
 * none when no thread can start. It warms its highlighter at once, while the
 * session is still being read. If it dies, the pages it was asking about are
 * tokenised by the session's thread.
 */
export function startHighlightHelper(bundle: URL): HighlightHelper | undefined {
  try {
    const pool = createThreadPool<HelperJob, TokenizerAnswer>(() => new Worker(bundle, { workerData: { role: HIGHLIGHT_HELPER_ROLE } }), 1);
    return { tokenizer: (needs, langs) => pool.run({ needs, langs }), close: () => pool.close() };
  } catch {
    // A helper only saves time: without one, the session's thread tokenises everything, as it always did.
    return undefined;
  }
}

/** The helper thread's side: answers each job with its blocks' tokens. */
export function serveHighlightHelper(port: MessagePort): void {
  const warm = warmHighlighter();
  port.on('message', async (job: HelperJob) => {
    await warm;
    let answer: ThreadAnswer<TokenizerAnswer>;
    try {
      answer = { result: await tokenizeEncoded(job.needs, job.langs) };
    } catch (err) {
      const e = err instanceof Error ? err : new Error(String(err));
      answer = { error: { name: e.name, message: e.message } };
    }
    port.postMessage(answer, 'result' in answer ? answer.result.lines.map((e) => e.data.buffer as ArrayBuffer) : []);
  });
}
