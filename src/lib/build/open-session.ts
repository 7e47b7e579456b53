import { readFile } from 'node:fs/promises';
import { basename, relative } from 'node:path';
import type { Diagnostic } from '../diagnostics.js';
import { agentIdFromPath, discoverSources, sidecarPathOf, toPosix, WORKFLOW_DIR, type SessionSource, type SourceLayout } from '../discover.js';
import { readJsonl, type JsonlRecord } from '../jsonl/read-jsonl.js';
import { createRedactor } from '../redact/redactor.js';
import type { RedactionOptions, Redactor } from '../redact/types.js';
import { usernamesFromFolder } from '../redact/usernames.js';
import { buildSession, type AgentFileInput, type AgentMeta, type BuildResult, type SessionInput } from '../transcript/build-session.js';
import { agentPathsOf, assignSiblingAgents } from './sibling-agents.js';
import { readTeamConfig } from './team-config.js';

// Re-exported: callers that open sessions find the agents here too; the loader imports the light module alone.
export { agentPathsOf, assignSiblingAgents };

/** A session read, redacted and modelled: everything later steps may see. */
export interface OpenedSession {
  source: SessionSource;
  result: BuildResult;
  /** Bytes read: the session file and its agent files. */
  bytes: number;
  /** Redaction findings by rule. */
  findings: Array<{ rule: string; count: number }>;
  /** The session's own redactor (placeholders are numbered per session), for what is derived later: paths, diagnostics. */
  redactor?: Redactor;
}

export interface OpenSessionOptions {
  /** The source root the session was discovered under; files are named relative to it. */
  root: string;
  /** Sibling `agent-*.jsonl` files by the session id they name (see `assignSiblingAgents`). */
  owners: Map<string, string[]>;
  /**
   * The user's redaction settings. `false` reads the session as it is on disk:
   * only tests of the model may do that, never anything that writes or shows.
   */
  redaction: Partial<RedactionOptions> | false;
}

/**
 * The one way into a session: reads it with its agent files, redacts every
 * value before anything else sees it (with a fresh redactor that knows the
 * login names of the session's project folder), and builds the model. Used by
 * the loader, the embeds and every script. Never throws for bad content; a
 * file that cannot be read at all becomes a `read-error` diagnostic.
 */
export async function openSession(source: SessionSource, options: OpenSessionOptions): Promise<OpenedSession> {
  const rel = (p: string) => toPosix(relative(options.root, p));
  const readDiagnostics: Diagnostic[] = [];
  let main;
  try {
    main = await readJsonl(source.path, source.relPath);
  } catch (err) {
    const diagnostics: Diagnostic[] = [{ file: source.relPath, line: 0, code: 'read-error', reason: `cannot read file: ${(err as Error).message}` }];
    return { source, result: { ok: false, reason: 'empty', diagnostics }, bytes: 0, findings: [] };
  }
  let bytes = main.bytes;
  readDiagnostics.push(...main.diagnostics);
  const sidecars = await readSidecars(source, rel, readDiagnostics);
  const agents: AgentFileInput[] = [];
  for (const path of agentPathsOf(source, options.owners)) {
    try {
      const r = await readJsonl(path, rel(path));
      bytes += r.bytes;
      readDiagnostics.push(...r.diagnostics);
      const runId = WORKFLOW_DIR.exec(path)?.[1];
      agents.push({ file: rel(path), agentId: agentIdFromPath(path), records: r.records, meta: sidecars.get(sidecarPathOf(path)), ...(runId ? { workflowRunId: runId } : {}) });
    } catch (err) {
      readDiagnostics.push({ file: rel(path), line: 0, code: 'read-error', reason: `cannot read agent file: ${(err as Error).message}` });
    }
  }
  const journals = await readJournals(source, rel, readDiagnostics);
  const team = await readTeamConfig(options.root, source.sessionId, rel, readDiagnostics);
  // With tool output dropped, the whole tool outputs are not read at all; hooks' outputs are not tool output.
  const dropOutput = options.redaction !== false && options.redaction.dropToolOutput === true;
  const persisted = await readToolResults(source, rel, readDiagnostics, dropOutput ? isHookOutputFile : () => true);
  for (const p of persisted.values()) bytes += Buffer.byteLength(p.content);
  let findings: OpenedSession['findings'] = [];
  let redactor: Redactor | undefined;
  if (options.redaction !== false) {
    redactor = createRedactor({ ...options.redaction, usernames: usernamesFromFolder(source.projectFolder) });
    // Everything read beside the session goes through the same redaction, before anything else sees it.
    const values: unknown[] = main.records.map((r) => r.value);
    for (const a of agents) for (const r of a.records) values.push(r.value);
    values.push(...sidecars.values(), ...persisted.values());
    for (const records of journals.values()) for (const r of records) values.push(r.value);
    if (team) values.push(team.value);
    const report = await redactor.redactSession(values, { projectFolders: [source.projectFolder] });
    findings = report.findings.map(({ rule, count }) => ({ rule, count }));
  }
  const input: SessionInput = {
    sessionId: source.sessionId,
    file: source.relPath,
    projectFolder: source.projectFolder,
    records: main.records,
    agents,
    readDiagnostics,
    persistedOutputs: new Map([...persisted].map(([name, p]) => [name, p.content])),
    ...(journals.size ? { workflowJournals: journals } : {}),
    ...(team ? { teamConfig: team.value } : {}),
  };
  return { source, result: buildSession(input), bytes, findings, redactor };
}

/** The `agent-<id>.meta.json` sidecars of a session, by path; one that is not a JSON object is reported and ignored. */
async function readSidecars(source: SessionSource, rel: (p: string) => string, diagnostics: Diagnostic[]): Promise<Map<string, AgentMeta>> {
  const out = new Map<string, AgentMeta>();
  for (const path of source.sidecarPaths ?? []) {
    try {
      const text = await readFile(path, 'utf8');
      // Workflow agents often leave an empty sidecar: a quiet fact (nothing was kept), not a problem.
      if (!text.trim()) continue;
      const value: unknown = JSON.parse(text);
      if (value && typeof value === 'object' && !Array.isArray(value)) out.set(path, value as AgentMeta);
      else diagnostics.push({ file: rel(path), line: 0, code: 'not-object', reason: 'agent sidecar is not a JSON object; ignored' });
    } catch (err) {
      diagnostics.push({ file: rel(path), line: 0, code: 'not-json', reason: `agent sidecar cannot be read as JSON (${(err as Error).message.slice(0, 80)}); ignored` });
    }
  }
  return out;
}

/** The `journal.jsonl` of each workflow run, by run id (its folder's name); redacted with the session. */
async function readJournals(source: SessionSource, rel: (p: string) => string, diagnostics: Diagnostic[]): Promise<Map<string, JsonlRecord[]>> {
  const out = new Map<string, JsonlRecord[]>();
  for (const path of source.journalPaths ?? []) {
    const runId = WORKFLOW_DIR.exec(path)?.[1];
    if (!runId) continue;
    try {
      const r = await readJsonl(path, rel(path));
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
 * Whole outputs kept beside the session (`<session>/tool-results/<name>`:
 * tools' and hooks'), by file name, for those `wanted`. Every file read here
 * goes through the session's redactor with the entries.
 */
async function readToolResults(source: SessionSource, rel: (p: string) => string, diagnostics: Diagnostic[], wanted: (path: string) => boolean): Promise<Map<string, { content: string }>> {
  const out = new Map<string, { content: string }>();
  for (const path of source.toolResultPaths ?? []) {
    if (!wanted(path)) continue;
    try {
      out.set(basename(path), { content: await readFile(path, 'utf8') });
    } catch (err) {
      diagnostics.push({ file: rel(path), line: 0, code: 'read-error', reason: `cannot read kept output: ${(err as Error).message}` });
    }
  }
  return out;
}

/** A session id prefix that names no session, or more than one. */
export class SessionLookupError extends Error {
  override name = 'SessionLookupError';
  constructor(
    message: string,
    /** Why: no session has the prefix, several do, or the one that does has nothing to show. */
    readonly kind: 'none' | 'ambiguous' | 'no-page',
    /** How many sessions matched. */
    readonly matches = 0,
  ) {
    super(message);
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
