import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AssistantMessage, AttachmentMessage, Message, Session, ToolCall } from '../../../src/lib/transcript/types.js';
import { fixtureSession } from '../../helpers/sessions.js';
import { repoRoot } from '../../helpers/shared.js';

/**
 * Records of Claude Code 2.1.2xx in the model (test/fixtures/format-2.1.2xx,
 * EXPECT.records.json): whole outputs kept beside the session, hook outputs
 * kept the same way, gateway models with a stated cost, redacted thinking and
 * a session run from the Agent SDK.
 */
const root = join(repoRoot, 'test', 'fixtures', 'format-2.1.2xx');
const E = JSON.parse(readFileSync(join(root, 'EXPECT.records.json'), 'utf8'));
const K = E.keptOutputs;
const H = E.hookOutputs;

const session = (sessionId: string, redaction: object = {}) => fixtureSession(root, sessionId, redaction);

const callById = (ms: Message[], id: string): ToolCall | undefined =>
  ms.filter((m): m is AssistantMessage => m.kind === 'assistant').flatMap((m) => m.toolCalls).find((c) => c.id === id);
const attachment = (ms: Message[], uuid: string) => ms.find((m): m is AttachmentMessage => m.kind === 'attachment' && m.uuid === uuid);

/** No planted secret and no home path of the fixture's user. */
function expectClean(text: string): void {
  for (const secret of Object.values(E.secrets) as string[]) expect(text.includes(secret), 'a planted secret').toBe(false);
  expect(text).not.toContain(`/home/${E.username}`);
}

describe('whole outputs kept beside a 2.1.2xx session', () => {
  let s: Session;
  beforeAll(async () => {
    s = await session(E.sessions.kept);
  });

  it('reads the kept file a preview points to (a 9-character name), redacted, in place of the cut stdout', () => {
    const r = callById(s.messages, K.byPreview.toolUseId)!.result!;
    expect(r.persistedOutput).toEqual({ file: K.byPreview.file, chars: expect.any(Number) });
    const text = String(r.content);
    expect(text).toContain(K.byPreview.endMarker);
    expect(text.trimEnd().split('\n')).toHaveLength(K.byPreview.lines);
    // The record's stdout stops at the cut; the kept file holds the whole line and everything after it.
    expect(String((r.toolUseResult as { stdout: string }).stdout)).toHaveLength(K.byPreview.cutAt);
    expect(text).toContain(K.byPreview.lineAtCut);
    expect(text).toMatch(/\[REDACTED:[a-z-]+(#\d+)?\]/);
    expectClean(text);
  });

  it('reads the kept file named by persistedOutputPath alone (the content holds no preview)', () => {
    const r = callById(s.messages, K.byPath.toolUseId)!.result!;
    expect(r.persistedOutput?.file).toBe(K.byPath.file);
    expect(String(r.content)).toContain(K.byPath.endMarker);
    expect(String(r.content).trimEnd().split('\n')).toHaveLength(K.byPath.lines);
  });

  it('keeps what the record holds when the kept file is missing, and says so on its line', () => {
    const r = callById(s.messages, K.missing.toolUseId)!.result!;
    expect(r.persistedOutput).toEqual({ file: K.missing.file, missing: true, bytes: K.missing.bytes });
    expect(String((r.toolUseResult as { stdout: string }).stdout).endsWith(K.missing.cutStdoutEnd)).toBe(true);
    expect(String(r.content)).not.toContain('<persisted-output>');
    const d = s.diagnostics.filter((x) => x.code === 'kept-output-missing' && x.reason.includes(K.missing.file));
    expect(d).toHaveLength(1);
    expect(d[0].line).toBe(K.missing.line);
    expect(d[0].file).toMatch(new RegExp(`${E.sessions.kept}\\.jsonl$`));
  });
});

describe('hook outputs kept beside a 2.1.2xx session', () => {
  let s: Session;
  beforeAll(async () => {
    s = await session(E.sessions.kept);
  });

  it("puts a hook's whole stdout (hook-<uuid>-stdout.txt) in place of its preview, redacted", () => {
    const m = attachment(s.messages, H.kept.uuid)!;
    expect(m.kept?.stdout?.files).toEqual([H.kept.file]);
    const text = m.kept!.stdout!.text;
    expect(text.startsWith(H.kept.firstLine)).toBe(true);
    expect(text).toContain(H.kept.endMarker);
    expect(text.trimEnd().split('\n')).toHaveLength(H.kept.lines);
    expectClean(text);
    // The record itself still holds the preview: the model adds the whole output beside it.
    expect(String(m.raw.stdout)).toContain('<persisted-output>');
  });

  it('keeps the preview of a hook output whose file is missing, and says so on its line', () => {
    const m = attachment(s.messages, H.missing.uuid)!;
    expect(m.kept?.content?.missing).toEqual([H.missing.file]);
    expect(m.kept!.content!.text.startsWith(H.missing.previewStart)).toBe(true);
    const d = s.diagnostics.filter((x) => x.code === 'kept-output-missing' && x.reason.includes(H.missing.file));
    expect(d.map((x) => x.line)).toEqual([H.missing.line]);
  });

  it('still reads hook outputs when tool output is dropped (they are not tool output), and the tool outputs not at all', async () => {
    const dropped = await session(E.sessions.kept, { dropToolOutput: true });
    expect(attachment(dropped.messages, H.kept.uuid)?.kept?.stdout?.text).toContain(H.kept.endMarker);
    expect(callById(dropped.messages, K.byPreview.toolUseId)?.result?.persistedOutput).toBeUndefined();
    expect(dropped.diagnostics.filter((d) => d.code === 'kept-output-missing').map((d) => d.line)).toEqual([H.missing.line]);
  });
});

describe('redacted thinking in the model', () => {
  it('is kept as a block of its own (the renderer shows a marker, never its data)', async () => {
    const s = await session(E.sessions.kept);
    const m = s.messages.find((x): x is AssistantMessage => x.kind === 'assistant' && x.uuid === E.redactedThinking.messageUuid)!;
    expect(m.blocks.map((b) => b.type)).toEqual(['redacted_thinking', 'text', 'tool_use']);
  });
});

describe('gateway models and a session run from the Agent SDK', () => {
  let s: Session;
  beforeAll(async () => {
    s = await session(E.sessions.gateway);
  });

  it('keeps usage per model and gateway, with the cost the records state and no cost where none is stated', () => {
    for (const row of E.gateway.rows) {
      const u = s.facts.usage.filter((x) => x.model === row.model);
      expect(u, row.model).toHaveLength(1);
      expect(u[0].provider).toBe(row.provider);
      expect(u[0].messages).toBe(row.messages);
      if (row.statedCost !== undefined) expect(u[0].statedCost).toBeCloseTo(row.statedCost, 10);
      else expect(u[0].statedCost).toBeUndefined();
      expect(u[0].byokMessages).toBe(row.byokMessages);
    }
    expect(s.facts.usage.reduce((n, u) => n + (u.statedCost ?? 0), 0)).toBeCloseTo(E.gateway.statedTotal, 10);
  });

  it("names the gateway on the model's messages", () => {
    const providers = s.messages.filter((m): m is AssistantMessage => m.kind === 'assistant').map((m) => [m.model, m.provider]);
    for (const row of E.gateway.rows) expect(providers, row.model).toContainEqual([row.model, row.provider]);
  });

  it('says the session was run from the SDK, and counts its prompts as prompts', () => {
    expect(s.facts.sdk).toEqual({ entrypoint: E.sdk.entrypoint });
    expect(s.facts.promptCount).toBe(E.sdk.prompts);
    expect(s.turns.filter((t) => t.prompt)).toHaveLength(E.sdk.prompts);
    expect(s.title).toBe(E.sdk.title);
  });

  it('says nothing of the SDK for a session typed in the terminal', async () => {
    expect((await session(E.notSdk)).facts.sdk).toBeUndefined();
  });
});
