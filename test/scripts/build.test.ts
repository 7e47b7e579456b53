import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listFiles } from '../helpers/build.js';
import { repoRoot } from '../helpers/shared.js';

/**
 * `sessionpress build` from this checkout: the command prepares the project
 * and Astro builds it in a process of its own (scripts/lib/build-child.ts),
 * given the whole config however large.
 */
const work = mkdtempSync(join(tmpdir(), 'sp-build-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const samples = join(repoRoot, 'content', 'sessions');
const sample = join(samples, '-home-demo-projects-fair-share', '27975210-1f06-4a98-8125-ae386aa38582.jsonl');
// A word of the samples' text, given last in a list of names to anonymise far longer than one command-line argument may be (128 KiB).
const NAME = 'Greedy';
const names = [...Array.from({ length: 700 }, (_, i) => `Person ${i} ${'of a long and made-up name '.repeat(7)}`), NAME];

let code: number | null;
let log = '';
beforeAll(async () => {
  const config = join(work, 'sessionpress.config.json');
  writeFileSync(config, JSON.stringify({ redaction: { names } }));
  const child = spawn(process.execPath, [join(repoRoot, 'bin', 'sessionpress.mjs'), 'build', samples, '--out', 'site', '--cache', 'cache', '--config', config], { cwd: work, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  code = await new Promise((done) => child.on('close', done));
}, 300_000);

describe('sessionpress build with a config larger than a command-line argument', () => {
  it('builds, with every name of the config anonymised, the last one too', () => {
    expect(JSON.stringify({ redaction: { names } }).length).toBeGreaterThan(128 * 1024);
    // Handed over as one argument, the config stopped the build from starting (spawn E2BIG).
    expect(log).not.toContain('E2BIG');
    expect(code, log.slice(-3000)).toBe(0);
    expect(readFileSync(sample, 'utf8')).toContain(NAME);
    const pages = listFiles(join(work, 'site')).filter((f) => f.endsWith('.html'));
    expect(pages.length).toBeGreaterThan(3);
    for (const file of listFiles(join(work, 'site'))) expect(readFileSync(file, 'utf8'), file).not.toContain(NAME);
  });
});
