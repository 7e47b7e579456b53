import { dirname, join } from 'node:path';
import { discoverSources } from '../../src/lib/discover.js';
import { assignSiblingAgents, openSession } from '../../src/lib/build/open-session.js';
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

/** All text a reader could see in a message list, nested subagents included. */
export function visibleText(messages: Message[]): string {
  return JSON.stringify(messages, (key, value) => (key === 'raw' || key === 'toolUseResult' ? undefined : value));
}

/** The order in which markers first occur in a text. */
export function orderOf(text: string, markers: string[]): string[] {
  return markers.filter((m) => text.includes(m)).sort((a, b) => text.indexOf(a) - text.indexOf(b));
}
