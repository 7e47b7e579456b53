/**
 * `sessionpress dev [SOURCE] [--cache DIR] [--config FILE]`
 *
 * Serves the site from Astro's dev server, rebuilt as session files change.
 */
import { ConfigError } from '../src/schemas/config.js';
import { parseCommandLine } from './lib/cli.js';
import { SITE_OPTIONS, SITE_USAGE } from './lib/site-options.js';
import { siteProject, withIntegration } from './lib/site-project.js';

const USAGE = `usage: sessionpress dev [SOURCE] [options]

  SOURCE          a folder laid out like ~/.claude/projects (default: "source" of the config, else ~/.claude/projects)
${SITE_USAGE}
  --port N        the port to listen on (default: 4321)`;

/** Starts the dev server; resolves with undefined while it runs, or an exit code (1 config error, 2 usage error). */
export async function main(argv: string[], out: (line: string) => void = console.log): Promise<number | undefined> {
  const cli = parseCommandLine(argv, { ...SITE_OPTIONS, port: { type: 'string' } }, USAGE, out, { max: 1 });
  if (!cli.ok) return cli.code;
  const { values, positionals } = cli;
  try {
    const project = await siteProject({ source: positionals[0], out: values.out, cache: values.cache, config: values.config });
    const { dev } = await import('astro');
    await dev({ ...(await withIntegration(project.astro, project.integration)), server: values.port ? { port: Number(values.port) } : {} });
    return undefined;
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    out(err.message);
    return 1;
  }
}
