import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from './shared.js';

/**
 * Runs `source` as a program in a fresh Node (its heap and V8 flags are the
 * process's own, as a build's are), with the TypeScript module at `module`
 * (relative to the repository) as its first argument, and returns what it
 * printed as JSON. The program is written into `dir` as `name`.
 */
export function runInFreshNode<T>(dir: string, name: string, source: string, module: string, options: { nodeArgs?: string[]; args?: string[] } = {}): T {
  const file = join(dir, name);
  writeFileSync(file, source);
  const entry = pathToFileURL(join(repoRoot, module)).href;
  const register = pathToFileURL(join(repoRoot, 'bin', 'register-typescript.mjs')).href;
  const child = spawnSync(process.execPath, [...(options.nodeArgs ?? []), '--import', register, file, entry, ...(options.args ?? [])], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(child.stderr);
  return JSON.parse(child.stdout) as T;
}
