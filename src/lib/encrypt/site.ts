/**
 * The build's side of an encrypted site (issue 29), in Node: the keys of a
 * password on a site, sealing a built site folder into the published one
 * (incrementally, by a manifest kept in the cache), and the checks `audit`
 * runs on the result. The cryptography itself is crypto.ts, shared with the
 * browser; where files go is layout.ts.
 */
import { createHash } from 'node:crypto';
import { lstat, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { promisify } from 'node:util';
import { deflateRaw } from 'node:zlib';
import { argon2id } from 'hash-wasm';
import { listFiles, mapLimit, removeEmptyFolders } from '../fs/parallel.js';
import { createSlots, DEFAULT_ARGON2, fileKeys, fileName, FLAG_DEFLATED, keyId, linkKeyOf, MAGIC, paddedSize, sealFile, toBase64Url, siteSalt, type Argon2Params, type FileKeys, type KeySlots } from './crypto.js';
import { isCompressible, KEYS_FILE, PLAIN_FILES, SEALED_DIR } from './layout.js';

/** The environment variable the password is read from (never a file, an option or a flag: those end up in shells' histories and repositories). */
export const PASSWORD_VARIABLE = 'SESSIONPRESS_PASSWORD';

/** The one line a build with `encrypt` and no password stops with. */
export const NO_PASSWORD = `sessionpress: "encrypt" is on but ${PASSWORD_VARIABLE} is not set; set it to the site's password (in the Action: a secret passed as the "password" input).`;

/** The folder in the cache that holds the plaintext site, the encryption manifest and the bundled browser code. */
export const ENCRYPT_CACHE = 'sessionpress-encrypt';

/** Where, below the cache folder, Astro builds the plaintext site of an encrypted one (never published). */
export function plainDirOf(cacheDir: string): string {
  return join(cacheDir, ENCRYPT_CACHE, 'plain');
}

/** The manifest of the last encryption, below the cache folder. */
export function manifestOf(cacheDir: string): string {
  return join(cacheDir, ENCRYPT_CACHE, 'manifest.json');
}

/** Argon2id through hash-wasm (WebAssembly), the same implementation the browser's worker runs. */
export async function argon2idNode(password: string, salt: Uint8Array, params: Argon2Params): Promise<Uint8Array> {
  return argon2id({ password, salt, parallelism: params.parallelism, iterations: params.iterations, memorySize: params.memory, hashLength: 32, outputType: 'binary' });
}

/** What encrypting a site needs, derived once per build from the password and the site's address. */
export interface SiteSecrets {
  siteKey: Uint8Array;
  keys: FileKeys;
  keyId: string;
  slots: KeySlots;
}

/** The site key, file keys and published slots of a password on a site (`site` and `base` from the config). */
export async function siteSecrets(password: string, site: string | undefined, base: string, params: Argon2Params = DEFAULT_ARGON2): Promise<SiteSecrets> {
  const { siteKey, slots } = await createSlots(password, await siteSalt(site, base), argon2idNode, params);
  return { siteKey, slots, keys: await fileKeys(siteKey), keyId: await keyId(siteKey) };
}

/**
 * The fragment of a `#k=` link for a password on a site (`site` and `base` of the config, as the build had
 * them): the link slot's key, which gives the site key to whoever has the link.
 */
export async function linkFragment(password: string, site: string | undefined, base: string): Promise<string> {
  const secrets = await siteSecrets(password, site, base.endsWith('/') ? base : `${base}/`);
  return `k=${toBase64Url(await linkKeyOf(secrets.siteKey))}`;
}

/**
 * A URL with the key of a link in its fragment: `#k=KEY`, or `#k=KEY&m-…` when the URL already lands on an
 * anchor (the unlock page takes the key out and keeps the anchor).
 */
export function withLinkKey(url: string, fragment: string): string {
  const at = url.indexOf('#');
  return at < 0 ? `${url}#${fragment}` : `${url.slice(0, at)}#${fragment}&${url.slice(at + 1)}`;
}

/** One file of the plaintext site, as the last encryption left it (kept in the cache, never published). */
interface ManifestEntry {
  sha: string;
  name: string;
  size: number;
}

/** The cache's record of the last encryption: what lets a rebuild skip unchanged files, and `audit` check an encrypted site. */
export interface EncryptManifest {
  v: 1;
  keyId: string;
  /** Path (relative to the base) of each plaintext file → its sealed file. */
  files: Record<string, ManifestEntry>;
  /** SHA-256 of each file published in plaintext (the unlock page and its code). */
  plain: Record<string, string>;
}

export interface EncryptResult {
  files: number;
  /** Files sealed by this run (the others were unchanged and kept). */
  sealed: number;
  removed: number;
  plainBytes: number;
  publishedBytes: number;
}

const MANIFEST_FORMAT = 1;

/** Reads the manifest of the last encryption, or undefined. */
export async function readManifest(file: string): Promise<EncryptManifest | undefined> {
  try {
    const m = JSON.parse(await readFile(file, 'utf8')) as EncryptManifest;
    return m.v === MANIFEST_FORMAT ? m : undefined;
  } catch {
    return undefined;
  }
}

/** Writes a whole new file beside the old one and renames it over (a reader never sees half a file). */
async function replaceFile(path: string, data: Uint8Array | string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, data);
  await rename(tmp, path);
}

const deflate = promisify(deflateRaw);

/**
 * The payload of a file: deflated (and flagged) when that is smaller by a twentieth, else the file. Deflated
 * off the main thread (zlib's asynchronous form runs in libuv's pool), so several files compress at once.
 */
async function payloadOf(path: string, bytes: Uint8Array): Promise<{ payload: Uint8Array; flags: number }> {
  if (isCompressible(path) && bytes.length > 256) {
    const deflated = await deflate(bytes, { level: 6 });
    if (deflated.length < bytes.length * 0.95) return { payload: deflated, flags: FLAG_DEFLATED };
  }
  return { payload: bytes, flags: 0 };
}

/**
 * Publishes the plaintext site of `plainDir` encrypted into `outDir`: each
 * file sealed into `x/<name>`, the unlock files (`unlock`, path → content) as
 * they are, and everything else in `outDir` (`.git` aside) removed, so the
 * folder holds exactly this build's output. A file whose content and key are
 * those the manifest records, and whose sealed file is still there at its
 * size, is not sealed again (sealing is deterministic: it would give the same
 * bytes). The manifest is written last.
 */
export async function encryptTree(opts: { plainDir: string; outDir: string; manifestFile: string; secrets: SiteSecrets; unlock: Map<string, string | Uint8Array> }): Promise<EncryptResult> {
  const { plainDir, outDir, manifestFile, secrets } = opts;
  const last = await readManifest(manifestFile);
  const reusable = last?.keyId === secrets.keyId ? last.files : {};
  // The manifest of a failed run must not vouch for files it did not finish.
  await rm(manifestFile, { force: true });
  const files = (await listFiles(plainDir)).filter((f) => !toRel(plainDir, f).startsWith('.git/'));
  const manifest: EncryptManifest = { v: MANIFEST_FORMAT, keyId: secrets.keyId, files: {}, plain: {} };
  let sealed = 0;
  let plainBytes = 0;
  let publishedBytes = 0;
  // Nothing is written through a link: a folder of ours that is a symbolic link (left by hand, or by an
  // attacker who can write the output folder) is removed, the link only, before anything goes into it.
  for (const dir of [SEALED_DIR, ...new Set([...opts.unlock.keys()].filter((p) => p.includes('/')).map((p) => p.split('/')[0]))]) {
    const st = await lstat(join(outDir, dir)).catch(() => undefined);
    if (st && !st.isDirectory()) await rm(join(outDir, dir), { force: true });
  }
  await mkdir(join(outDir, SEALED_DIR), { recursive: true });
  const entries = await mapLimit(files, 8, async (file) => {
    const path = toRel(plainDir, file);
    const bytes = new Uint8Array(await readFile(file));
    const digest = createHash('sha256').update(bytes).digest();
    const sha = digest.toString('hex');
    const name = await fileName(secrets.keys, path);
    const target = join(outDir, SEALED_DIR, name);
    const old = reusable[path];
    if (old && old.sha === sha && old.name === name && (await sizeOf(target)) === old.size) return { path, bytes: bytes.length, entry: old };
    const { payload, flags } = await payloadOf(path, bytes);
    const out = await sealFile(secrets.keys, path, payload, flags, new Uint8Array(digest));
    await replaceFile(target, out);
    sealed++;
    return { path, bytes: bytes.length, entry: { sha, name, size: out.length } };
  });
  for (const e of entries) {
    manifest.files[e.path] = e.entry;
    plainBytes += e.bytes;
    publishedBytes += e.entry.size;
  }
  for (const [path, content] of opts.unlock) {
    const target = join(outDir, path);
    const bytes = typeof content === 'string' ? Buffer.from(content) : content;
    const sha = createHash('sha256').update(bytes).digest('hex');
    const st = await lstat(target).catch(() => undefined);
    if (!(st?.isFile() && createHash('sha256').update(await readFile(target)).digest('hex') === sha)) await replaceFile(target, bytes);
    manifest.plain[path] = sha;
    publishedBytes += bytes.length;
  }
  const keep = new Set([...Object.values(manifest.files).map((e) => `${SEALED_DIR}/${e.name}`), ...opts.unlock.keys()]);
  const stale = (await listFiles(outDir)).filter((f) => {
    const rel = toRel(outDir, f);
    return !rel.startsWith('.git/') && !keep.has(rel);
  });
  await mapLimit(stale, 16, (f) => rm(f, { force: true }));
  if (stale.length) await removeEmptyFolders(outDir, true);
  await replaceFile(manifestFile, JSON.stringify(manifest));
  return { files: files.length, sealed, removed: stale.length, plainBytes, publishedBytes };
}

/** The size of a regular file (not a link), or undefined. */
async function sizeOf(path: string): Promise<number | undefined> {
  const st = await lstat(path).catch(() => undefined);
  return st?.isFile() ? st.size : undefined;
}

function toRel(root: string, file: string): string {
  return relative(root, file).split(sep).join('/');
}


/** What `checkEncryptedSite` found wrong: each a file (relative to the site) and why. */
export interface EncryptedSiteProblem {
  file: string;
  reason: string;
}

/**
 * Checks that an encrypted site folder holds nothing in plaintext but the
 * unlock files: every other file is a sealed file (its magic bytes, at a
 * padded size) that the manifest of the build lists, every plaintext file is
 * exactly what the build wrote, and every file the manifest lists is there.
 */
export async function checkEncryptedSite(outDir: string, manifest: EncryptManifest): Promise<EncryptedSiteProblem[]> {
  const problems: EncryptedSiteProblem[] = [];
  const names = new Set(Object.values(manifest.files).map((e) => e.name));
  const seen = new Set<string>();
  for (const file of await listFiles(outDir)) {
    const rel = toRel(outDir, file);
    if (rel.startsWith('.git/')) continue;
    const bytes = await readFile(file);
    if (rel in manifest.plain) {
      if (createHash('sha256').update(bytes).digest('hex') !== manifest.plain[rel]) problems.push({ file: rel, reason: 'an unlock file that is not the one the build wrote' });
      continue;
    }
    const name = rel.startsWith(`${SEALED_DIR}/`) ? rel.slice(SEALED_DIR.length + 1) : undefined;
    if (!name || !names.has(name)) {
      problems.push({ file: rel, reason: 'not a file the encrypted build published (left unencrypted, or added later)' });
      continue;
    }
    seen.add(name);
    if (MAGIC.some((b, i) => bytes[i] !== b) || paddedSize(bytes.length) !== bytes.length) problems.push({ file: rel, reason: 'not a sealed file' });
  }
  for (const [path, e] of Object.entries(manifest.files)) if (!seen.has(e.name)) problems.push({ file: `${SEALED_DIR}/${e.name}`, reason: `missing (the sealed copy of ${path})` });
  for (const p of PLAIN_FILES) if (!(p in manifest.plain)) problems.push({ file: p, reason: 'the build did not write this unlock file' });
  if (!(KEYS_FILE in manifest.plain)) problems.push({ file: KEYS_FILE, reason: 'no key slots' });
  return problems;
}
