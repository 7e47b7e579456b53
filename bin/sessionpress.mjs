#!/usr/bin/env node
// The `sessionpress` command. Plain JavaScript that any Node can parse: Astro 7 needs Node 22.12 or
// later, so on an older Node this file runs itself again on the Node 22 the package depends on (the
// `node` package), or says in one line what to install. The commands themselves are TypeScript,
// loaded through tsx (scripts/cli.ts).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const NEEDED = [22, 12];
const [major, minor] = process.versions.node.split('.').map(Number);

if (major < NEEDED[0] || (major === NEEDED[0] && minor < NEEDED[1])) {
  const node = bundledNode();
  // SESSIONPRESS_REEXEC: the Node found was too old as well; never loop.
  if (!node || process.env.SESSIONPRESS_REEXEC) {
    console.error(`sessionpress needs Node ${NEEDED.join('.')} or later (this is ${process.version}): install Node 22 from https://nodejs.org and run it again.`);
    process.exit(1);
  }
  const run = spawnSync(node, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit', env: { ...process.env, SESSIONPRESS_REEXEC: '1' } });
  if (run.error) {
    console.error(`sessionpress could not start ${node} (${run.error.message}): install Node 22 from https://nodejs.org and run it again.`);
    process.exit(1);
  }
  process.exit(run.status ?? 1);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  const { main } = await import('../scripts/cli.ts');
  const code = await main(process.argv.slice(2));
  // undefined: a server (dev, preview) keeps the process running.
  if (code !== undefined) {
    process.exitCode = code;
    // A handle some library left open must not keep a finished command waiting.
    setTimeout(() => process.exit(code), 2000).unref();
  }
}

/** The binary of the `node` package this package depends on, if it was installed for this platform. */
function bundledNode() {
  try {
    const bin = join(dirname(createRequire(import.meta.url).resolve('node/package.json')), 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
    return existsSync(bin) ? bin : undefined;
  } catch {
    return undefined;
  }
}
