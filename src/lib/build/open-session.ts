import { basename, dirname, relative } from 'node:path';
import { redactProblem, type Diagnostic } from '../diagnostics.js';
import { agentIdFromPath, discoverSources, sidecarPathOf, toPosix, WORKFLOW_DIR, type SessionSource, type SourceLayout } from '../discover.js';
import { headCwds, readHead } from '../fs/read-head.js';
import { openInside, readTextInside } from '../fs/safe-path.js';
import { MAX_JSON_DEPTH, nestsTooDeep } from '../jsonl/json-depth.js';
import { jsonErrorReason, readJsonl, stringLiteralsOf, type JsonlRecord } from '../jsonl/read-jsonl.js';
import type { CleanStrings } from '../redact/clean-strings.js';
import type { BatchDetector } from '../redact/detect-batch.js';
import { createRedactor } from '../redact/redactor.js';
import type { RedactionOptions, RedactionReport, Redactor } from '../redact/types.js';
import { redactProjectFolder, usernamesFromCwds, usernamesFromFolder } from '../redact/usernames.js';
import { sessionProject, type Checkout } from '../site/session-project.js';
import { entryIdOf, projectSlugOf } from '../site/slug.js';
import { decodeProjectFolder } from '../transcript/build-session.js';
import { buildSession, type AgentFileInput, type AgentMeta, type BuildResult, type SessionInput } from '../transcript/build-session.js';
import { deriveNumberedReadText, shareRepeatedResultText } from '../transcript/shared-result-text.js';
import type { Session } from '../transcript/types.js';
import type { SessionProgress } from './progress.js';
import { agentPathsOf, assignSiblingAgents } from './sibling-agents.js';
import { readTeamConfig } from './team-config.js';

// Re-exported: callers that open sessions find the agents here too; the loader imports the light module alone.
export { agentPathsOf, assignSiblingAgents };
// Re-exported: commands take a quick look at a session file through the one module that reads them.
export { readHead };

/**
 * Who a session is, computed once, here, for every caller: the site's pages,
 * the embeds, `link`, `export`, `pr-comment`, `import` and `capture` all name
 * a session by these values and by nothing they work out themselves.
 */
export interface SessionIdentity {
  /** Its page's id and URL path (`<folder slug>/<session slug>`): never changes, so links never break. */
  entryId: string;
  /** The slug of the session's own project folder, which its URL starts with. */
  folderSlug: string;
  /** The project it is listed under (a worktree's session: its repository's). */
  projectSlug: string;
  projectName: string;
  /** The project's path, redacted: from the session's `cwd`, else decoded from its folder name. */
  projectPath: string;
  /** The worktree and branch it ran in, when it ran in one. */
  checkout?: Checkout;
  /** The project folder's name for copies (`import`, `capture`): the login name taken out, redacted. */
  copyFolder: string;
}

/** A transcript file of a session, read and (unless reading raw) redacted. */
export interface SessionFile {
  /** Absolute path. */
  path: string;
  /** Path relative to the source root. */
  rel: string;
  kind: 'session' | 'agent';
  records: JsonlRecord[];
  bytes: number;
}

/** A file read beside a session: an agent's sidecar (a JSON object) or a whole kept output (text). */
export type SideFile =
  | { path: string; rel: string; kind: 'sidecar'; value: AgentMeta; bytes: number }
  | { path: string; rel: string; kind: 'kept-output'; value: { text: string }; bytes: number };

/** Everything of a session as read from disk and redacted: what copies are written from and the model is built from. */
export interface ReadSession {
  source: SessionSource;
  /** The session file first, then its agent files. */
  files: SessionFile[];
  sideFiles: SideFile[];
  /** The `journal.jsonl` records of each workflow run, by run id: not transcripts, read for the results they add. */
  journals: Map<string, JsonlRecord[]>;
  /** The team's config (`<root>/teams/session-<8 hex>/config.json`), when the source tree holds one. */
  team?: { file: string; value: Record<string, unknown> };
  /** Problems met while reading, by file and line. */
  diagnostics: Diagnostic[];
  /** Bytes read: transcripts and kept outputs. */
  bytes: number;
  report: RedactionReport;
  /** The session's own redactor (placeholders are numbered per session), for what is derived later: paths, diagnostics. */
  redactor?: Redactor;
}

/** A session read, redacted and modelled: everything later steps may see. */
export interface OpenedSession {
  source: SessionSource;
  /** The model. With redaction on, every value in it is redacted, the file name, diagnostics and project path included. */
  result: BuildResult;
  /** Who the session is; the same for every caller. */
  identity: SessionIdentity;
  /** Bytes read: the session file and its agent files. */
  bytes: number;
  /** Redaction findings by rule. */
  findings: Array<{ rule: string; count: number }>;
  /** The session's own redactor (placeholders are numbered per session), for what is derived later: paths, diagnostics. */
  redactor?: Redactor;
}

export interface OpenSessionOptions {
  /** The source root the session was discovered under; files are named relative to it, and nothing outside it is read. */
  root: string;
  /** Sibling `agent-*.jsonl` files by the session id they name (see `assignSiblingAgents`). */
  owners: Map<string, string[]>;
  /**
   * The user's redaction settings. `false` reads the session as it is on disk:
   * only tests of the model may do that, never anything that writes or shows.
   */
  redaction: Partial<RedactionOptions> | false;
  /** Login names known for the session's whole project folder (see `folderUsernames`), so every session of a folder is redacted alike. */
  usernames?: string[];
  /**
   * Decides, before redaction, whether a record is kept, and may strip what
   * the caller never shows (a copy leaves out file-history snapshots).
   */
  keep?: (value: Record<string, unknown>) => boolean;
  /** The session's clean strings (see clean-strings.ts): those of its last redaction are not looked at again, and this one's are recorded. */
  clean?: CleanStrings;
  /** Told each step as it starts, and the session file's bytes read as it is read (see progress.ts). */
  progress?: (p: SessionProgress) => void;
  /** Another thread that looks for secrets in a share of the session's strings (see detect-batch.ts). */
  detector?: BatchDetector;
}

/**
 * The one way to read a session: its file, its agent files, their sidecars
 * and the whole outputs kept beside it, each opened only when its real
 * location is inside the source root (no symbolic link is followed), then
 * every value redacted with one fresh redactor that knows the login names of
 * the session's project folder, before any caller sees it. Never throws for
 * bad content; a file that cannot be read becomes a `read-error` diagnostic.
 */
export async function readSession(source: SessionSource, options: OpenSessionOptions): Promise<ReadSession> {
  const rel = (p: string) => toPosix(relative(options.root, p));
  const diagnostics: Diagnostic[] = [];
  const files: SessionFile[] = [];
  const keep = options.keep ?? (() => true);
  let bytes = 0;
  const paths = [source.path, ...agentPathsOf(source, options.owners)];
  for (const [i, path] of paths.entries()) {
    const name = i === 0 ? source.relPath : rel(path);
    try {
      // The session file's reading is what takes long; its agents' files are read after it, as part of that step.
      const onRead = i === 0 && options.progress ? (n: number) => options.progress!({ stage: 'read', bytes: n, total: Math.max(n, source.size) }) : undefined;
      const r = await readJsonl(path, name, options.root, { ...(onRead ? { onRead } : {}), onRecord: holdResultTextOnce });
      bytes += r.bytes;
      diagnostics.push(...r.diagnostics);
      files.push({ path, rel: name, kind: i === 0 ? 'session' : 'agent', records: r.records.filter((rec) => keep(rec.value)), bytes: r.bytes });
    } catch (err) {
      diagnostics.push({ file: name, line: 0, code: 'read-error', reason: `cannot read ${i === 0 ? 'file' : 'agent file'}: ${(err as Error).message}` });
      if (i === 0) break;
    }
  }
  // Beside the transcripts: each workflow run's journal, and the team's config when the source tree holds it.
  const journals = files.length ? await readJournals(source, options.root, rel, diagnostics) : new Map<string, JsonlRecord[]>();
  const team = files.length ? await readTeamConfig(options.root, source.sessionId, rel, diagnostics) : undefined;
  // With tool output dropped, the whole tool outputs are not read at all; hooks' outputs are not tool output.
  const dropOutput = options.redaction !== false && options.redaction.dropToolOutput === true;
  const sideFiles = files.length ? await readSideFiles(source, options.root, rel, diagnostics, dropOutput ? isHookOutputFile : () => true) : [];
  for (const f of sideFiles) if (f.kind === 'kept-output') bytes += f.bytes;
  let report: RedactionReport = { findings: [], total: 0 };
  let redactor: Redactor | undefined;
  if (options.redaction !== false) {
    redactor = createRedactor({ ...options.redaction, usernames: [...(options.redaction.usernames ?? []), ...(options.usernames ?? []), ...usernamesFromFolder(source.projectFolder), ...(source.homeName === undefined ? [] : [source.homeName])] });
    // Everything read beside the session goes through the same redaction, before anything else sees it.
    const values: unknown[] = [];
    for (const f of files) for (const r of f.records) values.push(r.value);
    for (const f of sideFiles) values.push(f.value);
    for (const records of journals.values()) for (const r of records) values.push(r.value);
    if (team) values.push(team.value);
    // A bad line's strings are one escape level deeper in its raw text than a record's: read as values, so the secrets they hold are known by value too.
    for (const d of diagnostics) if (d.lineHead !== undefined) values.push(stringLiteralsOf(d.lineHead));
    const { progress, clean, detector } = options;
    report = await redactor.redactSession(values, { projectFolders: [source.projectFolder] }, {
      clean,
      detector,
      progress: progress && ((p) => progress(p.step === 'detect' ? { stage: 'detect', done: p.done, total: p.total } : { stage: 'redact' })),
    });
  }
  // Problems quote file names and line heads: redacted before anyone stores or prints them (and quoted, unredacted, when redaction is off).
  const names = redactor;
  const redact = names ? (text: string) => names.redactText(text) : (text: string) => text;
  for (const [i, d] of diagnostics.entries()) diagnostics[i] = redactProblem(d, redact);
  return { source, files, sideFiles, journals, ...(team ? { team } : {}), diagnostics, bytes, report, redactor };
}

/**
 * The one way into a session's model: {@link readSession}, then the model,
 * then its {@link SessionIdentity}. With redaction on, everything returned is
 * redacted (the model's file name, diagnostics and project path too). Used by
 * the loader, the embeds and every command.
 */
export async function openSession(source: SessionSource, options: OpenSessionOptions): Promise<OpenedSession> {
  const read = await readSession(source, options);
  const findings = read.report.findings.map(({ rule, count }) => ({ rule, count }));
  const { redactor } = read;
  const main = read.files[0];
  if (!main || main.kind !== 'session') {
    return { source, result: { ok: false, reason: 'empty', diagnostics: read.diagnostics }, identity: sessionIdentity(source, undefined, redactor), bytes: 0, findings, redactor };
  }
  const sidecars = new Map<string, AgentMeta>();
  const persisted = new Map<string, string>();
  for (const f of read.sideFiles) {
    if (f.kind === 'sidecar') sidecars.set(f.path, f.value);
    else persisted.set(basename(f.path), f.value.text);
  }
  const agents: AgentFileInput[] = read.files.slice(1).map((f) => {
    const runId = WORKFLOW_DIR.exec(f.path)?.[1];
    return { file: redactor ? redactor.redactText(f.rel) : f.rel, agentId: agentIdFromPath(f.path), records: f.records, meta: sidecars.get(sidecarPathOf(f.path)), ...(runId ? { workflowRunId: runId } : {}) };
  });
  const input: SessionInput = {
    sessionId: source.sessionId,
    file: redactor ? redactor.redactText(source.relPath) : source.relPath,
    projectFolder: source.projectFolder,
    ...(source.homeName === undefined ? {} : { homeName: source.homeName }),
    records: main.records,
    agents,
    readDiagnostics: read.diagnostics,
    persistedOutputs: persisted,
    ...(read.journals.size ? { workflowJournals: read.journals } : {}),
    ...(read.team ? { teamConfig: read.team.value } : {}),
  };
  options.progress?.({ stage: 'model' });
  const built = buildSession(input);
  if (!built.ok) {
    const diagnostics = redactor ? built.diagnostics.map((d) => redactDiagnostic(d, redactor)) : built.diagnostics;
    return { source, result: { ...built, diagnostics }, identity: sessionIdentity(source, undefined, redactor), bytes: read.bytes, findings, redactor };
  }
  const identity = sessionIdentity(source, built.session, redactor);
  const session: Session = redactor
    ? {
        ...built.session,
        diagnostics: built.session.diagnostics.map((d) => redactDiagnostic(d, redactor)),
        // The model decodes the folder name when a session has no `cwd`: that path was never in the redacted values.
        facts: { ...built.session.facts, projectPath: identity.projectPath, projectName: identity.projectName },
      }
    : built.session;
  return { source, result: { ok: true, session }, identity, bytes: read.bytes, findings, redactor };
}

/**
 * The identity of a session read for a copy (no model is built): what its
 * folder and the login names its redactor learnt tell. Its `copyFolder` is
 * the one every copy of the session is written under.
 */
export function copyIdentity(read: ReadSession): SessionIdentity {
  return sessionIdentity(read.source, undefined, read.redactor);
}

/** Names nothing a redactor would not let through: problems quote file names and line heads. */
function redactDiagnostic(d: Diagnostic, redactor: Redactor): Diagnostic {
  return redactProblem(d, (text) => redactor.redactText(text));
}

/** The session's identity (see {@link SessionIdentity}); without a model, what the folder alone tells. */
function sessionIdentity(source: SessionSource, session: Session | undefined, redactor: Redactor | undefined): SessionIdentity {
  const names = redactor ?? { redactText: (t: string) => t, knownUsernames: () => [] };
  const folderSlug = projectSlugOf(source.projectFolder, source.homeName);
  const folderName = source.projectFolder === '.' ? 'sessions' : source.projectFolder;
  const copyFolder = names.redactText(redactProjectFolder(folderName, [...names.knownUsernames(), ...usernamesFromFolder(source.projectFolder)]));
  const projectPath = names.redactText(session ? session.facts.projectPath : decodeProjectFolder(source.projectFolder, source.homeName));
  const facts = session?.facts ?? { worktree: undefined, gitBranches: [] };
  const project = sessionProject(source.projectFolder, projectPath, facts, names, source.homeName);
  return {
    entryId: entryIdOf(source),
    folderSlug,
    projectSlug: project.projectSlug,
    projectName: project.projectName,
    projectPath,
    ...(project.checkout ? { checkout: project.checkout } : {}),
    copyFolder,
  };
}

/** The `journal.jsonl` of each workflow run, by run id (its folder's name); redacted with the session. */
async function readJournals(source: SessionSource, root: string, rel: (p: string) => string, diagnostics: Diagnostic[]): Promise<Map<string, JsonlRecord[]>> {
  const out = new Map<string, JsonlRecord[]>();
  for (const path of source.journalPaths ?? []) {
    const runId = WORKFLOW_DIR.exec(path)?.[1];
    if (!runId) continue;
    try {
      const r = await readJsonl(path, rel(path), root);
      diagnostics.push(...r.diagnostics);
      out.set(runId, r.records);
    } catch (err) {
      diagnostics.push({ file: rel(path), line: 0, code: 'read-error', reason: `cannot read workflow journal: ${(err as Error).message}` });
    }
  }
  return out;
}

/** A hook's whole output kept beside the session (`hook-<id>-stdout.txt`, `hook-<id>-<n>-additionalContext.txt`). */
function isHookOutputFile(path: string): boolean {
  return basename(path).startsWith('hook-');
}

/**
 * The sidecars (`agent-<id>.meta.json`, JSON objects) and whole kept outputs
 * (`<session>/tool-results/<name>`: tools' and hooks', for those `wanted`) of
 * a session, each read only inside the source root. One that cannot be read,
 * or a sidecar that is not a JSON object, is a problem and left out.
 */
async function readSideFiles(source: SessionSource, root: string, rel: (p: string) => string, diagnostics: Diagnostic[], wanted: (path: string) => boolean): Promise<SideFile[]> {
  const out: SideFile[] = [];
  for (const path of source.sidecarPaths ?? []) {
    try {
      const text = await readTextInside(root, path);
      // Workflow agents often leave an empty sidecar: a quiet fact (nothing was kept), not a problem.
      if (!text.trim()) continue;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (err) {
        diagnostics.push({ file: rel(path), line: 0, code: 'not-json', reason: `agent sidecar cannot be read as JSON (${jsonErrorReason(err)}); ignored` });
        continue;
      }
      if (nestsTooDeep(text, value)) diagnostics.push({ file: rel(path), line: 0, code: 'too-deep', reason: `agent sidecar nests deeper than ${MAX_JSON_DEPTH} levels; ignored` });
      else if (value && typeof value === 'object' && !Array.isArray(value)) out.push({ path, rel: rel(path), kind: 'sidecar', value: value as AgentMeta, bytes: Buffer.byteLength(text) });
      else diagnostics.push({ file: rel(path), line: 0, code: 'not-object', reason: 'agent sidecar is not a JSON object; ignored' });
    } catch (err) {
      diagnostics.push({ file: rel(path), line: 0, code: 'read-error', reason: `cannot read agent sidecar: ${(err as Error).message}` });
    }
  }
  for (const path of source.toolResultPaths ?? []) {
    if (!wanted(path)) continue;
    try {
      const text = await readTextInside(root, path);
      out.push({ path, rel: rel(path), kind: 'kept-output', value: { text }, bytes: Buffer.byteLength(text) });
    } catch (err) {
      diagnostics.push({ file: rel(path), line: 0, code: 'read-error', reason: `cannot read kept output: ${(err as Error).message}` });
    }
  }
  return out;
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

/**
 * Whether a session file holds `text` anywhere (a cheap look before opening
 * it: only a file with a `pr-link` line can name a pull request). Read like
 * everything else here; an unreadable file holds nothing.
 */
export async function sessionFileIncludes(path: string, text: string): Promise<boolean> {
  let handle;
  try {
    handle = await openInside(dirname(path), path);
  } catch {
    return false;
  }
  try {
    const needle = Buffer.from(text);
    const chunk = Buffer.alloc(1 << 20);
    let carry = Buffer.alloc(0);
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (!bytesRead) return false;
      const window = Buffer.concat([carry, chunk.subarray(0, bytesRead)]);
      if (window.includes(needle)) return true;
      carry = window.subarray(Math.max(0, window.length - needle.length + 1));
    }
  } finally {
    await handle.close();
  }
}

/**
 * The whole text of a session, agent or side file (a plain scan: dates, the
 * first line of a finding), read like everything else here: never through a
 * link. Throws when it cannot be read.
 */
export function readSessionText(path: string): Promise<string> {
  return readTextInside(dirname(path), path);
}

/** A session id prefix that names no session, or more than one. */
export class SessionLookupError extends Error {
  override name = 'SessionLookupError';
  /** Why: no session has the prefix, several do, or the one that does has nothing to show. */
  readonly kind: 'none' | 'ambiguous' | 'no-page';
  /** How many sessions matched. */
  readonly matches: number;
  constructor(message: string, kind: 'none' | 'ambiguous' | 'no-page', matches = 0) {
    super(message);
    this.kind = kind;
    this.matches = matches;
  }
}

/** The session whose id starts with `prefix`; throws a SessionLookupError naming the candidates otherwise. */
export function findSession(layout: SourceLayout, prefix: string): SessionSource {
  if (typeof prefix !== 'string' || prefix.trim() === '') throw new SessionLookupError('a session id or a prefix of one is needed', 'none');
  const exact = layout.sessions.filter((s) => s.sessionId === prefix);
  const matches = exact.length ? exact : layout.sessions.filter((s) => s.sessionId.startsWith(prefix));
  if (matches.length === 1) return matches[0];
  if (matches.length === 0) throw new SessionLookupError(`no session id starts with "${prefix}" in ${layout.root}`, 'none');
  const shown = matches.slice(0, 5).map((s) => s.sessionId).join(', ');
  throw new SessionLookupError(`"${prefix}" matches ${matches.length} sessions (${shown}${matches.length > 5 ? ', …' : ''}); use a longer prefix`, 'ambiguous', matches.length);
}

/** A source folder's layout and sibling owners, discovered once per folder for the life of the process. */
const layouts = new Map<string, Promise<{ layout: SourceLayout; owners: Map<string, string[]> }>>();

/** Discovers a source folder once and remembers it (embeds and scripts look up several sessions of one folder). */
export function sourceLayout(sourceDir: string): Promise<{ layout: SourceLayout; owners: Map<string, string[]> }> {
  let p = layouts.get(sourceDir);
  if (!p) {
    p = discoverSources(sourceDir).then(async (layout) => ({ layout, owners: await assignSiblingAgents(layout) }));
    layouts.set(sourceDir, p);
  }
  return p;
}

/**
 * Finds a session of a source folder by id or prefix and opens it, redacted.
 * Throws a SessionLookupError when the prefix is ambiguous or unknown, or the
 * file has no conversation to show.
 */
export async function openSessionById(sourceDir: string, prefix: string, redaction: Partial<RedactionOptions>): Promise<OpenedSession & { result: Extract<BuildResult, { ok: true }> }> {
  const { layout, owners } = await sourceLayout(sourceDir);
  const source = findSession(layout, prefix);
  const opened = await openSession(source, { root: sourceDir, owners, redaction });
  if (!opened.result.ok) throw new SessionLookupError(`${source.relPath} has no page (${opened.result.reason === 'empty' ? 'empty file' : 'metadata only, no conversation'})`, 'no-page', 1);
  return opened as OpenedSession & { result: Extract<BuildResult, { ok: true }> };
}

/** A result's text repeated in its `toolUseResult` is held once, and a Read's numbered text not at all (shared-result-text.ts). */
function holdResultTextOnce(record: Record<string, unknown>): void {
  shareRepeatedResultText(record);
  deriveNumberedReadText(record);
}
