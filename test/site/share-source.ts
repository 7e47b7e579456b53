import { cpSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { corpusRoot, repoRoot } from '../helpers/shared.js';

/** Our own fixture: three sessions of one project, two of them touching the same pull request. */
export const prFixtureRoot = join(repoRoot, 'test', 'fixtures', 'pull-requests', 'projects');

/**
 * A source folder in a temporary directory holding our pull-request fixture
 * and the named corpus project folders (copied there, never into the repository).
 */
export function shareSource(corpusProjects: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'sp-share-src-'));
  for (const p of readdirSync(prFixtureRoot)) cpSync(join(prFixtureRoot, p), join(dir, p), { recursive: true });
  for (const p of corpusProjects) cpSync(join(corpusRoot, p), join(dir, p), { recursive: true });
  return dir;
}
