/**
 * Which agent files belong to which session, without reading them whole: kept
 * apart from open-session.ts so that a rebuild with nothing to process loads
 * none of the reader, redaction or model code.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import type { SessionSource, SourceLayout } from '../discover.js';

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
  // Never through a link: discovery listed a regular file, and one put in its place since is not followed.
  const handle = await open(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0)).catch(() => undefined);
  if (!handle) return undefined;
  try {
    const buf = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    const m = /"sessionId"\s*:\s*"([^"]+)"/.exec(buf.subarray(0, bytesRead).toString('utf8'));
    return m?.[1];
  } finally {
    await handle.close();
  }
}

/** The agent files of a session: its own `subagents/` folder first, then the siblings that name it. */
export function agentPathsOf(source: SessionSource, owners: Map<string, string[]>): string[] {
  return [...source.subagentPaths, ...(owners.get(source.sessionId) ?? [])];
}
