/**
 * secretlint's profiler, on unless switched off, leaves about a hundred
 * performance marks per call, kept for the life of the process: a build's
 * workers would hold more of them the larger the archive.
 */
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { scanText } from '../../../src/lib/redact/scan.js';

describe("secretlint's profiler", () => {
  it('leaves no performance marks behind, however many texts are scanned', async () => {
    for (let i = 0; i < 20; i++) {
      const findings = await scanText(`token ghp_${'a1B2'.repeat(9)} number ${i}`);
      expect(findings.length).toBeGreaterThan(0);
    }
    expect(performance.getEntriesByType('mark').filter((m) => m.name.includes('@core>'))).toEqual([]);
  });
});
