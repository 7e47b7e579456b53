import { dirname, join, relative } from 'node:path';
import { lstat, readdir } from 'node:fs/promises';
import { BAD_LINE_CODES, type Diagnostic } from '../../../src/lib/diagnostics.js';
import { realPathOf, toPosix, WORKFLOW_DIR, type SessionSource } from '../../../src/lib/discover.js';
import { copyIdentity, readSession } from '../../../src/lib/build/open-session.js';
import { createSafeTarget, isTemporaryFile, type SafeTarget } from '../../../src/lib/fs/safe-write.js';
import { imageFormatOf } from '../../../src/lib/redact/image-metadata.js';
import { mapBinaryPayloads } from '../../../src/lib/redact/redactor.js';
import { base64Bytes } from '../../../src/lib/render/tools/content-blocks.js';
import { OMITTED_BYTES_KEY } from '../../../src/lib/transcript/types.js';
import type { RedactionOptions, RedactionReport } from '../../../src/lib/redact/types.js';

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
  /** Other problems the reader repaired or met (invalid UTF-8, lone surrogates, unreadable side files). */
  notes: Diagnostic[];
  bytesIn: number;
  bytesOut: number;
  /** Entries left out because the site never shows them (file-history snapshots). */
  droppedEntries: number;
  /** The session's redactor, for what a caller prints about it (file names hold login names). */
  redactText: (text: string) => string;
}

/** Where a copy is at when a capture is stopped on purpose (tests of a hook killed mid-way). */
export type CopyStep = 'staged' | 'swapped-one';

export interface ImportSessionOptions {
  root: string;
  outDir: string;
  /** The user's redaction settings; every session gets a fresh redactor of its own. */
  redaction: Partial<RedactionOptions>;
  dryRun?: boolean;
  /** Agent files beside sessions (`agent-*.jsonl`, Claude Code ≤ 2.0) that belong to this session. */
  siblingAgents?: string[];
  /**
   * Usernames known for the whole project folder (see {@link folderUsernames}),
   * so that every session of a folder lands in the same redacted folder.
   */
  folderUsernames?: string[];
  /** Called at each step of writing the copy; a test throws from it to stop the copy there, as a kill would. */
  onStep?: (step: CopyStep) => void;
}

/**
 * Copies one session (with its subagent files, sidecars and kept outputs)
 * into the output folder, read and redacted through the one way into a
 * session (`readSession`), keeping the `~/.claude/projects` layout under the
 * session's redacted project folder (its identity's `copyFolder`). What the
 * site never shows is left out (file-history snapshots,
 * `toolUseResult.originalFile`, whose content the patch already holds); lines
 * that are not JSON objects are left out and returned as `badLines`.
 *
 * A previous copy of the same session is replaced so that a stop at any
 * instant leaves one whole copy: every new file is first written beside its
 * old one under a temporary name, then each is renamed over its old one, and
 * only then are the old copy's files the new one lacks removed. Nothing is
 * written through a symbolic link or outside the output folder.
 */
export async function importSession(source: SessionSource, options: ImportSessionOptions): Promise<ImportSessionResult> {
  let droppedEntries = 0;
  const owners = new Map([[source.sessionId, options.siblingAgents ?? []]]);
  const keep = (value: Record<string, unknown>) => {
    if (value.type === 'file-history-snapshot') {
      droppedEntries++;
      return false;
    }
    pruneUnshown(value);
    return true;
  };
  const read = await readSession(source, { root: options.root, owners, redaction: options.redaction, usernames: options.folderUsernames, keep });
  const identity = copyIdentity(read).copyFolder;
  // Problems come back redacted; the command's own output names the user's files as they are, so an editor can open them.
  const candidates = () => [...read.files.map((f) => f.rel), ...read.sideFiles.map((f) => f.rel)];
  const local = read.diagnostics.map((d) => ({ ...d, file: realPathOf(d.file, candidates) }));
  const badLines = local.filter((d) => BAD_LINE_CODES.has(d.code));
  const notes = local.filter((d) => !BAD_LINE_CODES.has(d.code));
  const projectDir = dirname(source.path);
  const outProject = join(options.outDir, identity);

  const imported: ImportedFile[] = [];
  const outputs: Array<{ target: string; text: string }> = [];
  const add = (path: string, text: string, entries: number, bytesIn: number) => {
    const target = join(outProject, relative(projectDir, path));
    outputs.push({ target, text });
    imported.push({ source: toPosix(relative(options.root, path)), target: toPosix(relative(options.outDir, target)), entries, bytesIn, bytesOut: Buffer.byteLength(text) });
  };
  for (const f of read.files) add(f.path, f.records.map((r) => `${JSON.stringify(r.value)}\n`).join(''), f.records.length, f.bytes);
  for (const f of read.sideFiles) add(f.path, f.kind === 'sidecar' ? `${JSON.stringify(f.value)}\n` : f.value.text, 0, f.bytes);
  // Workflow runs' journals go with their agents; a team's config goes where the site looks for it (`<root>/teams/`).
  for (const path of source.journalPaths ?? []) {
    const records = read.journals.get(WORKFLOW_DIR.exec(path)?.[1] ?? '');
    if (records) add(path, records.map((r) => `${JSON.stringify(r.value)}\n`).join(''), records.length, 0);
  }
  if (read.team) {
    const text = `${JSON.stringify(read.team.value, null, 2)}\n`;
    const target = join(options.outDir, read.team.file.split('/').slice(-3).join('/'));
    outputs.push({ target, text });
    imported.push({ source: read.team.file, target: toPosix(relative(options.outDir, target)), entries: 0, bytesIn: 0, bytesOut: Buffer.byteLength(text) });
  }

  if (!options.dryRun) await replaceCopy(createSafeTarget(options.outDir), outProject, source.sessionId, outputs, options.onStep);

  return {
    sessionId: source.sessionId,
    projectFolder: source.projectFolder,
    outFolder: identity,
    files: imported,
    report: read.report,
    badLines,
    notes,
    bytesIn: imported.reduce((n, f) => n + f.bytesIn, 0),
    bytesOut: imported.reduce((n, f) => n + f.bytesOut, 0),
    droppedEntries,
    redactText: (text) => (read.redactor ? read.redactor.redactText(text) : text),
  };
}

/**
 * Replaces the copy of one session in `outProject` with `outputs`: stage every
 * file beside its target, rename each over its target, then remove what the
 * old copy had and the new one lacks (a subagent dropped since). Leftover
 * temporary files of an earlier stopped copy are removed first.
 */
async function replaceCopy(target: SafeTarget, outProject: string, sessionId: string, outputs: Array<{ target: string; text: string }>, onStep?: (step: CopyStep) => void): Promise<void> {
  const mainFile = join(outProject, `${sessionId}.jsonl`);
  const folder = join(outProject, sessionId);
  const before = await filesOf([mainFile], folder);
  for (const stale of before.filter(isTemporaryFile)) await target.remove(stale);
  const staged: Array<{ tmp: string; path: string }> = [];
  try {
    for (const o of outputs) staged.push({ tmp: await target.stageFile(o.target, o.text), path: o.target });
    onStep?.('staged');
    // The session's folder first, its file last: a copy's file is what discovery looks for.
    staged.sort((a, b) => Number(a.path === mainFile) - Number(b.path === mainFile));
    for (const [i, s] of staged.entries()) {
      await target.swapIn(s.tmp, s.path);
      s.tmp = '';
      if (i === 0) onStep?.('swapped-one');
    }
  } finally {
    for (const s of staged) if (s.tmp) await target.remove(s.tmp).catch(() => undefined);
  }
  const written = new Set(outputs.map((o) => o.target));
  for (const old of before) if (!isTemporaryFile(old) && !written.has(old)) await target.remove(old);
}

/** The files a copy of a session holds: its file (with leftovers beside it) and everything below its folder. Links are listed, not followed. */
async function filesOf(mainFiles: string[], folder: string): Promise<string[]> {
  const out: string[] = [];
  for (const f of mainFiles) {
    const dir = dirname(f);
    const names = await readdir(dir).catch(() => [] as string[]);
    const base = f.slice(dir.length + 1);
    for (const n of names) if (n === base || (n.startsWith(`.${base}.`) && n.endsWith('.tmp'))) out.push(join(dir, n));
  }
  const walk = async (dir: string): Promise<void> => {
    const st = await lstat(dir).catch(() => undefined);
    if (!st) return;
    if (!st.isDirectory()) {
      out.push(dir);
      return;
    }
    for (const n of await readdir(dir)) await walk(join(dir, n));
  };
  await walk(folder);
  return out;
}

/** Removes what the site never renders and would only carry secrets along. */
function pruneUnshown(entry: Record<string, unknown>): void {
  const result = entry.toolUseResult;
  if (result && typeof result === 'object' && !Array.isArray(result) && 'originalFile' in result) {
    delete (result as Record<string, unknown>).originalFile;
  }
  omitUnshownBinaries(entry);
}

/**
 * Empties every base64 payload that is not an image pages show (a PDF, a
 * Word file, an image in another format): its text cannot be redacted, pages
 * give only its size, and a copy is made to be committed and published. The
 * size stays, under {@link OMITTED_BYTES_KEY}, for the page built from the copy.
 */
function omitUnshownBinaries(entry: Record<string, unknown>): void {
  mapBinaryPayloads([entry], (payload, holder) => {
    if (payload === '') return payload;
    // The magic number is in the first bytes: a 30 MB PDF is not decoded to be told apart from an image.
    if (imageFormatOf(Buffer.from(payload.slice(0, 64), 'base64'))) return payload;
    holder[OMITTED_BYTES_KEY] = base64Bytes(payload);
    return '';
  });
}

// Re-exported for the commands that import from here; it reads session heads, so it lives in the one session module.
export { folderUsernames } from '../../../src/lib/build/open-session.js';
