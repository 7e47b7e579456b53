/**
 * `sessionpress preview [--out DIR] [--config FILE] [--port N]`
 *
 * Serves a built site locally, under its base path, search included.
 */
import { existsSync } from 'node:fs';
import { ConfigError } from '../src/schemas/config.js';
import { parseCommandLine, shownPath } from './lib/cli.js';
import { SITE_OPTIONS, SITE_USAGE } from './lib/site-options.js';
import { siteProject } from './lib/site-project.js';

const USAGE = `usage: sessionpress preview [options]

${SITE_USAGE}
  --port N        the port to listen on (default: 4321)`;

/** Starts the preview server; resolves with undefined while it runs, or an exit code (1 nothing to serve or a config error, 2 usage error). */
export async function main(argv: string[], out: (line: string) => void = console.log): Promise<number | undefined> {
  const cli = parseCommandLine(argv, { ...SITE_OPTIONS, port: { type: 'string' } }, USAGE, out, { max: 0 });
  if (!cli.ok) return cli.code;
  const { values } = cli;
  try {
    // The built site needs no source: only its base path and address, from the same config.
    const { config, outDir, astro, cwd } = await siteProject({ out: values.out, cache: values.cache, config: values.config }, process.env, false);
    if (!existsSync(outDir)) {
      out(`There is no site in ${shownPath(outDir, cwd)} yet: build one with npx sessionpress build${values.out ? ` --out ${values.out}` : ''}.`);
      return 1;
    }
    const { preview } = await import('astro');
    await preview({ root: astro.root, configFile: false, outDir, cacheDir: astro.cacheDir, base: config.base, site: config.site, trailingSlash: 'always', server: values.port ? { port: Number(values.port) } : {} });
    return undefined;
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    out(err.message);
    return 1;
  }
}
