import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SessionSource } from '../../../../src/lib/discover.js';
import { parseDateBound, selectSessions } from '../../../../scripts/lib/import/select.js';
import { promptText, quickTitle } from '../../../../scripts/lib/import/title.js';

const source = (projectFolder: string, sessionId: string, date: string): SessionSource => ({
  sessionId,
  path: `/x/${projectFolder}/${sessionId}.jsonl`,
  relPath: `${projectFolder}/${sessionId}.jsonl`,
  projectFolder,
  subagentPaths: [],
  siblingAgentPaths: [],
  size: 10,
  mtimeMs: new Date(date).getTime(),
});

const all = [
  source('-home-ada-work-api', 'aaaa1111', '2026-01-10T12:00:00'),
  source('-home-ada-work-web', 'bbbb2222', '2026-01-15T12:00:00'),
  source('-home-ada-notes', 'aaab3333', '2026-01-20T12:00:00'),
];
const ids = (list: SessionSource[]) => list.map((s) => s.sessionId);

describe('selectSessions', () => {
  it('selects by project part, id prefix and dates (criteria AND, values OR)', () => {
    expect(ids(selectSessions(all, {}))).toEqual(['aaaa1111', 'bbbb2222', 'aaab3333']);
    expect(ids(selectSessions(all, { projects: ['WORK'] }))).toEqual(['aaaa1111', 'bbbb2222']);
    expect(ids(selectSessions(all, { sessions: ['aaa'] }))).toEqual(['aaaa1111', 'aaab3333']);
    expect(ids(selectSessions(all, { sessions: ['aaa'], projects: ['notes'] }))).toEqual(['aaab3333']);
    expect(ids(selectSessions(all, { since: parseDateBound('2026-01-15', 'since') }))).toEqual(['bbbb2222', 'aaab3333']);
    expect(ids(selectSessions(all, { until: parseDateBound('2026-01-15', 'until') }))).toEqual(['aaaa1111', 'bbbb2222']);
  });

  it('rejects a date it cannot read', () => {
    expect(() => parseDateBound('last tuesday', 'since')).toThrow(/--since/);
  });
});

describe('quickTitle', () => {
  it('takes the first typed prompt, skipping command wrappers and meta entries', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sessionpress-title-'));
    try {
      const file = join(dir, 's.jsonl');
      const lines = [
        { type: 'summary', summary: 'A summary' },
        { type: 'user', isMeta: true, message: { content: 'Caveat: meta' } },
        { type: 'user', message: { content: '<command-name>/clear</command-name>' } },
        { type: 'user', message: { content: [{ type: 'text', text: '  Fix   the\nlogin bug  ' }] } },
      ];
      writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n{"cut');
      expect(await quickTitle(file)).toBe('Fix the login bug');
      writeFileSync(file, JSON.stringify(lines[0]));
      expect(await quickTitle(file)).toBe('A summary');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('ignores tool results', () => {
    expect(promptText({ type: 'user', message: { content: [{ type: 'tool_result', content: 'x' }] } })).toBeUndefined();
  });
});
