import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { unproducedFiles } from '../../../src/integrations/out-dir.js';
import { createOutputLedger } from '../../../src/lib/fs/output-ledger.js';

const dir = mkdtempSync(join(tmpdir(), 'sp-ledger-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function touch(...parts: string[]): string {
  const f = join(dir, ...parts);
  mkdirSync(join(f, '..'), { recursive: true });
  writeFileSync(f, parts.join('/'));
  return f;
}

describe('the output ledger', () => {
  it('holds the files recorded one by one and by folder, and forgets them when a build starts', async () => {
    const page = touch('site', 'a', 'index.html');
    const bundled = touch('site', 'bundle', 'x.js');
    const other = touch('site', 'bundle', 'deep', 'y.js');
    const ledger = createOutputLedger();
    ledger.add(join(dir, 'site', 'a', '..', 'a', 'index.html'));
    await ledger.addTree(join(dir, 'site', 'bundle'));
    await ledger.addTree(join(dir, 'site', 'missing'));
    expect([page, bundled, other].map((f) => ledger.has(f))).toEqual([true, true, true]);
    expect(ledger.size).toBe(3);
    expect(ledger.has(join(dir, 'site', 'b.html'))).toBe(false);
    ledger.clear();
    expect(ledger.has(page)).toBe(false);
    expect(ledger.size).toBe(0);
  });

  it('leaves as unproduced every file the ledger does not hold, however new, and never .git', async () => {
    const root = join(dir, 'out');
    const kept = touch('out', 'kept', 'index.html');
    const fresh = touch('out', '_astro', 'just-written.js');
    const stale = touch('out', 'old', 'index.html');
    touch('out', '.git', 'HEAD');
    const ledger = createOutputLedger();
    ledger.add(kept);
    expect(await unproducedFiles(root, ledger)).toEqual([fresh, stale].sort());
  });
});
