/**
 * A tiny in-memory project, so that the Read, Edit and Write results of a
 * sample agree with each other: a Read after an Edit shows the edited file,
 * and an Edit's `originalFile` is what the last Write left.
 */

/** The files of one sample project, keyed by path relative to its `cwd`. */
export interface Project {
  readonly cwd: string;
  /** The absolute path of `rel`, as tool inputs carry it. */
  abs(rel: string): string;
  /** The text of `rel`; throws when the project has no such file. */
  read(rel: string): string;
  write(rel: string, content: string): void;
  has(rel: string): boolean;
}

/** A project rooted at `cwd` (an absolute path) holding `files`; writes change it in place. */
export function createProject(cwd: string, files: Record<string, string>): Project {
  const store = new Map(Object.entries(files));
  return {
    cwd,
    abs: (rel) => `${cwd}/${rel}`,
    read: (rel) => {
      const text = store.get(rel);
      if (text === undefined) throw new Error(`sample project has no ${rel}`);
      return text;
    },
    write: (rel, content) => void store.set(rel, content),
    has: (rel) => store.has(rel),
  };
}

/** 1-based number of the first line of `text` that contains `needle`. */
export function lineOf(text: string, needle: string): number {
  const index = text.split('\n').findIndex((line) => line.includes(needle));
  if (index < 0) throw new Error(`no line contains ${JSON.stringify(needle)}`);
  return index + 1;
}

/** `grep -n`-style lines (`path:line:text`) for every line matching `pattern`. */
export function grepLines(project: Project, rels: string[], pattern: RegExp): string[] {
  const out: string[] = [];
  for (const rel of rels) {
    project
      .read(rel)
      .split('\n')
      .forEach((line, i) => {
        if (pattern.test(line)) out.push(`${rel}:${i + 1}:${line}`);
      });
  }
  return out;
}

/** Joins lines with `\n`: multi-line sample text reads one line per argument. */
export const lines = (...parts: string[]): string => parts.join('\n');
