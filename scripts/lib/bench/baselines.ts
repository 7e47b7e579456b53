/**
 * The two peer tools the bench runs beside Sessionpress, on the same corpus, turn about:
 * - cct: simonw/claude-code-transcripts (`cct all`): no cache, so every run is a full run;
 * - ccl: claude-code-log (`ccl --all-projects`): writes its HTML and a SQLite cache
 *   beside its input, so it gets its own copy of the corpus.
 * Both are set up by `../shared/bench/setup-baselines.sh MIRROR_DIR OUT_DIR` from their
 * source repositories (simonw/claude-code-transcripts, iansherr/claude-code-log, lepture/mistune).
 */
import { existsSync } from 'node:fs';
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { folderBytes, measureRun, type RunFigures } from './measure.js';
import { setAside, trashOf } from './set-aside.js';

export interface Baseline {
  name: string;
  /** Prepares a cold run (moves earlier output and caches aside: see set-aside.ts). */
  reset(): Promise<void>;
  /** Runs the tool once over the corpus. */
  run(): Promise<RunFigures>;
  /** The corpus folder this tool reads (an edit for the "one changed" run goes here too). */
  source: string;
  /** Bytes of what the tool wrote: its site, and its cache where it keeps one beside the site. */
  outputBytes(): Promise<number>;
}

const SETUP_HINT =
  'Set them up with `bash ../shared/bench/setup-baselines.sh MIRROR_DIR DIR`, where MIRROR_DIR holds bare git ' +
  'repositories of simonw/claude-code-transcripts, iansherr/claude-code-log and lepture/mistune (one owner+name/ folder each).';

/**
 * The baselines in `dir` (as setup-baselines.sh leaves them: `dir/cct`, `dir/ccl`).
 * Throws one message naming everything that is missing and how to set it up.
 */
export function findBaselines(dir: string): { cct: string; ccl: string } {
  const cct = join(dir, 'cct');
  const ccl = join(dir, 'ccl');
  const missing = [cct, ccl].filter((p) => !existsSync(p));
  if (missing.length) throw new Error(`--baselines ${dir}: missing ${missing.join(' and ')}. ${SETUP_HINT}`);
  return { cct, ccl };
}

/**
 * claude-code-transcripts over `source`, writing into `work/cct-out`.
 * It has no cache: an unchanged or changed rebuild is a full run again.
 */
export function cctBaseline(bin: string, source: string, work: string): Baseline {
  const out = join(work, 'cct-out');
  return {
    name: 'claude-code-transcripts',
    source,
    reset: () => setAside(out, trashOf(work)),
    run: () => measureRun(bin, ['all', '-s', source, '-o', out, '--include-agents', '-q'], { cwd: work }),
    outputBytes: async () => (await folderBytes(out)).bytes,
  };
}

/**
 * claude-code-log over a copy of `source` (it writes HTML and its SQLite cache
 * beside the input); the copy is made fresh for a cold run, and kept for rebuilds.
 */
export function cclBaseline(bin: string, source: string, work: string): Baseline {
  const copy = join(work, 'ccl-corpus');
  return {
    name: 'claude-code-log',
    source: copy,
    async reset() {
      await setAside(copy, trashOf(work));
      await cp(source, copy, { recursive: true });
    },
    run: () => measureRun(bin, ['--all-projects', copy], { cwd: work }),
    // Everything it added to the copy: HTML pages and its cache database.
    outputBytes: async () => (await folderBytes(copy)).bytes - (await folderBytes(source)).bytes,
  };
}
