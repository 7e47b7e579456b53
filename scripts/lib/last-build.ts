/**
 * A rebuild with nothing changed, in about a second (reading and hashing the
 * bench corpus and its site, 430 MB in 6,500 files) instead of Astro's own
 * start-up and bundling (~5 s even when every page is reused): the template's
 * `npm run build` and `sessionpress build` keep, beside the cache, what the
 * last successful build read (its inputs' digest, computed by the
 * integration before the loader read anything) and the digest of the output
 * folder it left. When both are unchanged the build is not started.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isVerbose } from '../../src/lib/build/progress.js';
import { digestTree } from '../../src/lib/fs/tree-digest.js';
import { createSafeTarget } from '../../src/lib/fs/safe-write.js';
import { ALWAYS_BUILD_VARIABLE, BUILD_FACTS_VARIABLE, canSkip, FINISH_PLAN_VARIABLE, siteInputs, SOURCE_DIGESTS_VARIABLE, sourceDigestsRecord, type BuildFolders, type SiteInputs } from '../../src/lib/build/site-inputs.js';

const STAMP = 'sessionpress-last-build.json';
/** Variables that never change what is built (the password is never kept, not even hashed: an encrypted site is always built). */
const NOT_INPUTS = new Set(['SESSIONPRESS_PASSWORD', FINISH_PLAN_VARIABLE, BUILD_FACTS_VARIABLE, SOURCE_DIGESTS_VARIABLE, ALWAYS_BUILD_VARIABLE, 'SESSIONPRESS_VERBOSE', 'SESSIONPRESS_REEXEC']);
const FACTS = 'sessionpress-build-facts.json';
/** Where the build hands over its last steps, run here once Astro's process has ended (src/integrations/finish.ts). */
const FINISH_PLAN = 'sessionpress-finish-plan.json';
/** The source files' digests taken here, handed to the loader for the build that follows (then removed). */
const SOURCE_DIGESTS = 'sessionpress-source-digests.json';
/**
 * mimalloc, the allocator of Vite's bundler (rolldown) in Astro's process,
 * keeps what bundling freed to the end of the build unless this is 0; set for
 * the build process unless the user set it (README, "large archives").
 */
const PURGE_DELAY_VARIABLE = 'MIMALLOC_PURGE_DELAY';
/**
 * From this size of source on, the build gives the bundler's memory back: at
 * 16x the bench corpus (4.2 GB) that is Astro's peak less 0.2 GB; below it the
 * peak is the loader's, before any bundling, and giving it back only costs
 * about 0.2 s of bundling a build (README, "large archives").
 */
const LARGE_SOURCE_BYTES = 512e6;

/** What is kept of the last successful build. */
interface LastBuild {
  format: 1;
  inputs: SiteInputs;
  /** The build's own arguments (`--outDir`, `--site`, …): another argument, another build. */
  args: string[];
  /** The folder it was run in: relative arguments and the config file are read from there. */
  cwd: string;
  /** A digest of the SESSIONPRESS_* variables the build was started with. */
  variables: string;
  outputs: string;
}

export interface BuildOnceOptions {
  /** The folder the record is kept in (the cache). */
  stampDir: string;
  args: string[];
  /** Build even when nothing changed (`--force`, SESSIONPRESS_ALWAYS_BUILD=1). */
  always: boolean;
  /** Runs the build with these extra environment variables; resolves to its exit code. */
  build: (env: Record<string, string>) => Promise<number>;
  out: (line: string) => void;
  /** How to name the output folder in the one line a skipped build prints. */
  shown: (outDir: string) => string;
  env?: NodeJS.ProcessEnv;
}

/**
 * Runs `build` unless the last successful build read exactly these inputs
 * and its output folder is still exactly as it left it; then prints one line
 * and returns 0 with the folders of that build. After a successful build, records what it read and wrote.
 */
export async function buildUnlessUnchanged(options: BuildOnceOptions): Promise<{ code: number; skipped: boolean; folders?: BuildFolders }> {
  const { stampDir, args, always, out, env = process.env } = options;
  const stamp = join(stampDir, STAMP);
  const facts = join(stampDir, FACTS);
  const digestsFile = join(stampDir, SOURCE_DIGESTS);
  const planFile = join(stampDir, FINISH_PLAN);
  const alwaysBuild = always || env[ALWAYS_BUILD_VARIABLE] === '1';
  // The inputs as digested here, before the build starts: the integration takes them as they are when its folders are these.
  let digested: SiteInputs | undefined;
  const fileDigests = new Map<string, string>();
  const started = performance.now();
  const last = await readJson<LastBuild>(stamp);
  if (!alwaysBuild) {
    if (last?.format === 1 && sameArgs(last.args, args) && last.cwd === process.cwd() && last.variables === variablesDigest(env) && canSkip(last.inputs.folders)) {
      const now = await siteInputs(last.inputs.folders, fileDigests);
      digested = now;
      // The output is read only when the inputs are unchanged: a build that must run anyway does not wait for it.
      if (now.digest === last.inputs.digest && (await outputDigest(last.inputs.folders.outDir)) === last.outputs) {
        const seconds = ((performance.now() - started) / 1000).toFixed(1);
        out(`Nothing changed since the last build: ${options.shown(last.inputs.folders.outDir)} is up to date (${now.sourceFiles} session file${now.sourceFiles === 1 ? '' : 's'}, ${(now.sourceBytes / 1e6).toFixed(1)} MB, checked in ${seconds} s; --force builds it again).`);
        return { code: 0, skipped: true, folders: last.inputs.folders };
      }
    }
  }
  // Taken before the build: the command line consumes the variables it reads.
  const variables = variablesDigest(env);
  const cwd = process.cwd();
  const cache = createSafeTarget(stampDir);
  await cache.remove(stamp);
  await cache.remove(facts);
  await cache.remove(digestsFile);
  await cache.remove(planFile);
  const buildEnv: Record<string, string> = { [BUILD_FACTS_VARIABLE]: facts, [FINISH_PLAN_VARIABLE]: planFile };
  // The size is the last build's (the source is listed only by the build itself); a first build, not knowing it, gives the memory back.
  const lastSize = last?.format === 1 ? last.inputs.sourceBytes : undefined;
  if (env[PURGE_DELAY_VARIABLE] === undefined && !(typeof lastSize === 'number' && lastSize < LARGE_SOURCE_BYTES)) buildEnv[PURGE_DELAY_VARIABLE] = '0';
  if (digested) {
    await cache.writeFile(facts, JSON.stringify(digested));
    // A rebuild: every session file was just read to decide; the loader takes these digests instead of reading them again.
    await cache.writeFile(digestsFile, JSON.stringify(await sourceDigestsRecord(digested.folders.sourceDir, fileDigests)));
    buildEnv[SOURCE_DIGESTS_VARIABLE] = digestsFile;
  }
  let code = await options.build(buildEnv).finally(() => cache.remove(digestsFile));
  if (code === 0) code = await finish(planFile, args, env);
  if (code === 0) {
    const read = await readJson<SiteInputs>(facts);
    const outputs = read && canSkip(read.folders) ? await outputDigest(read.folders.outDir) : undefined;
    if (read && outputs) await cache.writeFile(stamp, `${JSON.stringify({ format: 1, inputs: read, args, cwd, variables, outputs } satisfies LastBuild)}\n`);
  }
  return { code, skipped: false };
}

/**
 * Runs the steps the build handed over (the search index, the output folder's
 * pruning, the encryption) now that Astro's process has ended; 1 when one
 * fails, with the reason on stderr, as a failing hook would have failed the build.
 */
async function finish(planFile: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  try {
    // Loaded only now: a rebuild that finds nothing changed never needs it (0.2 s and 30 MB of modules).
    const { finishBuild } = await import('../../src/integrations/finish.js');
    await finishBuild(planFile, { verbose: isVerbose(args.includes('--verbose') ? 'debug' : undefined, env) });
    return 0;
  } catch (err) {
    process.stderr.write(`The build could not be finished: ${(err as Error).message}\n`);
    return 1;
  }
}

/** A digest of the SESSIONPRESS_* variables that can change what is built, with their values. */
function variablesDigest(env: NodeJS.ProcessEnv): string {
  const names = Object.keys(env).filter((k) => k.startsWith('SESSIONPRESS_') && !NOT_INPUTS.has(k)).sort();
  return createHash('sha256').update(JSON.stringify(names.map((k) => [k, env[k]]))).digest('hex');
}

/** The output folder's digest, or undefined when it holds no page or holds a link (then it is always built again). */
async function outputDigest(outDir: string): Promise<string | undefined> {
  try {
    const tree = await digestTree(outDir);
    return tree.files && !tree.links ? tree.digest : undefined;
  } catch {
    return undefined;
  }
}

async function readJson<T>(file: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

function sameArgs(a: unknown, b: string[]): boolean {
  return Array.isArray(a) && a.length === b.length && a.every((x, i) => x === b[i]);
}
