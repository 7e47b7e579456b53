import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { NODE_STRIPS_TYPES } from '../../bin/node-hooks.mjs';
import { buildSite } from '../helpers/build.js';
import { repoRoot } from '../helpers/shared.js';

/**
 * scripts/template-build.ts, the template's `npm run build`: Astro's own
 * command line, started the way `sessionpress build` starts its build.
 */
const work = mkdtempSync(join(tmpdir(), 'sp-template-build-'));
const out = join(work, 'site');
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
  rmSync(`${out}-cache`, { recursive: true, force: true });
});

describe('the template build', () => {
  // On Node 22.12 to 22.14 the template leaves the config to Vite (its hooks there would be tsx's, which slow every import).
  it.skipIf(!NODE_STRIPS_TYPES)("loads astro.config.mjs and the integration with Node's own import, never through Vite's fallback", async () => {
    // Loaded first in every Node process of the build; in Astro's, it takes Astro's debug messages (which go
    // nowhere unless --verbose), among them the one Astro sends when Node's import of the config fails and a
    // Vite server loads it instead.
    const seen = join(work, 'debug.log');
    const probe = join(work, 'probe.mjs');
    writeFileSync(seen, '');
    writeFileSync(
      probe,
      `import { appendFileSync } from 'node:fs';\n` +
        `if (/astro\\.mjs$/.test(process.argv[1] ?? '')) {\n` +
        `  appendFileSync(${JSON.stringify(seen)}, 'astro started\\n');\n` +
        `  globalThis._astroGlobalDebug = (...args) => appendFileSync(${JSON.stringify(seen)}, String(args[0]) + '\\n');\n` +
        `}\n`,
    );
    const run = await buildSite(out, { SESSIONPRESS_SOURCE: join(repoRoot, 'content', 'sessions'), NODE_OPTIONS: `--import ${pathToFileURL(probe).href}` });
    expect(run.code, run.log.slice(-2000)).toBe(0);
    expect(run.log).toMatch(/\[build\] Complete!/);
    const lines = readFileSync(seen, 'utf8').split('\n');
    expect(lines).toContain('astro started');
    expect(lines.filter((l) => /config/i.test(l))).toEqual([]);
  });
});
