/**
 * `audit --strict` on an encrypted site (issue 29): the published folder
 * holds sealed files, which no rule can read, so the audit judges the
 * plaintext the build sealed (kept in the build's cache) and checks that the
 * published folder holds nothing else: every file is a sealed file of that
 * build or one of its unlock files, unchanged, and the plaintext in the cache
 * is exactly what was sealed.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { listFiles } from '../../src/lib/fs/parallel.js';
import { KEYS_FILE, SERVICE_WORKER } from '../../src/lib/encrypt/layout.js';
import { checkEncryptedSite, ENCRYPT_CACHE, readManifest } from '../../src/lib/encrypt/site.js';

/** What the audit does with a built site folder. */
export type EncryptedAudit =
  /** Not an encrypted site: scan it as it is. */
  | { kind: 'plain' }
  /** An encrypted site whose published files check out: scan `plainDir`, the plaintext it was sealed from. */
  | { kind: 'encrypted'; plainDir: string }
  /** An encrypted site that fails (exit 1), or whose plaintext cannot be found (exit 2). */
  | { kind: 'failed'; code: 1 | 2 };

/** Whether a built site folder is an encrypted one (its key slots and service worker at the base). */
export function isEncryptedSite(dist: string): boolean {
  return existsSync(join(dist, KEYS_FILE)) && existsSync(join(dist, SERVICE_WORKER));
}

/** Where a build may have kept its encryption: the `--cache` given, SESSIONPRESS_CACHE_DIR, the command line's and the template's defaults. */
function candidates(cache: string | undefined, env: NodeJS.ProcessEnv): string[] {
  const roots = [cache, env.SESSIONPRESS_CACHE_DIR, '.sessionpress-cache', join('node_modules', '.astro')].filter((d): d is string => !!d).map((d) => resolve(d));
  // The command line keeps Astro's cache (and ours in it) in `<cache>/astro`.
  return roots.flatMap((r) => [join(r, ENCRYPT_CACHE), join(r, 'astro', ENCRYPT_CACHE)]);
}

/**
 * Checks an encrypted site folder against the manifest of the build that
 * wrote it (found in the cache: the one whose key slots are the folder's),
 * prints each problem, and says what the redaction scan should read.
 */
export async function auditEncryptedSite(dist: string, cache: string | undefined, out: (line: string) => void, env: NodeJS.ProcessEnv = process.env): Promise<EncryptedAudit> {
  if (!isEncryptedSite(dist)) return { kind: 'plain' };
  const slotsSha = createHash('sha256').update(await readFile(join(dist, KEYS_FILE))).digest('hex');
  for (const dir of candidates(cache, env)) {
    const manifest = await readManifest(join(dir, 'manifest.json'));
    if (!manifest || manifest.plain[KEYS_FILE] !== slotsSha) continue;
    const plainDir = join(dir, 'plain');
    const problems = await checkEncryptedSite(dist, manifest);
    // The plaintext in the cache is what was sealed, file for file: the scan then judges what readers get.
    const plain = existsSync(plainDir) ? await listFiles(plainDir) : [];
    const rels = new Set(plain.map((f) => relative(plainDir, f).split(sep).join('/')));
    for (const path of Object.keys(manifest.files)) if (!rels.has(path)) problems.push({ file: path, reason: `sealed, but its plaintext is not in ${plainDir}` });
    for (const f of plain) {
      const path = relative(plainDir, f).split(sep).join('/');
      const sha = createHash('sha256').update(await readFile(f)).digest('hex');
      if (manifest.files[path]?.sha !== sha) problems.push({ file: path, reason: `the plaintext in ${plainDir} is not what was sealed (rebuild the site)` });
    }
    if (problems.length) {
      out(`Encrypted site: ${problems.length} problem(s) in ${dist}:`);
      for (const p of problems) out(`  ${p.file}  ${p.reason}`);
      return { kind: 'failed', code: 1 };
    }
    out(`Encrypted site: ${Object.keys(manifest.files).length} sealed file(s) and ${Object.keys(manifest.plain).length} unlock file(s), nothing else; scanning the plaintext they were sealed from (${plainDir}).`);
    return { kind: 'encrypted', plainDir };
  }
  out(`--strict: ${dist} is an encrypted site, but the plaintext its build sealed is not in the build cache; pass the build's --cache DIR (or set SESSIONPRESS_CACHE_DIR as the build had it).`);
  return { kind: 'failed', code: 2 };
}
