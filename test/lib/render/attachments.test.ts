/**
 * Attachment entries and mode markers as a reader sees them: every shown kind
 * of the corpus's real records (hook results, files, edits, memory), built the
 * way the model builds them, plus documented shapes the corpus lacks. Unknown
 * kinds render as a small collapsed block, never as JSON.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { renderMessage, type RenderContext } from '../../../src/lib/render/render-message.js';
import { KNOWN_ATTACHMENT_TYPES } from '../../../src/lib/render/attachments.js';
import { attachmentDisposition } from '../../../src/lib/transcript/attachments.js';
import type { AttachmentMessage, MarkerMessage } from '../../../src/lib/transcript/types.js';
import { parse } from './dom.js';
import { jsonlFiles, rawEntries } from '../../helpers/shared.js';
import { corpusRoot, testContext, type Assets } from '../../helpers/render.js';
import { expectInert } from './xss-check.js';

let ctx: RenderContext;
let assets: Assets;
beforeAll(async () => {
  ({ ctx, assets } = await testContext());
});


let records: Array<Record<string, any>> | undefined;
/** The `attachment` object of every attachment record in the corpus. */
function attachmentRecords(): Array<Record<string, any>> {
  if (records) return records;
  records = [];
  for (const f of jsonlFiles(corpusRoot)) {
    for (const o of rawEntries(f, '"attachment"')) {
      if (o?.type === 'attachment' && o.attachment && typeof o.attachment === 'object') records.push(o.attachment);
    }
  }
  return records;
}

function message(att: Record<string, unknown>): AttachmentMessage {
  return { kind: 'attachment', uuid: `att-${String(att.type)}`, attachmentType: String(att.type ?? ''), raw: att, line: 1 };
}

/** A real attachment of a kind (fails when the corpus has none). */
function real(type: string, filter: (a: Record<string, any>) => boolean = () => true): AttachmentMessage {
  const a = attachmentRecords().find((r) => r.type === type && filter(r));
  expect(a, `a corpus attachment of type ${type}`).toBeDefined();
  return message(a!);
}

const text = (el: Element | null | undefined) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();

function render(m: AttachmentMessage | MarkerMessage): Element | null {
  return parse(renderMessage(m, ctx)).querySelector('article');
}

function expectNoJson(el: Element | null): void {
  expect(text(el)).not.toMatch(/\{\s*"|"\s*:\s*["{[]/);
}

describe('attachments from real records', () => {
  it('every kind the model shows renders by meaning (none falls to the unknown block), without JSON', () => {
    const shown = attachmentRecords().filter((a) => attachmentDisposition(a).show === 'message');
    const kinds = new Set(shown.map((a) => a.type));
    expect(kinds.size).toBeGreaterThan(5);
    for (const a of shown) {
      const el = render(message(a));
      expect(el, a.type).not.toBeNull();
      expect(el!.getAttribute('data-kind'), a.type).toBe('attachment');
      expect(el!.querySelector('.attachment-unknown'), a.type).toBeNull();
      expectNoJson(el);
    }
    for (const k of kinds) expect(KNOWN_ATTACHMENT_TYPES, k).toContain(k);
  });

  it('a successful hook with output is one line: event, command, time, and its one-line output', () => {
    const m = real('hook_success', (a) => typeof a.stdout === 'string' && !!a.stdout.trim() && !a.stdout.trim().includes('\n') && !a.stdout.trim().startsWith('{') && typeof a.durationMs === 'number');
    const a = m.raw as Record<string, any>;
    const el = render(m);
    const line = el?.querySelector('.hook-line');
    expect(line?.querySelector('strong')?.textContent).toBe(a.hookName);
    expect(line?.querySelector('code')?.textContent).toBe(a.command);
    expect(text(line)).toContain(a.stdout.trim());
    expect(el?.querySelector('details')).toBeNull();
  });

  it('JSON a hook printed for Claude Code reads as labelled words', () => {
    const m = real('hook_success', (a) => typeof a.stdout === 'string' && a.stdout.includes('additionalContext'));
    const context = JSON.parse((m.raw as any).stdout).hookSpecificOutput.additionalContext as string;
    const el = render(m);
    expect(text(el)).toContain(`Added context: ${context}`);
    expect(text(el)).not.toContain('hookSpecificOutput');
  });

  it('a non-blocking hook error says it did not block and shows what the hook printed', () => {
    const m = real('hook_non_blocking_error');
    const a = m.raw as Record<string, any>;
    const el = render(m);
    expect(el?.classList.contains('hook-warning')).toBe(true);
    expect(text(el?.querySelector('.hook-line'))).toContain(`Hook ${a.hookName} failed (did not block)`);
    expect(text(el)).toContain(a.stderr);
  });

  it('a blocking hook error shows the message that blocked Claude as an error', () => {
    const m = real('hook_blocking_error');
    const a = m.raw as Record<string, any>;
    const el = render(m);
    expect(el?.classList.contains('hook-error')).toBe(true);
    expect(text(el?.querySelector('.hook-line'))).toContain('blocked');
    expect(text(el?.querySelector('.tool-error'))).toBe(a.blockingError.blockingError);
  });

  it('files, edits and memory are collapsible context naming the file', () => {
    for (const [type, lead] of [
      ['edited_text_file', 'File changed outside Claude:'],
      ['nested_memory', 'Memory loaded:'],
      ['file', 'File attached:'],
      ['invoked_skills', 'Skill loaded:'],
    ] as const) {
      const m = real(type);
      const el = render(m);
      const d = el?.querySelector('details.context');
      expect(d, type).not.toBeNull();
      expect(d!.hasAttribute('open'), type).toBe(false);
      expect(text(d!.querySelector('summary')), type).toContain(lead);
    }
    const mem = real('nested_memory');
    expect(text(render(mem)?.querySelector('summary code'))).toBe((mem.raw as any).displayPath);
  });

  it('a compact file reference is one line naming the file', () => {
    const m = real('compact_file_reference');
    expect(text(render(m)?.querySelector('.context-line'))).toBe(`File kept in context after compaction: ${(m.raw as any).displayPath}`);
  });
});

describe('attachments from documented shapes', () => {
  it('a file attachment shows its line count and text, highlighted by its path', () => {
    const el = render(message({ type: 'file', filename: '/repo/src/a.ts', displayPath: 'src/a.ts', content: { type: 'text', file: { filePath: '/repo/src/a.ts', content: 'const a = 1;\nconst b = 2;', numLines: 2, startLine: 1, totalLines: 40 } } }));
    expect(text(el?.querySelector('summary'))).toBe('File attached: src/a.ts · 2 of 40 lines');
    expect(el?.querySelector('pre')?.textContent).toContain('const b = 2;');
  });

  it("a long file attachment is searchable by what shows before 'show more', and shows the rest", () => {
    const content = Array.from({ length: 120 }, (_, i) => `const v${i} = ${i};`).join('\n');
    const el = render(message({ type: 'file', filename: '/repo/src/a.ts', displayPath: 'src/a.ts', content: { type: 'text', file: { filePath: '/repo/src/a.ts', content, numLines: 120, startLine: 1, totalLines: 120 } } }))!;
    const indexed = el.cloneNode(true) as Element;
    for (const skip of indexed.querySelectorAll('[data-pagefind-ignore]')) skip.remove();
    expect(indexed.textContent).toContain('const v9 = 9;');
    expect(indexed.textContent).not.toContain('const v10 = 10;');
    expect(el.textContent).toContain('const v119 = 119;');
  });

  it('an image attachment becomes an asset, never inline data', () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex').toString('base64');
    const before = assets.written.length;
    const el = render(message({ type: 'file', displayPath: 'shot.png', content: { type: 'image', file: { base64: png, type: 'image/png' } } }));
    expect(assets.written.length).toBe(before + 1);
    expect(el?.querySelector('img')?.getAttribute('src')).toMatch(/^\/assets\//);
    expect(el?.innerHTML).not.toContain('data:');
  });

  it('hook errors during execution, cancellations and stopped continuations read in words', () => {
    expect(text(render(message({ type: 'hook_error_during_execution', hookName: 'PreToolUse:Bash', content: 'spawn ENOENT' })))).toContain('Hook PreToolUse:Bash errored');
    expect(text(render(message({ type: 'hook_cancelled', hookName: 'Stop' })))).toContain('Hook Stop was cancelled');
    const stopped = render(message({ type: 'hook_stopped_continuation', hookName: 'Stop', message: 'Tests must pass first' }));
    expect(text(stopped?.querySelector('.tool-error'))).toBe('Tests must pass first');
  });

  it('multi-line hook output is collapsed, each distinct text once', () => {
    const el = render(message({ type: 'hook_success', hookName: 'PostToolUse:Edit', command: 'lint', content: 'a\nb', stdout: 'a\nb', stderr: 'warn 1\nwarn 2' }));
    const d = el?.querySelector('details.hook-output');
    expect(d?.hasAttribute('open')).toBe(false);
    expect(text(d?.querySelector('summary'))).toBe('Output, stderr · 4 lines');
  });

  // 2.1.2xx: a hook's output over 10,000 characters is kept as `tool-results/hook-<uuid>-stdout.txt`; the model resolves it.
  const wholeHook = ['# Workspace briefing', ...Array.from({ length: 150 }, (_, i) => `- item ${i + 1}`), 'HOOK-END'].join('\n');
  const keptHook = (kept: AttachmentMessage['kept']): AttachmentMessage => ({
    ...message({ type: 'hook_success', hookName: 'SessionStart:startup', command: 'briefing.sh', content: '', stdout: '<persisted-output>\nOutput too large (12KB). Full output saved to: /p/tool-results/hook-1-stdout.txt\n\nPreview (first 2KB):\n# Workspace briefing\n...\n</persisted-output>' }),
    kept,
  });

  it('a hook output kept beside the session is one closed line with its first line, the whole output inside', () => {
    const el = render(keptHook({ stdout: { text: wholeHook, files: ['hook-1-stdout.txt'], missing: [] } }));
    const d = el?.querySelector('details.hook-output.kept');
    expect(d?.hasAttribute('open')).toBe(false);
    expect(text(d?.querySelector('summary'))).toMatch(/^stdout · 152 lines · \d+ KB, whole output — # Workspace briefing$/);
    // All of it one click away: no second "show more" inside.
    expect(d?.textContent).toContain('HOOK-END');
    expect(d?.querySelector('details')).toBeNull();
    expect(text(el?.querySelector('.hook-line'))).toBe('Hook SessionStart:startup ran · briefing.sh');
    expect(el?.textContent).not.toContain('persisted-output');
  });

  it('a kept hook output that is missing shows its preview and says the whole output was not found', () => {
    const el = render(keptHook({ stdout: { text: '# Workspace briefing\n...', files: [], missing: ['hook-1-stdout.txt'] } }));
    expect(el?.querySelector('details.hook-output.kept')).toBeNull();
    expect(text(el?.querySelector('details.hook-output .kept-missing'))).toBe('Only a preview is shown: the whole output was not found beside the session.');
    expect(el?.textContent).not.toContain('persisted-output');
  });

  it('IDE selection, diagnostics, task status and PDF references say what they are', () => {
    expect(text(render(message({ type: 'selected_lines_in_ide', filename: '/r/a.py', displayPath: 'a.py', lineStart: 3, lineEnd: 5, content: 'x = 1', ideName: 'VS Code' }))?.querySelector('summary'))).toBe('Selected lines 3–5 of a.py in VS Code');
    const diag = render(message({ type: 'diagnostics', files: [{ uri: 'file:///r/a.ts', diagnostics: [{ message: 'Cannot find name x', severity: 'Error', range: { start: { line: 9, character: 1 } }, source: 'ts' }] }] }));
    expect(text(diag?.querySelector('summary'))).toBe('Diagnostics: 1 problem in 1 file');
    expect(text(diag?.querySelector('pre'))).toBe('/r/a.ts:10 Error Cannot find name x [ts]');
    expect(text(render(message({ type: 'task_status', taskId: 't1', taskType: 'local_agent', description: 'Poem', status: 'completed' })))).toContain('Background local agent Poem: completed');
    expect(text(render(message({ type: 'pdf_reference', displayPath: 'spec.pdf', pageCount: 120, fileSize: 2048000 })))).toContain('PDF referenced: spec.pdf (120 pages, 2,000 KB)');
  });

  it('an unknown kind is a small collapsed block naming the type, its text fields listed, no JSON', () => {
    const el = render(message({ type: 'brand_new_kind', note: 'hello', count: 3, nested: { deep: 'no' }, list: ['x'] }));
    const d = el?.querySelector('details.attachment-unknown');
    expect(d?.hasAttribute('open')).toBe(false);
    expect(text(d?.querySelector('summary'))).toBe('attachment: brand_new_kind');
    expect(text(d)).toContain('note hello');
    expect(text(d)).toContain('count 3');
    expect(text(d)).not.toContain('deep');
    expectNoJson(el);
  });
});

describe('mode markers', () => {
  it('plan mode, auto mode, effort and permission-mode changes are one quiet line each', () => {
    const marker = (markerType: string, value: string): MarkerMessage => ({ kind: 'marker', uuid: `mk-${markerType}-${value}`, markerType, value, line: 1 });
    const cases: Array<[string, string, string]> = [
      ['plan-mode', 'entered', 'Entered plan mode'],
      ['plan-mode', 'exited', 'Left plan mode'],
      ['auto-mode', 'on', 'Auto mode on'],
      ['auto-mode', 'off', 'Auto mode off'],
      ['effort', 'ultra', 'Effort: ultra'],
      ['permission-mode', 'acceptEdits', 'Permission mode: Accept edits'],
      ['permission-mode', 'bypassPermissions', 'Permission mode: Bypass permissions'],
      ['mode', 'normal', 'Mode: normal'],
    ];
    for (const [type, value, want] of cases) {
      const el = render(marker(type, value));
      expect(el?.getAttribute('data-kind')).toBe('marker');
      expect(text(el?.querySelector('.marker-text')), `${type} ${value}`).toBe(want);
    }
  });
});

describe('attachments: payloads are inert', () => {
  it('renders no executable markup from any field', () => {
    const at = (type: string, att: (p: string) => Record<string, unknown>): [string, (p: string) => string] => [type, (p) => renderMessage(message({ type, ...att(p) }), ctx)];
    expectInert(
      [
        at('hook_success', (p) => ({ hookName: p, command: p, stdout: p, content: `${p}\n${p}`, stderr: p })),
        at('hook_non_blocking_error', (p) => ({ hookName: p, stderr: p, exitCode: 1 })),
        at('hook_blocking_error', (p) => ({ hookEvent: p, blockingError: { blockingError: p, command: p } })),
        at('hook_stopped_continuation', (p) => ({ hookName: p, message: p })),
        at('hook_permission_decision', (p) => ({ hookName: p, decision: p, reason: p })),
        at('file', (p) => ({ displayPath: p, content: { type: 'text', file: { filePath: p, content: p, numLines: 1 } } })),
        at('edited_text_file', (p) => ({ filename: p, snippet: p })),
        at('nested_memory', (p) => ({ displayPath: p, content: { type: 'memory', path: p, content: p } })),
        at('compact_file_reference', (p) => ({ displayPath: p })),
        at('directory', (p) => ({ path: p, content: p })),
        at('pdf_reference', (p) => ({ displayPath: p })),
        at('selected_lines_in_ide', (p) => ({ displayPath: p, content: p, ideName: p, lineStart: 1 })),
        at('opened_file_in_ide', (p) => ({ filename: p })),
        at('invoked_skills', (p) => ({ skills: [{ name: p, content: p }, { name: p, content: p }] })),
        at('task_status', (p) => ({ taskType: p, description: p, status: p, deltaSummary: p })),
        at('diagnostics', (p) => ({ files: [{ uri: p, diagnostics: [{ message: p, severity: p, source: p }] }] })),
        at('queued_command', (p) => ({ prompt: p })),
        at('brand_new_kind', (p) => ({ note: p })),
        ['unknown type name', (p) => renderMessage(message({ type: p }), ctx)],
        ['marker', (p) => renderMessage({ kind: 'marker', uuid: 'm', markerType: p, value: p, line: 1 }, ctx)],
        ['permission marker', (p) => renderMessage({ kind: 'marker', uuid: 'm', markerType: 'permission-mode', value: p, line: 1 }, ctx)],
      ],
    );
  });
});
