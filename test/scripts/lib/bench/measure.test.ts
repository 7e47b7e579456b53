import { describe, expect, it } from 'vitest';
import { measureRun, phaseFigures, treeRssKb } from '../../../../scripts/lib/bench/measure.js';

/** A command whose tree holds a known number of processes for a while, printing a line at each phase. */
const SCRIPT = `
  echo start; sleep 0.4 &
  sleep 0.4 & wait; echo "[phase-two] begins"; sleep 0.4; echo done`;

describe('measureRun', () => {
  it('samples the process tree only, keeps each line with its time, and counts what sampling cost', async () => {
    const run = await measureRun('sh', ['-c', SCRIPT], { cwd: process.cwd() });
    expect(run.code).toBe(0);
    expect(run.lines.map(([, l]) => l)).toEqual(expect.arrayContaining(['start', '[phase-two] begins', 'done']));
    const times = run.lines.map(([t]) => t);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(run.sampler.samples).toBeGreaterThan(3);
    expect(run.samples).toHaveLength(run.sampler.samples);
    // sh, and its two sleeps (under /usr/bin/time when the machine has it): never the rest of the machine.
    expect(run.sampler.processes).toBeGreaterThanOrEqual(3);
    expect(run.sampler.processes).toBeLessThanOrEqual(5);
    expect(run.peakTreeMb).toBeGreaterThan(0);
  });
});

describe('treeRssKb', () => {
  it('counts this process and its children, not its parent', () => {
    const self = treeRssKb(process.pid);
    expect(self.processes).toBeGreaterThanOrEqual(1);
    expect(self.kb).toBeGreaterThan(1000);
    expect(self.largestKb).toBeLessThanOrEqual(self.kb);
    expect(treeRssKb(2 ** 22 + 1)).toEqual({ kb: 0, processes: 0, largestKb: 0 });
  });
});

describe('phaseFigures', () => {
  it('cuts a run at the first line of each phase and takes the peak of the samples inside', () => {
    const run = {
      wallMs: 1000,
      lines: [[10, 'hello'], [300, '\x1b[32m[loader]\x1b[0m go'], [400, '[loader] again'], [700, 'pages now']] as Array<[number, string]>,
      samples: [[100, 50, 40], [200, 80, 70], [350, 300, 150], [650, 200, 190], [800, 120, 100], [950, 400, 380]] as Array<[number, number, number]>,
    };
    const phases = phaseFigures(run, [
      { name: 'start', start: /^/ },
      { name: 'loader', start: /\[loader\]/ },
      { name: 'never', start: /nothing prints this/ },
      { name: 'pages', start: /^pages/ },
    ]);
    expect(phases).toEqual([
      { name: 'start', wallMs: 300, peakMb: 80, largestMb: 70 },
      { name: 'loader', wallMs: 400, peakMb: 300, largestMb: 190 },
      { name: 'pages', wallMs: 300, peakMb: 400, largestMb: 380 },
    ]);
    // A phase between two samples takes the last one before it ended.
    const short = phaseFigures({ ...run, lines: [[360, '[loader] go'], [380, 'pages now']] }, [
      { name: 'start', start: /^/ },
      { name: 'loader', start: /\[loader\]/ },
      { name: 'pages', start: /^pages/ },
    ]);
    expect(short[1]).toEqual({ name: 'loader', wallMs: 20, peakMb: 300, largestMb: 150 });
  });
});
