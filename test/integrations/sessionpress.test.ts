import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SETTLE_BEFORE_BUNDLING_ABOVE } from '../../src/lib/build/heap-growth.js';
import { runInFreshNode } from '../helpers/fresh-node.js';

const work = mkdtempSync(join(tmpdir(), 'sp-integration-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * Calls the integration's `astro:build:start` hook twice in a fresh Node, as
 * Astro does once the content is synced: first with the small heap a program
 * starts with, then with about 750 MB of garbage left on it, as syncing a large
 * archive leaves. Prints what the hook logged and the heap around it.
 */
const PROGRAM = `
const { sessionpress } = await import(process.argv[2]);
const lines = [];
const logger = { debug: (line) => lines.push(line), info() {}, warn() {}, error() {} };
const hook = sessionpress().hooks['astro:build:start'];
const small = process.memoryUsage.rss();
hook({ logger });
const afterSmall = lines.length;
let garbage = Array.from({ length: 60 }, () => Array.from({ length: 1e5 }, (_, j) => ({ j, s: 'x'.repeat(8) + j })));
const large = process.memoryUsage.rss();
const held = process.memoryUsage().heapUsed;
garbage = undefined;
hook({ logger });
console.log(JSON.stringify({ small, afterSmall, large, held, after: process.memoryUsage().heapUsed, lines }));
`;

describe('the sessionpress integration, before Astro bundles the pages', () => {
  it('in a large process, collects the garbage and logs what it gave back at debug level; a small process is left alone', () => {
    const r = runInFreshNode<{ small: number; afterSmall: number; large: number; held: number; after: number; lines: string[] }>(work, 'build-start.mjs', PROGRAM, 'src/integrations/sessionpress.ts');
    // A process under the bound is left alone: nothing logged.
    expect(r.small).toBeLessThan(SETTLE_BEFORE_BUNDLING_ABOVE);
    expect(r.afterSmall).toBe(0);
    // Over it, the garbage goes before the hook returns.
    expect(r.large).toBeGreaterThan(SETTLE_BEFORE_BUNDLING_ABOVE);
    expect(r.after).toBeLessThan(r.held - 500e6);
    expect(r.lines).toHaveLength(1);
    expect(r.lines[0]).toMatch(/^heap before bundling: \d+ MB used, \d+ MB alive; \d+ → \d+ MB held after \d round\(s\) in \d+ ms; process \d+ → \d+ MB$/);
  }, 60_000);
});
