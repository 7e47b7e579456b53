import { describe, expect, it } from 'vitest';
import { discoverSources } from '../../../src/lib/discover.js';
import { createRedactor } from '../../../src/lib/redact/index.js';
import { corpusProjects, loadExpect, readEntries, sessionFiles } from './helpers.js';

const expectJson = loadExpect();

describe('redaction over the hostile fixtures (EXPECT.json)', () => {
  for (const session of expectJson.sessions) {
    it(`removes every must_not_appear value and keeps look-alikes: ${session.file}`, async () => {
      const entries = await readEntries(sessionFiles(expectJson, session));
      const before = JSON.stringify(entries);
      const folder = session.file.split('/')[1];
      const report = await createRedactor().redactSession(entries, { projectFolders: [folder] });
      const after = JSON.stringify(entries);
      const leaked = expectJson.must_not_appear.filter((v) => after.includes(v));
      expect(leaked).toEqual([]);
      for (const value of expectJson.must_appear) {
        if (before.includes(value)) expect(after, value).toContain(value);
      }
      if (expectJson.must_not_appear.some((v) => before.includes(v))) expect(report.total).toBeGreaterThan(0);
      // Samples are for people reading a report: masked, never the secret.
      const samples = report.findings.flatMap((f) => f.samples).join('\n');
      expect(expectJson.must_not_appear.filter((v) => samples.includes(v))).toEqual([]);
    });
  }

  it('finds the planted secrets of the canary session (it holds most of them)', async () => {
    const canary = expectJson.sessions.find((s) => s.file === expectJson.canary.file)!;
    const entries = await readEntries(sessionFiles(expectJson, canary));
    const before = JSON.stringify(entries);
    const planted = expectJson.must_not_appear.filter((v) => before.includes(v));
    expect(planted.length).toBeGreaterThan(10);
    await createRedactor().redactSession(entries, { projectFolders: [canary.file.split('/')[1]] });
    const after = JSON.stringify(entries);
    expect(planted.filter((v) => after.includes(v))).toEqual([]);
    expect(after).not.toContain(expectJson.canary.home);
    expect(after).toContain('~/');
  });

  it('is idempotent: a second run changes nothing and reports nothing', async () => {
    for (const session of expectJson.sessions) {
      const entries = await readEntries(sessionFiles(expectJson, session));
      await createRedactor().redactSession(entries, { projectFolders: [session.file.split('/')[1]] });
      const once = JSON.stringify(entries);
      const report = await createRedactor().redactSession(entries);
      expect(report.findings, session.file).toEqual([]);
      expect(JSON.stringify(entries)).toBe(once);
    }
  });
});

describe('redaction over the real corpus', () => {
  it('leaves no /home/<name> or /Users/<name> path and is idempotent', async () => {
    const layout = await discoverSources(corpusProjects);
    expect(layout.sessions.length).toBeGreaterThan(10);
    const redactor = createRedactor();
    let homes = 0;
    for (const s of layout.sessions) {
      const entries = await readEntries([s.path, ...s.subagentPaths]);
      const before = JSON.stringify(entries);
      if (/\/(?:home|Users)\/[A-Za-z0-9_]/.test(before)) homes++;
      await redactor.redactSession(entries, { projectFolders: [s.projectFolder] });
      const after = JSON.stringify(entries);
      const left = after.match(/\/(?:home|Users)\/[A-Za-z0-9_][A-Za-z0-9._-]*/g) ?? [];
      expect(left, s.relPath).toEqual([]);
      for (const name of redactor.knownUsernames().filter((n) => n.length > 4 && !['olduser', 'newuser'].includes(n))) {
        expect(new RegExp(`(?<![A-Za-z0-9])${name}(?![A-Za-z0-9])`, 'i').test(after), `${name} in ${s.relPath}`).toBe(false);
      }
      const again = await createRedactor().redactSession(entries);
      expect(again.total, s.relPath).toBe(0);
    }
    // The check above must have had something to check.
    expect(homes).toBeGreaterThan(10);
  });
});
