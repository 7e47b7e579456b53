/**
 * The one way into a session over a hostile source tree: links to files and
 * folders outside the source, and names that make unsafe ids. Nothing outside
 * is read, every refusal is a reported problem naming the file, and every
 * session inside still opens.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assignSiblingAgents, openSession, readHead, readSession, sessionFileIncludes } from '../../../src/lib/build/open-session.js';
import { discoverSources, type SourceLayout } from '../../../src/lib/discover.js';
import { collectGarbage } from '../../../src/lib/build/heap-growth.js';
import { readJsonl } from '../../../src/lib/jsonl/read-jsonl.js';
import { derivedTextOf } from '../../../src/lib/derived-text.js';
import { numberedLines } from '../../../src/lib/transcript/shared-result-text.js';
import { generateCredentials } from '../../helpers/credentials.js';
import { makeHostileTree, type HostileTree } from '../../helpers/hostile-tree.js';

describe('discovery and openSession over a hostile tree', () => {
  let tree: HostileTree;
  let layout: SourceLayout;
  afterAll(() => tree?.remove());
  beforeAll(async () => {
    tree = makeHostileTree();
    layout = await discoverSources(tree.root);
  });

  it('lists the real sessions only', () => {
    const ids = layout.sessions.map((s) => s.sessionId).sort();
    expect(ids).toEqual([tree.ids.linkedResults, tree.ids.linkedSubagents, tree.ids.linkedKeptFile, tree.ids.plain].sort());
    expect(ids).not.toContain('..');
    expect(ids).not.toContain('.');
  });

  it('reports every link and every unsafe name as a problem naming the file', () => {
    const byFile = new Map(layout.problems.map((d) => [d.file, d.code]));
    const p = tree.projectFolder;
    expect(byFile.get(`${p}/${tree.ids.linkedResults}/tool-results`)).toBe('symlink-skipped');
    expect(byFile.get(`${p}/${tree.ids.linkedSubagents}/subagents`)).toBe('symlink-skipped');
    expect(byFile.get(`${p}/${tree.ids.linkedKeptFile}/tool-results/out.txt`)).toBe('symlink-skipped');
    expect(byFile.get(`${p}/${tree.ids.linkedSessionFile}.jsonl`)).toBe('symlink-skipped');
    expect(byFile.get(`${p}/agent-linked.jsonl`)).toBe('symlink-skipped');
    expect(byFile.get(`-home-${tree.username}-work-linked`)).toBe('symlink-skipped');
    for (const name of ['...jsonl', '..jsonl', '.jsonl']) expect(byFile.get(`${p}/${name}`), name).toBe('unsafe-name');
    for (const d of layout.problems) expect(d.line).toBe(0);
  });

  it('never lists a file reached through a link', () => {
    const all = layout.sessions.flatMap((s) => [s.path, ...s.subagentPaths, ...(s.sidecarPaths ?? []), ...(s.toolResultPaths ?? [])]);
    for (const p of all) expect(p.startsWith(tree.root), p).toBe(true);
    expect(layout.agentPaths).toEqual([]);
    for (const s of layout.sessions) {
      expect(s.subagentPaths).toEqual([]);
      expect(s.toolResultPaths ?? []).toEqual([]);
    }
  });

  it('opens every session with nothing of the outside in it, the kept output shown as missing', async () => {
    const owners = await assignSiblingAgents(layout);
    for (const source of layout.sessions) {
      const opened = await openSession(source, { root: tree.root, owners, redaction: {} });
      expect(opened.result.ok, source.sessionId).toBe(true);
      expect(JSON.stringify(opened)).not.toContain(tree.outsideMarker);
      // What callers show: the model (but the raw folder name it keeps for the identity) and the identity, redacted.
      const shown = JSON.stringify({ session: opened.result.ok ? { ...opened.result.session, projectFolder: undefined } : undefined, identity: opened.identity });
      expect(shown).toContain(tree.insideMarker);
      expect(shown).not.toContain(tree.username);
      expect(opened.identity.entryId).toBe(`work-api/${source.sessionId}`);
      expect(opened.identity.copyFolder).toBe('-work-api');
    }
  });

  it('refuses, as a read problem, a file that became a link after discovery', async () => {
    const { symlinkSync, rmSync } = await import('node:fs');
    const source = layout.sessions.find((s) => s.sessionId === tree.ids.plain)!;
    rmSync(source.path);
    symlinkSync(join(tree.outside, 'session.jsonl'), source.path);
    const read = await readSession(source, { root: tree.root, owners: new Map(), redaction: {} });
    expect(read.files).toEqual([]);
    expect(read.diagnostics.map((d) => d.code)).toEqual(['read-error']);
    expect(read.diagnostics[0].reason).toMatch(/symbolic link/);
    expect(JSON.stringify(read)).not.toContain(tree.outsideMarker);
    expect(await readHead(source.path, 4096)).toBe('');
    expect(await sessionFileIncludes(source.path, tree.outsideMarker)).toBe(false);
  });
});

describe('problems of bad lines, agent sidecars and team configs never quote a piece of a secret', () => {
  const credentials = generateCredentials();
  const secrets = credentials.flatMap((c) => c.secrets);
  /** Every run of ten characters of a secret (the whole secret when it is shorter): none may be printed. */
  const pieces = [...new Set(secrets.flatMap((s) => (s.length <= 10 ? [s] : Array.from({ length: s.length - 9 }, (_, i) => s.slice(i, i + 10)))))];
  const leaks = (text: string) => pieces.filter((p) => text.includes(p));

  it('quotes the head of each bad line only after redacting the line whole', async () => {
    const root = mkdtempSync(join(tmpdir(), 'sp-bad-lines-'));
    const sessionId = randomUUID();
    const folder = join(root, '-work-vault');
    mkdirSync(join(folder, sessionId, 'subagents'), { recursive: true });
    const teamDir = join(root, 'teams', `session-${sessionId.slice(0, 8)}`);
    mkdirSync(teamDir, { recursive: true });
    const good = JSON.stringify({ type: 'user', uuid: randomUUID(), parentUuid: null, sessionId, timestamp: '2026-10-05T09:00:00Z', cwd: '/work/vault', message: { role: 'user', content: 'hi' } });
    // A record cut or garbled around a credential (the line's head ends inside it), and the credential as a raw line.
    const bad = credentials.flatMap((c) => [`{"type":"user","text":${JSON.stringify(c.snippet)} oops}`, `{"k":${JSON.stringify(c.snippet)},}`, ...(c.snippet.includes('\n') ? [] : [c.snippet])]);
    writeFileSync(join(folder, `${sessionId}.jsonl`), `${good}\n${bad.join('\n')}\n`);
    // JSON that V8 cannot parse quotes a window of the text in its message.
    writeFileSync(join(folder, sessionId, 'subagents', 'agent-a1.jsonl'), `${good}\n`);
    writeFileSync(join(folder, sessionId, 'subagents', 'agent-a1.meta.json'), `{"agentType": "x", "token": ${credentials[0].secrets[0]}}`);
    writeFileSync(join(teamDir, 'config.json'), `{"members": [${credentials[0].secrets[0]}]}`);
    try {
      const layout = await discoverSources(root);
      const source = layout.sessions.find((s) => s.sessionId === sessionId)!;
      const read = await readSession(source, { root, owners: await assignSiblingAgents(layout), redaction: {} });
      const files = new Set(read.diagnostics.filter((d) => d.code === "not-json").map((d) => d.file.split("/").pop()));
      expect([...files].sort()).toEqual([`${sessionId}.jsonl`, "agent-a1.meta.json", "config.json"].sort());
      expect(read.diagnostics.filter((d) => d.code === "not-json").length).toBeGreaterThanOrEqual(2 * credentials.length + 2);
      expect(read.diagnostics.every((d) => d.lineHead === undefined)).toBe(true);
      expect(leaks(JSON.stringify(read.diagnostics))).toEqual([]);
      // The head is still quoted, as far as redaction leaves it.
      expect(read.diagnostics.some((d) => d.reason.includes('starts with "{\\"type\\":\\"user\\",\\"text\\":'))).toBe(true);
      const opened = await openSession(source, { root, owners: await assignSiblingAgents(layout), redaction: {} });
      expect(leaks(JSON.stringify(opened.result.ok ? opened.result.session.diagnostics : opened.result.diagnostics))).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

/** One tool call of a generated session: what was called, and its result as Claude Code writes it. */
interface GeneratedCall {
  name: string;
  input: Record<string, unknown>;
  /** The tool_result's text. */
  content: string;
  toolUseResult: unknown;
}

/** A session in `root/-work-app` of `calls`, each a call entry followed by its result entry, one after the other; its id. */
function sessionOfToolCalls(root: string, calls: GeneratedCall[]): string {
  const sessionId = randomUUID();
  const folder = join(root, '-work-app');
  mkdirSync(folder, { recursive: true });
  const lines: string[] = [];
  let parent: string | null = null;
  for (const [i, { name, input, content, toolUseResult }] of calls.entries()) {
    const id = `toolu_${i}`;
    const call = randomUUID();
    const result = randomUUID();
    lines.push(JSON.stringify({ type: 'assistant', uuid: call, parentUuid: parent, sessionId, timestamp: '2026-10-05T09:00:00Z', cwd: '/work/app', message: { id: `msg_${i}`, role: 'assistant', content: [{ type: 'tool_use', id, name, input }] } }));
    lines.push(JSON.stringify({ type: 'user', uuid: result, parentUuid: call, sessionId, timestamp: '2026-10-05T09:00:01Z', cwd: '/work/app', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content }] }, toolUseResult }));
    parent = result;
  }
  writeFileSync(join(folder, `${sessionId}.jsonl`), `${lines.join('\n')}\n`);
  return sessionId;
}

/** The discovered source of session `sessionId` under `root`. */
async function sourceOf(root: string, sessionId: string) {
  const layout = await discoverSources(root);
  return layout.sessions.find((s) => s.sessionId === sessionId)!;
}

/** The heap alive (collected) while what `read` returns is held. */
async function aliveWhile(read: () => Promise<unknown>): Promise<number> {
  const held = await read();
  const used = collectGarbage().after;
  expect(held).toBeTruthy();
  return used;
}

describe('a tool result whose entry repeats its output in toolUseResult', () => {
  /** A session of `results` Bash calls, each result's output written twice, as Claude Code writes it: the tool_result's text and `toolUseResult.stdout`. */
  const sessionRepeating = (root: string, output: (i: number) => string, results: number) =>
    sessionOfToolCalls(
      root,
      Array.from({ length: results }, (_, i) => {
        const text = output(i);
        return { name: 'Bash', input: { command: `make ${i}` }, content: text, toolUseResult: { stdout: text, stderr: '', interrupted: false } };
      }),
    );

  it('redacts a secret in the output in both places', async () => {
    const root = mkdtempSync(join(tmpdir(), 'sp-repeated-secret-'));
    const credentials = generateCredentials();
    const secrets = credentials.flatMap((c) => c.secrets);
    try {
      const sessionId = sessionRepeating(root, (i) => `build ${i} output\n${credentials.map((c) => c.snippet).join('\n')}\n${'done\n'.repeat(20)}`, 3);
      const source = await sourceOf(root, sessionId);
      const read = await readSession(source, { root, owners: new Map(), redaction: {} });
      const results = read.files[0].records.map((r) => r.value).filter((v) => v.toolUseResult);
      expect(results).toHaveLength(3);
      for (const v of results) {
        const stdout = (v.toolUseResult as { stdout: string }).stdout;
        const content = ((v.message as { content: Array<{ content: string }> }).content)[0].content;
        expect(stdout).toBe(content);
        expect(stdout).toContain('[REDACTED');
        for (const s of secrets) expect(JSON.stringify(v), s).not.toContain(s);
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('holds it once: 40 results of 1 MB keep more than 30 MB less alive than the file parsed as it is', async () => {
    const root = mkdtempSync(join(tmpdir(), 'sp-repeated-output-'));
    try {
      const sessionId = sessionRepeating(root, (i) => `${i} ${'a line of output that repeats\n'.repeat(35_000)}`, 40);
      const source = await sourceOf(root, sessionId);
      const plain = await aliveWhile(() => readJsonl(source.path, 'x.jsonl', root));
      const opened = await aliveWhile(() => readSession(source, { root, owners: new Map(), redaction: false }));
      expect(plain - opened).toBeGreaterThan(30e6);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("a Read result, whose numbered text is made from the file's text", () => {
  /** A session of Read calls of `files`, each result written as Claude Code writes it: numbered in the tool_result, as it is in `toolUseResult.file`. */
  const sessionReading = (root: string, files: string[]) =>
    sessionOfToolCalls(
      root,
      files.map((content, i) => {
        const filePath = `/work/app/config/${i}.env`;
        const lines = content.split('\n').length;
        return {
          name: 'Read',
          input: { file_path: filePath },
          content: `${numberedLines(content, 1, '→')}\n\n<system-reminder>\nConsider whether the file is malware.\n</system-reminder>\n`,
          toolUseResult: { type: 'text', file: { filePath, content, numLines: lines, startLine: 1, totalLines: lines } },
        };
      }),
    );

  it('redacts a secret of the file in both places, and the model keeps a clean one made from the file', async () => {
    const root = mkdtempSync(join(tmpdir(), 'sp-read-derived-'));
    const credentials = generateCredentials();
    const secrets = credentials.flatMap((c) => c.secrets);
    const cleanFile = Array.from({ length: 30 }, (_, i) => `export const setting${i} = ${i};`).join('\n');
    try {
      const sessionId = sessionReading(root, [`# settings\n${credentials.map((c) => c.snippet).join('\n')}\n# end`, cleanFile]);
      const source = await sourceOf(root, sessionId);
      const opened = await openSession(source, { root, owners: new Map(), redaction: {} });
      expect(opened.result.ok).toBe(true);
      if (!opened.result.ok) return;
      const calls = opened.result.session.messages.flatMap((m) => (m.kind === 'assistant' ? m.toolCalls : []));
      expect(calls).toHaveLength(2);
      const [withSecrets, clean] = calls.map((c) => c.result!);
      const out = JSON.stringify(opened.result.session);
      for (const secret of secrets) expect(out, secret).not.toContain(secret);
      expect(withSecrets.content).toContain('[REDACTED');
      expect((withSecrets.toolUseResult as { file: { content: string } }).file.content).toContain('[REDACTED');
      // The clean file's numbered text is made each time it is read, in the model as in the record.
      expect(clean.content).toBe(`${numberedLines(cleanFile, 1, '→')}\n\n<system-reminder>\nConsider whether the file is malware.\n</system-reminder>\n`);
      expect(derivedTextOf(clean)?.key).toBe('content');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('holds no numbered copy once redacted: 40 Read results of 4,000 lines keep more than 10 MB less alive than the file parsed as it is', async () => {
    const root = mkdtempSync(join(tmpdir(), 'sp-read-memory-'));
    try {
      const files = Array.from({ length: 40 }, (_, f) => Array.from({ length: 4_000 }, (_, i) => `f${f} const line${i} = ${i * 7}; // → fine`).join('\n'));
      const sessionId = sessionReading(root, files);
      files.length = 0;
      const source = await sourceOf(root, sessionId);
      const plain = await aliveWhile(() => readJsonl(source.path, 'x.jsonl', root));
      // The redactor is kept with what was read: whatever it caches stays alive too.
      const redacted = await aliveWhile(() => readSession(source, { root, owners: new Map(), redaction: {} }));
      // 40 numbered copies of about 0.17 M two-byte characters each (14 MB); allow for what else the heap holds and moves.
      expect(plain - redacted).toBeGreaterThan(10e6);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
