import { mkdir, open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { BAD_LINE_CODES, type Diagnostic } from '../../../src/lib/diagnostics.js';
import { toPosix, type SessionSource } from '../../../src/lib/discover.js';
import { readJsonl } from '../../../src/lib/jsonl/read-jsonl.js';
import { redactProjectFolder, usernamesFromCwds, usernamesFromFolder } from '../../../src/lib/redact/usernames.js';
import type { RedactionReport, Redactor } from '../../../src/lib/redact/types.js';

export interface ImportedFile {
  /** Source path relative to the source root. */
  source: string;
  /** Target path relative to the output folder. */
  target: string;
  entries: number;
  bytesIn: number;
  bytesOut: number;
}

export interface ImportSessionResult {
  sessionId: string;
  projectFolder: string;
  /** The redacted project folder name written under the output folder. */
  outFolder: string;
  files: ImportedFile[];
  report: RedactionReport;
  /** Lines that could not yield an entry: left out of the copy. */
  badLines: Diagnostic[];
  /** Other problems the reader repaired (invalid UTF-8, lone surrogates). */
  notes: Diagnostic[];
  bytesIn: number;
  bytesOut: number;
  /** Entries left out because the site never shows them (file-history snapshots). */
  droppedEntries: number;
}

export interface ImportSessionOptions {
  root: string;
  outDir: string;
  redactor: Redactor;
  dryRun?: boolean;
  /** Agent files beside sessions (`agent-*.jsonl`, Claude Code ≤ 2.0) that belong to this session. */
  siblingAgents?: string[];
  /**
   * Usernames known for the whole project folder (see {@link folderUsernames}),
   * so that every session of a folder lands in the same redacted folder.
   */
  folderUsernames?: string[];
}

/**
 * Copies one session (with its subagent files) into the output folder,
 * redacted, keeping the `~/.claude/projects` layout under a redacted project
 * folder name. What the site never shows is left out (file-history snapshots,
 * `toolUseResult.originalFile`, whose content the patch already holds); lines
 * that are not JSON objects are left out and returned as `badLines`.
 * A previous import of the same session is replaced.
 */
export async function importSession(source: SessionSource, options: ImportSessionOptions): Promise<ImportSessionResult> {
  const projectDir = dirname(source.path);
  const paths = [source.path, ...source.subagentPaths, ...(options.siblingAgents ?? [])];
  const files: Array<{ path: string; values: Record<string, unknown>[]; bytesIn: number }> = [];
  const badLines: Diagnostic[] = [];
  const notes: Diagnostic[] = [];
  let droppedEntries = 0;
  for (const path of paths) {
    const read = await readJsonl(path, toPosix(relative(options.root, path)));
    for (const d of read.diagnostics) (BAD_LINE_CODES.has(d.code) ? badLines : notes).push(d);
    const values: Record<string, unknown>[] = [];
    for (const { value } of read.records) {
      if (value.type === 'file-history-snapshot') {
        droppedEntries++;
        continue;
      }
      pruneUnshown(value);
      values.push(value);
    }
    files.push({ path, values, bytesIn: read.bytes });
  }

  const sideFiles = await readSideFiles(source, options.root, notes);
  const report = await options.redactor.redactSession(
    [...files.flatMap((f) => f.values), ...sideFiles.map((f) => f.value)],
    { projectFolders: [source.projectFolder] },
  );
  const usernames = [...(options.folderUsernames ?? []), ...usernamesFromFolder(source.projectFolder), ...options.redactor.knownUsernames()];
  const folderName = source.projectFolder === '.' ? 'sessions' : source.projectFolder;
  const outFolder = redactProjectFolder(folderName, usernames);
  const outProject = join(options.outDir, outFolder);

  const imported: ImportedFile[] = [];
  const outputs: Array<{ target: string; text: string }> = [];
  for (const f of files) {
    const text = f.values.map((v) => `${JSON.stringify(v)}\n`).join('');
    const target = join(outProject, relative(projectDir, f.path));
    outputs.push({ target, text });
    imported.push({
      source: toPosix(relative(options.root, f.path)),
      target: toPosix(relative(options.outDir, target)),
      entries: f.values.length,
      bytesIn: f.bytesIn,
      bytesOut: Buffer.byteLength(text),
    });
  }
  for (const f of sideFiles) {
    const text = f.kind === 'sidecar' ? `${JSON.stringify(f.value)}\n` : String((f.value as { text: string }).text);
    const target = join(outProject, relative(projectDir, f.path));
    outputs.push({ target, text });
    imported.push({ source: toPosix(relative(options.root, f.path)), target: toPosix(relative(options.outDir, target)), entries: 0, bytesIn: f.bytesIn, bytesOut: Buffer.byteLength(text) });
  }

  if (!options.dryRun) {
    // Replace, not merge: a subagent file dropped since the last import must not linger.
    await rm(join(outProject, `${source.sessionId}.jsonl`), { force: true });
    await rm(join(outProject, source.sessionId), { recursive: true, force: true });
    for (const { target, text } of outputs) await writeAtomic(target, text);
  }

  return {
    sessionId: source.sessionId,
    projectFolder: source.projectFolder,
    outFolder,
    files: imported,
    report,
    badLines,
    notes,
    bytesIn: imported.reduce((n, f) => n + f.bytesIn, 0),
    bytesOut: imported.reduce((n, f) => n + f.bytesOut, 0),
    droppedEntries,
  };
}

/** A file read beside a session: an agent's sidecar (a JSON object) or a whole tool output (text, held as `{ text }` for the redactor). */
interface SideFile {
  path: string;
  kind: 'sidecar' | 'tool-result';
  value: Record<string, unknown>;
  bytesIn: number;
}

/**
 * Reads the sidecars and whole tool outputs of a session (2.1.x), so that
 * they are redacted with it and copied beside it. One that cannot be read is
 * a note, and left out.
 */
async function readSideFiles(source: SessionSource, root: string, notes: Diagnostic[]): Promise<SideFile[]> {
  const out: SideFile[] = [];
  const read = async (path: string, kind: SideFile['kind']) => {
    try {
      const text = await readFile(path, 'utf8');
      const value = kind === 'sidecar' ? (JSON.parse(text) as unknown) : { text };
      if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error('not a JSON object');
      out.push({ path, kind, value: value as Record<string, unknown>, bytesIn: Buffer.byteLength(text) });
    } catch (err) {
      notes.push({ file: toPosix(relative(root, path)), line: 0, code: 'read-error', reason: `left out of the copy: ${(err as Error).message.slice(0, 100)}` });
    }
  };
  for (const path of source.sidecarPaths ?? []) await read(path, 'sidecar');
  for (const path of source.toolResultPaths ?? []) await read(path, 'tool-result');
  return out;
}

/** Removes what the site never renders and would only carry secrets along. */
function pruneUnshown(entry: Record<string, unknown>): void {
  const result = entry.toolUseResult;
  if (result && typeof result === 'object' && !Array.isArray(result) && 'originalFile' in result) {
    delete (result as Record<string, unknown>).originalFile;
  }
}

/** Writes through a temporary file, so a crash never leaves half a session in content/. */
async function writeAtomic(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, text);
  await rename(tmp, path);
}

/**
 * Usernames of each project folder, from the `cwd` values at the head of its
 * session files. The folder name alone cannot tell `/home/ada-lovelace/x` from
 * `/home/ada/lovelace-x`; the `cwd` can.
 */
export async function folderUsernames(sessions: readonly SessionSource[]): Promise<Map<string, string[]>> {
  const byFolder = new Map<string, Set<string>>();
  for (const s of sessions) {
    const set = byFolder.get(s.projectFolder) ?? new Set<string>();
    byFolder.set(s.projectFolder, set);
    for (const u of usernamesFromCwds(await headCwds(s.path))) set.add(u);
  }
  return new Map([...byFolder].map(([k, v]) => [k, [...v]]));
}

async function headCwds(path: string): Promise<string[]> {
  const handle = await open(path, 'r');
  try {
    const buf = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    const text = buf.subarray(0, bytesRead).toString('utf8');
    const out = new Set<string>();
    for (const m of text.matchAll(/"cwd"\s*:\s*("(?:[^"\\]|\\.)*")/g)) {
      try {
        out.add(JSON.parse(m[1]) as string);
      } catch {
        // cut off at the end of the head
      }
    }
    return [...out];
  } finally {
    await handle.close();
  }
}
