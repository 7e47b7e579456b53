import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { finishBuild, finishPlanIntegration } from '../../src/integrations/finish.js';
import type { DeferredFinish } from '../../src/lib/build/finish-plan.js';
import { createOutputLedger } from '../../src/lib/fs/output-ledger.js';

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** An output folder with a page this build produced and one an earlier build left, and a cache folder for the plan. */
function site() {
  const work = mkdtempSync(join(tmpdir(), 'sp-finish-'));
  made.push(work);
  const out = join(work, 'site');
  const cache = join(work, 'cache');
  mkdirSync(join(out, 'old'), { recursive: true });
  mkdirSync(cache, { recursive: true });
  writeFileSync(join(out, 'index.html'), '<p>now</p>');
  writeFileSync(join(out, 'old', 'gone.html'), '<p>before</p>');
  return { out, cache, plan: join(cache, 'plan.json'), state: join(cache, 'out-dir.json') };
}

/** The plan the integration writes at the end of a build, through its own hooks. */
async function handOver(plan: string, deferred: DeferredFinish, produced: string[]) {
  const ledger = createOutputLedger();
  ledger.add(...produced);
  const hooks = finishPlanIntegration(deferred, ledger, plan).hooks as Record<string, (arg?: unknown) => Promise<void>>;
  await hooks['astro:build:start']();
  await hooks['astro:build:done']();
}

describe('a build finished by the command that started it', () => {
  it('prunes the output folder from the plan the build handed over, with the ledger it recorded, and removes the plan', async () => {
    const s = site();
    await handOver(s.plan, { outDir: { root: s.out, stateFile: s.state, outDir: s.out } }, [join(s.out, 'index.html')]);
    expect(existsSync(s.plan)).toBe(true);
    expect(await finishBuild(s.plan, { verbose: false })).toBe(true);
    expect(existsSync(join(s.out, 'index.html'))).toBe(true);
    expect(existsSync(join(s.out, 'old'))).toBe(false);
    expect(JSON.parse(readFileSync(s.state, 'utf8'))).toEqual({ outDir: s.out });
    expect(existsSync(s.plan)).toBe(false);
  });

  it('does nothing without a plan (the build ran its last steps itself), and forgets a plan an earlier build left when a build starts', async () => {
    const s = site();
    expect(await finishBuild(s.plan, { verbose: false })).toBe(false);
    writeFileSync(s.plan, JSON.stringify({ format: 1, ledger: [], outDir: { root: s.out, stateFile: s.state, outDir: s.out } }));
    const hooks = finishPlanIntegration({}, createOutputLedger(), s.plan).hooks as Record<string, () => Promise<void>>;
    await hooks['astro:build:start']();
    expect(existsSync(s.plan)).toBe(false);
    expect(existsSync(join(s.out, 'old', 'gone.html'))).toBe(true);
  });

  it('fails, touching nothing, on a plan it did not write, and fails when a step fails', async () => {
    const s = site();
    writeFileSync(s.plan, JSON.stringify({ format: 2, ledger: [], outDir: { root: s.out, stateFile: s.state, outDir: s.out } }));
    await expect(finishBuild(s.plan, { verbose: false })).rejects.toThrow(/not a plan/);
    expect(existsSync(join(s.out, 'old', 'gone.html'))).toBe(true);
    // A page the index is to read is missing: the build fails rather than publish a site without search, and is not pruned.
    await handOver(s.plan, { search: { outDir: s.out, html: [join(s.out, 'missing.html')], cacheDir: join(s.cache, 'pf'), shardBytes: 1e6 }, outDir: { root: s.out, stateFile: s.state, outDir: s.out } }, []);
    await expect(finishBuild(s.plan, { verbose: false })).rejects.toThrow(/missing\.html/);
    expect(existsSync(join(s.out, 'old', 'gone.html'))).toBe(true);
    expect(existsSync(s.state)).toBe(false);
  });
});
