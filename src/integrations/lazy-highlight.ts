import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
// Imported up front: a dynamic import inside a hook goes through Vite's module runner, closed by `astro:build:done`.
import * as esbuild from 'esbuild';
import type { Plugin } from 'vite';
import type { OutputLedger } from '../lib/fs/output-ledger.js';
import { copyTree, isLinkedTree, listFiles } from '../lib/fs/parallel.js';

/** The module the page script reads the highlighter's folder from. */
export const HIGHLIGHT_MODULE = 'virtual:sessionpress/lazy-highlight';

const ENGINE_ENTRY = fileURLToPath(new URL('../scripts/lazy-highlight-engine.ts', import.meta.url));
const TOKEN_CLASSES = fileURLToPath(new URL('../lib/render/token-classes.ts', import.meta.url));

/**
 * Ships the browser's highlighter (for code the build left plain in closed
 * `<details>`, see src/lib/render/highlight.ts) outside Vite's bundle: Vite
 * took seconds on every build to bundle shiki's 240 grammars. The engine is
 * bundled once with esbuild and kept in Astro's cache folder under a hash of
 * its sources and shiki's version; every build copies it (hard links) with
 * shiki's grammar modules into `_sessionpress/highlight-<hash>/` below the
 * pages' base (`prefix` is where our pages are in the output folder).
 * The page script learns that folder from `virtual:sessionpress/lazy-highlight`.
 */
export function lazyHighlightIntegration(ledger: OutputLedger, prefix: string): AstroIntegration {
  let cacheDir = '';
  let version = '';
  return {
    name: 'sessionpress-lazy-highlight',
    hooks: {
      'astro:config:setup': async ({ updateConfig }) => {
        version = await engineVersion();
        updateConfig({ vite: { plugins: [highlightModulePlugin(folderOf(version))] } });
      },
      'astro:config:done': ({ config }) => {
        cacheDir = join(fileURLToPath(config.cacheDir), 'sessionpress-highlight');
      },
      'astro:build:done': async ({ dir }) => {
        const cached = join(cacheDir, version);
        if (!existsSync(join(cached, 'engine.mjs'))) await buildEngine(cached);
        // The output folder is kept between builds: an older highlighter's folder goes (the search index beside it stays).
        const pages = join(fileURLToPath(dir), prefix);
        const parent = join(pages, dirname(folderOf(version)));
        if (existsSync(parent)) {
          for (const name of await readdir(parent)) if (name.startsWith('highlight-') && `_sessionpress/${name}/` !== folderOf(version)) await rm(join(parent, name), { recursive: true, force: true });
        }
        // A folder left by the last build stays when it holds exactly the cached files, linked.
        const target = join(pages, folderOf(version));
        if (!(await isLinkedTree(cached, target))) {
          await rm(target, { recursive: true, force: true });
          await copyTree(cached, target);
        }
        await ledger.addTree(target);
      },
    },
  };
}

/** The site folder of the highlighter, relative to the pages' base. */
function folderOf(version: string): string {
  return `_sessionpress/highlight-${version}/`;
}

/** A hash of everything the shipped files come from: the engine's sources, shiki's and esbuild's versions. */
async function engineVersion(): Promise<string> {
  // Resolved from this package, wherever the site's root is (the command line's is in the cache folder).
  const require = createRequire(import.meta.url);
  const hash = createHash('sha256');
  for (const pkg of [require.resolve('shiki/package.json'), join(langsDir(), '..', 'package.json'), require.resolve('esbuild/package.json')]) hash.update(JSON.parse(await readFile(pkg, 'utf8')).version);
  for (const f of [ENGINE_ENTRY, TOKEN_CLASSES]) hash.update(await readFile(f));
  return hash.digest('hex').slice(0, 12);
}

/** Bundles the engine and copies shiki's grammar modules into `target` (written beside it, then renamed). */
async function buildEngine(target: string): Promise<void> {
  const tmp = `${target}.${process.pid}.tmp`;
  await rm(tmp, { recursive: true, force: true });
  await esbuild.build({
    entryPoints: [ENGINE_ENTRY],
    outfile: join(tmp, 'engine.mjs'),
    absWorkingDir: dirname(ENGINE_ENTRY),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    logLevel: 'error',
  });
  // The grammar modules as shiki publishes them: one per language, importing the ones it embeds.
  const langs = langsDir();
  await mkdir(join(tmp, 'langs'), { recursive: true });
  for (const f of await listFiles(langs, (name) => name.endsWith('.mjs'))) await writeFile(join(tmp, 'langs', f.slice(langs.length + 1)), await readFile(f));
  await rm(target, { recursive: true, force: true });
  await mkdir(dirname(target), { recursive: true });
  await rename(tmp, target);
}

/** shiki's grammar modules (`@shikijs/langs/dist`); the package exports no package.json, so it is found through a grammar. */
function langsDir(): string {
  return dirname(fileURLToPath(import.meta.resolve('@shikijs/langs/javascript')));
}

/** Serves the highlighter's folder (relative to the base) to the page script. */
function highlightModulePlugin(folder: string): Plugin {
  const resolved = `\0${HIGHLIGHT_MODULE}`;
  return {
    name: 'sessionpress:lazy-highlight',
    resolveId: (id) => (id === HIGHLIGHT_MODULE ? resolved : undefined),
    load: (id) => (id === resolved ? `export const highlightFolder = ${JSON.stringify(folder)};` : undefined),
  };
}
