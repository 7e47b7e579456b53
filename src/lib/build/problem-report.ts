import { DIAGNOSTIC_CODES, DIAGNOSTIC_TITLES, formatDiagnostic, LAYOUT_CODES, SKIP_CODES, type Diagnostic, type DiagnosticCode } from '../diagnostics.js';

/** The problems of one source: a session with its agent files, a skipped file, an agent file without its session. */
export interface SourceProblems {
  /** Orders the report, so it is the same whatever order sessions finished in: the file's path relative to the source root. */
  key: string;
  /** As stored (redacted, paths relative to the source root): what the problems file and the session page show. */
  items: Diagnostic[];
  /** How the log names a problem's file: a path from the working folder that an editor can open. */
  shownFile: (d: Diagnostic) => string;
  /** Unchanged since the last build, which reported these already. */
  known: boolean;
}

export interface ReportLine {
  level: 'info' | 'warn';
  text: string;
}

/** Places quoted for each kind of problem. */
export const PLACES_QUOTED = 3;
/** Unknown entry types named one per line; the others share one line. */
const ENTRY_TYPES_NAMED = 5;
/** An unknown type is shown at most this long: it is whatever a file wrote. */
const TYPE_SHOWN = 40;

/** One kind of problem over the whole build: a code, or for `unknown-type` a code and an entry type. */
interface Kind {
  code: DiagnosticCode;
  entryType?: string;
  count: number;
  sources: Set<string>;
  /** First places, `file:line`, in source order. */
  places: string[];
  /** Files it was seen in, as the log names them. */
  files: Set<string>;
}

/**
 * Gathers every problem of a build and says it in a bounded number of lines,
 * whatever the archive's size: the problems new to this build by kind (how
 * many, in how many sessions, the first places as `file:line`; an unknown
 * entry type once per type, with the files it was seen in), then one line for
 * the problems of unchanged sessions, which an earlier build reported. Every
 * problem, one per line, goes to the problems file (`fileText`).
 */
export function createProblemReport() {
  const sources: SourceProblems[] = [];
  const sorted = () => [...sources].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));

  return {
    add(source: SourceProblems): void {
      if (source.items.length) sources.push(source);
    },

    /** The summary for the log; `problemsFile` is how the log names the problems file. */
    summary(problemsFile: string): ReportLine[] {
      const fresh = sorted().filter((s) => !s.known);
      const known = sources.filter((s) => s.known);
      const lines: ReportLine[] = [];
      const kinds = kindsOf(fresh);
      if (kinds.length) {
        const total = kinds.reduce((n, k) => n + k.count, 0);
        lines.push({ level: 'warn', text: `${plural(total, 'problem')} ${where(fresh)}, by kind (every one is in ${problemsFile}; a published session's are on its page too):` });
        lines.push(...kindLines(kinds).map((text) => ({ level: 'warn' as const, text: `  ${text}` })));
      }
      const knownCount = known.reduce((n, s) => n + problemsOf(s).length, 0);
      if (knownCount) lines.push({ level: 'info', text: `${plural(knownCount, 'known problem')} ${where(known)}, unchanged since the last build: see ${problemsFile}` });
      return lines;
    },

    /** Every problem, one per line as compilers print them, in source order: the problems file. */
    fileText(): string {
      return sorted()
        .flatMap((s) => s.items.map((d) => `${printable(formatDiagnostic(d))}\n`))
        .join('');
    },

    /** Every problem on its own line, named as the log names files (the verbose log). */
    everyProblem(): ReportLine[] {
      return sorted().flatMap((s) => s.items.map((d) => ({ level: SKIP_CODES.has(d.code) ? ('info' as const) : ('warn' as const), text: printable(formatDiagnostic({ ...d, file: s.shownFile(d) })) })));
    },
  };
}

/** The problems of a source; why a file got no page is said by the skipped-files line instead. */
function problemsOf(source: SourceProblems): Diagnostic[] {
  return source.items.filter((d) => !SKIP_CODES.has(d.code));
}

/** The kinds of problems of these sources, in the order of DIAGNOSTIC_CODES, unknown types by how often they occur. */
function kindsOf(sources: SourceProblems[]): Kind[] {
  const kinds = new Map<string, Kind>();
  for (const s of sources) {
    for (const d of problemsOf(s)) {
      const entryType = d.code === 'unknown-type' ? (d.entryType ?? '') : undefined;
      const key = entryType === undefined ? d.code : `${d.code}\u0000${entryType}`;
      let kind = kinds.get(key);
      if (!kind) kinds.set(key, (kind = { code: d.code, entryType, count: 0, sources: new Set(), places: [], files: new Set() }));
      const file = s.shownFile(d);
      kind.count++;
      kind.sources.add(s.key);
      kind.files.add(file);
      if (kind.places.length < PLACES_QUOTED) kind.places.push(printable(d.line > 0 ? `${file}:${d.line}` : file));
    }
  }
  const order = (code: DiagnosticCode) => DIAGNOSTIC_CODES.indexOf(code);
  return [...kinds.values()].sort((a, b) => order(a.code) - order(b.code) || b.count - a.count || ((a.entryType ?? '') < (b.entryType ?? '') ? -1 : 1));
}

/** One line per kind; unknown entry types one line per type (the first few), the rest on one line. */
function kindLines(kinds: Kind[]): string[] {
  const lines: string[] = [];
  const unknown = kinds.filter((k) => k.code === 'unknown-type');
  for (const k of kinds) {
    if (k.code !== 'unknown-type') lines.push(`${k.code}: ${k.count} in ${plural(k.sources.size, unitOf(k.code))} (${DIAGNOSTIC_TITLES[k.code]}): ${listed(k.places, k.count)}`);
    else if (unknown.indexOf(k) < ENTRY_TYPES_NAMED) {
      lines.push(`unknown-type ${shownType(k.entryType!)}: ${plural(k.count, 'line')} that may be conversation, not shown, in ${plural(k.files.size, 'file')}: ${listed([...k.files].slice(0, PLACES_QUOTED).map(printable), k.files.size)}`);
    }
  }
  const rest = unknown.slice(ENTRY_TYPES_NAMED);
  if (rest.length) {
    const count = rest.reduce((n, k) => n + k.count, 0);
    const names = rest.slice(0, 10).map((k) => `${shownType(k.entryType!)} (${k.count})`);
    lines.push(`unknown-type: ${plural(rest.length, 'more type')} that may be conversation (${plural(count, 'line')}): ${names.join(', ')}${rest.length > names.length ? ', …' : ''}`);
  }
  return lines;
}

/** What a kind is counted in: a session (with its agent files), or for agent files without one, the file. */
function unitOf(code: DiagnosticCode): string {
  return code === 'agent-without-session' ? 'agent file' : LAYOUT_CODES.has(code) ? 'file' : 'session';
}

/** `in 40 sessions`, `in 40 sessions and 4 agent files`: the sources that have problems. */
function where(sources: SourceProblems[]): string {
  const counts = new Map<string, number>();
  for (const s of sources) {
    const problems = problemsOf(s);
    if (!problems.length) continue;
    const unit = problems.every((d) => d.code === 'agent-without-session') ? 'agent file' : problems.every((d) => LAYOUT_CODES.has(d.code)) ? 'file' : 'session';
    counts.set(unit, (counts.get(unit) ?? 0) + 1);
  }
  return `in ${[...counts].map(([unit, n]) => plural(n, unit)).join(' and ')}`;
}

/**
 * The first few of a list and how many more there are: `a, b, c` or
 * `a, b, c and 17 more`. Exported: the log lists skipped files the same way.
 */
export function listed(first: string[], total: number): string {
  const shown = first.slice(0, PLACES_QUOTED);
  return `${shown.join(', ')}${total > shown.length ? ` and ${total - shown.length} more` : ''}`;
}

/** `1 file`, `3 files`. */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** An unknown type as the log shows it: quoted and escaped (it is whatever a file wrote), and cut short. */
function shownType(type: string): string {
  return JSON.stringify(type.length > TYPE_SHOWN ? `${type.slice(0, TYPE_SHOWN)}…` : type);
}

/**
 * A line as it may be printed: control characters (a terminal escape, a
 * carriage return, a newline quoted from a bad line) are written as `\uXXXX`,
 * so a transcript can neither redraw the terminal nor add lines to the log or
 * the problems file.
 */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
