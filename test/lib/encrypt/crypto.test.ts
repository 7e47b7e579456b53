import { describe, expect, it } from 'vitest';
import {
  createSlots,
  ENVELOPE_BYTES,
  fileKeys,
  fileName,
  fromBase64Url,
  linkKeyOf,
  openFile,
  paddedSize,
  SealError,
  sealFile,
  sha256,
  siteSalt,
  toBase64Url,
  unlockWithLink,
  unlockWithMaster,
  type Argon2id,
} from '../../../src/lib/encrypt/crypto.js';
import { argon2idNode } from '../../../src/lib/encrypt/site.js';
import { fileOfRequest, isPassThrough } from '../../../src/lib/encrypt/layout.js';

const enc = new TextEncoder();
/** Small Argon2id parameters: the tests check the slots' logic, not the cost. */
const CHEAP = { memory: 256, iterations: 1, parallelism: 1 };

async function keysOf(seed: number) {
  const siteKey = new Uint8Array(32).fill(seed);
  return { siteKey, keys: await fileKeys(siteKey) };
}

async function seal(keys: Awaited<ReturnType<typeof fileKeys>>, path: string, text: string) {
  const bytes = enc.encode(text);
  return sealFile(keys, path, bytes, 0, await sha256(bytes));
}

describe('sealed files', () => {
  it('open to what was sealed, at a padded size, without the plaintext in the bytes', async () => {
    const { keys } = await keysOf(1);
    const text = 'a secret plan about the garden '.repeat(40);
    const sealed = await seal(keys, 'sessions/x/index.html', text);
    expect(sealed.length).toBe(paddedSize(sealed.length));
    expect(Buffer.from(sealed).includes('garden')).toBe(false);
    const { payload } = await openFile(keys, 'sessions/x/index.html', sealed);
    expect(new TextDecoder().decode(payload)).toBe(text);
  });

  it('are the same bytes for the same file at the same path, and differ when either changes', async () => {
    const { keys } = await keysOf(1);
    const a = await seal(keys, 'a/index.html', 'one');
    expect(Buffer.from(await seal(keys, 'a/index.html', 'one')).equals(Buffer.from(a))).toBe(true);
    expect(Buffer.from(await seal(keys, 'a/index.html', 'two')).subarray(4, 16).equals(Buffer.from(a).subarray(4, 16))).toBe(false);
    expect(Buffer.from(await seal(keys, 'b/index.html', 'one')).subarray(4, 16).equals(Buffer.from(a).subarray(4, 16))).toBe(false);
  });

  it('fail to open with a clear error when any byte changes', async () => {
    const { keys } = await keysOf(1);
    const sealed = await seal(keys, 'a/index.html', 'hello world');
    for (const i of [0, 5, 20, sealed.length - 1, Math.floor(sealed.length / 2)]) {
      const bad = sealed.slice();
      bad[i] ^= 0x01;
      await expect(openFile(keys, 'a/index.html', bad)).rejects.toBeInstanceOf(SealError);
    }
    await expect(openFile(keys, 'a/index.html', sealed.subarray(0, sealed.length - 1))).rejects.toBeInstanceOf(SealError);
  });

  it('cannot be moved to another path (the path is bound in) or opened with another key', async () => {
    const { keys } = await keysOf(1);
    const { keys: other } = await keysOf(2);
    const sealed = await seal(keys, 'a/index.html', 'hello world');
    await expect(openFile(keys, 'b/index.html', sealed)).rejects.toThrow(/changed or damaged, or belongs to another page/);
    await expect(openFile(other, 'a/index.html', sealed)).rejects.toBeInstanceOf(SealError);
  });

  it('are named by a keyed hash of the path: nothing of the path, another name under another key', async () => {
    const { keys } = await keysOf(1);
    const { keys: other } = await keysOf(2);
    const name = await fileName(keys, 'sessions/79864dd7-fae1/index.html');
    expect(name).toMatch(/^[0-9a-f]{32}$/);
    expect(await fileName(keys, 'sessions/79864dd7-fae1/index.html')).toBe(name);
    expect(await fileName(other, 'sessions/79864dd7-fae1/index.html')).not.toBe(name);
    expect(await fileName(keys, 'sessions/79864dd7-fae2/index.html')).not.toBe(name);
  });

  it('sizes fall into few buckets: powers of two up to 64 KiB, eighths of an octave above, never less than the content', () => {
    expect(paddedSize(1)).toBe(1024);
    expect(paddedSize(1025)).toBe(2048);
    expect(paddedSize(40_000)).toBe(65536);
    for (const n of [70_000, 100_000, 1_234_567, 50_000_000]) {
      const p = paddedSize(n);
      expect(p).toBeGreaterThanOrEqual(n);
      expect(p / n).toBeLessThanOrEqual(1.125);
      expect(paddedSize(p)).toBe(p);
    }
    // Every file between 128 KiB and 256 KiB lands in one of eight sizes.
    const sizes = new Set(Array.from({ length: 1000 }, (_, i) => paddedSize(131_073 + i * 131)));
    expect(sizes.size).toBeLessThanOrEqual(8);
    expect(ENVELOPE_BYTES).toBe(32);
  });
});

describe('key slots', () => {
  it('give the site key back for the right password and the link key, nothing for a wrong one', async () => {
    const salt = await siteSalt('https://example.org', '/repo/');
    const { siteKey, slots } = await createSlots('correct horse', salt, argon2idNode, CHEAP);
    expect(JSON.stringify(slots)).not.toContain(toBase64Url(siteKey));
    const right = await unlockWithMaster(slots, await argon2idNode('correct horse', salt, CHEAP));
    expect(right && toBase64Url(right)).toBe(toBase64Url(siteKey));
    expect(await unlockWithMaster(slots, await argon2idNode('correct hors', salt, CHEAP))).toBeUndefined();
    const viaLink = await unlockWithLink(slots, await linkKeyOf(siteKey));
    expect(viaLink && toBase64Url(viaLink)).toBe(toBase64Url(siteKey));
    expect(await unlockWithLink(slots, new Uint8Array(32))).toBeUndefined();
    expect(await unlockWithLink(slots, new Uint8Array(5))).toBeUndefined();
  });

  it('are the same for the same password on the same site, and differ with the password or the site', async () => {
    const argon: Argon2id = argon2idNode;
    const a = await createSlots('pw-one', await siteSalt('https://example.org', '/'), argon, CHEAP);
    const b = await createSlots('pw-one', await siteSalt('https://example.org', '/'), argon, CHEAP);
    const c = await createSlots('pw-two', await siteSalt('https://example.org', '/'), argon, CHEAP);
    const d = await createSlots('pw-one', await siteSalt('https://example.org', '/other/'), argon, CHEAP);
    expect(JSON.stringify(b.slots)).toBe(JSON.stringify(a.slots));
    expect(toBase64Url(c.siteKey)).not.toBe(toBase64Url(a.siteKey));
    expect(toBase64Url(d.siteKey)).not.toBe(toBase64Url(a.siteKey));
  });

  it('store the Argon2id parameters and the salt in the password slot', async () => {
    const salt = await siteSalt(undefined, '/');
    const { slots } = await createSlots('pw', salt, argon2idNode, CHEAP);
    const slot = slots.slots.find((s) => s.type === 'password');
    expect(slot).toMatchObject({ kdf: 'argon2id', memory: CHEAP.memory, iterations: CHEAP.iterations, parallelism: CHEAP.parallelism });
    expect(toBase64Url(fromBase64Url((slot as { salt: string }).salt))).toBe(toBase64Url(salt));
  });
});

describe('request paths', () => {
  it('map to the files a static host would serve, below the base only', () => {
    expect(fileOfRequest('/repo/', '/repo/')).toBe('index.html');
    expect(fileOfRequest('/repo/sessions/a%20b/', '/repo/')).toBe('sessions/a b/index.html');
    expect(fileOfRequest('/repo/_astro/x.js', '/repo/')).toBe('_astro/x.js');
    expect(fileOfRequest('/other/', '/repo/')).toBeUndefined();
    expect(fileOfRequest('/repo/a/%2e%2e/b', '/repo/')).toBeUndefined();
    expect(fileOfRequest('/repo/%E0%A4%A', '/repo/')).toBeUndefined();
  });

  it('pass the unlock files and the sealed files through, nothing else', () => {
    for (const p of ['sw.js', 'unlock/unlock.js', 'unlock/keys.json', 'x/0123']) expect(isPassThrough(p)).toBe(true);
    for (const p of ['index.html', '404.html', 'sessions/unlock/index.html', '_astro/a.js']) expect(isPassThrough(p)).toBe(false);
  });
});
