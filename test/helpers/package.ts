import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { delimiter, join, relative } from 'node:path';
import { listFiles } from './build.js';
import { repoRoot } from './shared.js';

/**
 * The environment of a user's shell: the machine's own Node first (not the
 * repository's pinned Node 22 from node_modules/.bin, which `npm test` puts
 * in front), and none of the npm_* variables `npm run` sets.
 */
export function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const path = ['/usr/local/bin', ...(process.env.PATH ?? '').split(delimiter).filter((p) => p && !p.includes('node_modules'))];
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && k !== 'NODE' && k !== 'INIT_CWD'));
  return { ...env, PATH: [...new Set(path)].join(delimiter), ...extra };
}

export interface Run {
  code: number;
  /** stdout and stderr together, as a terminal shows them. */
  out: string;
  stdout: string;
}

/** Runs a command to its end, stdout and stderr together. */
export function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = userEnv()): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let stdout = '';
    child.stdout.on('data', (d) => {
      out += d;
      stdout += d;
    });
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ code: code ?? 1, out, stdout }));
  });
}

/** Packs the repository as npm would publish it; returns the tarball's path. */
export async function packRepository(into: string): Promise<string> {
  const packed = await run('npm', ['pack', '--pack-destination', into, '--silent'], repoRoot);
  if (packed.code !== 0) throw new Error(`npm pack failed:\n${packed.out}`);
  return join(into, packed.stdout.trim().split('\n').pop()!);
}

/** Installs packages (a tarball path among them) into a folder, as a user would. */
export async function install(dir: string, packages: string[]): Promise<void> {
  const done = await run('npm', ['install', ...packages, '--no-audit', '--no-fund'], dir);
  if (done.code !== 0) throw new Error(`npm install failed:\n${done.out}`);
}

/** Every file of an installed package: path, size and content digest, sorted. */
export function packageListing(dir: string): string[] {
  return listFiles(dir)
    .map((f) => `${relative(dir, f)} ${statSync(f).size} ${createHash('sha256').update(readFileSync(f)).digest('hex')}`)
    .sort();
}
