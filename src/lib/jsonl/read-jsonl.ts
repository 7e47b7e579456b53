import { dirname } from 'node:path';
import { LINE_HEAD_READ, type Diagnostic } from '../diagnostics.js';
import { openInside } from '../fs/safe-path.js';
import { MAX_JSON_DEPTH, nestsTooDeep } from './json-depth.js';

/** How many bad lines of a file have their head quoted in their problem (the problems file lists every one). */
const MAX_QUOTED_LINES = 1000;

/** One JSON object read from one line of a JSONL file. */
export interface JsonlRecord {
  /** 1-based line number in the file. */
  line: number;
  value: Record<string, unknown>;
}

export interface JsonlReadResult {
  records: JsonlRecord[];
  diagnostics: Diagnostic[];
  /** Number of lines seen, blank ones included. */
  lineCount: number;
  /** Bytes read from disk. */
  bytes: number;
}

export interface ReadJsonlOptions {
  onRead?: (bytes: number) => void;
  onRecord?: (value: Record<string, unknown>) => void;
}

const CHUNK_SIZE = 1 << 20;
const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const NUL = 0x00;
const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenientDecoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
// A JSON escape of a UTF-16 surrogate; only lines holding one can carry a lone surrogate.
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F][0-9a-fA-F]{2}/;

/**
 * Reads a JSONL file line by line from a stream of chunks, so that a large
 * session is never held as one string next to its parsed form.
 *
 * Survives a UTF-8 BOM, CRLF and mixed line endings, blank lines, non-JSON and
 * non-object lines, NUL padding, a truncated last line, invalid UTF-8 (decoded
 * with U+FFFD and reported) and lone surrogate escapes (made well-formed and
 * reported), and lines nested too deeply to walk. Every line that cannot
 * yield an entry becomes a diagnostic.
 *
 * @param path absolute path to read
 * @param displayName the name used in diagnostics (usually relative to the source root)
 * @param root the source root: the file is read only when it really lies inside it and is no symbolic link
 * @param options `onRead`: told the bytes read so far after each chunk is parsed (progress on a huge file);
 *   `onRecord`: given each object as it is parsed, before the next line is (to change how it is held while nothing else holds it)
 */
export async function readJsonl(path: string, displayName = path, root = dirname(path), options: ReadJsonlOptions = {}): Promise<JsonlReadResult> {
  const { onRead, onRecord } = options;
  const records: JsonlRecord[] = [];
  const diagnostics: Diagnostic[] = [];
  let lineNo = 0;
  let bytes = 0;
  let pending: Buffer[] = [];
  let quoted = 0;

  const handle = await openInside(root, path);
  try {
    const chunk = Buffer.allocUnsafe(CHUNK_SIZE);
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, CHUNK_SIZE, null);
      if (bytesRead === 0) break;
      bytes += bytesRead;
      let start = 0;
      for (;;) {
        const nl = chunk.indexOf(NEWLINE, start);
        if (nl === -1 || nl >= bytesRead) break;
        const piece = chunk.subarray(start, nl);
        const lineBuf = pending.length ? Buffer.concat([...pending, piece]) : piece;
        pending = [];
        lineNo++;
        parseLine(lineBuf, lineNo, false);
        start = nl + 1;
      }
      if (start < bytesRead) pending.push(Buffer.from(chunk.subarray(start, bytesRead)));
      onRead?.(bytes);
    }
    if (pending.length) {
      lineNo++;
      parseLine(Buffer.concat(pending), lineNo, true);
    }
  } finally {
    await handle.close();
  }
  return { records, diagnostics: collapseIfNotJsonl(records, diagnostics, displayName, lineNo), lineCount: lineNo, bytes };

  function report(line: number, code: Diagnostic['code'], reason: string, lineHead?: string): void {
    diagnostics.push({ file: displayName, line, code, reason, ...(lineHead === undefined ? {} : { lineHead }) });
  }

  function parseLine(raw: Buffer, line: number, isLast: boolean): void {
    let buf = raw;
    if (line === 1 && buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) {
      buf = buf.subarray(3);
    }
    if (buf.length && buf[buf.length - 1] === CARRIAGE_RETURN) buf = buf.subarray(0, buf.length - 1);
    if (buf.includes(NUL)) {
      // Crash padding: a writer died mid-line and the file system filled the gap with NULs.
      const stripped = Buffer.from(buf.filter((b) => b !== NUL));
      if (stripped.toString('latin1').trim() === '') {
        report(line, 'nul-bytes', 'line holds only NUL bytes (a crash left padding in the file)');
        return;
      }
      if (tryParse(stripped, line, isLast, true)) return;
      report(line, 'nul-bytes', 'line holds NUL bytes and no readable JSON object');
      return;
    }
    if (isBlank(buf)) return;
    tryParse(buf, line, isLast, false);
  }

  /** Returns true when the line yielded a record or a diagnostic was already written. */
  function tryParse(buf: Buffer, line: number, isLast: boolean, quiet: boolean): boolean {
    let text: string;
    try {
      text = strictDecoder.decode(buf);
    } catch {
      text = lenientDecoder.decode(buf);
      report(line, 'invalid-utf8', 'line is not valid UTF-8; undecodable bytes were replaced with U+FFFD');
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      if (quiet) return false;
      if (isLast && looksTruncated(text)) {
        report(line, 'truncated-line', 'last line is cut off (no closing brace and no final newline)');
      } else {
        // Heads are kept for the first lines only: a large file that is no JSONL at all would otherwise hold 4 KB of each.
        report(line, 'not-json', `not JSON: ${jsonErrorReason(err)}`, ++quoted <= MAX_QUOTED_LINES ? text.slice(0, LINE_HEAD_READ) : undefined);
      }
      return true;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      if (quiet) return false;
      const kind = Array.isArray(value) ? 'a JSON array' : value === null ? 'null' : `a JSON ${typeof value}`;
      report(line, 'not-object', `line is ${kind}, not an object`);
      return true;
    }
    // A line shorter than twice the limit cannot nest deeper than it: most lines are not walked.
    if (nestsTooDeep(text, value)) {
      report(line, 'too-deep', `line nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels; not read`);
      return true;
    }
    if (SURROGATE_ESCAPE.test(text) && makeWellFormed(value as Record<string, unknown>)) {
      report(line, 'lone-surrogate', 'line holds a lone UTF-16 surrogate; it was replaced with U+FFFD');
    }
    onRecord?.(value as Record<string, unknown>);
    records.push({ line, value: value as Record<string, unknown> });
    return true;
  }
}

/**
 * A file in which no line is a JSON object is not a transcript at all (a
 * binary file, a log, random bytes): one diagnostic says so, instead of one
 * or two per line.
 */
function collapseIfNotJsonl(records: JsonlRecord[], diagnostics: Diagnostic[], displayName: string, lineCount: number): Diagnostic[] {
  if (records.length > 0 || diagnostics.length <= 1) return diagnostics;
  const first = diagnostics[0];
  const binary = diagnostics.some((d) => d.code === 'invalid-utf8' || d.code === 'nul-bytes');
  return [
    {
      file: displayName,
      line: 0,
      code: 'not-jsonl',
      reason: `file is not JSONL${binary ? ' (binary or not UTF-8)' : ''}: none of its ${lineCount} lines is a JSON object (first problem, line ${first.line}: ${first.reason.slice(0, 80)})`,
      ...(first.lineHead !== undefined ? { lineHead: first.lineHead } : {}),
    },
  ];
}

/**
 * V8's `JSON.parse` message without the piece of the line it quotes
 * (`Unexpected token 'g', "ghp_4vUCsM"... is not valid JSON`): that piece is
 * cut anywhere, so a secret in it could not be known by its shape. The line's
 * head is quoted instead, after redaction (see `redactProblem`).
 */
export function jsonErrorReason(err: unknown): string {
  const message = (err as Error).message.replace(/(?:^|, )(?:\.\.\.)?"[\s\S]*"(?:\.\.\.)? is not valid JSON$/, '');
  return (message || 'not valid JSON').slice(0, 120);
}

/** A JSON string literal, closed or cut off at the end of the text. */
const STRING_LITERAL = /"((?:[^"\\]|\\[\s\S])*)(?:"|$)/g;

/**
 * The string literals of a line that is not JSON, decoded where they can be
 * (a cut or broken literal is kept as written). A record's strings reach
 * redaction decoded; a bad line's would otherwise be read one escape level
 * deeper (`{\"apiKey\": …}` inside a string), where names and values are
 * not where the rules look for them.
 */
export function stringLiteralsOf(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(STRING_LITERAL)) {
    try {
      out.push(JSON.parse(`"${m[1]}"`) as string);
    } catch {
      out.push(m[1]);
    }
  }
  return out;
}

function isBlank(buf: Buffer): boolean {
  for (const b of buf) if (b !== 0x20 && b !== 0x09 && b !== CARRIAGE_RETURN) return false;
  return true;
}

function looksTruncated(text: string): boolean {
  const t = text.trimStart();
  return t.startsWith('{') || t.startsWith('[');
}

/** Replaces lone surrogates in every string (keys included); returns whether anything changed. */
function makeWellFormed(node: Record<string, unknown> | unknown[]): boolean {
  let changed = false;
  const fix = (s: string): string => {
    if (s.isWellFormed()) return s;
    changed = true;
    return s.toWellFormed();
  };
  const visit = (value: unknown): unknown => {
    if (typeof value === 'string') return fix(value);
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) value[i] = visit(value[i]);
      return value;
    }
    if (value && typeof value === 'object') {
      const obj = value as Record<string, unknown>;
      for (const key of Object.keys(obj)) {
        const fixedKey = fix(key);
        const v = visit(obj[key]);
        if (fixedKey !== key) {
          delete obj[key];
          obj[fixedKey] = v;
        } else obj[key] = v;
      }
    }
    return value;
  };
  visit(node);
  return changed;
}
