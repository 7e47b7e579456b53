import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AstroIntegration } from 'astro';
import type { Plugin } from 'vite';
import { isInteractive, isVerbose } from '../lib/build/progress.js';
import { astroCacheDir } from '../lib/build/render-cache.js';
import { ConfigError, loadConfig, type SessionpressConfig } from '../schemas/config.js';
import { createOutputLedger } from '../lib/fs/output-ledger.js';
import { lazyHighlightIntegration } from './lazy-highlight.js';
import { outDirIntegration } from './out-dir.js';
import { pagefindIntegration } from './pagefind.js';
import { installQuietLog } from './quiet-log.js';

/** The module pages, components and the content config import the validated user config from. */
export const CONFIG_MODULE = 'virtual:sessionpress/config';

/**
 * The Sessionpress integration. It reads and validates the user's config once,
 * in `astro:config:setup` (as Starlight does with its own), sets what Astro
 * needs from it (site, base, cache folder), adds the search index, the
 * browser highlighter and the output folder's keeper, quiets the build log
 * (src/integrations/quiet-log.ts), and hands
 * the result to the content config, pages and components through the virtual
 * module `virtual:sessionpress/config`, so no page reads the file again.
 */
export function sessionpress(): AstroIntegration {
  return {
    name: 'sessionpress',
    hooks: {
      'astro:config:setup': ({ config, updateConfig, logger }) => {
        // Astro's page-by-page listing counted unless verbose, progress in place on a terminal. Not drawn
        // over a logger the site configured itself (JSON lines, say): there progress is plain lines.
        installQuietLog(logger, { verbose: isVerbose(logger.options.level), interactive: isInteractive() && !config.logger });
        const root = fileURLToPath(config.root);
        const user = loadConfigOrExit(root);
        // Shared by the integrations that write into the output folder; the out-dir keeper comes last, so
        // its \`astro:build:done\` runs after theirs and removes whatever none of them produced.
        const ledger = createOutputLedger();
        const settings = {
          site: user.site,
          base: user.base,
          // A URL, as Astro holds it once resolved: updateConfig does not resolve it again.
          cacheDir: pathToFileURL(`${astroCacheDir(root)}/`),
          integrations: [pagefindIntegration({ shardBytes: user.search.shardSizeMB * 1e6, ledger }), lazyHighlightIntegration(ledger), outDirIntegration(ledger)],
          vite: { plugins: [configModulePlugin(user)], build: { rollupOptions: { onwarn: quietWarnings } } },
        };
        updateConfig(settings);
      },
    },
  };
}

/**
 * The user's config, or one clear block on stderr and exit code 1: a config
 * error is the user's to fix, and Astro would bury it under "Unable to load
 * your Astro config" and a stack trace of our own code.
 */
function loadConfigOrExit(root: string): SessionpressConfig {
  try {
    return loadConfig(root);
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

/** Serves the validated config as a module: plain JSON, so it is the same value everywhere. */
function configModulePlugin(config: SessionpressConfig): Plugin {
  const resolved = `\0${CONFIG_MODULE}`;
  return {
    name: 'sessionpress:config',
    resolveId: (id) => (id === CONFIG_MODULE ? resolved : undefined),
    load: (id) => (id === resolved ? `export default ${JSON.stringify(config)};` : undefined),
  };
}
