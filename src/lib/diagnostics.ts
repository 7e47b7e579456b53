/**
 * A problem found in the input. Bad input never crashes a build and is never
 * dropped silently: every reader and model stage reports what it could not use
 * as one of these, with the file and (where it applies) the 1-based line.
 */
export interface Diagnostic {
  /** Path of the file, relative to the source root where one is known. */
  file: string;
  /** 1-based line number in the file, or 0 when the problem is not tied to one line. */
  line: number;
  /** Stable machine-readable code, e.g. `not-json`, `parent-cycle`. */
  code: DiagnosticCode;
  /** Human-readable explanation. */
  reason: string;
  /** For `unknown-type`: the entry's `type` as written, so the build log can group them by type. */
  entryType?: string;
  /**
   * The head of the line a problem is about, as read (at most
   * {@link LINE_HEAD_READ} characters). Never stored or printed as it is:
   * {@link redactProblem} redacts it whole and only then quotes its start.
   */
  lineHead?: string;
}

/**
 * How much of a bad line is kept to quote. Redaction reads all of it before
 * the quote is cut, so a secret that starts in the quoted head is found by
 * its whole shape; a head cut first left a token that no longer matched its
 * pattern, and published most of it.
 */
export const LINE_HEAD_READ = 4096;

/** How many characters of a bad line's redacted head a problem quotes. */
const LINE_HEAD_SHOWN = 40;

/**
 * A problem as it may be stored and printed: its file name and reason passed
 * through `redact`, and the head of its line (if it has one) redacted whole,
 * then cut and quoted at the end of the reason.
 */
export function redactProblem(d: Diagnostic, redact: (text: string) => string): Diagnostic {
  const { lineHead, ...rest } = d;
  const reason = redact(rest.reason);
  const quote = lineHead === undefined ? '' : ` — starts with ${JSON.stringify(redact(lineHead).slice(0, LINE_HEAD_SHOWN))}`;
  return { ...rest, file: redact(rest.file), reason: reason + quote };
}

/** Every diagnostic code, in one list: the `DiagnosticCode` union and the store's schema derive from it. */
export const DIAGNOSTIC_CODES = [
  'not-jsonl',
  'not-json',
  'not-object',
  'too-deep',
  'truncated-line',
  'nul-bytes',
  'invalid-utf8',
  'lone-surrogate',
  'unknown-type',
  'missing-uuid',
  'duplicate-uuid',
  'missing-parent',
  'parent-cycle',
  'tool-use-without-result',
  'tool-result-without-tool-use',
  'unmatched-subagent',
  'empty-file',
  'metadata-only',
  'read-error',
  'kept-output-missing',
  'agent-without-session',
  'symlink-skipped',
  'unsafe-name',
  'process-error',
] as const;

export type DiagnosticCode = (typeof DIAGNOSTIC_CODES)[number];

/**
 * What each code means, in a few words: the build log's summary names a kind
 * of problem by its code and this, once for all its occurrences.
 */
export const DIAGNOSTIC_TITLES: Readonly<Record<DiagnosticCode, string>> = {
  'not-jsonl': 'file is not JSONL',
  'not-json': 'line is not JSON',
  'not-object': 'line is not a JSON object',
  'too-deep': 'line nested too deeply to read',
  'truncated-line': 'line cut short',
  'nul-bytes': 'NUL bytes in a line',
  'invalid-utf8': 'bytes that are not UTF-8',
  'lone-surrogate': 'half of a surrogate pair',
  'unknown-type': 'entry of an unknown type that may be conversation; not shown',
  'missing-uuid': 'entry without a uuid',
  'duplicate-uuid': 'uuid used twice',
  'missing-parent': 'parent not in the file; a new root',
  'parent-cycle': 'parents that form a cycle',
  'tool-use-without-result': 'tool call without a result',
  'tool-result-without-tool-use': 'tool result without its call',
  'unmatched-subagent': 'subagent that matches no call; not shown',
  'empty-file': 'empty file; no page',
  'metadata-only': 'metadata only; no page',
  'read-error': 'file that could not be read',
  'kept-output-missing': 'whole output named by a result not found beside the session',
  'agent-without-session': 'agent file whose session is not in the source; not shown',
  'symlink-skipped': 'symbolic link in the source; not followed, not read',
  'unsafe-name': 'file whose name cannot be a session or agent id; not read',
  'process-error': 'session that could not be processed; no page',
};

/** Codes that say why a file got no page (it is skipped), rather than what is wrong in it. */
export const SKIP_CODES: ReadonlySet<DiagnosticCode> = new Set(['empty-file', 'metadata-only']);

/** Problems of the source tree's layout (a link, a name), found by discovery rather than in a session: reported by file. */
export const LAYOUT_CODES: ReadonlySet<DiagnosticCode> = new Set(['symlink-skipped', 'unsafe-name']);

/** Codes that mean a line could not yield an entry at all ("bad lines"). */
export const BAD_LINE_CODES: ReadonlySet<DiagnosticCode> = new Set([
  'not-jsonl',
  'not-json',
  'not-object',
  'too-deep',
  'truncated-line',
  'nul-bytes',
]);

/** Formats a diagnostic the way compilers do, so editors can jump to it. */
export function formatDiagnostic(d: Diagnostic): string {
  return `${d.file}${d.line > 0 ? `:${d.line}` : ''}: ${d.reason} [${d.code}]`;
}
