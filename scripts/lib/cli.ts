import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';

/**
 * The hooks that let Node load our TypeScript (bin/register-typescript.mjs).
 * The processes our commands start to run Astro start with them: Astro then
 * imports the config, and the integration with it, with Node's own import,
 * instead of failing to and starting a Vite server to load it.
 */
export const REGISTER_TYPESCRIPT = fileURLToPath(new URL('../../bin/register-typescript.mjs', import.meta.url));

/** Parsed flags and positionals of a command line, or the exit code to return at once. */
export type CommandLine<T extends ParseArgsOptionsConfig> =
  | { ok: true; values: ReturnType<typeof parseArgs<{ args: string[]; options: T; allowPositionals: true }>>['values']; positionals: string[] }
  | { ok: false; code: number };

/**
 * The one way the scripts read their arguments: `--help`/`-h` prints the usage
 * (exit 0); an unknown flag, a missing value or too many positionals print the
 * problem and the usage (exit 2). `print` is one function for both, or the help's
 * and the problems' own (standard output and standard error).
 */
export function parseCommandLine<T extends ParseArgsOptionsConfig>(
  argv: string[],
  options: T,
  usage: string,
  print: ((line: string) => void) | { out: (line: string) => void; err: (line: string) => void },
  positionals: { min?: number; max?: number } = {},
): CommandLine<T> {
  const { out: help, err: out } = typeof print === 'function' ? { out: print, err: print } : print;
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: true });
  } catch (err) {
    out(`${(err as Error).message}\n\n${usage}`);
    return { ok: false, code: 2 };
  }
  if ((parsed.values as { help?: boolean }).help) {
    help(usage);
    return { ok: false, code: 0 };
  }
  const n = parsed.positionals.length;
  const { min = 0, max = Infinity } = positionals;
  if (n < min || n > max) {
    out(`${max === min ? `expected ${min}` : n > max ? `at most ${max}` : `at least ${min}`} argument${(n > max ? max : min) === 1 ? '' : 's'}, got ${n}\n\n${usage}`);
    return { ok: false, code: 2 };
  }
  return { ok: true, values: parsed.values as never, positionals: parsed.positionals };
}

/** A path as the user would type it from the folder they ran the command in. */
export function shownPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return !rel ? '.' : rel.startsWith('..') ? path : `./${rel}`;
}

/** The package's version, from its package.json (this file is scripts/lib/cli.ts). */
export function version(): string {
  return JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;
}
