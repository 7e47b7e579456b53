import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverSources } from '../../../src/lib/discover.js';
import { agentPathsOf, assignSiblingAgents, openSession } from '../../../src/lib/build/open-session.js';
import { renderSession } from '../../../src/lib/build/render-session.js';
import { agentsIn, spawnedBy } from '../../../src/lib/transcript/entries.js';
import type { Message, Session, ToolCall } from '../../../src/lib/transcript/types.js';
import { corpusRoot, fixturesRoot, repoRoot } from '../../helpers/shared.js';

/**
 * On every real and fixture session, through the real page path (open,
 * model, render): every active tool call appears exactly once on the page,
 * those of subagents, workflow agents, forks and teammates included; no tool
 * call of any of the session's files is lost (it is on the page, or in an
 * abandoned branch); and every message from another session is shown once
 * and is no prompt.
 */
const ROOTS = [corpusRoot, fixturesRoot, ...['format-2.1', 'format-2.1.2xx', 'format-2.1.26x'].map((f) => join(repoRoot, 'test', 'fixtures', f))];

/** Every tool call the model shows for a transcript, its agents' at every depth included. */
function shownCalls(messages: Message[], out: ToolCall[] = []): ToolCall[] {
  for (const m of messages) {
    if (m.kind === 'assistant') {
      for (const c of m.toolCalls) {
        out.push(c);
        for (const sub of spawnedBy(c)) shownCalls(sub.messages, out);
      }
    } else {
      for (const sub of agentsIn(m)) shownCalls(sub.messages, out);
    }
  }
  return out;
}

/** How often each tool call id is on a page, by its `data-tool-use-id`. */
function idCounts(html: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const m of html.matchAll(/data-tool-use-id="([^"]*)"/g)) counts.set(m[1], (counts.get(m[1]) ?? 0) + 1);
  return counts;
}

/** The tool_use ids and peer messages written in a file (agent progress copies included). */
function written(path: string): { calls: string[]; peers: string[] } {
  const calls: string[] = [];
  const peers: string[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.includes('tool_use') && !line.includes('"peer"')) continue;
    let o: any;
    try {
      o = JSON.parse(line);
    } catch {
      continue;
    }
    for (const content of [o?.message?.content, o?.data?.message?.message?.content]) {
      if (Array.isArray(content)) for (const b of content) if (b?.type === 'tool_use' && typeof b.id === 'string') calls.push(b.id);
    }
    if (o?.type === 'user' && o?.origin?.kind === 'peer' && typeof o.uuid === 'string') peers.push(o.uuid);
  }
  return { calls, peers };
}

describe('every tool call once, on every real and fixture session', () => {
  it('shows each active call exactly once, loses none, and shows each peer message once and never as a prompt', async () => {
    let sessions = 0;
    let checked = 0;
    let agentCalls = 0;
    for (const root of ROOTS) {
      const layout = await discoverSources(root);
      const owners = await assignSiblingAgents(layout);
      for (const source of layout.sessions) {
        const opened = await openSession(source, { root, owners, redaction: false });
        if (!opened.result.ok) continue;
        const s: Session = opened.result.session;
        const r = await renderSession(s, { pageSize: 50, assetBase: '/a/', indexToolOutput: false, indexThinking: false });
        const pages = r.pages.map(String).join('\n');
        const onPage = idCounts(pages);
        const abandoned = idCounts(String(r.abandoned));
        const where = `${source.relPath}`;
        const calls = shownCalls(s.messages);
        for (const c of calls) {
          if (!/^[\w-]+$/.test(c.id)) continue;
          expect(onPage.get(c.id) ?? 0, `${where}: ${c.name} ${c.id}`).toBe(1);
          checked++;
        }
        const files = [source.path, ...agentPathsOf(source, owners)];
        const wrote = files.map(written);
        for (const id of new Set(wrote.flatMap((w) => w.calls))) {
          if (!/^[\w-]+$/.test(id)) continue;
          expect((onPage.get(id) ?? 0) + (abandoned.get(id) ?? 0), `${where}: ${id} is nowhere`).toBeGreaterThan(0);
        }
        agentCalls += wrote.slice(1).reduce((n, w) => n + w.calls.length, 0);
        const prompts = new Set(s.turns.map((t) => t.prompt?.uuid).filter(Boolean));
        for (const uuid of wrote[0].peers) {
          expect(pages.split(`data-uuid="${uuid}"`).length - 1, `${where}: peer message ${uuid}`).toBe(1);
          expect(prompts.has(uuid), `${where}: peer message ${uuid} counted as a prompt`).toBe(false);
        }
        sessions++;
      }
    }
    expect(sessions).toBeGreaterThan(60);
    expect(checked).toBeGreaterThan(2000);
    expect(agentCalls).toBeGreaterThan(100);
  }, 900_000);
});
