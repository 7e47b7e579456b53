import { describe, expect, it } from 'vitest';
import { DIAGNOSTIC_CODES, formatDiagnostic, LAYOUT_CODES, SKIP_CODES, type Diagnostic, type DiagnosticCode } from '../../../src/lib/diagnostics.js';
import { createProblemReport, PLACES_QUOTED, printable, type SourceProblems } from '../../../src/lib/build/problem-report.js';
import { buildSession } from '../../../src/lib/transcript/build-session.js';

/** How the log names a stored file in these tests: under a folder, as a path from the working folder would be. */
const shown = (file: string) => `src/${file}`;

/** A made-up archive: `sessions` sessions, each with problems of a few kinds chosen by its number. */
function archive(sessions: number): SourceProblems[] {
  const problemCodes = DIAGNOSTIC_CODES.filter((c) => !SKIP_CODES.has(c) && c !== 'unknown-type' && c !== 'agent-without-session' && !LAYOUT_CODES.has(c));
  return Array.from({ length: sessions }, (_, i) => {
    const key = `p${i % 7}/s${String(i).padStart(5, '0')}.jsonl`;
    const items: Diagnostic[] = [];
    // Session i has problems of (i % 5) + 1 kinds, two lines each for every third one.
    for (let k = 0; k <= i % 5; k++) {
      const code = problemCodes[(i + k) % problemCodes.length];
      const lines = code === problemCodes[0] || i % 3 === 0 ? [k + 1, k + 10] : [k + 1];
      for (const line of lines) items.push({ file: key, line, code, reason: `problem ${code} at ${line}` });
    }
    if (i % 50 === 0) items.push({ file: key, line: 3, code: 'unknown-type', reason: 'unknown entry type "holo-reply" (it has a message)', entryType: 'holo-reply' });
    if (i % 400 === 0) items.push({ file: key, line: 0, code: 'metadata-only', reason: 'file holds only metadata' });
    return { key, items, shownFile: (d) => shown(d.file), known: false };
  });
}

/** What a correct summary says for a kind: its count, its sources, its first places in key order. */
function expected(sources: SourceProblems[], code: DiagnosticCode): { count: number; sessions: number; places: string[] } {
  const sorted = [...sources].sort((a, b) => (a.key < b.key ? -1 : 1));
  const hits = sorted.flatMap((s) => s.items.filter((d) => d.code === code).map((d) => ({ key: s.key, place: d.line > 0 ? `${shown(d.file)}:${d.line}` : shown(d.file) })));
  return { count: hits.length, sessions: new Set(hits.map((h) => h.key)).size, places: hits.slice(0, PLACES_QUOTED).map((h) => h.place) };
}

describe('the problem report', () => {
  const sources = archive(4000);
  const report = createProblemReport();
  // Added in no particular order, as worker threads finish.
  for (const s of [...sources].reverse()) report.add(s);
  const summary = report.summary('cache/problems.txt');
  const text = summary.map((l) => l.text);

  it('says thousands of sessions\' problems in a bounded number of lines', () => {
    const kinds = new Set(sources.flatMap((s) => s.items.map((d) => d.code)));
    // A header, one line per kind; nothing per session or per file.
    expect(summary.length).toBeLessThanOrEqual(kinds.size + 1);
    expect(summary.length).toBeLessThan(25);
  });

  it('names every kind with how many problems, in how many sessions, and the first three places in source order', () => {
    for (const code of DIAGNOSTIC_CODES) {
      if (SKIP_CODES.has(code) || code === 'unknown-type') continue;
      const want = expected(sources, code);
      const line = text.find((t) => t.trimStart().startsWith(`${code}:`));
      if (!want.count) {
        expect(line, code).toBeUndefined();
        continue;
      }
      const m = new RegExp(`^  ${code}: (\\d+) in (\\d+) sessions? \\([^)]*\\): (.*)$`).exec(line ?? '');
      expect(m, `${code}: ${line}`).not.toBeNull();
      expect(Number(m![1]), code).toBe(want.count);
      expect(Number(m![2]), code).toBe(want.sessions);
      expect(m![3], code).toBe(`${want.places.join(', ')} and ${want.count - PLACES_QUOTED} more`);
    }
  });

  it('counts every problem in the header, names the problems file, and leaves why a file got no page to the skipped-files line', () => {
    const total = sources.reduce((n, s) => n + s.items.filter((d) => !SKIP_CODES.has(d.code)).length, 0);
    expect(text[0]).toBe(`${total} problems in ${sources.length} sessions, by kind (every one is in cache/problems.txt; a published session's are on its page too):`);
    expect(text.join('\n')).not.toContain('metadata-only');
    expect(summary.every((l) => l.level === 'warn')).toBe(true);
  });

  it('names an unknown type once, with the files it was seen in (the first three, and how many)', () => {
    const lines = text.filter((t) => t.includes('unknown-type'));
    expect(lines).toHaveLength(1);
    const files = sources.filter((s) => s.items.some((d) => d.code === 'unknown-type')).map((s) => shown(s.key)).sort();
    expect(lines[0]).toBe(`  unknown-type "holo-reply": ${files.length} lines that may be conversation, not shown, in ${files.length} files: ${files.slice(0, 3).join(', ')} and ${files.length - 3} more`);
  });

  it('writes every problem, one per line as compilers print them, in source order', () => {
    const lines = report.fileText().split('\n').filter(Boolean);
    const all = [...sources].sort((a, b) => (a.key < b.key ? -1 : 1)).flatMap((s) => s.items.map(formatDiagnostic));
    expect(lines).toEqual(all);
  });

  it('says the problems of unchanged sessions in one line on a rebuild, and the new ones by kind', () => {
    const rebuild = createProblemReport();
    const changed = sources[17];
    for (const s of sources) rebuild.add({ ...s, known: s !== changed });
    const lines = rebuild.summary('cache/problems.txt');
    const knownProblems = sources.filter((s) => s !== changed).reduce((n, s) => n + s.items.filter((d) => !SKIP_CODES.has(d.code)).length, 0);
    const knownLines = lines.filter((l) => l.text.includes('known problem'));
    expect(knownLines).toEqual([{ level: 'info', text: `${knownProblems} known problems in ${sources.length - 1} sessions, unchanged since the last build: see cache/problems.txt` }]);
    const kinds = new Set(changed.items.map((d) => d.code));
    // The changed session's kinds, a header, the one line for the rest.
    expect(lines).toHaveLength(kinds.size + 2);
    for (const code of kinds) expect(lines.some((l) => l.text.startsWith(`  ${code}: `) && l.text.includes(shown(changed.key))), code).toBe(true);
    // Everything is still in the file.
    expect(rebuild.fileText()).toBe(report.fileText());
  });

  it('says nothing at all when there is no problem', () => {
    const empty = createProblemReport();
    empty.add({ key: 'a.jsonl', items: [], shownFile: (d) => d.file, known: false });
    expect(empty.summary('x')).toEqual([]);
    expect(empty.fileText()).toBe('');
  });

  it('names many unknown types in a few lines, and escapes what a file wrote', () => {
    const r = createProblemReport();
    for (let i = 0; i < 40; i++) {
      const type = i === 0 ? 'evil\u001b[2J\ntype' : `kind-${i}`;
      r.add({ key: `s${i}.jsonl`, items: [{ file: `s${i}.jsonl`, line: 1, code: 'unknown-type', reason: `unknown entry type ${JSON.stringify(type)}`, entryType: type }], shownFile: (d) => d.file, known: false });
    }
    const lines = r.summary('f').map((l) => l.text);
    expect(lines.length).toBeLessThanOrEqual(1 + 5 + 1);
    expect(lines.join('\n')).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
    expect(lines.join('\n')).toContain('35 more types');
    expect(r.fileText()).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
    expect(printable('a\rb\u001b')).toBe('a\\u000db\\u001b');
  });
});

describe('unknown entry types in sessions', () => {
  const meta = (sessionId: string, type: string, extra: object = {}) => ({ type, sessionId, ...extra });
  /** A session of one prompt and one reply, then lines of types no version knows. */
  function session(sessionId: string, unknown: object[]) {
    const lines = [
      { type: 'user', sessionId, uuid: `${sessionId}-u1`, parentUuid: null, timestamp: '2026-01-01T00:00:00Z', message: { role: 'user', content: 'Hello' } },
      { type: 'assistant', sessionId, uuid: `${sessionId}-a1`, parentUuid: `${sessionId}-u1`, timestamp: '2026-01-01T00:00:01Z', message: { id: 'm1', role: 'assistant', content: [{ type: 'text', text: 'Hi' }] } },
      ...unknown,
    ];
    const file = `proj/${sessionId}.jsonl`;
    const r = buildSession({ sessionId, file, projectFolder: 'proj', records: lines.map((value, i) => ({ line: i + 1, value: value as Record<string, unknown> })), agents: [] });
    if (!r.ok) throw new Error('no session');
    return r.session;
  }
  const a = session('sa', [
    meta('sa', 'file-history-delta', { snapshotMessageId: 'sa-a1', trackingPath: 'src/x.ts', backup: null }),
    meta('sa', 'file-history-delta', { snapshotMessageId: 'sa-a1', trackingPath: 'src/y.ts', backup: { version: 1 } }),
    meta('sa', 'holo-state', { totalCostUsd: 0.1 }),
    meta('sa', 'holo-reply', { message: { role: 'assistant', content: 'one' } }),
    meta('sa', 'holo-reply', { message: { role: 'assistant', content: 'two' } }),
  ]);
  const b = session('sb', [meta('sb', 'holo-state', {}), meta('sb', 'holo-reply', { message: { role: 'user', content: 'three' } }), meta('sb', 'flat-turn', { uuid: 'sb-x', parentUuid: 'sb-a1' })]);

  it('counts lines with neither a message nor a uuid by type, and reports none of them', () => {
    expect({ ...a.unknownMetadata }).toEqual({ 'file-history-delta': 2, 'holo-state': 1 });
    expect({ ...b.unknownMetadata }).toEqual({ 'holo-state': 1 });
    for (const s of [a, b]) expect(s.diagnostics.filter((d) => d.entryType === 'file-history-delta' || d.entryType === 'holo-state')).toEqual([]);
  });

  it('reports a line with a message, or in the conversation tree, on its line, and the log names each type once with its files', () => {
    expect(a.diagnostics.filter((d) => d.code === 'unknown-type').map((d) => [d.line, d.entryType])).toEqual([
      [6, 'holo-reply'],
      [7, 'holo-reply'],
    ]);
    expect(b.diagnostics.filter((d) => d.code === 'unknown-type').map((d) => d.entryType)).toEqual(['holo-reply', 'flat-turn']);
    const report = createProblemReport();
    for (const s of [a, b]) report.add({ key: s.file, items: s.diagnostics, shownFile: (d) => d.file, known: false });
    const lines = report.summary('problems.txt').map((l) => l.text);
    const holo = lines.filter((l) => l.includes('"holo-reply"'));
    expect(holo).toEqual(['  unknown-type "holo-reply": 3 lines that may be conversation, not shown, in 2 files: proj/sa.jsonl, proj/sb.jsonl']);
    expect(lines.filter((l) => l.includes('"flat-turn"'))).toHaveLength(1);
    expect(lines.join('\n')).not.toMatch(/holo-state|file-history-delta/);
  });
});
