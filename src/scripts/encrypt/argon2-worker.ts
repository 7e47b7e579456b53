/**
 * Argon2id off the page's thread (a second or so on a phone: the page stays
 * responsive and can say what it is doing). Takes the password, the slot's
 * salt and parameters; answers with the 32-byte output. hash-wasm is the same
 * implementation the build derives the key with (src/lib/encrypt/site.ts).
 * Bundled by src/integrations/encrypt.ts into `<base>unlock/argon2.js`.
 */
import { argon2id } from 'hash-wasm';
import type { Argon2Params } from '../../lib/encrypt/crypto';

self.onmessage = async (event: MessageEvent<{ password: string; salt: Uint8Array; params: Argon2Params }>) => {
  const { password, salt, params } = event.data;
  try {
    const master = await argon2id({ password, salt, parallelism: params.parallelism, iterations: params.iterations, memorySize: params.memory, hashLength: 32, outputType: 'binary' });
    self.postMessage({ ok: true, master });
  } catch (err) {
    self.postMessage({ ok: false, error: String(err) });
  }
};
