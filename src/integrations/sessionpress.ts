import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AstroIntegration } from 'astro';
import type { Plugin } from 'vite';
import { isInteractive, isVerbose } from '../lib/build/progress.js';
import { checkIntegrationOptions, ConfigError, loadConfig, type SessionpressConfig, type SessionpressOptions, type SiteConfig } from '../schemas/config.js';
import { createOutputLedger } from '../lib/fs/output-ledger.js';
import { createSafeTarget } from '../lib/fs/safe-write.js';
import type { DeferredFinish } from '../lib/build/finish-plan.js';
import { BUILD_FACTS_VARIABLE, FINISH_PLAN_VARIABLE, siteInputs, type SiteInputs } from '../lib/build/site-inputs.js';
import { prestartSessionPool } from '../lib/build/worker-pool.js';
import { describeCollection, SETTLE_BEFORE_BUNDLING_ABOVE, settleHeapAbove, watchHeapGrowth } from '../lib/build/heap-growth.js';
import { NO_PASSWORD, PASSWORD_VARIABLE } from '../lib/encrypt/site.js';
import { encryptIntegration, plainDirOf } from './encrypt.js';
import { finishPlanIntegration } from './finish.js';
import { lazyHighlightIntegration } from './lazy-highlight.js';
import { outDirIntegration } from './out-dir.js';
import { pagefindIntegration } from './pagefind.js';
import { installQuietLog } from './quiet-log.js';
import { injectedRoutes } from './routes.js';

/** The module pages, components and the content config import the validated user config from. */
export const CONFIG_MODULE = 'virtual:sessionpress/config';

/**
 * The Sessionpress integration, the one way the pages get into a site: the
 * template, the command line and a host site all add it. It validates its
 * options and the user's config once, in `astro:config:setup` (as Starlight
 * does with its own), injects the pages under `prefix`, adds the search index
 * and the browser highlighter, quiets the build log (src/integrations/quiet-log.ts),
 * and hands the result to the content config, pages and components through
 * `virtual:sessionpress/config`, so no page reads the file again. With
 * `standalone` (the template, the command line) it also owns the output folder
 * and sets the site-wide settings the pages expect; a host site keeps its own.
 */
export function sessionpress(options: SessionpressOptions = {}): AstroIntegration {
  let site: SiteConfig | undefined;
  return {
    name: 'sessionpress',
    hooks: {
      'astro:config:setup': async ({ config, command, updateConfig, injectRoute, logger }) => {
        const root = fileURLToPath(config.root);
        const { notes, standalone, ...fields } = orExit(() => checkIntegrationOptions(options));
        // Progress in place on a terminal (not over a logger the site configured itself, JSON lines say: there
        // progress is plain lines). Astro's page-by-page listing is counted unless verbose, on a site of our
        // own only: a host site's pages are its own to list.
        installQuietLog(logger, { verbose: isVerbose(logger.options.level) || !standalone, interactive: isInteractive() && !config.logger });
        // Only the fields the options really name: the schema's defaults would hide the file's values.
        const given = Object.fromEntries(Object.keys(fields).filter((k) => k in options).map((k) => [k, options[k as keyof SessionpressOptions]]));
        // A host site's own `site` and `base` hold unless the options, the file or the environment say otherwise.
        const user = orExit(() => loadConfig(root, process.env, { inline: given, defaults: { site: config.site, base: config.base } }));
        const notesDir = process.env.SESSIONPRESS_NOTES || notes;
        // SESSIONPRESS_CACHE_DIR (tests, the bench, the deploy workflow) moves everything a rebuild reuses.
        const cacheDir = process.env.SESSIONPRESS_CACHE_DIR ? resolve(root, process.env.SESSIONPRESS_CACHE_DIR) : fileURLToPath(config.cacheDir);
        site = { ...user, cacheDir, notesDir: notesDir ? resolve(root, notesDir) : undefined };
        // Once a build is large, its heap holds at most half again what is alive, not up to four times
        // (src/lib/build/heap-growth.ts); the loader's threads share the bound.
        if (command === 'build') watchHeapGrowth();
        // The loader's first worker thread warms up while Astro starts (about a second it would wait otherwise).
        if (command === 'build' || command === 'dev') prestartSessionPool(cacheDir);
        const routes = injectedRoutes(user.prefix, !!notesDir);
        for (const route of routes) injectRoute(route);
        // Shared by the integrations that write into the output folder; the out-dir keeper comes last, so
        // its `astro:build:done` runs after theirs and removes whatever none of them produced.
        const ledger = createOutputLedger();
        // An encrypted site (issue 29) is built in plaintext into the cache, then sealed into the output folder
        // by the encrypt integration, which comes after every other one. Only `build` encrypts: `dev` serves
        // the plaintext site on this machine, `preview` serves the encrypted output folder as it is.
        // A command that started this build in a process of its own finishes it once that process has ended: the
        // search index, the pruning and the encryption are handed over in a file instead of run here (finish.ts).
        const planFile = standalone && command === 'build' ? process.env[FINISH_PLAN_VARIABLE] : undefined;
        const deferred: DeferredFinish | undefined = planFile ? {} : undefined;
        const encrypt = user.encrypt && command === 'build' ? encryptOutput(config.outDir, cacheDir, user, standalone, deferred) : undefined;
        const integrations = [
          pagefindIntegration({ shardBytes: user.search.shardSizeMB * 1e6, ledger, prefix: user.prefix, routes: routes.map((r) => r.pattern), deferred }),
          lazyHighlightIntegration(ledger, user.prefix),
          ...(standalone ? [outDirIntegration(ledger, deferred)] : []),
          ...(encrypt ? [encrypt.integration] : []),
          ...(planFile && deferred ? [finishPlanIntegration(deferred, ledger, planFile)] : []),
        ];
        updateConfig({
          ...(user.site !== config.site ? { site: user.site } : {}),
          ...(user.base !== withoutTrailingSlash(config.base) ? { base: user.base } : {}),
          // A URL, as Astro holds it once resolved: updateConfig does not resolve it again.
          cacheDir: pathToFileURL(`${cacheDir}/`),
          ...(encrypt ? { outDir: pathToFileURL(`${encrypt.plainDir}/`) } : {}),
          integrations,
          vite: {
            plugins: [configModulePlugin(() => site!), outsideRootPlugin(root)],
            build: { rollupOptions: { onwarn: quietWarnings } },
          },
        });
        if (standalone) updateConfig(standaloneSettings(cacheDir));
        // Digested before the loader reads a session (a session written to during the build then makes the next one
        // build again): by the command that started this build when it read these very folders, else here.
        const factsFile = process.env[BUILD_FACTS_VARIABLE];
        if (factsFile && standalone && command === 'build') {
          const folders = { root, sourceDir: user.sourceDir, outDir: fileURLToPath(config.outDir), cacheDir, notesDir: site.notesDir, configFile: user.configFile, repo: user.repo, encrypt: user.encrypt };
          const given = await readFile(factsFile, 'utf8').then((text) => JSON.parse(text) as SiteInputs, () => undefined);
          if (JSON.stringify(given?.folders) !== JSON.stringify(folders)) await createSafeTarget(dirname(factsFile)).writeFile(factsFile, JSON.stringify(await siteInputs(folders)));
        }
      },
      // Runs once the content is synced, before Astro bundles the pages: in a large build, what syncing left on
      // the heap goes first, and the heap's growth is bounded from here (heap-growth.ts).
      'astro:build:start': ({ logger }) => {
        const heap = settleHeapAbove(SETTLE_BEFORE_BUNDLING_ABOVE);
        if (heap) logger.debug(`heap before bundling: ${describeCollection(heap)}`);
      },
    },
  };
}

/**
 * How many pages Astro renders at once. Rendering is one thread's work, but
 * each page is written to disk through Node's thread pool, and with 4 pages at
 * once a CPU profile showed the thread idle, waiting on writes, for a fifth of
 * the pages step. Bench corpus, alternating: cold builds, four each, the step
 * took 4.96–6.68 s at 16 against 5.20–7.82 s at 4; every page rendered again
 * with the loader's work kept, six each, 7.6 s against 9.4 s (medians). 32
 * and 64 did no better than 16.
 */
export const PAGE_CONCURRENCY = 16;

/**
 * What a Sessionpress site of its own sets for the whole site: every URL ends
 * in `/` (as src/lib/site/urls.ts writes them); pages are copied from the last
 * build when unchanged (Astro 7.2+ incremental builds: the session pages give
 * a `cacheKey`, src/lib/build/page-key.ts); Vite's dependency cache sits
 * beside Astro's (not a shared node_modules/.vite), so builds with different
 * cache folders never invalidate each other's; the output folder is kept
 * between builds, so reused pages stay in place (out-dir.ts removes whatever
 * this build did not produce).
 */
function standaloneSettings(cacheDir: string) {
  return {
    trailingSlash: 'always' as const,
    build: { format: 'directory' as const, concurrency: PAGE_CONCURRENCY },
    devToolbar: { enabled: false },
    experimental: { incrementalBuild: true },
    vite: { cacheDir: join(cacheDir, 'vite'), build: { emptyOutDir: false } },
  };
}

/**
 * The encrypt integration for a build with `encrypt` on, and the folder Astro builds the plaintext site
 * into instead of `outDir`. Stops with one line when the password is missing, or when the site is a host
 * site's (its own pages and output folder are not ours to encrypt or move).
 */
function encryptOutput(outDir: URL, cacheDir: string, user: SessionpressConfig, standalone: boolean, deferred: DeferredFinish | undefined) {
  if (!standalone) stop('sessionpress: "encrypt" needs a Sessionpress site of its own (the command line, or sessionpress({ standalone: true })); a host site publishes its own pages.');
  if (!process.env[PASSWORD_VARIABLE]) stop(NO_PASSWORD);
  const target = fileURLToPath(outDir).replace(/[\\/]$/, '');
  const plainDir = plainDirOf(cacheDir);
  // The output folder is emptied of whatever the encryption did not write: it must not hold the cache, nor lie inside it.
  const inside = (a: string, b: string) => a === b || a.startsWith(`${b}${sep}`);
  if (inside(plainDir, target) || inside(target, cacheDir)) stop(`sessionpress: the output folder of an encrypted site (${target}) and the cache folder (${cacheDir}) must not contain each other.`);
  return { plainDir, integration: encryptIntegration({ outDir: target, cacheDir, site: user.site, base: user.base }, deferred) };
}

/** One line on stderr and exit code 1: a setting the user must fix before anything is built. */
function stop(line: string): never {
  process.stderr.write(`${line}\n`);
  process.exit(1);
}

/** `/repo/` → `/repo`; `/` stays. */
function withoutTrailingSlash(base: string): string {
  return base === '/' ? base : base.replace(/\/+$/, '');
}

/**
 * The value, or one clear block on stderr and exit code 1 for a config error:
 * a config error is the user's to fix, and Astro would bury it under "Unable
 * to load your Astro config" and a stack trace of our own code.
 */
function orExit<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`\n${err.message}\n\nFix the configuration and run the command again.\n\n`);
    process.exit(1);
  }
}

/**
 * Drops the bundler's warning about Astro's own `"use astro:head-inject"`
 * directive in MDX notes: it is harmless, Astro's to fix, and it arrives with
 * raw colour codes and a code frame even when the log goes to a file.
 */
function quietWarnings(warning: { code?: string; message: string }, warn: (w: { code?: string; message: string }) => void): void {
  if (warning.code === 'MODULE_LEVEL_DIRECTIVE' && warning.message.includes('astro:head-inject')) return;
  warn(warning);
}

/**
 * Lets the package's components live outside the project's root, as they do
 * for the command line (whose root is in the cache folder): Astro reads an
 * absolute path outside the root as relative to the root when it loads a
 * component's styles and scripts (`X.astro?astro&type=style…`), unless it is
 * written as Vite's `/@fs/` path, which this gives it; what such a script
 * imports is then resolved from the real file. Paths inside the root (a host
 * site's node_modules, the template) are left alone.
 */
function outsideRootPlugin(root: string): Plugin {
  const inRoot = `${root.replace(/[\\/]$/, '')}/`;
  return {
    name: 'sessionpress:outside-root',
    enforce: 'pre',
    resolveId(id, importer) {
      if (importer?.startsWith('/@fs/') && id.startsWith('.')) return this.resolve(id, importer.slice('/@fs'.length).split('?')[0], { skipSelf: true });
      // The dev server asks for these by their `/@fs/` URL already.
      const file = id.startsWith('/@fs/') ? id.slice('/@fs'.length) : id;
      const [path] = file.split('?', 1);
      if (!path.endsWith('.astro') || !file.includes('?astro') || !isAbsolute(path) || path.startsWith(inRoot) || !existsSync(path)) return undefined;
      return `/@fs${file}`;
    },
  };
}

/** Serves the validated config as a module: plain JSON, so it is the same value everywhere. */
function configModulePlugin(config: () => SiteConfig): Plugin {
  const resolved = `\0${CONFIG_MODULE}`;
  return {
    name: 'sessionpress:config',
    resolveId: (id) => (id === CONFIG_MODULE ? resolved : undefined),
    load: (id) => (id === resolved ? `export default ${JSON.stringify(config())};` : undefined),
  };
}
