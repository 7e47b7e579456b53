/**
 * `sessionpress build [SOURCE] [--out DIR] [--cache DIR] [--config FILE] [--force]`
 *
 * Builds a site from a folder laid out like `~/.claude/projects` (by default
 * that one), redacted on the way in as always, into `./sessionpress-site`,
 * and says where it is and how to look at it.
 */
import { resolve } from 'node:path';
import { NO_PASSWORD, PASSWORD_VARIABLE } from '../src/lib/encrypt/site.js';
import { ConfigError } from '../src/schemas/config.js';
import { parseCommandLine, shownPath } from './lib/cli.js';
import { buildUnlessUnchanged } from './lib/last-build.js';
import { DEFAULT_CACHE, DEFAULT_OUT, SITE_OPTIONS, SITE_USAGE } from './lib/site-options.js';

const USAGE = `usage: sessionpress build [SOURCE] [options]

  SOURCE          a folder laid out like ~/.claude/projects, or one project folder of it
                  (default: "source" of the config, else ~/.claude/projects)
${SITE_USAGE}
  --force         build every page again, reusing nothing from the cache
  --encrypt       publish the site encrypted, with the password in SESSIONPRESS_PASSWORD (as "encrypt": true in the config)`;

export interface BuildDeps {
  out?: (line: string) => void;
}

/** Runs the build; returns the exit code (0 built, 1 the build or the config failed or the source holds no session, 2 usage error). */
export async function main(argv: string[], deps: BuildDeps = {}): Promise<number> {
  const out = deps.out ?? ((line: string) => console.log(line));
  const cli = parseCommandLine(argv, { ...SITE_OPTIONS, force: { type: 'boolean' }, encrypt: { type: 'boolean' } }, USAGE, out, { max: 1 });
  if (!cli.ok) return cli.code;
  const { values, positionals } = cli;
  const cwd = process.cwd();
  let site: { outDir: string; sourceDir: string; encrypt: boolean } | undefined;
  const result = await buildUnlessUnchanged({
    // The record of the last build is checked before the project and its integration are even loaded.
    stampDir: resolve(values.cache ?? DEFAULT_CACHE),
    args: argv,
    always: values.force ?? false,
    out,
    shown: (dir) => shownPath(dir, cwd),
    build: async (env) => {
      const { siteProject } = await import('./lib/site-project.js');
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
      // A folder with no session (often ~/.claude given for ~/.claude/projects) would build an empty site: say so instead.
      const { discoverSources, noSessionsMessage } = await import('../src/lib/discover.js');
      if (!(await discoverSources(project.config.sourceDir, { homeNames: false })).sessions.length) {
        out(await noSessionsMessage(project.config.sourceDir));
        return 1;
      }
      site = { outDir: project.outDir, sourceDir: project.config.sourceDir, encrypt: project.config.encrypt };
      // Astro builds in a process of its own, so that what it held is gone before the steps this command
      // finishes the build with (the search index above all) start (scripts/lib/build-child.ts).
      const { buildInChild } = await import('./lib/build-child.js');
      return buildInChild({ astro: project.astro, integration: project.integration, force: values.force ?? false }, process.cwd(), env);
    },
  });
  if (result.code !== 0) return result.code;
  site ??= result.folders;
  const flags = [values.out && values.out !== DEFAULT_OUT && `--out ${values.out}`, values.cache && values.cache !== DEFAULT_CACHE && `--cache ${values.cache}`, values.config && `--config ${values.config}`].filter(Boolean);
  if (site) out(`\nThe site is in ${shownPath(site.outDir, cwd)} (sessions from ${site.sourceDir}, redacted${site.encrypt ? ', encrypted' : ''}).`);
  out(`Look at it: npx sessionpress preview${flags.length ? ` ${flags.join(' ')}` : ''}  (or publish the folder as it is)`);
  return 0;
}
