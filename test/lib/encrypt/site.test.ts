import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openFile } from '../../../src/lib/encrypt/crypto.js';
import { checkEncryptedSite, encryptTree, readManifest, siteSecrets } from '../../../src/lib/encrypt/site.js';
import { listFiles } from '../../helpers/build.js';
import { inflateRawSync } from 'node:zlib';

const CHEAP = { memory: 256, iterations: 1, parallelism: 1 };
const root = mkdtempSync(join(tmpdir(), 'sp-encrypt-tree-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function write(dir: string, files: Record<string, string>) {
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(join(dir, p, '..'), { recursive: true });
    writeFileSync(join(dir, p), text);
  }
}

describe('encryptTree', async () => {
  const secrets = await siteSecrets('pw', 'https://example.org', '/', CHEAP);
  const plain = join(root, 'plain');
  const out = join(root, 'out');
  const manifestFile = join(root, 'cache', 'manifest.json');
  const unlock = new Map<string, string>([['index.html', '<p>unlock</p>'], ['unlock/keys.json', '{}']]);
  write(plain, { 'index.html': '<h1>Zanzibar list</h1>', 'sessions/abc-123/index.html': '<p>quokka '.repeat(300), 'sessions/abc-123/index.md': '# quokka' });

  it('publishes every file sealed under a keyed name, the unlock files as they are, and nothing else', async () => {
    write(out, { 'old/leftover.html': 'quokka' });
    const result = await encryptTree({ plainDir: plain, outDir: out, manifestFile, secrets, unlock });
    expect(result).toMatchObject({ files: 3, sealed: 3, removed: 1 });
    const files = listFiles(out).map((f) => f.slice(out.length + 1)).sort();
    expect(files.filter((f) => !f.startsWith('x/'))).toEqual(['index.html', 'unlock/keys.json']);
    expect(files.filter((f) => f.startsWith('x/'))).toHaveLength(3);
    for (const f of listFiles(out)) {
      expect(f).not.toMatch(/abc-123|sessions|quokka/);
      expect(readFileSync(f).includes('quokka')).toBe(false);
    }
    const manifest = (await readManifest(manifestFile))!;
    const entry = manifest.files['sessions/abc-123/index.html'];
    const { flags, payload } = await openFile(secrets.keys, 'sessions/abc-123/index.html', new Uint8Array(readFileSync(join(out, 'x', entry.name))));
    expect((flags & 1 ? inflateRawSync(payload) : Buffer.from(payload)).toString()).toBe('<p>quokka '.repeat(300));
  });

  it('seals nothing again when nothing changed, and only the changed file when one did, to the same bytes', async () => {
    const before = new Map(listFiles(out).map((f) => [f, readFileSync(f)]));
    expect(await encryptTree({ plainDir: plain, outDir: out, manifestFile, secrets, unlock })).toMatchObject({ sealed: 0, removed: 0 });
    for (const [f, bytes] of before) expect(readFileSync(f).equals(bytes)).toBe(true);
    write(plain, { 'sessions/abc-123/index.md': '# quokka, edited' });
    rmSync(join(plain, 'index.html'));
    expect(await encryptTree({ plainDir: plain, outDir: out, manifestFile, secrets, unlock })).toMatchObject({ files: 2, sealed: 1, removed: 1 });
    write(plain, { 'sessions/abc-123/index.md': '# quokka' });
    await encryptTree({ plainDir: plain, outDir: out, manifestFile, secrets, unlock });
    write(plain, { 'index.html': '<h1>Zanzibar list</h1>' });
    await encryptTree({ plainDir: plain, outDir: out, manifestFile, secrets, unlock });
    for (const [f, bytes] of before) expect(existsSync(f) && readFileSync(f).equals(bytes)).toBe(true);
  });

  it('is re-sealed entirely under another password', async () => {
    const other = await siteSecrets('pw2', 'https://example.org', '/', CHEAP);
    const r = await encryptTree({ plainDir: plain, outDir: out, manifestFile, secrets: other, unlock });
    expect(r).toMatchObject({ sealed: 3, removed: 3 });
    await encryptTree({ plainDir: plain, outDir: out, manifestFile, secrets, unlock });
  });

  it('lets the audit find a file left in plaintext, a changed unlock file and a missing sealed file', async () => {
    const manifest = (await readManifest(manifestFile))!;
    expect(await checkEncryptedSite(out, manifest)).toEqual([
      expect.objectContaining({ file: '404.html' }),
      expect.objectContaining({ file: 'unlock/index.html' }),
      expect.objectContaining({ file: 'sw.js' }),
      expect.objectContaining({ file: 'unlock/unlock.js' }),
      expect.objectContaining({ file: 'unlock/guard.js' }),
      expect.objectContaining({ file: 'unlock/argon2.js' }),
    ]);
    write(out, { 'sessions/abc-123/index.html': 'quokka', 'index.html': 'changed' });
    const sealed = join(out, 'x', manifest.files['sessions/abc-123/index.md'].name);
    rmSync(sealed);
    const problems = (await checkEncryptedSite(out, manifest)).map((p) => p.file);
    expect(problems).toEqual(expect.arrayContaining(['sessions/abc-123/index.html', 'index.html', `x/${manifest.files['sessions/abc-123/index.md'].name}`]));
  });

  it('writes nothing through a symbolic link in the output folder', async () => {
    const outside = join(root, 'outside');
    mkdirSync(outside, { recursive: true });
    const target = join(root, 'out-linked');
    mkdirSync(target, { recursive: true });
    symlinkSync(outside, join(target, 'x'));
    symlinkSync(outside, join(target, 'unlock'));
    await encryptTree({ plainDir: plain, outDir: target, manifestFile: join(root, 'cache2', 'manifest.json'), secrets, unlock });
    expect(readdirSync(outside)).toEqual([]);
    expect(listFiles(join(target, 'x'))).toHaveLength(3);
    expect(readFileSync(join(target, 'unlock', 'keys.json'), 'utf8')).toBe('{}');
  });
});
