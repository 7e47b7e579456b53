import { dirname, join } from 'node:path';
import { discoverSources } from '../../src/lib/discover.js';
import { assignSiblingAgents, openSession, type OpenedSession } from '../../src/lib/build/open-session.js';
import type { RedactionOptions } from '../../src/lib/redact/types.js';
import type { Message, Session } from '../../src/lib/transcript/types.js';

/** Loads one session file of a `~/.claude/projects`-like tree through the real pipeline (no redaction). */
export async function loadSessionFile(root: string, relFile: string): Promise<Session> {
  const layout = await discoverSources(join(root, dirname(relFile)));
  const source = layout.sessions.find((s) => s.relPath === relFile.split('/').pop());
  if (!source) throw new Error(`no session ${relFile}`);
  const owners = await assignSiblingAgents(layout);
  const loaded = await openSession({ ...source, projectFolder: dirname(relFile) }, { root: layout.root, owners, redaction: false });
  if (!loaded.result.ok) throw new Error(`${relFile}: ${loaded.result.reason}`);
  return loaded.result.session;
}

/** Opens one session of a fixture tree by its id through the real pipeline; `redaction` `{}` is the defaults, `false` none. */
export async function openFixtureSession(root: string, sessionId: string, redaction: Partial<RedactionOptions> | false = {}): Promise<OpenedSession> {
  const layout = await discoverSources(root);
  const owners = await assignSiblingAgents(layout);
  const source = layout.sessions.find((s) => s.sessionId === sessionId);
  if (!source) throw new Error(`fixture session ${sessionId} not found`);
  return openSession(source, { root, owners, redaction });
}

/** The model of one session of a fixture tree (see `openFixtureSession`); throws when it has no page. */
export async function fixtureSession(root: string, sessionId: string, redaction: Partial<RedactionOptions> | false = {}): Promise<Session> {
  const o = await openFixtureSession(root, sessionId, redaction);
  if (!o.result.ok) throw new Error(`${sessionId} has no page: ${o.result.reason}`);
  return o.result.session;
}

/** All text a reader could see in a message list, nested subagents included. */
export function visibleText(messages: Message[]): string {
  return JSON.stringify(messages, (key, value) => (key === 'raw' || key === 'toolUseResult' ? undefined : value));
}

/** The order in which markers first occur in a text. */
export function orderOf(text: string, markers: string[]): string[] {
  return markers.filter((m) => text.includes(m)).sort((a, b) => text.indexOf(a) - text.indexOf(b));
}
