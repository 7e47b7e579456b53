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
import { NODE_STRIPS_TYPES } from '../bin/node-hooks.mjs';
import { REGISTER_TYPESCRIPT, shownPath } from './lib/cli.js';
import { buildUnlessUnchanged } from './lib/last-build.js';

const args = process.argv.slice(2);
const root = process.cwd();
// Where Astro keeps its cache unless told otherwise; the record of the last build lives beside it.
const stampDir = resolve(root, process.env.SESSIONPRESS_CACHE_DIR ?? join('node_modules', '.astro'));
const astro = join(dirname(createRequire(join(root, 'package.json')).resolve('astro/package.json')), 'bin', 'astro.mjs');
// Our TypeScript hooks, as `sessionpress build` starts Astro with them: Astro then imports the config with Node's
// own import (resolving it took 0.20–0.22 s against 0.42–0.51 s through Vite). Not on Node 22.12 to 22.14, where
// the hooks are tsx's, which slow every import Astro makes (bin/node-hooks.mjs).
const hooks = NODE_STRIPS_TYPES ? ['--import', REGISTER_TYPESCRIPT] : [];

const { code } = await buildUnlessUnchanged({
  stampDir,
  args,
  always: args.some((a) => a === '--force' || a === '--help' || a === '-h'),
  out: (line) => console.log(line),
  shown: (dir) => shownPath(dir, root),
  // Astro's own command line on this same Node (22, from the template's dev dependency), every argument as given.
  build: (env) =>
    new Promise((done) => {
      const child = spawn(process.execPath, [...hooks, astro, 'build', ...args], { stdio: 'inherit', env: { ...process.env, ...env } });
      child.on('error', (err) => {
        console.error(`Could not start Astro: ${err.message}`);
        done(1);
      });
      child.on('close', (status, signal) => done(status ?? (signal ? 1 : 0)));
    }),
});
process.exitCode = code;
