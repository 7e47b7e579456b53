import { describe, expect, it } from 'vitest';
import type { CallRef, SessionEvent } from '../../../src/lib/blame/calls.js';
import { applyEdit, replayFile, splitLines, type AttributedLine, type Claim } from '../../../src/lib/blame/replay.js';

const call = (id: string, tool = 'Edit'): CallRef => ({ id, tool, page: 1, agent: { kind: 'main' } });
const claim = (id: string): Claim => ({ call: call(id), kind: 'tool', session: 0, rank: 0 });
const lines = (text: string, by?: Claim): AttributedLine[] => splitLines(text).map((t) => ({ text: t, by }));
const who = (ls: AttributedLine[] | null) => (ls ?? []).map((l) => `${l.by?.call.id ?? '-'}:${l.text}`);

describe('applyEdit', () => {
  it('replaces the first occurrence, or every one with replace_all, claiming only the lines it changed', () => {
    const state = lines('a = X\nb = 1\nc = X\n', claim('w'));
    expect(who(applyEdit(state, 'X', 'Y', false, claim('e'))!)).toEqual(['e:a = Y', 'w:b = 1', 'w:c = X']);
    expect(who(applyEdit(state, 'X', 'Y', true, claim('e'))!)).toEqual(['e:a = Y', 'w:b = 1', 'e:c = Y']);
  });

  it('keeps the claim of the context lines an edit carries unchanged', () => {
    const state = lines('def f():\n    x = 1\n    return x\n', claim('w'));
    const next = applyEdit(state, '    x = 1\n    return x', '    x = 1\n    y = 2\n    return x + y', false, claim('e'))!;
    expect(who(next)).toEqual(['w:def f():', 'w:    x = 1', 'e:    y = 2', 'e:    return x + y']);
  });

  it('handles an old_string that takes a whole line with its newline, and one that removes it', () => {
    const state = lines('one\ntwo\nthree\n', claim('w'));
    expect(who(applyEdit(state, 'two\n', '', false, claim('e'))!)).toEqual(['w:one', 'w:three']);
    expect(who(applyEdit(state, 'two\n', 'TWO\nTWO-B\n', false, claim('e'))!)).toEqual(['w:one', 'e:TWO', 'e:TWO-B', 'w:three']);
    expect(who(applyEdit(state, 'three\n', 'end\n', false, claim('e'))!)).toEqual(['w:one', 'w:two', 'e:end']);
    expect(who(applyEdit(state, 'one\ntw', 'ONE\nTW', false, claim('e'))!)).toEqual(['e:ONE', 'e:TWo', 'w:three']);
  });

  it('is undefined when old_string is not in the state', () => {
    expect(applyEdit(lines('a\n'), 'zzz', 'y', false, claim('e'))).toBeUndefined();
  });
});

describe('replayFile', () => {
  const ev = (id: string, seq: number, extra: Partial<SessionEvent> = {}): SessionEvent => ({ call: call(id, extra.bash ? 'Bash' : 'Edit'), seq, ops: [], ...extra });
  const options = { session: 0, rankOf: (e: SessionEvent) => e.seq, commandTouches: (c: string) => c.includes('fmt') };

  it('gives what changed between an edit and the next snapshot to the command that ran in between', () => {
    const events = [
      { event: ev('w', 0), op: { op: 'write' as const, path: 'a', content: 'x=1\ny=2\n' } },
      { event: { ...ev('b', 1, { bash: true }), call: { ...call('b', 'Bash'), command: 'fmt a' } } },
      { event: ev('e', 2), op: { op: 'edit' as const, path: 'a', edits: [{ oldString: 'y = 2', newString: 'y = 3', replaceAll: false }], original: 'x = 1\ny = 2\n' } },
    ];
    const r = replayFile(events, options);
    expect(who(r.lines)).toEqual(['b:x = 1', 'e:y = 3']);
  });

  it('changes seen in a snapshot with no command in between belong to no call', () => {
    const r = replayFile(
      [
        { event: ev('w', 0), op: { op: 'write' as const, path: 'a', content: 'x=1\ny=2\n' } },
        { event: ev('r', 1), op: { op: 'observe' as const, path: 'a', content: 'x=1\nperson\ny=2\n' } },
      ],
      options,
    );
    expect(who(r.lines)).toEqual(['w:x=1', '-:person', 'w:y=2']);
  });

  it('keeps the whole lines of the structuredPatch when an edit of part of a line cannot be placed', () => {
    const r = replayFile([{ event: ev('e', 0), op: { op: 'edit' as const, path: 'a', edits: [{ oldString: '0.1', newString: '0.2', replaceAll: false }], patchAdded: ['    time.sleep(0.2)'] } }], options);
    expect(r.lines).toBeNull();
    expect(who(r.loose)).toEqual(['e:    time.sleep(0.2)']);
  });

  it('keeps an edit that does not apply as unplaced lines, its own lines only', () => {
    const r = replayFile([{ event: ev('e', 0), op: { op: 'edit' as const, path: 'a', edits: [{ oldString: 'ctx\nold', newString: 'ctx\nnew\nmore', replaceAll: false }] } }], { ...options, initial: 'something else\n' });
    expect(who(r.lines)).toEqual(['-:something else']);
    expect(who(r.loose)).toEqual(['e:new', 'e:more']);
  });
});

describe('commandTouches', () => {
  it('takes a command that names the file, or a formatter run on a folder, not a formatter run on another file', async () => {
    const { commandTouches } = await import('../../../src/lib/blame/blame.js');
    expect(commandTouches("sed -i 's/a/b/' src/config.py", 'src/config.py')).toBe(true);
    expect(commandTouches('npx prettier --write src', 'src/a.ts')).toBe(true);
    expect(commandTouches('black .', 'src/a.py')).toBe(true);
    expect(commandTouches('npx prettier --write web/app.js', 'src/config.py')).toBe(false);
    expect(commandTouches('npm test', 'src/a.ts')).toBe(false);
  });
});
