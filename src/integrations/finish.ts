import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { AstroIntegration } from 'astro';
import nodeLogDestination from 'astro/logger/node';
import type { BuildLogger } from '../lib/build/build-logger.js';
import type { DeferredFinish } from '../lib/build/finish-plan.js';
import { isInteractive } from '../lib/build/progress.js';
import { createOutputLedger, type OutputLedger } from '../lib/fs/output-ledger.js';
import { createSafeTarget } from '../lib/fs/safe-write.js';
import { sealOutput } from './encrypt.js';
import { pruneOutput } from './out-dir.js';
import { indexSearchPages } from './pagefind.js';
import { createQuietLog } from './quiet-log.js';

/** The file a build writes: its deferred steps and the files it produced (the output folder's ledger). */
interface FinishPlan extends DeferredFinish {
  format: 1;
  ledger: string[];
}

/**
 * The integration, last of the build's, that writes the plan file once every
 * other `astro:build:done` has run (the ledger is then complete). A plan left
 * by an earlier build is removed when a build starts: only a build that got
 * to its end leaves one.
 */
export function finishPlanIntegration(deferred: DeferredFinish, ledger: OutputLedger, file: string): AstroIntegration {
  const target = createSafeTarget(dirname(file));
  return {
    name: 'sessionpress-finish',
    hooks: {
      'astro:build:start': async () => {
        await target.remove(file);
      },
      'astro:build:done': async () => {
        const plan: FinishPlan = { format: 1, ...deferred, ledger: ledger.files() };
        await target.writeFile(file, JSON.stringify(plan));
      },
    },
  };
}

/**
 * Runs the steps a build handed over in `file` (see {@link DeferredFinish}),
 * in the order their hooks would have, and removes the file. Resolves to
 * false when there is no plan: the build ran its steps itself. Throws when a
 * step fails, as the hook would have failed the build.
 */
export async function finishBuild(file: string, options: { verbose: boolean }): Promise<boolean> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) return false;
  const plan = JSON.parse(text) as FinishPlan;
  if (plan.format !== 1) throw new Error(`${file} is not a plan this version of Sessionpress wrote`);
  await createSafeTarget(dirname(file)).remove(file);
  const ledger = createOutputLedger();
  ledger.add(...plan.ledger);
  const logger = createCommandLogger('sessionpress', options);
  if (plan.search) await indexSearchPages(plan.search, ledger, logger.fork('sessionpress-pagefind'));
  if (plan.outDir) await pruneOutput(plan.outDir, ledger, logger.fork('sessionpress-out-dir'));
  if (plan.encrypt) await sealOutput(plan.encrypt, logger.fork('sessionpress-encrypt'));
  return true;
}

/**
 * A logger that writes as Astro's own does (its node destination: the time,
 * `[label]`, colours unless NO_COLOR) through the same quiet-log wrapper, so
 * the lines printed after Astro's process has ended look like those before
 * them and progress is drawn the same way.
 */
function createCommandLogger(label: string, options: { verbose: boolean }): BuildLogger {
  const destination = createQuietLog(nodeLogDestination({ level: options.verbose ? 'debug' : 'info' }), { verbose: options.verbose, interactive: isInteractive() });
  const make = (name: string): BuildLogger => {
    const write = (level: 'info' | 'warn' | 'debug') => (message: string) => destination.write({ label: name, level, message, newLine: true });
    return { label: name, info: write('info'), warn: write('warn'), debug: write('debug'), fork: make };
  };
  return make(label);
}
