import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pipelineFingerprint, renderSourceFiles } from '../../../src/lib/build/fingerprint.js';
import { repoRoot } from '../../helpers/shared.js';

describe('render fingerprint', () => {
  const copy = mkdtempSync(join(tmpdir(), 'sessionpress-fingerprint-'));
  cpSync(join(repoRoot, 'src'), join(copy, 'src'), { recursive: true });
  cpSync(join(repoRoot, 'scripts'), join(copy, 'scripts'), { recursive: true });
  const entry = join(copy, 'src/lib/build/process-session.ts');
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  it('covers the model, redaction and the renderers, and nothing only a script uses', () => {
    const files = renderSourceFiles(entry).map((f) => relative(copy, f));
    for (const needed of ['src/lib/transcript/build-session.ts', 'src/lib/redact/redactor.ts', 'src/lib/render/render-message.ts', 'src/lib/jsonl/read-jsonl.ts', 'src/lib/render/tools/bash.ts']) {
      expect(files).toContain(needed);
    }
    // The store's schema shapes what is cached too, and so does the price table (the cost line of each
    // session's Markdown, written with its pages); nothing else outside src/lib/.
    expect(files.filter((f) => !f.startsWith('src/lib/'))).toEqual(['src/data/prices.json', 'src/schemas/session.ts']);
    expect(files.filter((f) => f.startsWith('src/lib/search/'))).toEqual([]);
  });

  it('stays the same when a file only a script uses changes, and changes with a renderer', () => {
    const before = pipelineFingerprint(entry);
    appendFileSync(join(copy, 'scripts/lib/import/title.ts'), '\n// edited\n');
    appendFileSync(join(copy, 'scripts/lib/cli.ts'), '\n// edited\n');
    expect(pipelineFingerprint(entry)).toBe(before);
    appendFileSync(join(copy, 'src/lib/render/markdown.ts'), '\n// edited\n');
    expect(pipelineFingerprint(entry)).not.toBe(before);
  });
});
