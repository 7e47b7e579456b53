/**
 * Matches the head's added lines to the lines the sessions' calls left. A
 * line is compared by its text with trailing whitespace (and `\r`) dropped;
 * a line the session holds redacted matches the head line its placeholders
 * could stand for. Each session's replayed file is aligned with the head file
 * (a longest common subsequence), so the nearest line in order wins and a
 * squash, a rebase or unrelated commits in between do not matter; lines left
 * over then match an unused line of the same text nearest in relative
 * position, and lines whose place was never known (notebook cells, edits that
 * did not apply) last. A line is one call's, never two: the later call's
 * when several match. Pure.
 */
import { escapeRegExp } from '../escape-regexp.js';
import { PLACEHOLDER_SOURCE } from '../redact/rules.js';
import { alignLines, type AttributedLine, type Claim, type FileReplay } from './replay.js';

/** A line as matching compares it: trailing whitespace and a `\r` dropped. */
export function normalizeLine(text: string): string {
  return text.replace(/\s+$/, '');
}

const PLACEHOLDER = new RegExp(PLACEHOLDER_SOURCE, 'g');
const patterns = new Map<string, RegExp>();

/** Whether a (normalised) line the session holds, with redaction placeholders, could be the head's line. */
export function sameLine(session: string, head: string): boolean {
  if (session === head) return true;
  if (!session.includes('[REDACTED:')) return false;
  let re = patterns.get(session);
  if (!re) {
    const parts = session.split(PLACEHOLDER).map(escapeRegExp);
    re = new RegExp(`^${parts.join('.+?')}$`, 's');
    patterns.set(session, re);
  }
  return re.test(head);
}

/** A notebook's line as JSON holds it (`    "x = 1\n",`) → the source line (`x = 1`); other lines as they are. */
export function notebookSourceLine(line: string): string {
  const m = /^\s*("(?:[^"\\]|\\.)*")\s*,?\s*$/.exec(line);
  if (!m) return line;
  try {
    const s = JSON.parse(m[1]);
    return typeof s === 'string' ? s.replace(/\n$/, '') : line;
  } catch {
    return line;
  }
}

export interface MatchInput {
  /** The head's file, every line. */
  head: string[];
  /** 1-based numbers of the lines the head adds. */
  added: number[];
  /** Each session's replay of the file. */
  replays: FileReplay[];
  /** The file is a notebook: its JSON string lines are compared by the source they hold. */
  notebook?: boolean;
}

/** Each added line's claim (by line number), or none: a person or unknown. */
export function matchLines(input: MatchInput): Map<number, Claim | undefined> {
  const view = input.notebook ? (l: string) => normalizeLine(notebookSourceLine(l)) : normalizeLine;
  const head = input.head.map(view);
  const isAdded = new Set(input.added);
  const claims = new Map<number, Claim | undefined>(input.added.map((n) => [n, undefined]));
  const better = (a: Claim | undefined, b: Claim) => !a || b.rank > a.rank;
  // Unused attributed lines, for the second pass.
  const leftover: Array<{ text: string; by: Claim; pos: number }> = [];
  for (const r of input.replays) {
    if (!r.lines || !r.lines.some((l) => l.by)) continue;
    const lines = r.lines.map((l) => ({ ...l, text: view(l.text) }));
    const used = new Set<number>();
    for (const [i, j] of alignLines<AttributedLine, string>(lines, head, (x, y) => sameLine(x.text, y))) {
      used.add(i);
      const by = lines[i].by;
      if (by && isAdded.has(j + 1) && better(claims.get(j + 1), by)) claims.set(j + 1, by);
    }
    lines.forEach((l, i) => {
      if (l.by && !used.has(i)) leftover.push({ text: l.text, by: l.by, pos: lines.length > 1 ? i / (lines.length - 1) : 0 });
    });
  }
  const open = () => input.added.filter((n) => !claims.get(n));
  const take = (pool: Array<{ text: string; by: Claim; pos?: number }>) => {
    const taken = new Set<number>();
    for (const n of open()) {
      const pos = head.length > 1 ? (n - 1) / (head.length - 1) : 0;
      let best = -1;
      for (let k = 0; k < pool.length; k++) {
        if (taken.has(k) || !sameLine(pool[k].text, head[n - 1])) continue;
        if (best === -1) {
          best = k;
          continue;
        }
        const d = Math.abs((pool[k].pos ?? pos) - pos);
        const bd = Math.abs((pool[best].pos ?? pos) - pos);
        if (d < bd || (d === bd && pool[k].by.rank > pool[best].by.rank)) best = k;
      }
      if (best !== -1) {
        taken.add(best);
        claims.set(n, pool[best].by);
      }
    }
  };
  take(leftover);
  take(input.replays.flatMap((r) => r.loose.map((l) => ({ text: view(l.text), by: l.by! }))).filter((l) => l.by));
  return claims;
}
