import { open } from 'node:fs/promises';
import { relative } from 'node:path';
import type { Diagnostic } from './diagnostics.js';
import { agentIdFromPath, toPosix, type SessionSource, type SourceLayout } from './discover.js';
import { readJsonl } from './jsonl/read-jsonl.js';
import { buildSession, type AgentFileInput, type BuildResult, type SessionInput } from './transcript/build-session.js';

/** Anything that can redact a session's parsed values in place before the model sees them. */
export interface SessionRedactor {
  redactSession(values: unknown[], hints?: { projectFolders?: string[]; cwds?: string[] }): Promise<{ total: number; findings: Array<{ rule: string; count: number }> }>;
}

export interface LoadedSession {
  source: SessionSource;
  result: BuildResult;
  /** Bytes read: the session file and its agent files. */
  bytes: number;
  /** Redaction findings by rule. */
  findings: Array<{ rule: string; count: number }>;
}

/**
 * Maps each session id to the sibling `agent-*.jsonl` files that name it as
 * their `sessionId` (the 2.0.x layout keeps every agent of a project in one folder).
 * Only the head of each file is read.
 */
export async function assignSiblingAgents(layout: SourceLayout): Promise<Map<string, string[]>> {
  const owners = new Map<string, string[]>();
  const siblings = new Set(layout.sessions.flatMap((s) => s.siblingAgentPaths));
  for (const path of [...siblings].sort()) {
    const sessionId = await peekSessionId(path);
    if (!sessionId) continue;
    const list = owners.get(sessionId);
    if (list) list.push(path);
    else owners.set(sessionId, [path]);
  }
  return owners;
}

async function peekSessionId(path: string): Promise<string | undefined> {
  const handle = await open(path, 'r');
  try {
    const buf = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    const m = /"sessionId"\s*:\s*"([^"]+)"/.exec(buf.subarray(0, bytesRead).toString('utf8'));
    return m?.[1];
  } finally {
    await handle.close();
  }
}

/**
 * Reads one session with its agent files, redacts every value (before anything
 * else sees it), and builds the model. Never throws for bad content; a file that
 * cannot be read at all becomes a `read-error` diagnostic.
 */
export async function loadSession(
  source: SessionSource,
  root: string,
  siblingOwners: Map<string, string[]>,
  redactor?: SessionRedactor,
): Promise<LoadedSession> {
  const rel = (p: string) => toPosix(relative(root, p));
  const agentPaths = [...source.subagentPaths, ...(siblingOwners.get(source.sessionId) ?? [])];
  const readDiagnostics: Diagnostic[] = [];
  let bytes = 0;
  let main;
  try {
    main = await readJsonl(source.path, source.relPath);
  } catch (err) {
    const diagnostics: Diagnostic[] = [{ file: source.relPath, line: 0, code: 'read-error', reason: `cannot read file: ${(err as Error).message}` }];
    return { source, result: { ok: false, reason: 'empty', diagnostics }, bytes, findings: [] };
  }
  bytes += main.bytes;
  readDiagnostics.push(...main.diagnostics);
  const agents: AgentFileInput[] = [];
  for (const path of agentPaths) {
    try {
      const r = await readJsonl(path, rel(path));
      bytes += r.bytes;
      readDiagnostics.push(...r.diagnostics);
      agents.push({ file: rel(path), agentId: agentIdFromPath(path), records: r.records });
    } catch (err) {
      readDiagnostics.push({ file: rel(path), line: 0, code: 'read-error', reason: `cannot read agent file: ${(err as Error).message}` });
    }
  }
  let findings: LoadedSession['findings'] = [];
  if (redactor) {
    const values: unknown[] = main.records.map((r) => r.value);
    for (const a of agents) for (const r of a.records) values.push(r.value);
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
  };
  return { source, result: buildSession(input), bytes, findings };
}
