/**
 * The pull request's diff, parsed: which files it changes and how (`git diff
 * --name-status -z`), which are binary (`--numstat -z`), and the lines each
 * adds with their line numbers in the head (`-U0`). Pure: git's output in,
 * data out; src/lib-style code with no I/O (src/lib/blame/git.ts runs git).
 */

/** A file the pull request changes, as git names it. */
export interface ChangedFile {
  /** The path in the head (the new path of a rename or copy). */
  path: string;
  /** A rename's or copy's path in the base. */
  oldPath?: string;
  status: 'added' | 'modified' | 'deleted' | 'renamed' | 'copied' | 'type-changed' | 'other';
  /** Similarity of a rename or copy, 0–100. */
  similarity?: number;
}

/** A line the head adds: its 1-based number in the head version and its text. */
export interface AddedLine {
  line: number;
  text: string;
}

const STATUS: Record<string, ChangedFile['status']> = { A: 'added', M: 'modified', D: 'deleted', R: 'renamed', C: 'copied', T: 'type-changed' };

/** `git diff --name-status -z [-M]` output → the changed files, in git's order. */
export function parseNameStatus(z: string): ChangedFile[] {
  const parts = z.split('\0');
  const out: ChangedFile[] = [];
  for (let i = 0; i < parts.length; ) {
    const code = parts[i++];
    if (!code) continue;
    const status = STATUS[code[0]] ?? 'other';
    const similarity = code.length > 1 ? Number(code.slice(1)) : undefined;
    if (status === 'renamed' || status === 'copied') {
      const oldPath = parts[i++];
      const path = parts[i++];
      if (path !== undefined) out.push({ path, oldPath, status, ...(Number.isFinite(similarity) ? { similarity } : {}) });
    } else {
      const path = parts[i++];
      if (path !== undefined) out.push({ path, status });
    }
  }
  return out;
}

/** `git diff --numstat -z [-M]` output → the paths git counts as binary (`-\t-`). */
export function parseBinaryPaths(z: string): Set<string> {
  const out = new Set<string>();
  const parts = z.split('\0');
  for (let i = 0; i < parts.length; i++) {
    const rec = parts[i];
    if (!rec) continue;
    const m = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(rec);
    if (!m) continue;
    // A rename's record has an empty path; the old and new paths follow as their own fields.
    let path = m[3];
    if (path === '') {
      i += 2;
      path = parts[i] ?? '';
    }
    if (m[1] === '-' && m[2] === '-') out.add(path);
  }
  return out;
}

/** A C-quoted path as git writes it for unusual names (`"a\tb"`, octal escapes for UTF-8 bytes) → the path. */
export function unquoteGitPath(s: string): string {
  if (!s.startsWith('"') || !s.endsWith('"')) return s;
  const bytes: number[] = [];
  const body = s.slice(1, -1);
  const simple: Record<string, number> = { n: 10, t: 9, r: 13, b: 8, f: 12, a: 7, v: 11, '"': 34, '\\': 92 };
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== '\\') {
      bytes.push(...Buffer.from(c, 'utf8'));
      continue;
    }
    const next = body[++i];
    if (/[0-7]/.test(next)) {
      bytes.push(Number.parseInt(body.slice(i, i + 3), 8));
      i += 2;
    } else bytes.push(simple[next] ?? next.charCodeAt(0));
  }
  return Buffer.from(bytes).toString('utf8');
}

/**
 * `git diff -U0` output → the lines each file adds, by its head path (the
 * `+++ b/` line; a deleted file has none and is skipped). Hunks give the head's
 * line numbers; `\ No newline at end of file` is not a line.
 */
export function parseAddedLines(diff: string): Map<string, AddedLine[]> {
  const out = new Map<string, AddedLine[]>();
  let current: AddedLine[] | undefined;
  let next = 0;
  let inHunk = false;
  for (const raw of diff.split('\n')) {
    if (raw.startsWith('diff --git ')) {
      current = undefined;
      inHunk = false;
      continue;
    }
    if (!inHunk && raw.startsWith('+++ ')) {
      const name = unquoteGitPath(raw.slice(4));
      if (name === '/dev/null') current = undefined;
      else {
        const path = name.replace(/^b\//, '');
        current = out.get(path) ?? [];
        out.set(path, current);
      }
      continue;
    }
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(raw);
    if (hunk) {
      next = Number(hunk[1]);
      inHunk = true;
      continue;
    }
    if (!inHunk || !current) continue;
    if (raw.startsWith('+')) current.push({ line: next++, text: raw.slice(1) });
    else if (raw.startsWith(' ')) next++;
  }
  return out;
}
