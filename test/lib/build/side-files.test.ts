import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main as audit } from '../../../scripts/audit.js';
import { main as importMain } from '../../../scripts/import.js';
import { digestInputs, sideFilesOf } from '../../../src/lib/build/entry-data.js';
import { discoverSources, toPosix } from '../../../src/lib/discover.js';
import { repoRoot } from '../../helpers/shared.js';

/**
 * The files Claude Code 2.1.x keeps beside a session (agent sidecars, whole
 * tool outputs under `tool-results/`) are found, digested, copied by
 * `import` (redacted) and scanned by `audit`.
 */
const root = join(repoRoot, 'test', 'fixtures', 'format-2.1');
const E = JSON.parse(readFileSync(join(root, 'EXPECT.json'), 'utf8'));

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

describe('files beside a 2.1.x session', () => {
  let out: string;
  let importLog: string;
  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), 'sp-side-'));
    const lines: string[] = [];
    const code = await importMain([root, '--out', out], { out: (l) => lines.push(l), redaction: {}, progress: false });
    importLog = lines.join('\n');
    if (code !== 0) throw new Error(`import failed:\n${importLog}`);
  });
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('discovers sidecars, workflow agents and whole tool outputs of a session', async () => {
    const layout = await discoverSources(root);
    const s = layout.sessions.find((x) => x.sessionId === E.sessions.everything)!;
    expect(s.toolResultPaths?.map((p) => p.split('/').pop())).toEqual([`${E.persisted.toolUseId}.txt`]);
    expect(s.sidecarPaths?.some((p) => p.endsWith(`agent-${E.sidecarAgent.agentId}.meta.json`))).toBe(true);
    expect(s.subagentPaths.some((p) => p.includes(`workflows/${E.workflow.runId}/agent-${E.workflow.agentId}.jsonl`))).toBe(true);
  });

  it('puts them in the digest, so that a changed whole output rebuilds the page', async () => {
    const layout = await discoverSources(root);
    const s = layout.sessions.find((x) => x.sessionId === E.sessions.everything)!;
    const rel = sideFilesOf(s).map((p) => toPosix(relative(root, p)));
    const digests = new Map(sideFilesOf(s).map((p) => [toPosix(relative(root, p)), 'x']));
    const files = digestInputs(s, rel, digests).map(([f]) => f);
    expect(files.some((f) => f.endsWith(`tool-results/${E.persisted.toolUseId}.txt`))).toBe(true);
    expect(files.some((f) => f.endsWith('.meta.json'))).toBe(true);
  });

  it('copies them with import, redacted', () => {
    const written = filesUnder(out);
    const whole = written.find((f) => f.endsWith(`tool-results/${E.persisted.toolUseId}.txt`));
    expect(whole, importLog).toBeDefined();
    const text = readFileSync(whole!, 'utf8');
    expect(text).toContain(E.persisted.endMarker);
    const sidecar = written.find((f) => f.endsWith(`agent-${E.sidecarAgent.agentId}.meta.json`));
    expect(sidecar).toBeDefined();
    expect(JSON.parse(readFileSync(sidecar!, 'utf8')).toolUseId).toBe(E.sidecarAgent.toolUseId);
    for (const f of written) {
      const t = readFileSync(f, 'latin1');
      for (const secret of Object.values(E.secrets) as string[]) expect(t, f).not.toContain(secret);
      expect(t, f).not.toContain(`/home/${E.username}`);
    }
  });

  it('scans them with audit', async () => {
    const lines: string[] = [];
    await audit([root], { out: (l) => lines.push(l), redaction: {} });
    const log = lines.join('\n');
    expect(log).toMatch(/github-token/);
    // Both planted GitHub tokens (whole output, sidecar) and both AWS keys (memory, hook output) are counted.
    const counts = (rule: string) => Number(new RegExp(`${rule}\\s+(\\d+)`).exec(log)?.[1] ?? 0);
    expect(counts('github-token')).toBeGreaterThanOrEqual(2);
    expect(counts('aws-access-key-id')).toBeGreaterThanOrEqual(2);
    expect(existsSync(out)).toBe(true);
  });
});
