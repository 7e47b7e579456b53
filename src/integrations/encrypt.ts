import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
// Imported up front: a dynamic import inside a hook goes through Vite's module runner, closed by `astro:build:done`.
import * as esbuild from 'esbuild';
import { ARGON2_WORKER, GUARD_SCRIPT, KEYS_FILE, SERVICE_WORKER, UNLOCK_PAGES, UNLOCK_SCRIPT } from '../lib/encrypt/layout.js';
import { ENCRYPT_CACHE, encryptTree, manifestOf, NO_PASSWORD, PASSWORD_VARIABLE, plainDirOf, siteSecrets } from '../lib/encrypt/site.js';
import { unlockPage } from '../lib/encrypt/unlock-page.js';
import type { BuildLogger } from '../lib/build/build-logger.js';
import type { DeferredFinish, EncryptJob } from '../lib/build/finish-plan.js';

export { ENCRYPT_CACHE, manifestOf, plainDirOf };

const SCRIPTS = fileURLToPath(new URL('../scripts/encrypt/', import.meta.url));
const LIB = fileURLToPath(new URL('../lib/encrypt/', import.meta.url));
/** Each published script and the source it is bundled from. */
const ENTRIES: Array<[string, string]> = [
  [SERVICE_WORKER, 'sw.ts'],
  [UNLOCK_SCRIPT, 'unlock.ts'],
  [GUARD_SCRIPT, 'guard.ts'],
  [ARGON2_WORKER, 'argon2-worker.ts'],
];

/** The encrypt integration's options: a job without the plaintext folder, which Astro names when the build is done. */
export type EncryptIntegrationOptions = Omit<EncryptJob, 'plainDir'>;

/**
 * Publishes the built site encrypted (issue 29): Astro builds the plaintext
 * site into the cache (kept between builds, pruned to this build's output by
 * out-dir.ts, as the output folder is otherwise), and this integration's
 * `astro:build:done`, which runs after every other one (the search index
 * included), seals each of its files into `outDir` and writes the unlock page
 * and the browser code beside them; src/lib/encrypt/site.ts removes whatever
 * else `outDir` holds. The browser code is bundled once with esbuild and kept
 * in the cache under a hash of its sources and hash-wasm's version.
 */
export function encryptIntegration(options: EncryptIntegrationOptions, deferred?: DeferredFinish): AstroIntegration {
  return {
    name: 'sessionpress-encrypt',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        const job: EncryptJob = { ...options, plainDir: fileURLToPath(dir) };
        // A command that finishes the build itself seals the site last, after the index and the pruning (src/integrations/finish.ts).
        if (deferred) deferred.encrypt = job;
        else await sealOutput(job, logger);
      },
    },
  };
}

/** Seals every file of `job.plainDir` into `job.outDir`, with the unlock page and the browser code beside them (see `encryptIntegration`). */
export async function sealOutput(job: EncryptJob, logger: BuildLogger): Promise<void> {
  const password = process.env[PASSWORD_VARIABLE];
  if (!password) throw new Error(NO_PASSWORD);
  const started = performance.now();
  const base = job.base.endsWith('/') ? job.base : `${job.base}/`;
  const secrets = await siteSecrets(password, job.site, base);
  const derived = performance.now();
  const scripts = await bundledScripts(join(job.cacheDir, ENCRYPT_CACHE));
  const unlock = new Map<string, string | Uint8Array>();
  const page = unlockPage(base);
  for (const p of UNLOCK_PAGES) unlock.set(p, page);
  for (const [path] of ENTRIES) unlock.set(path, await readFile(join(scripts, path)));
  unlock.set(KEYS_FILE, `${JSON.stringify(secrets.slots, null, 1)}\n`);
  const result = await encryptTree({ plainDir: job.plainDir, outDir: job.outDir, manifestFile: manifestOf(job.cacheDir), secrets, unlock });
  const mb = (n: number) => (n / 1e6).toFixed(1);
  logger.info(
    `encrypted ${result.files} files into ${job.outDir} (${result.sealed} sealed, ${result.files - result.sealed} unchanged; ${mb(result.plainBytes)} MB → ${mb(result.publishedBytes)} MB; key ${Math.round(derived - started)} ms, files ${Math.round(performance.now() - derived)} ms${result.removed ? `; ${result.removed} old files removed` : ''})`,
  );
}

/** The folder of the bundled browser code for the current sources (built when missing). */
async function bundledScripts(cacheRoot: string): Promise<string> {
  const hash = createHash('sha256');
  const require = createRequire(import.meta.url);
  hash.update(JSON.parse(await readFile(require.resolve('hash-wasm/package.json'), 'utf8')).version);
  hash.update(JSON.parse(await readFile(require.resolve('esbuild/package.json'), 'utf8')).version);
  for (const [, src] of ENTRIES) hash.update(await readFile(join(SCRIPTS, src)));
  for (const f of ['crypto.ts', 'layout.ts']) hash.update(await readFile(join(LIB, f)));
  const target = join(cacheRoot, `scripts-${hash.digest('hex').slice(0, 12)}`);
  if (existsSync(join(target, SERVICE_WORKER))) return target;
  // Bundles of older sources go: the cache keeps the current one only.
  if (existsSync(cacheRoot)) for (const name of await readdir(cacheRoot)) if (name.startsWith('scripts-')) await rm(join(cacheRoot, name), { recursive: true, force: true });
  const tmp = `${target}.${process.pid}.tmp`;
  await rm(tmp, { recursive: true, force: true });
  for (const [out, src] of ENTRIES) {
    await esbuild.build({
      entryPoints: [join(SCRIPTS, src)],
      outfile: join(tmp, out),
      absWorkingDir: SCRIPTS,
      bundle: true,
      format: 'iife',
      platform: 'browser',
      target: 'es2022',
      minify: true,
      legalComments: 'none',
      logLevel: 'error',
    });
  }
  await rm(target, { recursive: true, force: true });
  await mkdir(dirname(target), { recursive: true });
  await rename(tmp, target);
  return target;
}
