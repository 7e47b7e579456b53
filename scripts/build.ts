/**
 * `sessionpress build [SOURCE] [--out DIR] [--cache DIR] [--config FILE] [--force]`
 *
 * Builds a site from a folder laid out like `~/.claude/projects` (by default
 * that one), redacted on the way in as always, into `./sessionpress-site`,
 * and says where it is and how to look at it.
 */
import type { AstroInlineConfig } from 'astro';
import { NO_PASSWORD, PASSWORD_VARIABLE } from '../src/lib/encrypt/site.js';
import { ConfigError } from '../src/schemas/config.js';
import { parseCommandLine } from './lib/cli.js';
import { DEFAULT_CACHE, DEFAULT_OUT, shownPath, SITE_OPTIONS, SITE_USAGE, siteProject } from './lib/site-project.js';

const USAGE = `usage: sessionpress build [SOURCE] [options]

  SOURCE          a folder laid out like ~/.claude/projects, or one project folder of it
                  (default: "source" of the config, else ~/.claude/projects)
${SITE_USAGE}
  --force         build every page again, reusing nothing from the cache
  --encrypt       publish the site encrypted, with the password in SESSIONPRESS_PASSWORD (as "encrypt": true in the config)`;

export interface BuildDeps {
  out?: (line: string) => void;
  /** Astro's build, replaceable so tests of the argument handling need not build. */
  build?: (config: AstroInlineConfig) => Promise<void>;
}

/** Runs the build; returns the exit code (0 built, 1 the build or the config failed, 2 usage error). */
export async function main(argv: string[], deps: BuildDeps = {}): Promise<number> {
  const out = deps.out ?? ((line: string) => console.log(line));
  const cli = parseCommandLine(argv, { ...SITE_OPTIONS, force: { type: 'boolean' }, encrypt: { type: 'boolean' } }, USAGE, out, { max: 1 });
  if (!cli.ok) return cli.code;
  const { values, positionals } = cli;
  let project;
  try {
    project = await siteProject({ source: positionals[0], out: values.out, cache: values.cache, config: values.config, encrypt: values.encrypt });
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    out(err.message);
    return 1;
  }
  // Checked before anything is built: the integration would stop the build later with the same line.
  if (project.config.encrypt && !process.env[PASSWORD_VARIABLE]) {
    out(NO_PASSWORD);
    return 1;
  }
  const build = deps.build ?? (await import('astro')).build;
  try {
    await build({ ...project.astro, force: values.force ?? false });
  } catch (err) {
    // Astro has logged what went wrong, with its own hints.
    out(`The build failed: ${(err as Error).message}`);
    return 1;
  }
  const flags = [values.out && values.out !== DEFAULT_OUT && `--out ${values.out}`, values.cache && values.cache !== DEFAULT_CACHE && `--cache ${values.cache}`, values.config && `--config ${values.config}`].filter(Boolean);
  out(`\nThe site is in ${shownPath(project.outDir, project.cwd)} (sessions from ${project.config.sourceDir}, redacted${project.config.encrypt ? ', encrypted' : ''}).`);
  out(`Look at it: npx sessionpress preview${flags.length ? ` ${flags.join(' ')}` : ''}  (or publish the folder as it is)`);
  return 0;
}
