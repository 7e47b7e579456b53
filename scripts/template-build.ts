/**
 * The template's `npm run build`: Astro's `astro build` with the same
 * arguments, skipped when nothing it reads changed since the last successful
 * build (scripts/lib/last-build.ts) — the sessions, the project's files, the
 * config, the packages and the SESSIONPRESS_* variables — and the output
 * folder is as that build left it. `--force` and SESSIONPRESS_ALWAYS_BUILD=1
 * always build.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { shownPath } from './lib/cli.js';
import { buildUnlessUnchanged } from './lib/last-build.js';

const args = process.argv.slice(2);
const root = process.cwd();
// Where Astro keeps its cache unless told otherwise; the record of the last build lives beside it.
const stampDir = resolve(root, process.env.SESSIONPRESS_CACHE_DIR ?? join('node_modules', '.astro'));
const astro = join(dirname(createRequire(join(root, 'package.json')).resolve('astro/package.json')), 'bin', 'astro.mjs');

const { code } = await buildUnlessUnchanged({
  stampDir,
  args,
  always: args.some((a) => a === '--force' || a === '--help' || a === '-h'),
  out: (line) => console.log(line),
  shown: (dir) => shownPath(dir, root),
  // Astro's own command line on this same Node (22, from the template's dev dependency), every argument as given.
  build: (env) =>
    new Promise((done) => {
      const child = spawn(process.execPath, [astro, 'build', ...args], { stdio: 'inherit', env: { ...process.env, ...env } });
      child.on('error', (err) => {
        console.error(`Could not start Astro: ${err.message}`);
        done(1);
      });
      child.on('close', (status, signal) => done(status ?? (signal ? 1 : 0)));
    }),
});
process.exitCode = code;
