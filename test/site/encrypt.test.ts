import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ARGON2, fileKeys, fileName, fromBase64Url, openFile, unlockWithMaster, type KeySlots } from '../../src/lib/encrypt/crypto.js';
import { PLAIN_FILES, SEALED_DIR } from '../../src/lib/encrypt/layout.js';
import { argon2idNode, readManifest } from '../../src/lib/encrypt/site.js';
import { unlockPage } from '../../src/lib/encrypt/unlock-page.js';
import { manifestOf, plainDirOf } from '../../src/integrations/encrypt.js';
import { buildSite, listFiles, readAllText } from '../helpers/build.js';
import { repoRoot } from '../helpers/shared.js';

/**
 * A build of the bundled samples with `"encrypt": true` (issue 29): nothing of
 * any session (its words, its id, its project) is left in the published
 * folder, in a file's content (gzip decoded) or its name; the published
 * folder holds only the unlock files and sealed files; a rebuild with nothing
 * changed seals nothing and leaves the same bytes, and still removes what it
 * did not produce; a build without the password stops with one line.
 */
const PASSWORD = 'correct horse battery staple';
let root = '';
let out = '';
let cache = '';
let env: Record<string, string> = {};
let firstLog = '';

const bundled = join(repoRoot, 'content', 'sessions');
/** A copy of the samples (one test edits a session). */
let samples = '';

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'sp-encrypt-'));
  samples = join(root, 'source');
  cpSync(bundled, samples, { recursive: true });
  out = join(root, 'site');
  cache = join(root, 'cache');
  writeFileSync(join(root, 'config.json'), JSON.stringify({ encrypt: true }));
  env = { SESSIONPRESS_SOURCE: samples, SESSIONPRESS_CONFIG: join(root, 'config.json'), SESSIONPRESS_CACHE_DIR: cache, SESSIONPRESS_PASSWORD: PASSWORD };
  const run = await buildSite(out, env);
  if (run.code !== 0) throw new Error(`build failed:\n${run.log.slice(-3000)}`);
  firstLog = run.log;
}, 600_000);

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

/** Every session id of the samples (main sessions and subagents), from the file names. */
function sessionIds(): string[] {
  return listFiles(samples)
    .filter((f) => f.endsWith('.jsonl'))
    .map((f) => basename(f, '.jsonl'));
}

/** The distinctive words of the sessions as the plaintext site shows them: long words of the transcripts and titles. */
function distinctiveWords(plain: string): string[] {
  const words = new Set<string>();
  for (const f of listFiles(join(plain, 'sessions')).filter((f) => f.endsWith('.html'))) {
    const doc = new JSDOM(readFileSync(f, 'utf8')).window.document;
    const text = [...doc.querySelectorAll('[data-transcript], h1')].map((e) => e.textContent ?? '').join(' ');
    for (const w of text.match(/[A-Za-z]{9,}/g) ?? []) words.add(w);
  }
  return [...words];
}

describe('an encrypted build of the samples', () => {
  it('publishes only the unlock files and sealed files', () => {
    const files = listFiles(out).map((f) => f.slice(out.length + 1));
    expect(files.filter((f) => !f.startsWith(`${SEALED_DIR}/`)).sort()).toEqual([...PLAIN_FILES].sort());
    expect(files.filter((f) => f.startsWith(`${SEALED_DIR}/`)).every((f) => /^x\/[0-9a-f]{32}$/.test(f))).toBe(true);
    // Every file the plaintext build produced is sealed: the pages, twins, listings, llms.txt, the search index, scripts, styles.
    const plain = listFiles(plainDirOf(cache));
    expect(files.length - PLAIN_FILES.length).toBe(plain.length);
    const kinds = new Set(plain.map((f) => f.slice(plainDirOf(cache).length + 1)).map((p) => (p.includes('pagefind') ? 'pagefind' : (/\.([a-z]+)$/.exec(p)?.[1] ?? ''))));
    for (const k of ['html', 'md', 'json', 'txt', 'js', 'css', 'pagefind']) expect(kinds.has(k), k).toBe(true);
    // The unlock pages are the generic one: nothing of this site in them.
    for (const p of ['index.html', '404.html', 'unlock/index.html']) expect(readFileSync(join(out, p), 'utf8')).toBe(unlockPage('/'));
    expect(firstLog).toMatch(/encrypted \d+ files/);
  });

  it('leaves no word, session id or project name of any session in any file or file name', () => {
    const plain = plainDirOf(cache);
    const words = distinctiveWords(plain);
    const ids = sessionIds();
    const projects = readdirSync(join(plain, 'projects'), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .flatMap((d) => [d.name, ...d.name.split('-').filter((p) => p.length >= 5 && p !== 'projects')]);
    // The check can fail: the plaintext site holds them all.
    expect(words.length).toBeGreaterThan(50);
    expect(ids.length).toBeGreaterThanOrEqual(4);
    expect(projects).toEqual(expect.arrayContaining(['playground']));
    const plainText = readAllText(plain).map((f) => f.text).join('\n');
    for (const id of ids.filter((i) => !i.startsWith('agent-'))) expect(plainText).toContain(id);
    // The unlock page and the browser code are the same for every site (checked here: the pages are the generic
    // page, the scripts are the bundles of the package's sources in the cache): a word of the sessions that the
    // code also holds ("JavaScript", "password") says nothing about them.
    const bundles = readdirSync(join(cache, 'sessionpress-encrypt')).filter((d) => d.startsWith('scripts-'));
    expect(bundles).toHaveLength(1);
    const bundled = listFiles(join(cache, 'sessionpress-encrypt', bundles[0]));
    for (const f of bundled) expect(readFileSync(join(out, f.slice(join(cache, 'sessionpress-encrypt', bundles[0]).length + 1))).equals(readFileSync(f))).toBe(true);
    const generic = [unlockPage('/'), ...bundled.map((f) => readFileSync(f, 'utf8'))].join('\n').toLowerCase();
    const needles = [...words.filter((w) => !generic.includes(w.toLowerCase())), ...ids, ...projects].map((n) => n.toLowerCase());
    expect(needles.length).toBeGreaterThan(50);
    const published = readAllText(out);
    for (const { file, text } of published) {
      const name = file.slice(out.length + 1).toLowerCase();
      const lower = text.toLowerCase();
      for (const n of needles) {
        expect(name.includes(n), `${n} in the name ${name}`).toBe(false);
        expect(lower.includes(n), `${n} in ${name}`).toBe(false);
      }
    }
  });

  it('opens with the password: the published slots give the key, each sealed file its plaintext', async () => {
    const slots = JSON.parse(readFileSync(join(out, 'unlock', 'keys.json'), 'utf8')) as KeySlots;
    const slot = slots.slots.find((s) => s.type === 'password')!;
    expect(slot).toMatchObject({ kdf: 'argon2id', ...DEFAULT_ARGON2 });
    if (slot.type !== 'password') throw new Error('no password slot');
    const params = { memory: slot.memory, iterations: slot.iterations, parallelism: slot.parallelism };
    expect(await unlockWithMaster(slots, await argon2idNode('wrong', fromBase64Url(slot.salt), params))).toBeUndefined();
    const siteKey = await unlockWithMaster(slots, await argon2idNode(PASSWORD, fromBase64Url(slot.salt), params));
    expect(siteKey).toBeDefined();
    const keys = await fileKeys(siteKey!);
    const plainIndex = readFileSync(join(plainDirOf(cache), 'index.html'));
    const sealed = new Uint8Array(readFileSync(join(out, SEALED_DIR, await fileName(keys, 'index.html'))));
    const { flags, payload } = await openFile(keys, 'index.html', sealed);
    const { inflateRawSync } = await import('node:zlib');
    expect((flags & 1 ? inflateRawSync(payload) : Buffer.from(payload)).equals(plainIndex)).toBe(true);
  });

  it('seals nothing again on a rebuild with nothing changed: the same bytes, and a stray file removed', async () => {
    const before = new Map(listFiles(out).map((f) => [f, readFileSync(f)]));
    mkdirSync(join(out, 'sessions', 'stale'), { recursive: true });
    writeFileSync(join(out, 'sessions', 'stale', 'index.html'), 'left by hand');
    writeFileSync(join(out, SEALED_DIR, '0123456789abcdef0123456789abcdef'), 'an old sealed file');
    const run = await buildSite(out, env);
    expect(run.code, run.log.slice(-2000)).toBe(0);
    expect(run.log).toMatch(/encrypted (\d+) files into .* \(0 sealed, \1 unchanged/);
    expect(existsSync(join(out, 'sessions'))).toBe(false);
    expect(existsSync(join(out, SEALED_DIR, '0123456789abcdef0123456789abcdef'))).toBe(false);
    const after = listFiles(out);
    expect(after.length).toBe(before.size);
    for (const f of after) expect(readFileSync(f).equals(before.get(f)!), f).toBe(true);
    const manifest = await readManifest(manifestOf(cache));
    expect(Object.keys(manifest!.files).length).toBe(after.length - PLAIN_FILES.length);
  });

  it('publishes the same bytes from a clean build with another cache (CI with its cache lost: links keep working)', async () => {
    const other = join(root, 'site-2');
    const run = await buildSite(other, { ...env, SESSIONPRESS_CACHE_DIR: join(root, 'cache-2') });
    expect(run.code, run.log.slice(-2000)).toBe(0);
    const mine = listFiles(out).map((f) => f.slice(out.length + 1)).sort();
    expect(listFiles(other).map((f) => f.slice(other.length + 1)).sort()).toEqual(mine);
    for (const f of mine) expect(readFileSync(join(other, f)).equals(readFileSync(join(out, f))), f).toBe(true);
  });

  it('passes audit --strict, which judges the plaintext it sealed and fails on a file left unencrypted', async () => {
    const { main: audit } = await import('../../scripts/audit.js');
    mkdirSync(join(root, 'no-sessions'), { recursive: true });
    const run = async () => {
      const lines: string[] = [];
      const code = await audit([join(root, 'no-sessions'), '--strict', '--dist', out, '--cache', cache], { out: (l) => lines.push(l), redaction: {} });
      return { code, text: lines.join('\n') };
    };
    const clean = await run();
    expect(clean.code, clean.text).toBe(0);
    expect(clean.text).toMatch(new RegExp(`Encrypted site: \\d+ sealed file\\(s\\) and ${PLAIN_FILES.length} unlock file\\(s\\), nothing else`));
    // A page left in plaintext beside the sealed files.
    const plainIndex = join(plainDirOf(cache), 'index.html');
    mkdirSync(join(out, 'projects'), { recursive: true });
    writeFileSync(join(out, 'projects', 'index.html'), readFileSync(plainIndex));
    const leak = await run();
    expect(leak.code).toBe(1);
    expect(leak.text).toMatch(/projects\/index\.html {2}not a file the encrypted build published/);
    rmSync(join(out, 'projects'), { recursive: true });
    // The plaintext in the cache is not what was sealed: the scan would judge the wrong text.
    const original = readFileSync(plainIndex);
    writeFileSync(plainIndex, `${original}<!-- changed -->`);
    const stale = await run();
    writeFileSync(plainIndex, original);
    expect(stale.code).toBe(1);
    expect(stale.text).toMatch(/index\.html {2}the plaintext .* is not what was sealed/);
    // Without the cache, the audit cannot judge the site and says so.
    const lines: string[] = [];
    const saved = process.env.SESSIONPRESS_CACHE_DIR;
    delete process.env.SESSIONPRESS_CACHE_DIR;
    const cwd = process.cwd();
    process.chdir(root);
    try {
      expect(await audit([join(root, 'no-sessions'), '--strict', '--dist', out], { out: (l) => lines.push(l), redaction: {} })).toBe(2);
    } finally {
      process.chdir(cwd);
      if (saved !== undefined) process.env.SESSIONPRESS_CACHE_DIR = saved;
    }
    expect(lines.join('\n')).toMatch(/is an encrypted site, but the plaintext its build sealed is not in the build cache/);
  });

  it('seals again only the files a changed session changes; the others keep their bytes', async () => {
    const before = new Map(listFiles(out).map((f) => [f, readFileSync(f)]));
    const file = listFiles(samples).find((f) => f.includes('garden-log') && /[0-9a-f-]{36}\.jsonl$/.test(f))!;
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('greenhouse');
    writeFileSync(file, text.replace('greenhouse', 'glasshouse'));
    try {
      const run = await buildSite(out, env);
      expect(run.code, run.log.slice(-2000)).toBe(0);
      const m = /encrypted (\d+) files into .* \((\d+) sealed/.exec(run.log)!;
      const [total, sealed] = [Number(m[1]), Number(m[2])];
      const changed = listFiles(out).filter((f) => !before.get(f)?.equals(readFileSync(f)));
      expect(sealed).toBeGreaterThan(0);
      expect(sealed).toBeLessThan(total / 4);
      // Every file whose bytes changed was sealed by this build (names stay: they depend on the path only).
      expect(changed.length).toBeLessThanOrEqual(sealed);
      expect(listFiles(out).length).toBe(before.size);
    } finally {
      writeFileSync(file, text);
    }
    const back = await buildSite(out, env);
    expect(back.code).toBe(0);
    for (const [f, bytes] of before) expect(readFileSync(f).equals(bytes), f).toBe(true);
  });

  it('stops with one line when the password is missing', async () => {
    const { SESSIONPRESS_PASSWORD: _, ...withoutPassword } = env;
    const run = await buildSite(join(root, 'no-password'), { ...withoutPassword, SESSIONPRESS_PASSWORD: '' });
    expect(run.code).not.toBe(0);
    expect(run.log.trim().split('\n')).toEqual([expect.stringMatching(/"encrypt" is on but SESSIONPRESS_PASSWORD is not set/)]);
    expect(existsSync(join(root, 'no-password'))).toBe(false);
    // An output folder holding the cache would have the cache removed as something the build did not publish.
    const nested = await buildSite(join(root, 'nested'), { ...env, SESSIONPRESS_CACHE_DIR: join(root, 'nested', 'cache') });
    expect(nested.code).not.toBe(0);
    expect(nested.log.trim().split('\n')).toEqual([expect.stringMatching(/must not contain each other/)]);
  });
});
