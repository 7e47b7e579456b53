import { describe, expect, it } from 'vitest';
import { parseAddedLines, parseBinaryPaths, parseNameStatus, unquoteGitPath } from '../../../src/lib/blame/diff.js';

describe('the diff parser', () => {
  it('reads name-status with renames and copies', () => {
    const z = ['M', 'src/a.ts', 'R087', 'docs/old.md', 'docs/new.md', 'A', 'new file.txt', 'D', 'gone.txt', 'C100', 'x', 'y', ''].join('\0');
    expect(parseNameStatus(z)).toEqual([
      { path: 'src/a.ts', status: 'modified' },
      { path: 'docs/new.md', oldPath: 'docs/old.md', status: 'renamed', similarity: 87 },
      { path: 'new file.txt', status: 'added' },
      { path: 'gone.txt', status: 'deleted' },
      { path: 'y', oldPath: 'x', status: 'copied', similarity: 100 },
    ]);
  });

  it('finds binary files in numstat, renamed ones too', () => {
    const z = ['3\t1\tsrc/a.ts', '-\t-\tlogo.png', '-\t-\t', 'img/a.png', 'img/b.png', '1\t0\t', 'p', 'q', ''].join('\0');
    expect([...parseBinaryPaths(z)]).toEqual(['logo.png', 'img/b.png']);
  });

  it('numbers added lines in the head, across hunks, and skips removed and marker lines', () => {
    const patch = [
      'diff --git a/src/a.ts b/src/a.ts',
      'index 1..2 100644',
      '--- a/src/a.ts',
      '+++ b/src/a.ts',
      '@@ -1,0 +2,2 @@ ctx',
      '+one',
      '+++ looks like a header',
      '@@ -10 +12 @@',
      '-old',
      '+new',
      '\\ No newline at end of file',
      'diff --git a/gone b/gone',
      'deleted file mode 100644',
      '--- a/gone',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      '-x',
      'diff --git "a/caf\\303\\251 \\"x\\".md" "b/caf\\303\\251 \\"x\\".md"',
      '--- /dev/null',
      '+++ "b/caf\\303\\251 \\"x\\".md"',
      '@@ -0,0 +1 @@',
      '+hello',
    ].join('\n');
    const added = parseAddedLines(patch);
    expect(added.get('src/a.ts')).toEqual([
      { line: 2, text: 'one' },
      { line: 3, text: '++ looks like a header' },
      { line: 12, text: 'new' },
    ]);
    expect(added.has('gone')).toBe(false);
    expect(added.get('café "x".md')).toEqual([{ line: 1, text: 'hello' }]);
  });

  it('unquotes C-quoted paths and leaves plain ones', () => {
    expect(unquoteGitPath('"a\\tb"')).toBe('a\tb');
    expect(unquoteGitPath('plain/path')).toBe('plain/path');
  });
});
