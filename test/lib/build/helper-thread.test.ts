import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { startHelperThread } from '../../../src/lib/build/helper-thread.js';
import { createSessionPool } from '../../../src/lib/build/worker-pool.js';
import { detectBatch } from '../../../src/lib/redact/detect-batch.js';
import { compilePatterns } from '../../../src/lib/redact/rules.js';

const work = mkdtempSync(join(tmpdir(), 'sp-helper-thread-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const GHP = 'ghp_' + 'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z05';
const PATTERNS = [{ name: 'deploy code', pattern: 'ZX-[0-9]{5}-SECRET' }];

/** The session worker's bundle, as a session pool writes it into the cache folder. */
async function workerBundle(): Promise<URL> {
  const pool = (await createSessionPool(work, 1))!;
  await pool.close();
  const dir = join(work, 'sessionpress-worker');
  return pathToFileURL(join(dir, readdirSync(dir).find((f) => f.endsWith('.mjs'))!));
}

describe('a helper thread started on demand', () => {
  it('starts when first asked to look for secrets, finds there what this thread finds, and tokenises nothing before', async () => {
    const helper = startHelperThread(await workerBundle(), 'on-demand')!;
    try {
      // Not started: a page render tokenises everything in the session's thread.
      expect(helper.tokenizer).toBeUndefined();
      const strings = ['nothing to see here', `deploy with ${GHP} now`, 'cd /home/adalove/app', 'the code ZX-12345-SECRET, given by hand'];
      const found = await helper.detector(strings, PATTERNS);
      expect(found).toEqual(await detectBatch(strings, compilePatterns(PATTERNS)));
      // Each rule set, and the patterns it was given (compiled on that thread).
      expect(found.secretlint.map((h) => h.source)).toContain(1);
      expect(found.ours).toContainEqual({ rule: 'deploy-code', value: 'ZX-12345-SECRET' });
      expect(found.ours).toContainEqual({ person: 'username', value: 'adalove' });
      expect(found.oursIn).toEqual(expect.arrayContaining([2, 3]));
      expect(helper.tokenizer).toBeTypeOf('function');
    } finally {
      await helper.close();
    }
  }, 60_000);
});
