import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readJsonl } from '../../../src/lib/jsonl/read-jsonl.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
/** The shared test data beside the repository (never copied into it). */
export const sharedDir = resolve(repoRoot, '../shared');
export const fixturesDir = join(sharedDir, 'fixtures');
export const fixturesProjects = join(fixturesDir, 'projects');
export const corpusProjects = join(sharedDir, 'corpus', 'projects');

export interface Expect {
  sessions: Array<{ session_id: string; file: string; cwd: string | null; subagent_files?: string[] }>;
  not_sessions: string[];
  must_not_appear: string[];
  must_appear: string[];
  canary: { username: string; email: string; home: string; file: string };
}

/** EXPECT.json of the fixtures: every expectation comes from here, never from test code. */
export function loadExpect(): Expect {
  return JSON.parse(readFileSync(join(fixturesDir, 'EXPECT.json'), 'utf8')) as Expect;
}

/** All entries of the given JSONL files, parsed with the project's reader. */
export async function readEntries(paths: string[]): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for (const p of paths) out.push(...(await readJsonl(p)).records.map((r) => r.value));
  return out;
}

/** A session's files as listed in EXPECT.json: the session file, its subagent files, and agent files beside it that name it. */
export function sessionFiles(expect: Expect, session: Expect['sessions'][number]): string[] {
  const files = [session.file, ...(session.subagent_files ?? [])];
  return files.map((f) => join(fixturesDir, f));
}
