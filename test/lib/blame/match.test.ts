import { describe, expect, it } from 'vitest';
import { matchLines, notebookSourceLine, sameLine } from '../../../src/lib/blame/match.js';
import type { Claim } from '../../../src/lib/blame/replay.js';

const claim = (id: string, rank = 0): Claim => ({ call: { id, tool: 'Edit', page: 1, agent: { kind: 'main' } }, kind: 'tool', session: 0, rank });
const ids = (m: Map<number, Claim | undefined>) => Object.fromEntries([...m].map(([n, c]) => [n, c?.call.id ?? 'person']));

describe('matching', () => {
  it('compares lines without trailing whitespace, and a redacted line with the line it stands for', () => {
    expect(sameLine('key = "[REDACTED:github-token]"', 'key = "ghp_abc"')).toBe(true);
    expect(sameLine('key = "[REDACTED:github-token]"', 'other = "ghp_abc"')).toBe(false);
    expect(sameLine('a.b', 'axb')).toBe(false);
    const m = matchLines({ head: ['x = 1   ', 'y'], added: [1], replays: [{ lines: [{ text: 'x = 1', by: claim('e') }, { text: 'y' }], loose: [] }] });
    expect(ids(m)).toEqual({ 1: 'e' });
  });

  it('takes the line nearest in order when the same text is written twice', () => {
    // The tool wrote the second `}`; a person added the first (before `a`), which is no tool's.
    const head = ['}', 'a', 'b', '}'];
    const m = matchLines({ head, added: [1, 4], replays: [{ lines: [{ text: 'a' }, { text: 'b' }, { text: '}', by: claim('e') }], loose: [] }] });
    expect(ids(m)).toEqual({ 1: 'person', 4: 'e' });
  });

  it('gives a line two sessions wrote to the later call', () => {
    const m = matchLines({
      head: ['x'],
      added: [1],
      replays: [
        { lines: [{ text: 'x', by: claim('late', 5) }], loose: [] },
        { lines: [{ text: 'x', by: claim('early', 1) }], loose: [] },
      ],
    });
    expect(ids(m)).toEqual({ 1: 'late' });
  });

  it('claims a line a person changed for no one', () => {
    const m = matchLines({ head: ['RETRIES = 5'], added: [1], replays: [{ lines: [{ text: 'RETRIES = 3', by: claim('w') }], loose: [] }] });
    expect(ids(m)).toEqual({ 1: 'person' });
  });

  it('reads a notebook JSON line as the source it holds', () => {
    expect(notebookSourceLine('    "import x\\n",')).toBe('import x');
    expect(notebookSourceLine('   "cell_type": "code",')).toBe('   "cell_type": "code",');
    const m = matchLines({ head: ['   "source": [', '    "import x\\n",', '    "x.run()"', '   ]'], added: [2, 3], notebook: true, replays: [{ lines: null, loose: [{ text: 'import x', by: claim('n') }, { text: 'x.run()', by: claim('n') }] }] });
    expect(ids(m)).toEqual({ 2: 'n', 3: 'n' });
  });
});
