/**
 * The cryptography of an encrypted site, one module for the build (Node's
 * WebCrypto, `globalThis.crypto`) and the browser (the unlock page, the
 * service worker): the same code derives the keys, names the files and seals
 * or opens them on both sides, so they cannot disagree.
 *
 * Keys (all 256-bit; HKDF-SHA-256 unless said otherwise):
 * - master   = Argon2id(password, site salt, parameters of the password slot)
 * - site key = HKDF(master, "sessionpress site key v1")
 * - from the site key: the content key (AES-256-GCM), the name key and the
 *   nonce key (HMAC-SHA-256), the link key, and the key id.
 *
 * A file at path P (relative to the site's base, `/`-separated, e.g.
 * `sessions/<id>/index.html`) is published as `x/<name>` where name =
 * HMAC(name key, P) (128 bits, hex): the path is never published. Its bytes
 * are `MAGIC ‖ nonce ‖ AES-GCM(content key, nonce, inner, AD = "sessionpress
 * file v1\0" ‖ P)` with nonce = HMAC(nonce key, P ‖ 0 ‖ SHA-256(file))[:12]:
 * deterministic (the same file at the same path gives the same bytes, so a
 * rebuild changes only what changed), never reused for two different
 * contents, and the path bound in, so a file moved to another name fails to
 * open. `inner` is a flag byte, the payload's length and the payload (the
 * file, deflated when that helps) padded with zeros to a size bucket.
 */

/** The first bytes of every encrypted file: "SPE1". */
export const MAGIC = new Uint8Array([0x53, 0x50, 0x45, 0x31]);
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/** Magic, nonce and the GCM tag: what encryption adds before padding. */
export const ENVELOPE_BYTES = MAGIC.length + NONCE_BYTES + TAG_BYTES;
/** Flag byte and a 32-bit length before the payload. */
const INNER_HEADER_BYTES = 5;
/** Inner flag: the payload is deflate-raw compressed. */
export const FLAG_DEFLATED = 1;

/** The Argon2id parameters of a password slot (memory in KiB, as hash-wasm and RFC 9106 take it). */
export interface Argon2Params {
  memory: number;
  iterations: number;
  parallelism: number;
}

/**
 * 64 MiB, 2 passes, one lane: above OWASP's minimums for Argon2id (19 MiB and 2
 * passes, or 46 MiB and 1), a little under RFC 9106's second recommendation
 * (64 MiB, 3 passes) so that unlocking takes about a second on a phone: about
 * 0.3 s of CPU through hash-wasm on this project's build machine, about four
 * times that on a CPU slowed four times (measured: see the note of issue 29).
 */
export const DEFAULT_ARGON2: Argon2Params = { memory: 65536, iterations: 2, parallelism: 1 };

/** Argon2id as the caller has it (hash-wasm in Node and in the browser's worker): 32 bytes out. */
export type Argon2id = (password: string, salt: Uint8Array, params: Argon2Params) => Promise<Uint8Array>;

/** The keys a site's files are sealed and named with, all derived from the site key. */
export interface FileKeys {
  content: CryptoKey;
  name: CryptoKey;
  nonce: CryptoKey;
}

/** The published key slots (`unlock/keys.json`): what an unlock page needs, nothing about the content. */
export interface KeySlots {
  v: 1;
  slots: Array<PasswordSlot | LinkSlot>;
}

export interface PasswordSlot {
  type: 'password';
  kdf: 'argon2id';
  /** base64url */
  salt: string;
  memory: number;
  iterations: number;
  parallelism: number;
  /** base64url: the site key sealed with the slot's key (AES-GCM, nonce 0: that key seals this one value only). */
  wrapped: string;
}

export interface LinkSlot {
  type: 'link';
  /** base64url: the site key sealed with the link key. */
  wrapped: string;
}

const enc = new TextEncoder();
const subtle = (): SubtleCrypto => globalThis.crypto.subtle;

/** The Uint8Array as a standalone ArrayBuffer (WebCrypto's typings want one). */
function buf(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.byteLength === bytes.byteLength && bytes.byteOffset === 0 ? (bytes.buffer as ArrayBuffer) : (bytes.slice().buffer as ArrayBuffer);
}

/** Bytes as base64url without padding. */
export function toBase64Url(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** base64url (padded or not) as bytes; throws on anything else. */
export function fromBase64Url(text: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(text)) throw new Error('not base64url');
  const s = atob(text.replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** HKDF-SHA-256 of `ikm` with an empty salt: 32 bytes for `info`. */
export async function hkdf(ikm: Uint8Array, info: string, bytes = 32): Promise<Uint8Array> {
  const key = await subtle().importKey('raw', buf(ikm), 'HKDF', false, ['deriveBits']);
  return new Uint8Array(await subtle().deriveBits({ name: 'HKDF', hash: 'SHA-256', salt: new ArrayBuffer(0), info: buf(enc.encode(info)) }, key, bytes * 8));
}

async function hmacKey(raw: Uint8Array): Promise<CryptoKey> {
  return subtle().importKey('raw', buf(raw), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
}

async function hmac(key: CryptoKey, data: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await subtle().sign('HMAC', key, buf(data)));
}

async function aesKey(raw: Uint8Array, usages: KeyUsage[]): Promise<CryptoKey> {
  return subtle().importKey('raw', buf(raw), 'AES-GCM', false, usages);
}

/** SHA-256 of bytes. */
export async function sha256(data: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await subtle().digest('SHA-256', buf(data)));
}

/**
 * The salt of a site's password: SHA-256 of the site's address (`site` and
 * `base` of the config), so that the same password on two sites gives two
 * different keys (no table computed once serves every site), while a build
 * anywhere (a laptop, CI with its cache lost) and `sessionpress link --key`
 * derive the same key from the password alone, with nothing kept secret
 * besides it.
 */
export async function siteSalt(site: string | undefined, base: string): Promise<Uint8Array> {
  return (await sha256(enc.encode(`sessionpress site salt v1\0${site ?? ''}\0${base}`))).slice(0, 16);
}

/** The site key from the Argon2id output of the password. */
export function siteKeyFromMaster(master: Uint8Array): Promise<Uint8Array> {
  return hkdf(master, 'sessionpress site key v1');
}

/** The key of the link slot: what a `#k=` link carries. Derived from the site key, so it changes with the password. */
export function linkKeyOf(siteKey: Uint8Array): Promise<Uint8Array> {
  return hkdf(siteKey, 'sessionpress link key v1');
}

/** A short public id of the site key (hex): tells a rebuild whether its cached encryption still holds. */
export async function keyId(siteKey: Uint8Array): Promise<string> {
  return hex((await hkdf(siteKey, 'sessionpress key id v1')).slice(0, 8));
}

/** The keys files are sealed and named with. */
export async function fileKeys(siteKey: Uint8Array): Promise<FileKeys> {
  const [content, name, nonce] = await Promise.all([hkdf(siteKey, 'sessionpress content key v1'), hkdf(siteKey, 'sessionpress name key v1'), hkdf(siteKey, 'sessionpress nonce key v1')]);
  return { content: await aesKey(content, ['encrypt', 'decrypt']), name: await hmacKey(name), nonce: await hmacKey(nonce) };
}

/** The published name of the file at `path` (relative to the base, `/`-separated): 32 hex digits. */
export async function fileName(keys: FileKeys, path: string): Promise<string> {
  return hex((await hmac(keys.name, enc.encode(`sessionpress name v1\0${path}`))).slice(0, 16));
}

/**
 * The size every sealed file is padded to: at least 1 KiB, the next power of
 * two up to 64 KiB, then the next eighth of an octave (at most 12.5 % more),
 * so a file's size tells its size class and nothing finer.
 */
export function paddedSize(n: number): number {
  if (n <= 1024) return 1024;
  if (n <= 65536) return 2 ** Math.ceil(Math.log2(n));
  const step = 2 ** (Math.floor(Math.log2(n)) - 3);
  return Math.ceil(n / step) * step;
}

function associatedData(path: string): ArrayBuffer {
  return buf(enc.encode(`sessionpress file v1\0${path}`));
}

/**
 * Seals a file: `payload` is what the browser gets back (the file itself, or
 * it deflated with `flags` saying so); `contentHash` is SHA-256 of the file as
 * published in plaintext (the nonce's input: a changed file gets a new nonce).
 */
export async function sealFile(keys: FileKeys, path: string, payload: Uint8Array, flags: number, contentHash: Uint8Array): Promise<Uint8Array> {
  const pathBytes = enc.encode(path);
  const nonceInput = new Uint8Array(pathBytes.length + 1 + contentHash.length);
  nonceInput.set(pathBytes, 0);
  nonceInput.set(contentHash, pathBytes.length + 1);
  const nonce = (await hmac(keys.nonce, nonceInput)).slice(0, NONCE_BYTES);
  const innerSize = paddedSize(INNER_HEADER_BYTES + payload.length + ENVELOPE_BYTES) - ENVELOPE_BYTES;
  const inner = new Uint8Array(innerSize);
  inner[0] = flags;
  new DataView(inner.buffer).setUint32(1, payload.length);
  inner.set(payload, INNER_HEADER_BYTES);
  const sealed = new Uint8Array(await subtle().encrypt({ name: 'AES-GCM', iv: buf(nonce), additionalData: associatedData(path) }, keys.content, buf(inner)));
  const out = new Uint8Array(MAGIC.length + NONCE_BYTES + sealed.length);
  out.set(MAGIC, 0);
  out.set(nonce, MAGIC.length);
  out.set(sealed, MAGIC.length + NONCE_BYTES);
  return out;
}

/** Why a sealed file did not open. */
export class SealError extends Error {
  override name = 'SealError';
}

/**
 * Opens a sealed file published for `path`: its flags and payload. Throws a
 * SealError when the bytes were changed, cut, or belong to another path.
 */
export async function openFile(keys: FileKeys, path: string, data: Uint8Array): Promise<{ flags: number; payload: Uint8Array }> {
  if (data.length < ENVELOPE_BYTES + INNER_HEADER_BYTES || MAGIC.some((b, i) => data[i] !== b)) throw new SealError('not an encrypted Sessionpress file');
  const nonce = data.subarray(MAGIC.length, MAGIC.length + NONCE_BYTES);
  let inner: Uint8Array;
  try {
    inner = new Uint8Array(await subtle().decrypt({ name: 'AES-GCM', iv: buf(nonce), additionalData: associatedData(path) }, keys.content, buf(data.subarray(MAGIC.length + NONCE_BYTES))));
  } catch {
    throw new SealError('the file was changed or damaged, or belongs to another page');
  }
  const length = new DataView(inner.buffer, inner.byteOffset).getUint32(1);
  if (INNER_HEADER_BYTES + length > inner.length) throw new SealError('the file is damaged');
  return { flags: inner[0], payload: inner.subarray(INNER_HEADER_BYTES, INNER_HEADER_BYTES + length) };
}

/** The all-zero nonce of a slot: each slot key seals exactly one value, the site key, so it is never reused. */
const SLOT_NONCE = new Uint8Array(NONCE_BYTES);

async function wrap(kek: Uint8Array, siteKey: Uint8Array, label: string): Promise<string> {
  const key = await aesKey(kek, ['encrypt']);
  return toBase64Url(new Uint8Array(await subtle().encrypt({ name: 'AES-GCM', iv: buf(SLOT_NONCE), additionalData: buf(enc.encode(label)) }, key, buf(siteKey))));
}

/** The site key out of a slot, or undefined when `kek` is not the slot's key (a wrong password or link). */
async function unwrap(kek: Uint8Array, wrapped: string, label: string): Promise<Uint8Array | undefined> {
  try {
    const key = await aesKey(kek, ['decrypt']);
    return new Uint8Array(await subtle().decrypt({ name: 'AES-GCM', iv: buf(SLOT_NONCE), additionalData: buf(enc.encode(label)) }, key, buf(fromBase64Url(wrapped))));
  } catch {
    return undefined;
  }
}

const PASSWORD_LABEL = 'sessionpress password slot v1';
const LINK_LABEL = 'sessionpress link slot v1';

/** The key of the password slot, from the Argon2id output (the site key comes from the same output, under another label). */
function passwordSlotKey(master: Uint8Array): Promise<Uint8Array> {
  return hkdf(master, PASSWORD_LABEL);
}

/**
 * The site key of a password and the published slots: one Argon2id run.
 * Everything here is a function of the password, the site's address and the
 * parameters, so every build of the same site with the same password writes
 * the same bytes.
 */
export async function createSlots(password: string, salt: Uint8Array, argon2: Argon2id, params: Argon2Params = DEFAULT_ARGON2): Promise<{ siteKey: Uint8Array; slots: KeySlots }> {
  const master = await argon2(password, salt, params);
  const siteKey = await siteKeyFromMaster(master);
  const password_: PasswordSlot = { type: 'password', kdf: 'argon2id', salt: toBase64Url(salt), ...params, wrapped: await wrap(await passwordSlotKey(master), siteKey, PASSWORD_LABEL) };
  const link: LinkSlot = { type: 'link', wrapped: await wrap(await linkKeyOf(siteKey), siteKey, LINK_LABEL) };
  return { siteKey, slots: { v: 1, slots: [password_, link] } };
}

/** The password slot of published slots. */
export function passwordSlot(slots: KeySlots): PasswordSlot | undefined {
  return slots.slots.find((s): s is PasswordSlot => s.type === 'password');
}

/** The site key from the Argon2id output of a typed password, or undefined when the password is wrong. */
export async function unlockWithMaster(slots: KeySlots, master: Uint8Array): Promise<Uint8Array | undefined> {
  const slot = passwordSlot(slots);
  return slot ? unwrap(await passwordSlotKey(master), slot.wrapped, PASSWORD_LABEL) : undefined;
}

/** The site key from a `#k=` link's key, or undefined when the link does not fit this site (or its password changed). */
export async function unlockWithLink(slots: KeySlots, linkKey: Uint8Array): Promise<Uint8Array | undefined> {
  const slot = slots.slots.find((s): s is LinkSlot => s.type === 'link');
  return slot && linkKey.length === 32 ? unwrap(linkKey, slot.wrapped, LINK_LABEL) : undefined;
}
