import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { digestTree } from '../fs/tree-digest.js';
import { isWithin, realFolder } from '../fs/safe-path.js';

/** The sessionpress package's own folder (this file is src/lib/build/site-inputs.ts). */
const PACKAGE_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Where the integration writes {@link SiteInputs} of the build it runs, set by
 * `sessionpress build` and the template's `npm run build`, which keep it with
 * the output's digest so that a rebuild with nothing changed need not start Astro.
 */
export const BUILD_FACTS_VARIABLE = 'SESSIONPRESS_BUILD_FACTS';

/**
 * Set by the same commands, which start Astro's build in a process of its own:
 * the file the build hands its last steps over in (src/integrations/finish.ts).
 * Here, not there, so that a command that finds nothing changed never loads
 * what finishing a build needs (pagefind's API, esbuild, Astro's logger).
 */
export const FINISH_PLAN_VARIABLE = 'SESSIONPRESS_FINISH_PLAN';
/**
 * Where the command that starts a build leaves the content digest of every
 * file below the source, taken to decide whether to build at all, so that the
 * loader does not read them all again ({@link readSourceDigests}).
 */
export const SOURCE_DIGESTS_VARIABLE = 'SESSIONPRESS_SOURCE_DIGESTS';
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
export async function siteInputs(folders: BuildFolders, fileDigests?: Map<string, string>): Promise<SiteInputs> {
  const skipped = [folders.outDir, folders.cacheDir, folders.sourceDir].map((f) => resolve(f));
  const skip = (path: string, name: string) => name === 'node_modules' || name.startsWith('.') || skipped.includes(path);
  const roots = [...new Set([folders.root, PACKAGE_ROOT].map((r) => resolve(r)))];
  const extra = [folders.notesDir].filter((f): f is string => !!f && !roots.some((r) => isWithin(r, f)));
  const [source, ...others] = await Promise.all([
    digestTree(folders.sourceDir, { fileDigests }),
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

/**
 * What the file named by {@link SOURCE_DIGESTS_VARIABLE} holds. It sits in the
 * cache folder while a build runs, so it names no path: project folders carry
 * user names (`-home-alice-…`). Folder and files are known by digests of their paths.
 */
export interface SourceDigests {
  format: 1;
  /** sha-256 of the source folder's real path. */
  source: string;
  /** Each file's content digest, by {@link pathKey} of its path relative to the source. */
  files: Record<string, string>;
}

/** The key of a path in {@link SourceDigests}: no name, only its digest. */
function pathKey(path: string): string {
  return createHash('sha256').update(path).digest('hex').slice(0, 32);
}

/** The record of {@link SOURCE_DIGESTS_VARIABLE} for the digests `siteInputs` took of `sourceDir` (by path relative to it, with `/`). */
export async function sourceDigestsRecord(sourceDir: string, digests: ReadonlyMap<string, string>): Promise<SourceDigests> {
  return { format: 1, source: pathKey(await realFolder(sourceDir)), files: Object.fromEntries([...digests].map(([path, digest]) => [pathKey(path), digest])) };
}

/**
 * The digests the command that started this build took of the files below
 * `sourceDir` just before it started, by path relative to `sourceDir` with `/`
 * (undefined when it left none, or left them for another folder, or the file
 * cannot be read). A file changed in between is no new risk: the loader's own
 * digests were likewise taken before its workers read the files, and the next
 * build digests it again.
 */
export async function readSourceDigests(sourceDir: string, env: NodeJS.ProcessEnv = process.env): Promise<{ get(path: string): string | undefined } | undefined> {
  const file = env[SOURCE_DIGESTS_VARIABLE];
  if (!file) return undefined;
  try {
    const record = JSON.parse(await readFile(file, 'utf8')) as SourceDigests;
    if (record?.format !== 1 || record.source !== pathKey(await realFolder(sourceDir)) || typeof record.files !== 'object' || !record.files) return undefined;
    const files = new Map(Object.entries(record.files).filter((e): e is [string, string] => typeof e[1] === 'string' && /^[0-9a-f]{64}$/.test(e[1])));
    return { get: (path) => files.get(pathKey(path)) };
  } catch {
    return undefined;
  }
}
