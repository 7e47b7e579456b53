/**
 * The base and head commits of pull request N in a checkout, as far as the
 * checkout shows them: GitHub's `refs/pull/N/head` (compared with the default
 * branch), a merge commit "Merge pull request #N …" (its two parents), or a
 * squash commit whose subject ends in "(#N)" (it and its parent). Undefined
 * when the checkout holds none of them.
 */
import { git } from './git.js';

export interface PullRequestCommits {
  base: string;
  head: string;
  /** How they were found, for the page to say. */
  how: 'pull-ref' | 'merge-commit' | 'squash-commit';
}

async function verify(repo: string, rev: string): Promise<string | undefined> {
  try {
    return (await git(repo, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`])).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** The commits of pull request `number` in `repo`, or undefined. */
export async function pullRequestCommits(repo: string, number: number): Promise<PullRequestCommits | undefined> {
  const n = Math.trunc(number);
  const ref = await verify(repo, `refs/pull/${n}/head`);
  if (ref) {
    const main = (await verify(repo, 'refs/remotes/origin/HEAD')) ?? (await verify(repo, 'HEAD'));
    if (main) return { base: main, head: ref, how: 'pull-ref' };
  }
  let log: string;
  try {
    log = await git(repo, ['log', '--first-parent', '--format=%H%x00%P%x00%s', '-n', '5000', 'HEAD']);
  } catch {
    return undefined;
  }
  for (const line of log.split('\n')) {
    const [hash, parents = '', subject = ''] = line.split('\0');
    const p = parents.split(' ').filter(Boolean);
    if (p.length === 2 && new RegExp(`^Merge pull request #${n}\\b`).test(subject)) return { base: p[0], head: p[1], how: 'merge-commit' };
    if (p.length === 1 && new RegExp(`\\(#${n}\\)\\s*$`).test(subject)) return { base: p[0], head: hash, how: 'squash-commit' };
  }
  return undefined;
}
