/**
 * Astro's build for `sessionpress build`, in a process of its own. The command
 * (scripts/build.ts) prepares the project and sends it to this process over
 * Node's IPC channel: not as an argument, which Linux caps at 128 KiB and `ps`
 * shows every user, nor as a file, as the config's redaction lists hold
 * personal strings. The steps after Astro's (the search index, the output
 * folder's pruning, the encryption) are handed back in a file and run by the
 * command once this process, and everything Astro and Vite's bundler held in
 * it, have gone (src/integrations/finish.ts). The template's `npm run build`
 * starts Astro's own command line the same way.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { SessionpressOptions } from '../../src/schemas/config.js';
import { REGISTER_TYPESCRIPT } from './cli.js';
import { withIntegration, type SiteProject } from './site-project.js';

/** What the build process is given: the inline config without its integration, and the integration's options. */
export interface ChildBuild {
  astro: SiteProject['astro'];
  integration: SessionpressOptions;
  force: boolean;
}

const SELF = fileURLToPath(import.meta.url);

/**
 * Runs the build in a new Node process (this same Node, with its flags), in
 * `cwd` (the project's root, as Astro expects), with this environment plus
 * `env`; resolves to its exit code. Its output is this process's.
 */
export function buildInChild(job: ChildBuild, cwd: string, env: Record<string, string>): Promise<number> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [...process.execArgv, '--import', REGISTER_TYPESCRIPT, SELF], { cwd, stdio: ['inherit', 'inherit', 'inherit', 'ipc'], env: { ...process.env, ...env } });
    // A process that could not start says so through 'error' below.
    child.send(job, () => {});
    child.on('error', (err) => {
      console.log(`The build failed: could not start Node (${err.message})`);
      done(1);
    });
    child.on('close', (status, signal) => done(status ?? (signal ? 1 : 0)));
  });
}

if (process.argv[1] === SELF && process.send) {
  const job = await new Promise<ChildBuild>((take) => process.once('message', (message) => take(message as ChildBuild)));
  // The channel is done with: left open, it would keep this process alive after the build.
  process.disconnect();
  const [{ build }, config] = await Promise.all([import('astro'), withIntegration(job.astro, job.integration)]);
  let code = 0;
  try {
    await build({ ...config, force: job.force });
  } catch (err) {
    // Astro has logged what went wrong, with its own hints.
    console.log(`The build failed: ${(err as Error).message}`);
    code = 1;
  }
  process.exitCode = code;
  // A handle some library left open must not keep a finished build waiting.
  setTimeout(() => process.exit(code), 2000).unref();
}
