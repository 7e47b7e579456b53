import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** `../shared` beside the repository: the corpus and fixtures, never copied in. */
export const sharedDir = resolve(repoRoot, '..', 'shared');
export const corpusRoot = join(sharedDir, 'corpus', 'projects');
export const fixturesDir = join(sharedDir, 'fixtures');
export const fixturesRoot = join(fixturesDir, 'projects');

/** EXPECT.json of the fixtures, typed loosely: tests read values, never restate them. */
export function loadExpect(): any {
  return JSON.parse(readFileSync(join(fixturesDir, 'EXPECT.json'), 'utf8'));
}

/** Absolute path of a file named relative to EXPECT.json. */
export function fixturePath(rel: string): string {
  return join(fixturesDir, rel);
}

/** Every `.jsonl` file below a folder, sorted. */
export function jsonlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? jsonlFiles(join(dir, e.name)) : e.name.endsWith('.jsonl') ? [join(dir, e.name)] : [])).sort();
}

/**
 * The entries of a JSONL file as written, for tests that check what the reader
 * and model make of them against the raw data. Lines that are not JSON are the
 * reader's concern and are skipped; with `mentions`, so is every line that does
 * not contain that text (before it is parsed: the corpus is large).
 */
export function rawEntries(path: string, mentions?: string): any[] {
  const out: any[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.trim() || (mentions !== undefined && !line.includes(mentions))) continue;
    try {
      out.push(JSON.parse(line));
    } catch {
      // not JSON
    }
  }
  return out;
}
