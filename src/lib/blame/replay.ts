/**
 * Replays one session's edits of one file, in order, to know which call left
 * each line. The state is the file's lines, each with the call that last
 * changed it (or none: it was there before, or a person wrote it). Edits are
 * applied from the tool inputs (`old_string`/`new_string`/`replace_all`, a
 * Write's content) the way the tools apply them, so the replay needs no
 * `originalFile`; when a call does carry the file as it was (`originalFile`,
 * `originalFileContents`) or a Read saw the whole file, the state is checked
 * against it, and what changed in between goes to the Bash command that ran in
 * between and names the file or formats code, else to no one. Pure.
 */
import { diffArrays } from 'diff';
import type { CallRef, FileOp, SessionEvent } from './calls.js';
import { pieceOffsets } from '../piece-offsets.js';

/** Who changed a line: a tool call, or a command (a Bash call: a formatter, `sed`). */
export interface Claim {
  call: CallRef;
  kind: 'tool' | 'command';
  /** The session the call belongs to (index into the sessions blamed). */
  session: number;
  /** Global order: a line two calls wrote is the later call's. */
  rank: number;
}

export interface AttributedLine {
  text: string;
  by?: Claim;
}

/** What the replay of one file by one session leaves. */
export interface FileReplay {
  /** The file as the session last knew it, line by line; null when the session never knew all of it. */
  lines: AttributedLine[] | null;
  /** Lines a call wrote whose place in the file is not known (a notebook cell, an edit that did not apply to the state). */
  loose: AttributedLine[];
}

/** A file's text as lines: `\n`-split, without the empty string after a final newline; `\r` kept (matching drops it). */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * Index pairs of equal items of `a` and `b` (a longest common subsequence, by
 * `eq`). Used to carry each line's attribution from one version to the next.
 */
export function alignLines<T, U>(a: T[], b: U[], eq: (x: T, y: U) => boolean): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  // Common head and tail first: most versions differ in a few lines, and the diff then only sees those.
  let start = 0;
  while (start < a.length && start < b.length && eq(a[start], b[start])) {
    pairs.push([start, start]);
    start++;
  }
  let endA = a.length;
  let endB = b.length;
  const tail: Array<[number, number]> = [];
  while (endA > start && endB > start && eq(a[endA - 1], b[endB - 1])) {
    tail.push([--endA, --endB]);
  }
  if (endA > start && endB > start) {
    // Indices stand in for the items, so the comparator can compare an a-item with a b-item.
    const ia = Array.from({ length: endA - start }, (_, i) => i + start);
    const ib = Array.from({ length: endB - start }, (_, i) => -(i + start) - 1);
    const changes = diffArrays<number>(ia, ib, { comparator: (x, y) => (x >= 0 && y < 0 ? eq(a[x], b[-y - 1]) : x < 0 && y >= 0 ? eq(a[y], b[-x - 1]) : x === y) });
    let i = start;
    let j = start;
    for (const c of changes) {
      const n = c.count ?? c.value.length;
      if (c.added) j += n;
      else if (c.removed) i += n;
      else {
        for (let k = 0; k < n; k++) pairs.push([i + k, j + k]);
        i += n;
        j += n;
      }
    }
  }
  return pairs.concat(tail.reverse());
}

/** The new lines, each keeping the attribution of the old line it equals (in order), the others `by`. */
function carry(old: AttributedLine[], next: string[], by: Claim | undefined): AttributedLine[] {
  const out: AttributedLine[] = next.map((text) => ({ text, by }));
  for (const [i, j] of alignLines(old, next, (x, y) => x.text === y)) out[j] = old[i];
  return out;
}

/**
 * Applies one string edit the way Edit does (the first occurrence, or every
 * one with `replace_all`) to attributed lines. The lines the edit touches are
 * rebuilt; of those, the ones the edit left as they were keep their claim.
 * Undefined when `old_string` is not in the text (the state has drifted).
 */
export function applyEdit(lines: AttributedLine[], oldString: string, newString: string, replaceAll: boolean, by: Claim): AttributedLine[] | undefined {
  // Every line with its newline: an old_string that ends a line finds it (files are taken to end with one).
  const text = lines.map((l) => `${l.text}\n`).join('');
  if (oldString === '') return text === '' ? splitLines(newString).map((t) => ({ text: t, by })) : undefined;
  const hits: number[] = [];
  for (let at = text.indexOf(oldString); at !== -1; at = replaceAll ? text.indexOf(oldString, at + oldString.length) : -1) hits.push(at);
  if (!hits.length) return undefined;
  const { starts, pieceAt: lineAt } = pieceOffsets(lines.map((l) => l.text.length), 1);
  let out = lines;
  // Last hit first: the offsets of earlier hits stay valid.
  for (const at of hits.reverse()) {
    const first = lineAt(at);
    let last = lineAt(at + oldString.length - 1);
    const region = out.slice(first, last + 1);
    const regionText = region.map((l) => `${l.text}\n`).join('');
    const rel = at - starts[first];
    let replaced = regionText.slice(0, rel) + newString + regionText.slice(rel + oldString.length);
    // The edit took a line's newline and gave none back: the line after joins this one.
    if (replaced !== '' && !replaced.endsWith('\n') && last + 1 < out.length) {
      last++;
      region.push(out[last]);
      replaced += `${out[last].text}\n`;
    }
    out = [...out.slice(0, first), ...carry(region, splitLines(replaced), by), ...out.slice(last + 1)];
  }
  return out;
}

/** The text lines of a notebook cell source or a string, for the loose list. */
function writtenLines(text: string): string[] {
  return splitLines(text);
}

/** Lines `b` has that `a` has not (a line diff), for an edit that cannot be placed. */
function addedBy(a: string, b: string): string[] {
  const al = splitLines(a);
  const bl = splitLines(b);
  const kept = new Set(alignLines(al, bl, (x, y) => x === y).map(([, j]) => j));
  return bl.filter((_, j) => !kept.has(j));
}

export interface ReplayOptions {
  /** The session (index) every claim names. */
  session: number;
  /** The file as the base had it (undefined: the file is new, or not known). */
  initial?: string;
  /** Rank of an event: later calls rank higher across sessions. */
  rankOf: (e: SessionEvent) => number;
  /** Whether a Bash command could have changed this file (names it, or formats code). */
  commandTouches: (command: string) => boolean;
}

/**
 * Replays the ops on one file of one session's events (already in order). The
 * Bash events among them are the commands that ran; one that `commandTouches`
 * the file and ran after its last edit takes the lines that changed before the
 * next snapshot.
 */
export function replayFile(events: Array<{ event: SessionEvent; op?: FileOp }>, options: ReplayOptions): FileReplay {
  let lines: AttributedLine[] | null = options.initial !== undefined ? splitLines(options.initial).map((text) => ({ text })) : null;
  const loose: AttributedLine[] = [];
  let command: Claim | undefined;
  const claimOf = (e: SessionEvent, kind: Claim['kind']): Claim => ({ call: e.call, kind, session: options.session, rank: options.rankOf(e) });
  /** The file as a call saw it: what differs from the state was changed by the command in between, or by no tool. */
  const observe = (content: string) => {
    const seen = splitLines(content);
    lines = lines === null ? seen.map((text) => ({ text })) : carry(lines, seen, command);
    command = undefined;
  };
  for (const { event, op } of events) {
    if (event.bash) {
      if (event.call.command !== undefined && options.commandTouches(event.call.command)) command = claimOf(event, 'command');
      continue;
    }
    if (!op) continue;
    const by = claimOf(event, 'tool');
    switch (op.op) {
      case 'observe':
        observe(op.content);
        break;
      case 'write':
        lines = lines === null ? splitLines(op.content).map((text) => ({ text, by })) : carry(lines, splitLines(op.content), by);
        command = undefined;
        break;
      case 'notebook':
        for (const text of writtenLines(op.source)) loose.push({ text, by });
        break;
      case 'edit': {
        if (op.original !== undefined) observe(op.original);
        else if (command && lines !== null) {
          // A command ran since the last edit and no snapshot says what it did: lines an edit finds changed are unknown.
          command = undefined;
        }
        let unplaced = false;
        for (const e of op.edits) {
          const next = lines === null ? undefined : applyEdit(lines, e.oldString, e.newString, e.replaceAll, by);
          if (next) lines = next;
          else if (op.patchAdded) unplaced = true;
          else {
            // The edit does not apply to the state as known (it was never known, or it drifted): its new lines are kept unplaced.
            for (const text of addedBy(e.oldString, e.newString)) loose.push({ text, by });
          }
        }
        // The patch's `+` lines are whole lines, where an old_string/new_string may be part of one.
        if (unplaced) for (const text of op.patchAdded!) loose.push({ text, by });
        break;
      }
    }
  }
  return { lines, loose };
}
