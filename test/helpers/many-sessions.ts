import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeCopies } from '../../scripts/lib/bench/corpus.js';
import { repoRoot } from './shared.js';

/**
 * A source folder with `copies` copies of the bundled samples, each in its
 * sample's own project (fresh uuids, same times), and a config file with a
 * small `indexPageSize` (plus any other fields): a site whose lists span
 * several pages, from a few dozen tiny sessions.
 */
export async function manySessions(copies: number, config: Record<string, unknown>): Promise<{ source: string; config: string; root: string }> {
  const root = mkdtempSync(join(tmpdir(), 'sp-many-'));
  const source = join(root, 'source');
  await makeCopies(join(repoRoot, 'content', 'sessions'), source, copies, { sameProjects: true });
  const file = join(root, 'sessionpress.config.json');
  writeFileSync(file, JSON.stringify(config));
  return { source, config: file, root };
}
