import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../scripts/import.js';
import { fixturesDir, fixturesProjects, loadExpect } from '../lib/redact/helpers.js';
import { png3x2, pngChunk } from '../helpers/images.js';
import { OMITTED_BYTES_KEY } from '../../src/lib/transcript/types.js';

const expectJson = loadExpect();
const raw = JSON.parse(readFileSync(join(fixturesDir, 'EXPECT.json'), 'utf8')) as Record<string, unknown>;

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p));
    else out.push(p);
  }
  return out;
}

/** Every marker word EXPECT.json names (keys ending in `marker`/`markers`), wherever it sits. */
function markers(node: unknown, key = ''): string[] {
  if (typeof node === 'string') return /markers?$/.test(key) ? [node] : [];
  if (Array.isArray(node)) return node.flatMap((v) => markers(v, key));
  if (node && typeof node === 'object') return Object.entries(node).flatMap(([k, v]) => markers(v, k));
  return [];
}

async function run(args: string[]): Promise<{ code: number; output: string }> {
  const lines: string[] = [];
  const code = await main(args, { out: (l) => lines.push(l), redaction: {}, progress: false });
  return { code, output: lines.join('\n') };
}

describe('scripts/import.ts over the fixtures', () => {
  let out: string;
  let first: { code: number; output: string };
  const input = filesUnder(fixturesProjects).filter((f) => f.endsWith('.jsonl')).map((f) => readFileSync(f, 'latin1')).join('\n');

  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), 'sessionpress-import-'));
    first = await run([fixturesProjects, '--out', out]);
  });
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('imports every session and its subagent files', () => {
    expect(first.code).toBe(0);
    const written = filesUnder(out).map((f) => relative(out, f));
    for (const s of expectJson.sessions) {
      expect(written.some((w) => w.endsWith(`/${s.session_id}.jsonl`)), s.file).toBe(true);
      for (const sub of s.subagent_files ?? []) {
        const tail = sub.split('/').slice(2).join('/');
        expect(written.some((w) => w.endsWith(tail)), sub).toBe(true);
      }
    }
  });

  it('writes none of must_not_appear and keeps every must_appear and marker that was in the input', () => {
    const written = filesUnder(out).map((f) => readFileSync(f, 'utf8')).join('\n');
    expect(expectJson.must_not_appear.filter((v) => written.includes(v))).toEqual([]);
    const kept = [...expectJson.must_appear, ...markers(raw)].filter((v) => input.includes(v));
    expect(kept.length).toBeGreaterThan(20);
    expect(kept.filter((v) => !written.includes(v))).toEqual([]);
  });

  it('redacts the project folder names', () => {
    const folders = readdirSync(out);
    expect(folders.length).toBeGreaterThan(3);
    for (const f of folders) expect(f.toLowerCase()).not.toContain(expectJson.canary.username.toLowerCase());
  });

  it('reports the bad lines as file:line and leaves them out', () => {
    const malformed = raw.malformed as { file: string; bad_lines: Array<{ line: number }> };
    const name = malformed.file.split('/').slice(1).join('/');
    for (const { line } of malformed.bad_lines) expect(first.output).toContain(`${name}:${line}:`);
    const target = filesUnder(out).find((f) => f.endsWith(malformed.file.split('/').pop()!))!;
    for (const l of readFileSync(target, 'utf8').split('\n').filter(Boolean)) expect(() => JSON.parse(l)).not.toThrow();
  });

  it('prints findings by rule and bytes before and after', () => {
    expect(first.output).toMatch(/Findings by rule:\n\s+home-path\s+\d+/);
    expect(first.output).toMatch(/Bytes: [\d.]+ MB → [\d.]+ MB/);
  });

  it('re-importing a session replaces it and touches nothing else', async () => {
    const canary = expectJson.sessions.find((s) => s.file === expectJson.canary.file)!;
    const sessionFile = filesUnder(out).find((f) => f.endsWith(`/${canary.session_id}.jsonl`))!;
    const before = readFileSync(sessionFile, 'utf8');
    writeFileSync(sessionFile, 'stale\n');
    const stray = join(sessionFile.replace(/\.jsonl$/, ''), 'subagents', 'agent-stale.jsonl');
    writeFileSync(stray, '{}\n');
    mkdirSync(join(out, 'notes'), { recursive: true });
    writeFileSync(join(out, 'notes', 'keep.md'), 'mine');
    const other = filesUnder(out).find((f) => f.includes('storefront'))!;
    const otherMtime = statSync(other).mtimeMs;

    const again = await run([fixturesProjects, '--out', out, '--session', canary.session_id.slice(0, 8)]);
    expect(again.code).toBe(0);
    expect(again.output).toContain('Imported 1 session(s)');
    expect(readFileSync(sessionFile, 'utf8')).toBe(before);
    expect(existsSync(stray)).toBe(false);
    expect(readFileSync(join(out, 'notes', 'keep.md'), 'utf8')).toBe('mine');
    expect(statSync(other).mtimeMs).toBe(otherMtime);
  });

  it('--dry-run writes nothing', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'sessionpress-dry-'));
    try {
      const r = await run([fixturesProjects, '--out', empty, '--dry-run', '--project', 'storefront']);
      expect(r.code).toBe(0);
      expect(r.output).toContain('Would import 1 session(s)');
      expect(r.output).toContain('Dry run');
      expect(readdirSync(empty)).toEqual([]);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('a session that fails is reported and the others still go through', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sessionpress-fail-'));
    try {
      // A file where the infra project's folder should be: its sessions cannot be written.
      writeFileSync(join(dir, '-work-infra'), 'in the way');
      const r = await run([fixturesProjects, '--out', dir]);
      expect(r.code).toBe(1);
      expect(r.output).toMatch(/Failed \(3\):/);
      expect(readdirSync(dir).length).toBeGreaterThan(3);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rejects a bad date and an unknown option', async () => {
    expect((await run([fixturesProjects, '--since', 'yesterdayish'])).code).toBe(2);
    expect((await run([fixturesProjects, '--bogus'])).code).toBe(2);
    expect((await run([fixturesProjects, '--session', 'no-such-id', '--out', tmpdir()])).code).toBe(1);
  });
});

describe('scripts/import.ts project folder names', () => {
  it('puts every session of a folder in the same redacted folder, using cwd to find a username with a dash', async () => {
    const src = mkdtempSync(join(tmpdir(), 'sessionpress-src-'));
    const dest = mkdtempSync(join(tmpdir(), 'sessionpress-dest-'));
    try {
      const folder = join(src, '-home-qaz-wobble-work-api');
      mkdirSync(folder);
      const entry = { type: 'user', uuid: 'u1', cwd: '/home/qaz-wobble/work/api', message: { role: 'user', content: 'hello from qaz-wobble' } };
      writeFileSync(join(folder, 's1.jsonl'), JSON.stringify(entry) + '\n');
      writeFileSync(join(folder, 's2.jsonl'), JSON.stringify({ type: 'summary', summary: 'only a summary', leafUuid: 'u1' }) + '\n');
      const r = await run([src, '--out', dest]);
      expect(r.code).toBe(0);
      expect(readdirSync(dest)).toEqual(['-work-api']);
      expect(readdirSync(join(dest, '-work-api')).sort()).toEqual(['s1.jsonl', 's2.jsonl']);
      const written = readFileSync(join(dest, '-work-api', 's1.jsonl'), 'utf8');
      expect(written).not.toContain('qaz-wobble');
      expect(written).toContain('~/work/api');
    } finally {
      rmSync(src, { recursive: true, force: true });
      rmSync(dest, { recursive: true, force: true });
    }
  });
});

describe('scripts/import.ts: binary payloads', () => {
  it('keeps images pages show, without their metadata, and leaves out the bytes of everything else, keeping its size', async () => {
    const src = mkdtempSync(join(tmpdir(), 'sessionpress-src-'));
    const dest = mkdtempSync(join(tmpdir(), 'sessionpress-dest-'));
    try {
      const folder = join(src, '-srv-app');
      mkdirSync(folder);
      const pdf = Buffer.from('%PDF-1.4\n1 0 obj<</Author (Quorra Vantablack)>>endobj\nBT (salary table) Tj ET\n%%EOF');
      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><title>Quorra Vantablack</title></svg>');
      const png = png3x2([pngChunk('tEXt', 'Author\0Quorra Vantablack')]);
      const content = [
        { type: 'text', text: 'look' },
        { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: pdf.toString('base64') } },
        { type: 'image', source: { type: 'base64', media_type: 'image/svg+xml', data: svg.toString('base64') } },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png.toString('base64') } },
      ];
      const entry = { type: 'user', uuid: 'u1', cwd: '/srv/app', message: { role: 'user', content }, toolUseResult: { type: 'pdf', file: { base64: pdf.toString('base64'), filePath: '/srv/app/pay.pdf' } } };
      writeFileSync(join(folder, 's1.jsonl'), JSON.stringify(entry) + '\n');
      expect((await run([src, '--out', dest])).code).toBe(0);
      const written = readFileSync(join(dest, '-srv-app', 's1.jsonl'), 'utf8');
      for (const secret of ['Quorra', 'Vantablack', 'salary']) expect(written).not.toContain(secret);
      const copy = JSON.parse(written) as { message: { content: Array<{ source?: Record<string, unknown> }> }; toolUseResult: { file: Record<string, unknown> } };
      const [, doc, vector, image] = copy.message.content;
      expect(doc.source).toMatchObject({ data: '', [OMITTED_BYTES_KEY]: pdf.length });
      expect(vector.source).toMatchObject({ data: '', [OMITTED_BYTES_KEY]: svg.length });
      expect(copy.toolUseResult.file).toMatchObject({ base64: '', [OMITTED_BYTES_KEY]: pdf.length });
      expect(Buffer.from(image.source!.data as string, 'base64').equals(png3x2())).toBe(true);
    } finally {
      rmSync(src, { recursive: true, force: true });
      rmSync(dest, { recursive: true, force: true });
    }
  });
});

describe('scripts/import.ts: a positional argument and dates, as a new user types them', () => {
  const savedHome = process.env.HOME;
  let home: string;
  beforeAll(() => {
    // A home whose ~/.claude/projects holds a copy of the fixtures (in a temporary folder).
    home = mkdtempSync(join(tmpdir(), 'sessionpress-home-'));
    cpSync(fixturesProjects, join(home, '.claude', 'projects'), { recursive: true });
    process.env.HOME = home;
  });
  afterAll(() => {
    process.env.HOME = savedHome;
    rmSync(home, { recursive: true, force: true });
  });

  it('takes a positional argument that is not a folder as a session id or prefix in ~/.claude/projects', async () => {
    const target = expectJson.sessions[0].session_id as string;
    const r = await run([target.slice(0, 8), '--dry-run', '--out', join(home, 'out')]);
    expect(r.code, r.output).toBe(0);
    expect(r.output).toContain('Would import 1 session(s)');
    expect(r.output).toContain(`${target}.jsonl`);
    const none = await run(['zzzz9999', '--dry-run']);
    expect(none.code).toBe(1);
    expect(none.output).toMatch(/"zzzz9999" is not a folder, and no session id in .*\.claude\/projects starts with it/);
    // An existing folder is still a folder.
    expect((await run([fixturesProjects, '--dry-run', '--project', 'storefront'])).output).toContain('Would import 1 session(s)');
  });

  it('--since and --until judge the transcripts\' own timestamps, not the files\' modification times', async () => {
    // Independently: each fixture session's last timestamp, read from its lines.
    const last = new Map<string, number>();
    for (const f of filesUnder(fixturesProjects).filter((p) => p.endsWith('.jsonl') && !p.includes('/subagents/') && !/agent-[^/]*\.jsonl$/.test(p))) {
      const times = [...readFileSync(f, 'utf8').matchAll(/"timestamp"\s*:\s*"([^"]+)"/g)].map((m) => Date.parse(m[1])).filter((t) => !Number.isNaN(t));
      if (times.length) last.set(f.split('/').pop()!.replace(/\.jsonl$/, ''), Math.max(...times));
    }
    const newest = Math.max(...last.values());
    // The day after the newest message: the files were all written today, yet none qualifies.
    const after = new Date(newest + 86_400_000).toISOString().slice(0, 10);
    const none = await run([fixturesProjects, '--dry-run', '--since', after]);
    expect(none.code).toBe(1);
    expect(none.output).toMatch(/no session in .* matches/);
    // A folder with no session at all is said as such, with the folder below that holds them.
    const parent = join(fixturesProjects, '..');
    const above = await run([parent, '--dry-run']);
    expect(above.code).toBe(1);
    expect(above.output).toContain(`No Claude Code session files in ${parent}`);
    expect(above.output).toContain(`${fixturesProjects} holds`);
    // A cut between the sessions picks exactly those with a message after it.
    const sorted = [...last.values()].sort((a, b) => a - b);
    const mid = new Date(sorted[Math.floor(sorted.length / 2)]).toISOString();
    const some = await run([fixturesProjects, '--dry-run', '--since', mid]);
    const expected = [...last].filter(([, t]) => t >= Date.parse(mid)).map(([id]) => id);
    expect(some.output).toContain(`Would import ${expected.length} session(s)`);
    for (const id of expected) expect(some.output).toContain(`${id}.jsonl`);
    const early = await run([fixturesProjects, '--dry-run', '--until', '2000-01-01']);
    expect(early.code).toBe(1);
  });
});
