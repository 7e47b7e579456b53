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
}

/** Every diagnostic code, in one list: the `DiagnosticCode` union and the store's schema derive from it. */
export const DIAGNOSTIC_CODES = [
  'not-jsonl',
  'not-json',
  'not-object',
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
] as const;

export type DiagnosticCode = (typeof DIAGNOSTIC_CODES)[number];

/** Codes that mean a line could not yield an entry at all ("bad lines"). */
export const BAD_LINE_CODES: ReadonlySet<DiagnosticCode> = new Set([
  'not-jsonl',
  'not-json',
  'not-object',
  'truncated-line',
  'nul-bytes',
]);

/** Formats a diagnostic the way compilers do, so editors can jump to it. */
export function formatDiagnostic(d: Diagnostic): string {
  return `${d.file}${d.line > 0 ? `:${d.line}` : ''}: ${d.reason} [${d.code}]`;
}
