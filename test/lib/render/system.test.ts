/**
 * System entries by subtype, as a reader sees them: real records of the
 * corpus (the 2.1.80–2.1.239 composite records and the 2.1.114 session) where
 * they exist, documented shapes otherwise. No subtype shows as raw JSON.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { renderMessage, type RenderContext } from '../../../src/lib/render/render-message.js';
import { turnDurationHtml } from '../../../src/lib/render/system.js';
import { formatDuration } from '../../../src/lib/format.js';
import type { SystemMessage } from '../../../src/lib/transcript/types.js';
import { parse } from './dom.js';
import { jsonlFiles, rawEntries } from '../../helpers/shared.js';
import { corpusRoot, testContext } from '../../helpers/render.js';
import { systemMsg } from './make.js';
import { expectInert } from './xss-check.js';

let ctx: RenderContext;
beforeAll(async () => {
  ({ ctx } = await testContext());
});


let records: Array<Record<string, any>> | undefined;
/** Every `type: "system"` record of the corpus, as read. */
function systemRecords(): Array<Record<string, any>> {
  if (records) return records;
  records = [];
  for (const f of jsonlFiles(corpusRoot)) {
    for (const o of rawEntries(f, '"system"')) {
      if (o && o.type === 'system' && typeof o.subtype === 'string') records.push(o);
    }
  }
  return records;
}

/** A system message built from a real record the way the model builds it. */
function fromRecord(subtype: string, filter: (o: Record<string, any>) => boolean = () => true): SystemMessage {
  const o = systemRecords().find((r) => r.subtype === subtype && filter(r));
  expect(o, `a corpus record of subtype ${subtype}`).toBeDefined();
  return { kind: 'system', uuid: `u-${subtype}`, subtype, timestamp: o!.timestamp, text: typeof o!.content === 'string' ? o!.content : '', level: o!.level, line: 1, raw: o! };
}

const text = (el: Element | null | undefined) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();

function render(m: SystemMessage): Element | null {
  return parse(renderMessage(m, ctx)).querySelector('article');
}

function expectNoJson(el: Element | null): void {
  expect(text(el)).not.toMatch(/\{\s*"|"\s*:/);
}

describe('system subtypes from real records', () => {
  it('away_summary is a recap card without the settings hint', () => {
    const m = fromRecord('away_summary', (o) => typeof o.content === 'string' && o.content.length > 40);
    const el = render(m);
    expect(el?.getAttribute('data-kind')).toBe('system');
    const card = el?.querySelector('.recap-card');
    expect(text(card?.querySelector('.recap-label'))).toBe('While you were away');
    expect(text(card)).toContain(m.text.slice(0, 40).replace(/\s+/g, ' '));
    expect(text(el)).not.toContain('disable recaps');
  });

  it('turn_duration says how long the turn took, in words', () => {
    const m = fromRecord('turn_duration', (o) => o.durationMs > 1000);
    const el = render(m);
    expect(text(el?.querySelector('.turn-duration'))).toBe(`Turn took ${formatDuration(m.raw.durationMs as number)}`);
    expect(text(parse(turnDurationHtml(m.raw.durationMs as number).value).querySelector('p.turn-duration'))).toBe(`Turn took ${formatDuration(m.raw.durationMs as number)}`);
    expect(turnDurationHtml(undefined).value).toBe('');
  });

  it('stop_hook_summary names each hook and how long it took', () => {
    const m = fromRecord('stop_hook_summary', (o) => Array.isArray(o.hookInfos) && typeof o.hookInfos[0]?.durationMs === 'number');
    const el = render(m);
    const hook = m.raw.hookInfos as Array<{ command: string; durationMs: number }>;
    expect(el?.querySelector('.system-text code')?.textContent).toBe(hook[0].command);
    expect(text(el)).toContain(`(${formatDuration(hook[0].durationMs)})`);
  });

  it('api_refusal says the API refused, why, and links the withdrawn messages', () => {
    const m = fromRecord('api_refusal', (o) => Array.isArray(o.retractedMessageUuids) && o.retractedMessageUuids.length > 0);
    const el = render(m);
    expect(el?.getAttribute('data-kind')).toBe('api-error');
    expect(text(el)).toContain(`The API refused to answer (${m.raw.apiRefusalCategory}): ${m.raw.apiRefusalExplanation}`);
    const links = [...(el?.querySelectorAll('.retracted a') ?? [])].map((a) => a.getAttribute('href'));
    expect(links).toEqual((m.raw.retractedMessageUuids as string[]).map((u) => `#m-${u}`));
  });

  it('model_refusal_fallback names both models', () => {
    const m = fromRecord('model_refusal_fallback');
    const el = render(m);
    const codes = [...(el?.querySelectorAll('.api-error-text code') ?? [])].map((c) => c.textContent);
    expect(codes).toEqual([m.raw.originalModel, m.raw.fallbackModel]);
    expect(text(el)).toContain('declined; answered by');
  });

  it('api_error records read as status, cause and retry in words, never JSON', () => {
    const all = systemRecords().filter((r) => r.subtype === 'api_error');
    expect(all.length).toBeGreaterThan(1);
    for (const o of all) {
      const el = render({ kind: 'system', uuid: 'e', subtype: 'api_error', text: '', line: 1, raw: o });
      expect(el?.getAttribute('data-kind')).toBe('api-error');
      expect(text(el?.querySelector('.api-error-text')).length).toBeGreaterThan(3);
      expectNoJson(el);
      if (o.error?.type === 'authentication_error') expect(text(el)).toContain('authentication error');
    }
  });

  it('an `error` record (2.1.220) shows its HTTP status', () => {
    const m = fromRecord('error', (o) => typeof o.error?.status === 'number');
    expect(text(render(m))).toContain(`HTTP ${m.raw.error && (m.raw.error as { status: number }).status}`);
  });

  it('session_start of a fresh session shows nothing', () => {
    expect(renderMessage(fromRecord('session_start'), ctx)).toBe('');
  });
});

describe('system subtypes from documented shapes', () => {
  it('microcompact_boundary and snip_boundary are dividers saying what was dropped', () => {
    const micro = render(systemMsg('microcompact_boundary', '', { microcompactMetadata: { trigger: 'auto', preTokens: 150000, tokensSaved: 42000 } }));
    expect(micro?.querySelector('.divider[role="separator"]')).not.toBeNull();
    expect(text(micro?.querySelector('.compaction-summary'))).toBe('Older tool results cleared to save context · auto · 42,000 tokens freed · 150,000 tokens before');
    const snip = render(systemMsg('snip_boundary', 'snipped'));
    expect(snip?.querySelector('.divider')).not.toBeNull();
    expect(text(snip)).toContain('Part of the conversation snipped');
  });

  it('notices (informational, memory_saved, agents_killed, scheduled_task_fire, permission_retry) show a label in words and their text', () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['informational', {}, ''],
      ['memory_saved', { path: '/home/u/.claude/CLAUDE.md' }, 'Memory saved · /home/u/.claude/CLAUDE.md'],
      ['agents_killed', { count: 2 }, 'Background agents stopped · 2 stopped'],
      ['scheduled_task_fire', { cron: '*/5 * * * *' }, 'Scheduled task fired · */5 * * * *'],
      ['permission_retry', { toolName: 'Bash' }, 'Permission retried · Bash'],
    ];
    for (const [subtype, raw, label] of cases) {
      const el = render({ ...systemMsg(subtype, `Notice text ${label.length}`, raw), level: 'info' });
      expect(text(el?.querySelector('.msg-label')), subtype).toBe(label);
      expect(text(el), subtype).toContain(`Notice text ${label.length}`);
      expect(text(el), subtype).not.toContain('_');
    }
  });

  it('a resumed session says so', () => {
    expect(text(render(systemMsg('session_start', '', { source: 'resume' })))).toContain('Session resumed');
  });

  it('an unknown subtype shows its text labelled in words', () => {
    const el = render(systemMsg('brand_new_thing', 'Something happened'));
    expect(text(el?.querySelector('.msg-label'))).toBe('brand new thing');
    expect(text(el)).toContain('Something happened');
  });
});

describe('system subtypes: payloads are inert', () => {
  it('renders no executable markup from any field', () => {
    const at = (subtype: string, raw: (p: string) => Record<string, unknown>): [string, (p: string) => string] => [subtype, (p) => renderMessage({ ...systemMsg(subtype, p, raw(p)), level: p }, ctx)];
    expectInert(
      [
        at('api_error', (p) => ({ error: { status: 500, message: p, type: p, error: { error: { type: p, message: p } } }, cause: { code: p } })),
        at('error', (p) => ({ error: { message: p, formatted: p } })),
        at('api_refusal', (p) => ({ apiRefusalCategory: p, apiRefusalExplanation: p, retractedMessageUuids: [p] })),
        at('model_refusal_fallback', (p) => ({ originalModel: p, fallbackModel: p, apiRefusalExplanation: p, retractedMessageUuids: [p] })),
        at('away_summary', () => ({})),
        at('microcompact_boundary', (p) => ({ microcompactMetadata: { trigger: p } })),
        at('snip_boundary', (p) => ({ trigger: p })),
        at('stop_hook_summary', (p) => ({ hookInfos: [{ command: p }], hookErrors: [p], stopReason: p, preventedContinuation: true })),
        at('session_start', (p) => ({ source: p })),
        at('informational', () => ({})),
        at('memory_saved', (p) => ({ path: p })),
        at('agents_killed', () => ({})),
        at('scheduled_task_fire', (p) => ({ cron: p })),
        at('permission_retry', (p) => ({ toolName: p })),
        at('local_command', () => ({})),
        at('turn_duration', () => ({ durationMs: 1000 })),
      ],
      // These show numbers or labels, not the message text.
      ['turn_duration', 'microcompact_boundary', 'snip_boundary'],
    );
  });
});

describe('compaction agent', () => {
  it('the agent that wrote a compaction summary is reachable, collapsed, from the divider', () => {
    const agentMsg = { kind: 'assistant' as const, assistantKind: 'normal' as const, uuid: 'ca-1', uuids: ['ca-1'], blocks: [{ type: 'text', text: 'Summary: the user fixed the login bug.' }], toolCalls: [], line: 2 };
    const html = renderMessage({ kind: 'compaction', uuid: 'c-1', summary: 'Summary: the user fixed the login bug.', trigger: 'auto', line: 1, compactionAgent: { agentId: 'acompact-1', prompt: '', messages: [agentMsg], turns: [], stats: { toolUseCount: 0 } } }, ctx);
    const doc = parse(html);
    const d = doc.querySelector('details.compaction-agent[data-subagent="acompact-1"]');
    expect(d?.hasAttribute('open')).toBe(false);
    expect(text(d?.querySelector('summary'))).toBe('Compaction agent · 1 message');
    expect(text(d?.querySelector('.subagent-body'))).toContain('the user fixed the login bug');
    expect(doc.querySelector('.divider')).not.toBeNull();
  });
});

describe('withdrawn messages', () => {
  it('an assistant message a refusal withdrew is marked and links to the refusal', () => {
    const html = renderMessage({ kind: 'assistant', assistantKind: 'normal', uuid: 'a3', uuids: ['a3'], blocks: [{ type: 'text', text: 'Partial reply' }], toolCalls: [], line: 1, retractedBy: 's3' }, ctx);
    const el = parse(html).querySelector('article');
    expect(el?.classList.contains('retracted')).toBe(true);
    const link = el?.querySelector('a.retracted-by');
    expect(link?.getAttribute('href')).toBe('#m-s3');
    expect(text(link)).toBe('withdrawn');
    expect(text(el)).toContain('Partial reply');
  });
});
