import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverSources } from '../../../src/lib/discover.js';
import { EmbedError, resolveEmbed } from '../../../src/lib/site/embed.js';
import { renderEmbed, type EmbedSettings } from '../../../src/lib/build/embed-render.js';
import { projectSlugOf } from '../../../src/lib/site/slug.js';
import type { AssistantMessage, Message, Session } from '../../../src/lib/transcript/types.js';
import { loadConfig } from '../../../src/schemas/config.js';
import { fixturesRoot, loadExpect, repoRoot } from '../../helpers/shared.js';
import { loadSessionFile } from '../../helpers/sessions.js';

const E = loadExpect();
const rel = (file: string) => file.replace(/^projects\//, '');
const ids = (m: Message) => (m.kind === 'assistant' ? m.uuids : [m.uuid]);

/** The shortest prefix that at least two of these ids share (computed, so no fixture value is restated). */
function sharedPrefix(values: string[]): string {
  for (let n = 1; n < 36; n++) {
    const seen = new Set<string>();
    for (const v of values) {
      const p = v.slice(0, n);
      if (seen.has(p)) return p;
      seen.add(p);
    }
  }
  throw new Error('no shared prefix');
}

describe('resolveEmbed edge cases', async () => {
  const B = E.branches_streaming;
  const s: Session = await loadSessionFile(fixturesRoot, rel(B.file));
  const ref = { id: s.sessionId };

  it('refuses references that mix message, prompt and from/to', () => {
    const m = s.messages[1].uuid;
    expect(() => resolveEmbed(s, { ...ref, message: m, prompt: 1 })).toThrow(/use one of message, prompt or from\/to, not message and prompt/);
    expect(() => resolveEmbed(s, { ...ref, prompt: 1, to: m })).toThrow(/not prompt and from\/to/);
  });

  it('refuses empty prefixes instead of quietly embedding everything', () => {
    expect(() => resolveEmbed(s, { ...ref, message: '' })).toThrow(/message must be a non-empty uuid prefix/);
    expect(() => resolveEmbed(s, { ...ref, from: '  ' })).toThrow(/from must be a non-empty/);
  });

  it('explains prompts that do not exist, and prompt="2" written as a string', () => {
    const n = s.facts.promptCount;
    expect(n).toBeGreaterThan(1);
    for (const bad of [0, n + 1, 1.5]) {
      expect(() => resolveEmbed(s, { ...ref, prompt: bad })).toThrow(new RegExp(`has prompts 1 to ${n}`));
    }
    expect(() => resolveEmbed(s, { ...ref, prompt: '2' as unknown as number })).toThrow(/write prompt=\{2\}, not prompt="2"/);
  });

  it('embeds a turn from its prompt to the last message before the next prompt', () => {
    const turn = s.turns.find((t) => t.prompt && t.index === 2)!;
    const r = resolveEmbed(s, { ...ref, prompt: 2 });
    expect(r.kind).toBe('prompt');
    expect(r.messages).toEqual(turn.messages);
    expect(r.messages[0]).toBe(turn.prompt);
    expect(r.anchor).toBe(turn.prompt!.uuid);
  });

  it('finds a streamed assistant message by the uuid of any of its entries, and links to its first', () => {
    const split = s.messages.find((m): m is AssistantMessage => m.kind === 'assistant' && B.streaming.split_message_ids.includes(m.messageId) && m.uuids.length > 1)!;
    expect(split).toBeDefined();
    const r = resolveEmbed(s, { ...ref, message: split.uuids[split.uuids.length - 1] });
    expect(r.messages).toEqual([split]);
    expect(r.anchor).toBe(split.uuids[0]);
  });

  it('embeds the compaction boundary as a message of its own', () => {
    const r = resolveEmbed(s, { ...ref, message: B.compaction.boundary_uuid.slice(0, 12) });
    expect(r.messages.map((m) => m.kind)).toEqual(['compaction']);
  });

  it('says when a uuid belongs to an abandoned branch', () => {
    const first = B.abandoned_branches[0].first_uuid as string;
    expect(s.messages.some((m) => ids(m).includes(first))).toBe(false);
    expect(() => resolveEmbed(s, { ...ref, message: first })).toThrow(/message="[0-9a-f-]+": it is in an abandoned branch/);
  });

  it('asks for a longer prefix when several messages match', () => {
    const p = sharedPrefix(s.messages.map((m) => m.uuid));
    expect(() => resolveEmbed(s, { ...ref, message: p })).toThrow(new RegExp(`message="${p}": \\d+ messages of session ${s.sessionId} match; use a longer prefix`));
  });

  it('supports open ranges and rejects reversed ones', () => {
    const all = s.messages;
    const mid = all[Math.floor(all.length / 2)];
    expect(resolveEmbed(s, { ...ref, from: mid.uuid }).messages).toEqual(all.slice(all.indexOf(mid)));
    expect(resolveEmbed(s, { ...ref, to: mid.uuid }).messages).toEqual(all.slice(0, all.indexOf(mid) + 1));
    expect(resolveEmbed(s, { ...ref, from: mid.uuid, to: mid.uuid }).messages).toEqual([mid]);
    expect(() => resolveEmbed(s, { ...ref, from: all[3].uuid, to: all[1].uuid })).toThrow(/comes after/);
  });

  it('points from a subagent message to the call that started the agent', async () => {
    const sa = E.subagents.sessions[0];
    const withAgent = await loadSessionFile(fixturesRoot, rel(sa.file));
    const parent = withAgent.messages.find((m): m is AssistantMessage => m.kind === 'assistant' && m.toolCalls.some((c) => c.subagent?.messages.length))!;
    const inner = parent.toolCalls.find((c) => c.subagent?.messages.length)!.subagent!.messages[0];
    expect(() => resolveEmbed(withAgent, { id: withAgent.sessionId, message: inner.uuid })).toThrow(
      new RegExp(`in a subagent transcript; embed the message that started the agent instead \\(message="${parent.uuid.slice(0, 8)}"\\)`),
    );
  });

  it('throws EmbedError, which the component turns into a build error', () => {
    expect(() => resolveEmbed(s, { ...ref, message: 'zzzz' })).toThrow(EmbedError);
  });
});

describe('renderEmbed', () => {
  const config = loadConfig(repoRoot, { SESSIONPRESS_SOURCE: fixturesRoot });
  const settings: EmbedSettings = { sourceDir: fixturesRoot, base: '/', pageSize: 40, redaction: config.redaction, search: config.search };

  it('names session prefixes that match nothing, several sessions, or a session without a page', async () => {
    await expect(renderEmbed(settings, { id: 'zzzz' })).rejects.toThrow(/id="zzzz": no session id starts with it/);
    await expect(renderEmbed(settings, { id: '' })).rejects.toThrow(EmbedError);
    const layout = await discoverSources(fixturesRoot);
    const p = sharedPrefix(layout.sessions.map((x) => x.sessionId));
    await expect(renderEmbed(settings, { id: p })).rejects.toThrow(new RegExp(`id="${p}" matches \\d+ sessions; use a longer prefix`));
    const noPage = E.sessions.find((x: { has_page: boolean }) => !x.has_page);
    await expect(renderEmbed(settings, { id: noPage.session_id })).rejects.toThrow(/has no page/);
  });

  it('redacts what it embeds exactly like the session pages', async () => {
    const canary = E.canary;
    const r = await renderEmbed(settings, { id: canary.session_id });
    expect(r.html).toContain('data-uuid=');
    expect(r.label).toBe('whole session');
    for (const value of E.must_not_appear as string[]) expect(r.html.includes(value), value.slice(0, 40)).toBe(false);
    expect(r.html).not.toContain(canary.username);
    expect(r.title).not.toContain(canary.username);
  });

  it('links to the right page of a long session under the base path', async () => {
    const B = E.branches_streaming;
    const s = await loadSessionFile(fixturesRoot, rel(B.file));
    const last = s.turns.filter((t) => t.prompt).at(-1)!;
    const pageOf = s.turns.indexOf(last) + 1; // one turn per page
    const r = await renderEmbed({ ...settings, base: '/repo', pageSize: 1 }, { id: s.sessionId.slice(0, 8), prompt: last.index });
    const slug = projectSlugOf(B.file.split('/')[1]);
    expect(pageOf).toBeGreaterThan(1);
    expect(r.href).toBe(`/repo/sessions/${slug}/${s.sessionId}/${pageOf}/#m-${last.prompt!.uuid}`);
    expect(r.label).toBe(`prompt ${last.index}`);
    expect(r.html.startsWith(`<article class="msg msg-prompt"`)).toBe(true);
    expect(r.html).toContain(`data-prompt="${last.index}"`);
  });

  it('refuses a message the session page does not show, and counts only shown messages in a range', async () => {
    const samples = join(repoRoot, 'content', 'sessions');
    const sampleConfig = loadConfig(repoRoot, { SESSIONPRESS_SOURCE: samples });
    const local: EmbedSettings = { ...settings, sourceDir: samples, redaction: sampleConfig.redaction };
    const layout = await discoverSources(samples);
    for (const source of layout.sessions) {
      const s = await loadSessionFile(samples, `${source.projectFolder}/${source.relPath.split('/').pop()}`);
      const i = s.messages.findIndex((m) => m.kind === 'user' && m.userKind === 'meta');
      if (i <= 0 || i >= s.messages.length - 1) continue;
      const meta = s.messages[i];
      await expect(renderEmbed(local, { id: s.sessionId, message: meta.uuid })).rejects.toThrow(/does not show/);
      const r = await renderEmbed(local, { id: s.sessionId, from: s.messages[i - 1].uuid, to: s.messages[i + 1].uuid });
      const shown = r.html.match(/<article class="msg /g)?.length ?? 0;
      expect(r.html).not.toContain(`data-uuid="${meta.uuid}"`);
      expect(r.label).toBe(`${shown} messages`);
      expect(r.href).toContain(`#m-${s.messages[i - 1].uuid}`);
      return;
    }
    throw new Error('no sample session has a meta message between two others');
  });
});
