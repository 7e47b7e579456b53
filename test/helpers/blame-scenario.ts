/**
 * The blame tests' story: a session (with a subagent and a teammate) changes a
 * repository with Write, Edit (one with replace_all, several on one block),
 * a sed and a formatter run through Bash, and a NotebookEdit; then a person
 * edits; the history is squashed into one commit, and (apart) rebased onto a
 * base that moved. `expected` says, per file, who wrote each added line.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { gitIn, initRepo, put, read, SessionRecorder } from './blame-fixture.js';

/** A planted secret: a GitHub token's shape. */
export const SECRET = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';

const NOTEBOOK = `${JSON.stringify({ cells: [{ cell_type: 'markdown', metadata: {}, source: ['# Notes'] }], metadata: {}, nbformat: 4, nbformat_minor: 5 }, null, 1)}\n`;

export interface Scenario {
  repo: string;
  /** Where the session files are, when not committed in the repository. */
  sessionsDir?: string;
  sessionId: string;
  /** Call ids by name (W1, E1, …, B1, N1, S1, T1). */
  calls: Record<string, string>;
  /** Per file, each added line's text → who wrote it: a call name or `person`. */
  expected: Record<string, Array<[text: string, by: string]>>;
}

/**
 * Builds the story in `dir`. `cwd` is where the session says it ran (another
 * machine's path, say); `committed` puts the session in the repository's
 * `.claude-sessions/` (as capture does), else in `dir/sessions`.
 */
export function buildScenario(dir: string, options: { cwd?: string; committed?: boolean; keepOriginal?: boolean; start?: string } = {}): Scenario {
  rmSync(dir, { recursive: true, force: true });
  const repo = join(dir, 'repo');
  initRepo(
    repo,
    {
      'src/retry.py': 'import time\n\n\ndef legacy():\n    return 1\n',
      'src/other.py': 'X = 1\n',
      'README.md': '# Demo\n\nA small library.\n',
      'notes.ipynb': NOTEBOOK,
      'package-lock.json': '{\n  "lockfileVersion": 3\n}\n',
      'docs/old.md': 'Old doc\n\nline two\nline three\nline four\n',
      'web/app.js': "const greeting = 'hi'\nconsole.log(greeting)\n",
    },
    '2026-01-09T09:00:00Z',
  );
  gitIn(repo, ['checkout', '-q', '-b', 'feature']);
  const sessionId = '7d3c1f0e-5b7a-4c2e-9a51-0b6f4d2c8e13';
  const rec = new SessionRecorder({ repo, cwd: options.cwd ?? repo, sessionId, start: options.start ?? '2026-01-10T09:00:00Z' });
  rec.keepOriginal = options.keepOriginal ?? true;
  const c: Record<string, string> = {};
  rec.prompt('Add a retry helper and a config module');
  c.W1 = rec.write('src/retry.py', 'import time\n\n\ndef legacy():\n    return 1\n\n\ndef retry(fn, attempts=3):\n    for i in range(attempts):\n        try:\n            return fn()\n        except Exception:\n            time.sleep(0.1)\n    raise RuntimeError("retry failed")\n').id;
  c.W2 = rec.write('src/config.py', `TIMEOUT = 10\nRETRIES = 3\nAPI_KEY = "${SECRET}"\n\n\ndef timeout():\n    return TIMEOUT\n\n\ndef retries():\n    return RETRIES + TIMEOUT\n`).id;
  c.E1 = rec.edit('src/config.py', 'TIMEOUT', 'TIMEOUT_S', true).id;
  rec.prompt('Make the retry loop back off');
  c.E2 = rec.edit('src/retry.py', '            time.sleep(0.1)', '            time.sleep(0.1 * (i + 1))').id;
  c.E3 = rec.edit('src/retry.py', '        except Exception:\n            time.sleep(0.1 * (i + 1))', '        except Exception as exc:\n            last = exc\n            time.sleep(0.1 * (i + 1))').id;
  c.E4 = rec.edit('src/retry.py', '    raise RuntimeError("retry failed")', '    raise RuntimeError("retry failed") from last').id;
  c.S = rec.agent({ name: 'docstrings', type: 'Explore' }, (r) => {
    c.S1 = r.edit('src/retry.py', 'def retry(fn, attempts=3):\n', 'def retry(fn, attempts=3):\n    """Call fn until it succeeds."""\n').id;
  }).id;
  c.T = rec.agent({ name: 'docs-writer', team: 'core' }, (r) => {
    c.T1 = r.edit('README.md', 'A small library.\n', 'A small library.\n\n## Retry\n\nCall `retry(fn)` to try again.\n').id;
  }).id;
  c.WF = rec.workflow('wr_0001', 'doc-writer', (r) => {
    c.D1 = r.write('docs/guide.md', '# Guide\n\nUse retry() for flaky calls.\n').id;
  }).id;
  rec.prompt('Tidy up, format, and add a notebook example');
  c.B1 = rec.bash("sed -i 's/RETRIES + TIMEOUT_S/TIMEOUT_S + RETRIES/' src/config.py", () => put(repo, 'src/config.py', read(repo, 'src/config.py').replace('RETRIES + TIMEOUT_S', 'TIMEOUT_S + RETRIES'))).id;
  c.E5 = rec.edit('src/config.py', 'RETRIES = 3\n', 'RETRIES = 3\nDEBUG = False\n').id;
  c.B2 = rec.bash('npx prettier --write web/app.js', () => put(repo, 'web/app.js', 'const greeting = "hi";\nconsole.log(greeting);\n')).id;
  rec.read('web/app.js');
  c.N1 = rec.notebookInsert('notes.ipynb', 'import retry\nretry.retry(print)').id;
  rec.prLink(7, 'acme/shop');
  let sessionsDir: string | undefined;
  if (options.committed) rec.save(join(repo, '.claude-sessions'));
  else sessionsDir = rec.save(join(dir, 'sessions')) && join(dir, 'sessions');
  gitIn(repo, ['add', '-A']);
  gitIn(repo, ['commit', '-qm', 'session work'], '2026-01-10T11:00:00Z');
  // A person's edits: a new line, a changed tool line, and files blame only lists.
  put(repo, 'src/retry.py', `# Reviewed by a person.\n${read(repo, 'src/retry.py')}`);
  put(repo, 'src/config.py', read(repo, 'src/config.py').replace('RETRIES = 3', 'RETRIES = 5'));
  put(repo, 'logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 0, 1, 2, 3]));
  put(repo, 'package-lock.json', '{\n  "lockfileVersion": 3,\n  "packages": {}\n}\n');
  gitIn(repo, ['mv', 'docs/old.md', 'docs/new.md']);
  put(repo, 'docs/new.md', 'Old doc\n\nline two\nline three\nline four\nline five\n');
  put(repo, 'dist/bundle.min.js', 'var a=1;\n');
  gitIn(repo, ['add', '-A']);
  gitIn(repo, ['commit', '-qm', 'person edits'], '2026-01-10T12:00:00Z');
  gitIn(repo, ['tag', 'base-old', 'main']);
  // The squash: one commit on the old base with everything.
  gitIn(repo, ['checkout', '-q', '-b', 'squashed', 'main']);
  gitIn(repo, ['merge', '-q', '--squash', 'feature']);
  gitIn(repo, ['commit', '-qm', 'Add retry (#7)'], '2026-01-11T08:00:00Z');
  // The base moves (a change near the session's lines), and the branch is rebased onto it.
  gitIn(repo, ['checkout', '-q', 'main']);
  put(repo, 'README.md', '# Demo library\n\nA small library.\n');
  put(repo, 'src/other.py', 'X = 2\n');
  gitIn(repo, ['commit', '-qam', 'main moves'], '2026-01-10T13:00:00Z');
  gitIn(repo, ['checkout', '-q', '-b', 'rebased', 'feature']);
  gitIn(repo, ['rebase', '-q', 'main'], '2026-01-11T09:00:00Z');
  gitIn(repo, ['checkout', '-q', 'main']);
  return {
    repo,
    sessionsDir,
    sessionId,
    calls: c,
    expected: {
      'src/retry.py': [
        ['# Reviewed by a person.', 'person'],
        ['', 'W1'],
        ['', 'W1'],
        ['def retry(fn, attempts=3):', 'W1'],
        ['    """Call fn until it succeeds."""', 'S1'],
        ['    for i in range(attempts):', 'W1'],
        ['        try:', 'W1'],
        ['            return fn()', 'W1'],
        ['        except Exception as exc:', 'E3'],
        ['            last = exc', 'E3'],
        ['            time.sleep(0.1 * (i + 1))', 'E2'],
        ['    raise RuntimeError("retry failed") from last', 'E4'],
      ],
      'src/config.py': [
        ['TIMEOUT_S = 10', 'E1'],
        ['RETRIES = 5', 'person'],
        ['DEBUG = False', 'E5'],
        [`API_KEY = "${SECRET}"`, 'W2'],
        ['', 'W2'],
        ['', 'W2'],
        ['def timeout():', 'W2'],
        ['    return TIMEOUT_S', 'E1'],
        ['', 'W2'],
        ['', 'W2'],
        ['def retries():', 'W2'],
        ['    return TIMEOUT_S + RETRIES', 'B1'],
      ],
      'README.md': [
        ['', 'T1'],
        ['## Retry', 'T1'],
        ['', 'T1'],
        ['Call `retry(fn)` to try again.', 'T1'],
      ],
      'docs/guide.md': [
        ['# Guide', 'D1'],
        ['', 'D1'],
        ['Use retry() for flaky calls.', 'D1'],
      ],
      'web/app.js': [
        ['const greeting = "hi";', 'B2'],
        ['console.log(greeting);', 'B2'],
      ],
    },
  };
}
