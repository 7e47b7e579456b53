import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main as audit } from '../../scripts/audit.js';
import { main as importMain } from '../../scripts/import.js';
import { fixturesDir, fixturesProjects, loadExpect } from '../lib/redact/helpers.js';

const expectJson = loadExpect();
const details = (JSON.parse(readFileSync(join(fixturesDir, 'EXPECT.json'), 'utf8')) as {
  must_not_appear_details: Array<{ value: string; kind: string }>;
}).must_not_appear_details;
const secretOf = (kind: string): string => details.find((d) => d.kind === kind)!.value;

async function run(args: string[]): Promise<{ code: number; output: string }> {
  const lines: string[] = [];
  const code = await audit(args, { out: (l) => lines.push(l), redaction: {} });
  return { code, output: lines.join('\n') };
}

describe('scripts/audit.ts', () => {
  let work: string;
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'sessionpress-audit-'));
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('reports findings per session with masked samples only', async () => {
    const r = await run([fixturesProjects]);
    expect(r.code).toBe(0);
    expect(r.output).toMatch(/finding\(s\)/);
    expect(r.output).toMatch(/github-token\s+\d+/);
    expect(r.output).toContain('[masked]');
    expect(expectJson.must_not_appear.filter((v) => r.output.includes(v))).toEqual([]);
  });

  it('finds nothing in sessions the import has already redacted', async () => {
    const out = join(work, 'content');
    expect(await importMain([fixturesProjects, '--out', out], { out: () => {}, redaction: {}, progress: false })).toBe(0);
    const r = await run([out]);
    expect(r.output).toMatch(/clean: (\d+), with findings: 0/);
  });

  it('--strict passes a clean built site and fails on a leak in a pagefind fragment or a page', async () => {
    const dist = join(work, 'dist');
    mkdirSync(join(dist, 'pagefind', 'fragment'), { recursive: true });
    mkdirSync(join(dist, '_astro'), { recursive: true });
    writeFileSync(join(dist, 'index.html'), '<p>export GITHUB_TOKEN=[REDACTED:github-token] in ~/work/api</p>');
    writeFileSync(join(dist, 'pagefind', 'fragment', 'a.pf_fragment'), gzipSync('{"content":"nothing to see"}'));
    // Third-party code carries author addresses; that is not transcript data.
    writeFileSync(join(dist, '_astro', 'lib.js'), '/*! (c) maintainer ' + expectJson.canary.email + ' */');
    mkdirSync(join(work, 'empty'));
    const clean = await run([join(work, 'empty'), '--strict', '--dist', dist]);
    expect(clean.code).toBe(0);
    expect(clean.output).toContain('nothing detected');

    const token = secretOf('github_pat_classic');
    writeFileSync(join(dist, 'pagefind', 'fragment', 'b.pf_fragment'), gzipSync(JSON.stringify({ content: `run with ${token}` })));
    const leak = await run([join(work, 'empty'), '--strict', '--dist', dist]);
    expect(leak.code).toBe(1);
    expect(leak.output).toContain('pagefind/fragment/b.pf_fragment');
    expect(leak.output).not.toContain(token);

    rmSync(join(dist, 'pagefind', 'fragment', 'b.pf_fragment'));
    writeFileSync(join(dist, 'page.html'), `<p>mail &lt;${expectJson.canary.email}&gt; &quot;password&quot;: &quot;${secretOf('password_assignment')}&quot;</p>`);
    const page = await run([join(work, 'empty'), '--strict', '--dist', dist]);
    expect(page.code).toBe(1);
    expect(page.output).toMatch(/page\.html\s+email/);
    expect(page.output).toMatch(/page\.html\s+password/);
  });

  it('says a folder with no session audited nothing, naming the folder below that holds them, and does not call it clean', async () => {
    const claude = join(work, 'dot-claude');
    mkdirSync(join(claude, 'projects', '-home-ada-app'), { recursive: true });
    writeFileSync(join(claude, 'projects', '-home-ada-app', 's1.jsonl'), '{"type":"user","message":{"role":"user","content":"hi"}}\n');
    const r = await run([claude]);
    expect(r.code).toBe(2);
    expect(r.output).toContain(`No Claude Code session files in ${claude}`);
    expect(r.output).toContain(`${join(claude, 'projects')} holds 1 session: give that folder instead`);
    expect(r.output).not.toMatch(/clean/);
  });

  it('--strict without a built site is a usage error', async () => {
    expect((await run(['--strict', '--dist', join(work, 'missing')])).code).toBe(2);
  });
});

describe('scripts/audit.ts without surprises', () => {
  let work: string;
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'sessionpress-audit2-'));
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('--strict says it judges only the built site when the sources have findings', async () => {
    const dist = join(work, 'dist');
    mkdirSync(dist, { recursive: true });
    writeFileSync(join(dist, 'index.html'), '<p>nothing here</p>');
    const r = await run([fixturesProjects, '--strict', '--dist', dist]);
    expect(r.code).toBe(0);
    const total = Number(/Total by rule: (.*)$/m.exec(r.output)![1].split(', ').reduce((n, p) => n + Number(p.split(' ').pop()), 0));
    expect(total).toBeGreaterThan(0);
    expect(r.output).toContain(`--strict judges the built site (${join(work, 'dist').replace(/\\/g, '/')}) only: the ${total} finding(s) above are in the source files`);
  });

  it('a sample names the file and line, a key and what it becomes, never the words around it', async () => {
    const project = join(work, 'src', '-home-ada-work-app');
    mkdirSync(project, { recursive: true });
    const token = secretOf('github_pat_classic');
    const lines = [
      { type: 'user', uuid: 'u1', sessionId: 's1', timestamp: '2026-01-01T00:00:00Z', message: { role: 'user', content: `Signed-off-by: Grace Quillfeather <${expectJson.canary.email}>` } },
      { type: 'user', uuid: 'u2', parentUuid: 'u1', sessionId: 's1', timestamp: '2026-01-01T00:00:01Z', message: { role: 'user', content: `export GITHUB_TOKEN=${token}` } },
    ];
    writeFileSync(join(project, '11111111-2222-4333-8444-555555555555.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const r = await run([join(work, 'src')]);
    const email = r.output.split('\n').find((l) => /^\s+email\s/.test(l))!;
    expect(email).toMatch(/11111111-2222-4333-8444-555555555555\.jsonl:1\s+…\[masked\] → \[REDACTED:email\]$/);
    expect(email).not.toContain('Quillfeather');
    const gh = r.output.split('\n').find((l) => /^\s+github-token\s/.test(l))!;
    expect(gh).toMatch(/\.jsonl:2\s+GITHUB_TOKEN=ghp_…\[masked\] → \[REDACTED:github-token\]$/);
    expect(r.output).not.toContain(token);
    expect(r.output).not.toContain(expectJson.canary.email);
  });

  it('counts the same findings per session as the importer', async () => {
    const imported: string[] = [];
    expect(await importMain([fixturesProjects, '--dry-run'], { out: (l) => imported.push(l), redaction: {}, progress: false })).toBe(0);
    const importCounts = imported.map((l) => /, (\d+) redaction\(s\)/.exec(l)?.[1]).filter(Boolean).map(Number);
    const r = await run([fixturesProjects]);
    const auditCounts = [...r.output.matchAll(/: (\d+) finding\(s\)$/gm)].map((m) => Number(m[1]));
    expect(auditCounts.length).toBeGreaterThan(3);
    // Sessions with no finding are not listed by the audit.
    expect(auditCounts.sort((a, b) => a - b)).toEqual(importCounts.filter((n) => n > 0).sort((a, b) => a - b));
  });
});
