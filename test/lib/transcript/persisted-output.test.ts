import { describe, expect, it } from 'vitest';
import { keptFileName, persistedOutputName, previewText, resolveKeptText, resolvePersistedOutput } from '../../../src/lib/transcript/persisted-output.js';

/** A `<persisted-output>` preview as Claude Code writes it, pointing to `name` in the session's `tool-results/`. */
function preview(name: string, shown: string): string {
  return `<persisted-output>\nOutput too large (41.2KB). Full output saved to: /home/someone/.claude/projects/-home-someone-x/abc/tool-results/${name}\n\nPreview (first 2KB):\n${shown}\n...\n</persisted-output>`;
}

describe('the file a record points to', () => {
  it('is the last path segment, whatever it is called', () => {
    expect(keptFileName('/home/u/.claude/projects/p/s/tool-results/byshsvyn3.txt')).toBe('byshsvyn3.txt');
    expect(keptFileName('C:\\Users\\u\\.claude\\projects\\p\\s\\tool-results\\toolu_01AB.txt')).toBe('toolu_01AB.txt');
    expect(persistedOutputName(preview('byshsvyn3.txt', 'a'))).toBe('byshsvyn3.txt');
    expect(persistedOutputName(preview('hook-3f9d2c71-8a4b-4e06-b5d1-c2e7a9f04b38-stdout.txt', 'a'))).toBe('hook-3f9d2c71-8a4b-4e06-b5d1-c2e7a9f04b38-stdout.txt');
    expect(persistedOutputName('Full output saved to: /x/y.txt (no wrapper)')).toBeUndefined();
  });

  it('shows a preview as its text alone when the whole output is not there', () => {
    expect(previewText(preview('q8w3e5r7t.txt', 'line one\nline two'))).toBe('line one\nline two\n...');
    expect(previewText('plain text')).toBe('plain text');
  });
});

describe('a tool result that points to a kept output', () => {
  const whole = 'line 1\nline 2\nWHOLE-END';
  const kept = new Map([
    ['byshsvyn3.txt', whole],
    ['k2m9x7q4p.txt', whole],
  ]);

  it('resolves a preview in the content, and a cut stdout by persistedOutputPath alone', () => {
    expect(resolvePersistedOutput(preview('byshsvyn3.txt', 'line 1'), undefined, kept)).toEqual({ ref: { file: 'byshsvyn3.txt', chars: whole.length }, content: whole });
    const cut = { stdout: 'line 1\nli', persistedOutputPath: '/home/u/.claude/projects/p/s/tool-results/k2m9x7q4p.txt', persistedOutputSize: 9999 };
    expect(resolvePersistedOutput('line 1\nli', cut, kept)).toEqual({ ref: { file: 'k2m9x7q4p.txt', chars: whole.length }, content: whole });
    expect(resolvePersistedOutput([{ type: 'text', text: preview('byshsvyn3.txt', 'x') }], undefined, kept)?.content).toBe(whole);
  });

  it('says when the file pointed to is missing, with the size the record states', () => {
    expect(resolvePersistedOutput('cut', { stdout: 'cut', persistedOutputPath: '/p/tool-results/zz9missng.txt', persistedOutputSize: 52340 }, kept)).toEqual({ ref: { file: 'zz9missng.txt', missing: true, bytes: 52340 } });
  });

  it('leaves any other result alone', () => {
    expect(resolvePersistedOutput('just output', { stdout: 'just output', stderr: '' }, kept)).toBeUndefined();
    expect(resolvePersistedOutput({ odd: true } as never, undefined, kept)).toBeUndefined();
  });
});

describe("a hook's output field that points to a kept output", () => {
  const kept = new Map([['hook-1-stdout.txt', 'whole hook output']]);

  it('puts the whole output in place of the preview, in a string or a list of strings', () => {
    expect(resolveKeptText(preview('hook-1-stdout.txt', 'whole'), kept)).toEqual({ text: 'whole hook output', files: ['hook-1-stdout.txt'], missing: [] });
    expect(resolveKeptText(['before', preview('hook-1-stdout.txt', 'whole')], kept)).toEqual({ text: 'before\nwhole hook output', files: ['hook-1-stdout.txt'], missing: [] });
  });

  it('keeps the preview text and names the file when it is missing', () => {
    expect(resolveKeptText([preview('hook-2-1-additionalContext.txt', 'lint ok')], kept)).toEqual({ text: 'lint ok\n...', files: [], missing: ['hook-2-1-additionalContext.txt'] });
  });

  it('is undefined for a field without a preview', () => {
    expect(resolveKeptText('{"continue": true}', kept)).toBeUndefined();
    expect(resolveKeptText(undefined, kept)).toBeUndefined();
  });
});
