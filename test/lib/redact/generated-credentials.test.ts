import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { auditText, findSuspects } from '../../../scripts/lib/audit-detector.js';
import { createRedactor } from '../../../src/lib/redact/index.js';
import { contextsOf, FORMAT_COUNT, GENERATED_PROJECT, generateCredentials, placeInContext, writeCredentialTree } from '../../helpers/credentials.js';
import { openFixtureSession } from '../../helpers/sessions.js';

/**
 * More than a hundred credential formats with fresh random values on every
 * run, each in at least three of the places credentials turn up. Unit level:
 * every value redacted in every context, through the real pipeline too; and
 * with redaction off, the audit finds every one.
 */
const credentials = generateCredentials();
const tmp = mkdtempSync(join(tmpdir(), 'sp-credentials-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Which secret values of a credential a text still holds. */
const leaked = (text: string, secrets: string[]): string[] => secrets.filter((s) => text.includes(s)).map((s) => `${s.slice(0, 2)}…${s.slice(-2)}`);

describe('generated credentials', () => {
  it('cover at least 100 formats, each in at least three contexts, with values that change every run', () => {
    expect(FORMAT_COUNT).toBeGreaterThanOrEqual(100);
    for (const c of credentials) expect(contextsOf(c).length, c.format).toBeGreaterThanOrEqual(3);
    const again = generateCredentials();
    const same = credentials.filter((c, i) => c.secrets[0] === again[i].secrets[0]).map((c) => c.format);
    expect(same).toEqual([]);
  });

  it('are redacted whole in every context, one redaction per text', async () => {
    const misses: string[] = [];
    for (const c of credentials) {
      for (const ctx of contextsOf(c)) {
        const values: unknown[] = [placeInContext(c, ctx)];
        const report = await createRedactor().redactSession(values);
        const left = leaked(values[0] as string, c.secrets);
        if (left.length || report.total === 0) misses.push(`${c.format} in ${ctx}: ${left.join(', ') || 'no finding'}`);
      }
    }
    expect(misses).toEqual([]);
  });

  it('bare tokens right after an escaped character are redacted whole: a JSON \\n or \\t, \\u0022, %3D or %22 in a URL', async () => {
    const escapes = [(t: string) => `lines\\n${t}\\n`, (t: string) => `col\\t${t}`, (t: string) => `{\\u0022k\\u0022:\\u0022${t}\\u0022}`, (t: string) => `next=%2Fcb%3Ftoken%3D${t}%26x`, (t: string) => `q=%22${t}%22`];
    const misses: string[] = [];
    for (const c of credentials.filter((x) => x.bare)) {
      for (const [i, place] of escapes.entries()) {
        const values: unknown[] = [`seen: ${place(c.secrets[0])} ok`];
        await createRedactor().redactSession(values);
        const left = leaked(values[0] as string, c.secrets.slice(0, 1));
        if (left.length) misses.push(`${c.format} after escape ${i}: ${left.join(', ')}`);
      }
    }
    expect(misses).toEqual([]);
  });

  it('none survives the real pipeline: session, kept output past 30,000 characters, subagent, one redactor per session', async () => {
    const tree = writeCredentialTree(join(tmp, 'pipeline'), credentials);
    const dir = join(tree.root, GENERATED_PROJECT);
    const raw = readFileSync(join(dir, `${tree.sessionId}.jsonl`), 'utf8');
    // The tree holds what it says it holds: every secret is there before redaction.
    const kept = readFileSync(join(dir, tree.sessionId, 'tool-results', (/tool-results\/(toolu_\w+\.txt)/.exec(raw) as RegExpExecArray)[1]), 'utf8');
    const sub = readFileSync(join(dir, tree.sessionId, 'subagents', `agent-${tree.agentId}.jsonl`), 'utf8');
    for (const c of credentials) expect(leaked(kept.slice(30_000), c.secrets).length, c.format).toBeGreaterThan(0);
    const all = raw + kept + sub;
    expect(credentials.filter((c) => !all.includes(c.secrets[0]) && !all.includes(JSON.stringify(c.secrets[0]).slice(1, -1))).map((c) => c.format)).toEqual([]);

    const opened = await openFixtureSession(tree.root, tree.sessionId);
    expect(opened.result.ok).toBe(true);
    const text = JSON.stringify(opened);
    expect(text).toContain('[REDACTED:');
    const left = credentials.flatMap((c) => leaked(text, c.secrets).map((v) => `${c.format}: ${v}`));
    expect(left).toEqual([]);
    // The kept output was read whole: its last line, after every credential, is there.
    expect(text).toContain(tree.keptMarker);
  });

  it('with redaction off, the audit finds every one in every context', async () => {
    const misses: string[] = [];
    for (const c of credentials) {
      for (const ctx of contextsOf(c)) {
        const found = await auditText(placeInContext(c, ctx));
        if (!found.length) misses.push(`${c.format} in ${ctx}`);
      }
    }
    expect(misses).toEqual([]);
  });

  it('with redaction off, the audit finds them in the whole unredacted session', async () => {
    const tree = writeCredentialTree(join(tmp, 'audit'), credentials);
    const opened = await openFixtureSession(tree.root, tree.sessionId, false);
    expect(opened.result.ok).toBe(true);
    const text = JSON.stringify(opened);
    // The session holds every secret unredacted, so the audit has everything to find.
    expect(credentials.filter((c) => !leaked(text, c.secrets).length && !leaked(text, c.secrets.map((s) => JSON.stringify(s).slice(1, -1))).length).map((c) => c.format)).toEqual([]);
    const found = await auditText(text);
    const rules = new Set(found.map((f) => f.rule));
    expect(rules.has('random-token') || rules.has('entropy-assignment')).toBe(true);
  });

  it("the audit's own detector (no redaction rule) finds most formats by randomness alone", () => {
    const found = credentials.filter((c) => contextsOf(c).some((ctx) => findSuspects(placeInContext(c, ctx)).length > 0));
    // Measured at about 70 % of formats: hex-only keys, short values and command-line passwords are the rules' job.
    expect(found.length / credentials.length).toBeGreaterThan(0.5);
  });
});
