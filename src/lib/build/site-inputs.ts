import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { digestTree } from '../fs/tree-digest.js';
import { isWithin } from '../fs/safe-path.js';

/** The sessionpress package's own folder (this file is src/lib/build/site-inputs.ts). */
const PACKAGE_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Where the integration writes {@link SiteInputs} of the build it runs, set by
 * `sessionpress build` and the template's `npm run build`, which keep it with
 * the output's digest so that a rebuild with nothing changed need not start Astro.
 */
export const BUILD_FACTS_VARIABLE = 'SESSIONPRESS_BUILD_FACTS';
/** Set to 1: build even when nothing changed (what the caches hold is still reused). */
export const ALWAYS_BUILD_VARIABLE = 'SESSIONPRESS_ALWAYS_BUILD';

/** The folders a standalone build resolved, as the integration saw them. */
export interface BuildFolders {
  /** The Astro project's root (the template, or the command line's thin project in the cache). */
  root: string;
  sourceDir: string;
  outDir: string;
  cacheDir: string;
  notesDir?: string;
  configFile?: string;
  /** A git checkout the pull request pages read: its history is not a file we can digest cheaply. */
  repo?: string;
  encrypt: boolean;
}

/** What a build read, with a digest that changes whenever any of it does. */
export interface SiteInputs {
  folders: BuildFolders;
  digest: string;
  /** The session source's files and bytes (for the one line a skipped build prints). */
  sourceFiles: number;
  sourceBytes: number;
}

/**
 * Whether a build with these folders can be skipped at all when its inputs
 * are unchanged: not an encrypted one (the password is an input we never
 * store, not even hashed) and not one that reads a git history (`repo`).
 */
export function canSkip(folders: BuildFolders): boolean {
  return !folders.encrypt && !folders.repo;
}

/**
 * Digests everything a standalone build reads: every session file below the
 * source (links named, never followed); the project's files and the
 * package's own code (everything but node_modules, dot folders, the output,
 * the cache and the source); the config file and the notes; the versions of
 * the packages it builds with and the Node version. (The SESSIONPRESS_*
 * variables are the caller's to compare: the command line consumes them
 * before the integration runs.) Content, never modification times, decides: a file rewritten with
 * the same bytes is unchanged, a file changed within one clock tick is not.
 */
export async function siteInputs(folders: BuildFolders): Promise<SiteInputs> {
  const skipped = [folders.outDir, folders.cacheDir, folders.sourceDir].map((f) => resolve(f));
  const skip = (path: string, name: string) => name === 'node_modules' || name.startsWith('.') || skipped.includes(path);
  const roots = [...new Set([folders.root, PACKAGE_ROOT].map((r) => resolve(r)))];
  const extra = [folders.notesDir].filter((f): f is string => !!f && !roots.some((r) => isWithin(r, f)));
  const [source, ...others] = await Promise.all([
    digestTree(folders.sourceDir),
    ...roots.map((r) => digestTree(r, { skip })),
    ...extra.map((f) => digestTree(f)),
  ]);
  const hash = createHash('sha256');
  const part = (name: string, value: string) => hash.update(name).update('\0').update(value).update('\0');
  part('format', '1');
  part('folders', JSON.stringify(folders));
  part('node', process.version);
  part('source', source.digest);
  for (const [i, d] of others.entries()) part(`tree ${i}`, d.digest);
  part('packages', JSON.stringify(packageVersions()));
  // Read as the config loader reads it (a config file kept elsewhere and linked in is the user's own).
  if (folders.configFile) part('config', createHash('sha256').update(await readFile(folders.configFile).catch(() => 'absent')).digest('hex'));
  return { folders, digest: hash.digest('hex'), sourceFiles: source.files, sourceBytes: source.bytes };
}

/** The installed version of each package the site is built with (an upgrade changes pages without changing any file of ours). */
function packageVersions(): Record<string, string> {
  const manifest = JSON.parse(readFileSync(resolve(PACKAGE_ROOT, 'package.json'), 'utf8')) as { dependencies?: Record<string, string>; peerDependencies?: Record<string, string> };
  const require = createRequire(resolve(PACKAGE_ROOT, 'package.json'));
  const names = [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {}), '@astrojs/mdx'].sort();
  return Object.fromEntries(names.map((name) => [name, versionOf(require, name)]));
}

function versionOf(require: NodeJS.Require, name: string): string {
  try {
    return (JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')) as { version: string }).version;
  } catch {
    // A package whose exports hide package.json, or one not installed (@astrojs/mdx beside the command line).
    return 'unknown';
  }
}
