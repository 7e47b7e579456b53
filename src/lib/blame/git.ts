/**
 * The git this command needs, as child processes (execFile, no shell): the
 * merge base, the diff, commit dates, files at a revision and their
 * `linguist-generated` attribute. Thin: parsing lives in diff.ts.
 */
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A git command failed: its message is git's own, trimmed. */
export class GitError extends Error {
  override name = 'GitError';
}

/** Runs `git -C repo …args` and resolves with its standard output. */
export async function git(repo: string, args: string[]): Promise<string> {
  try {
    const { stdout } = await run('git', ['-C', repo, '-c', 'core.quotePath=false', ...args], { maxBuffer: 1 << 30, encoding: 'utf8', env: { ...process.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' } });
    return stdout;
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new GitError((e.stderr || e.message).trim().split('\n').slice(0, 3).join(' '));
  }
}

/** The full commit id a revision names; throws a GitError naming it when it names none. */
export async function resolveCommit(repo: string, rev: string): Promise<string> {
  if (rev.startsWith('-')) throw new GitError(`not a revision: ${rev}`);
  return (await git(repo, ['rev-parse', '--verify', '--end-of-options', `${rev}^{commit}`])).trim();
}

/** The commit the pull request's diff starts from: the merge base of base and head, as GitHub compares them. */
export async function mergeBase(repo: string, base: string, head: string): Promise<string> {
  return (await git(repo, ['merge-base', base, head])).trim();
}

/** The raw outputs the diff parser reads: name-status, numstat (both -z) and the -U0 patch, renames found. */
export async function diffOutputs(repo: string, from: string, to: string, paths: string[] = []): Promise<{ nameStatus: string; numstat: string; patch: string }> {
  const tail = ['--end-of-options', from, to, '--', ...paths];
  const common = ['diff', '--no-color', '--no-ext-diff', '-M'];
  const [nameStatus, numstat, patch] = await Promise.all([
    git(repo, [...common, '--name-status', '-z', ...tail]),
    git(repo, [...common, '--numstat', '-z', ...tail]),
    git(repo, [...common, '-U0', '--src-prefix=a/', '--dst-prefix=b/', ...tail]),
  ]);
  return { nameStatus, numstat, patch };
}

/** Author and committer times (ms) of every commit in `from..to`, and of `from` itself. */
export async function commitTimes(repo: string, from: string, to: string): Promise<{ first: number; last: number }> {
  const lines = (await git(repo, ['log', '--format=%at %ct', `${from}..${to}`])).trim().split('\n').filter(Boolean);
  const own = (await git(repo, ['log', '-1', '--format=%at %ct', from])).trim();
  const times = [...lines, own].flatMap((l) => l.split(' ').map((s) => Number(s) * 1000)).filter(Number.isFinite);
  const head = (await git(repo, ['log', '-1', '--format=%ct', to])).trim();
  return { first: Math.min(...times), last: Math.max(Number(head) * 1000, ...times) };
}

/**
 * The contents of files at revisions (`<rev>:<path>`), read through one
 * `git cat-file --batch`; a spec that names nothing is undefined.
 */
export function readBlobs(repo: string, specs: string[]): Promise<Array<string | undefined>> {
  if (!specs.length) return Promise.resolve([]);
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['-C', repo, 'cat-file', '--batch'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new GitError(stderr.trim() || `git cat-file exited with ${code}`));
      const buf = Buffer.concat(chunks);
      const out: Array<string | undefined> = [];
      let at = 0;
      for (let i = 0; i < specs.length; i++) {
        const nl = buf.indexOf(10, at);
        const header = buf.subarray(at, nl).toString('utf8');
        at = nl + 1;
        const m = /^[0-9a-f]+ (\w+) (\d+)$/.exec(header);
        if (!m) {
          out.push(undefined);
          continue;
        }
        const size = Number(m[2]);
        out.push(m[1] === 'blob' ? buf.subarray(at, at + size).toString('utf8') : undefined);
        at += size + 1;
      }
      resolve(out);
    });
    // A path with a newline cannot be asked for on this protocol: it is asked as nothing, and reads as missing.
    child.stdin.end(specs.map((s) => (s.includes('\n') ? 'missing-object' : s)).join('\n') + '\n');
  });
}

/** Paths among `paths` whose `linguist-generated` attribute is set in the head (`.gitattributes`). */
export async function generatedByAttributes(repo: string, paths: string[]): Promise<Set<string>> {
  if (!paths.length) return new Set();
  const out = await git(repo, ['check-attr', '-z', 'linguist-generated', '--', ...paths]);
  const parts = out.split('\0');
  const set = new Set<string>();
  for (let i = 0; i + 2 < parts.length; i += 3) if (parts[i + 2] === 'set' || parts[i + 2] === 'true') set.add(parts[i]);
  return set;
}
