import { readFileSync } from 'node:fs';
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
