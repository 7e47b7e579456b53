import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { auditText, findSuspects, looksRandom, maskValue, shannon } from '../../../scripts/lib/audit-detector.js';
import { scanDist } from '../../../scripts/lib/import/scan-dist.js';
import { createRedactor } from '../../../src/lib/redact/index.js';
import { rand } from '../../helpers/credentials.js';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** A random token that no redaction rule knows: no prefix, no secret-looking name. */
const unknownToken = (): string => `${rand('ABCDEFGHIJKLMNOPQRSTUVWXYZ', 2)}${rand('abcdefghijklmnopqrstuvwxyz', 2)}${rand('0123456789', 2)}${rand(ALNUM, 34)}`;

const tmp = mkdtempSync(join(tmpdir(), 'sp-audit-detector-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("the audit's independent detector", () => {
  it('finds what no redaction rule knows: a random token under an ordinary name, a value of a suspicious name', async () => {
    // About 0.2 % of random tokens hold runs that read as words (see the next test), so five are drawn and one may pass:
    // with a single token this test failed about once in 500 runs.
    const tokens = Array.from({ length: 5 }, () => `deploy hook id ${unknownToken()} saved`);
    let found = 0;
    for (const text of tokens) {
      const values: unknown[] = [text];
      await createRedactor().redactSession(values);
      // The redactor lets it through (that is the point of a second opinion) …
      expect(values[0]).toBe(text);
      // … the audit does not.
      if (findSuspects(text).length > 0 && (await auditText(text)).length > 0) found++;
    }
    expect(found, tokens.join(' | ')).toBeGreaterThanOrEqual(4);
    for (const text of [`HOOK_SIGNING_SALT=${rand(ALNUM, 12)}9aZ`, `"hmacKey": "${rand(ALNUM, 18)}7bQ"`]) {
      expect(findSuspects(text).length, text).toBeGreaterThan(0);
      expect((await auditText(text)).length, text).toBeGreaterThan(0);
    }
  });

  it('calls nearly every random 40-character token random, whatever lower-case runs it happens to hold', () => {
    // Counting every run of four lower-case letters as a word let ~1.7 % of these through (`…ktuzQ…intdyfqb…`);
    // with word-like runs only, ~0.2 %. 2,000 tokens: ~3 expected misses now, ~35 before.
    const tokens = Array.from({ length: 2000 }, unknownToken);
    const missed = tokens.filter((t) => !looksRandom(t));
    expect(missed.length, missed.slice(0, 5).join(' ')).toBeLessThan(20);
  });

  it('finds a credential wrapped in base64', () => {
    const wrapped = Buffer.from(`{"password": "${rand(ALNUM, 16)}"}`).toString('base64');
    expect(findSuspects(`config: ${wrapped}`).map((s) => s.kind)).toContain('encoded-credential');
  });

  it('reports masked samples only', async () => {
    const token = unknownToken();
    const found = await auditText(`id ${token}`);
    expect(JSON.stringify(found)).not.toContain(token);
    expect(maskValue(token)).toBe(`${token.slice(0, 2)}…${token.slice(-2)} (${token.length} chars)`);
  });

  it('entropy is what it says: random text has more of it than words', () => {
    expect(shannon('aaaaaaaa')).toBe(0);
    expect(shannon(rand(ALNUM, 64))).toBeGreaterThan(4.5);
    expect(shannon('correcthorsebatterystaple')).toBeLessThan(3.6);
  });

  it('audit --strict scans a built site with it: a random token in a page fails, the same in a script bundle does not', async () => {
    const dist = join(tmp, 'dist');
    mkdirSync(join(dist, 'sessions', 'x'), { recursive: true });
    mkdirSync(join(dist, '_astro'), { recursive: true });
    const token = unknownToken();
    writeFileSync(join(dist, 'sessions', 'x', 'index.html'), `<html><body><p>id ${token}</p></body></html>`);
    writeFileSync(join(dist, '_astro', 'app.js'), `const k="${unknownToken()}";`);
    writeFileSync(join(dist, 'index.html'), '<html><body>[REDACTED:github-token] and ~/work</body></html>');
    const { findings } = await scanDist(dist);
    expect(findings.map((f) => [f.file, f.findings.map((x) => x.rule)])).toEqual([['sessions/x/index.html', ['random-token']]]);
    expect(JSON.stringify(findings)).not.toContain(token);
  });
});
