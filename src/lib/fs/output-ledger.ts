import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { listFiles } from './parallel.js';

/**
 * What one build put into the output folder, file by file: every part of the
 * build that writes there (Vite's bundles, the public folder, the pages Astro
 * rendered or reused, each of our integrations) records its files here, and
 * whatever the folder holds beyond them is removed at the end. Nothing is
 * judged by modification times, so a stale file is removed however recently
 * it was written and however fast the build ran.
 */
export interface OutputLedger {
  /** Records files (absolute paths) as produced by this build. */
  add(...files: string[]): void;
  /** Records every file below a folder this build wrote or left in place as its own; a missing folder adds nothing. */
  addTree(dir: string): Promise<void>;
  /** Whether this build produced the file. */
  has(file: string): boolean;
  /** How many files were recorded. */
  readonly size: number;
  /** Every file recorded (absolute paths): what a build finished by another process hands over (src/integrations/finish.ts). */
  files(): string[];
  /** Forgets everything: a new build starts. */
  clear(): void;
}

/** A ledger for one build at a time (`clear()` when a build starts: dev servers and tests build more than once per process). */
export function createOutputLedger(): OutputLedger {
  const files = new Set<string>();
  return {
    add: (...paths) => {
      for (const p of paths) files.add(resolve(p));
    },
    addTree: async (dir) => {
      if (!existsSync(dir)) return;
      for (const f of await listFiles(dir)) files.add(f);
    },
    has: (file) => files.has(resolve(file)),
    get size() {
      return files.size;
    },
    files: () => [...files],
    clear: () => files.clear(),
  };
}
