/**
 * The audit's own detector: a second opinion that shares no rule with the
 * redactor. The redactor knows secrets by format and by word lists; this one
 * knows them by how random they are (Shannon entropy, character classes, how
 * often the case changes), so it finds what no rule was written for:
 *
 * - `entropy-assignment`: a value given to a suspicious name (any name that
 *   contains secret, token, pass, pwd, key, auth, cred, sig, salt, cookie,
 *   session, bearer, private) that is random enough, or for password names,
 *   anything that is not code or a placeholder;
 * - `random-token`: a long run of token characters anywhere that looks random
 *   (three character classes, high entropy, frequent case changes);
 * - `encoded-credential`: a base64 run whose decoded text holds a credential
 *   word, a private key or `user:password`.
 *
 * Used by `audit --strict` on the built site and by `pr-comment` before
 * posting, next to the redaction rules (`auditText`).
 */
import { scanText, type ScanFinding, type ScanOptions } from '../../src/lib/redact/scan.js';

export type SuspectKind = 'entropy-assignment' | 'random-token' | 'encoded-credential';

export interface Suspect {
  kind: SuspectKind;
  /** The suspicious value (kept in memory only: print {@link maskValue} of it). */
  value: string;
  index: number;
}

/** Shannon entropy in bits per character. */
export function shannon(s: string): number {
  if (!s.length) return 0;
  const counts = new Map<string, number>();
  for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

/** How many of lower, upper, digit, other a string uses. */
function classes(s: string): number {
  return +/[a-z]/.test(s) + +/[A-Z]/.test(s) + +/[0-9]/.test(s) + +/[^A-Za-z0-9]/.test(s);
}

/** Share of adjacent letter pairs whose case differs: random mixed case changes often, camelCase seldom. */
function caseChangeRate(s: string): number {
  let letters = 0;
  let changes = 0;
  let prev = 0; // 1 lower, 2 upper
  for (const c of s) {
    const k = c >= 'a' && c <= 'z' ? 1 : c >= 'A' && c <= 'Z' ? 2 : 0;
    if (!k) continue;
    if (prev && k !== prev) changes++;
    prev = k;
    letters++;
  }
  return letters > 1 ? changes / (letters - 1) : 0;
}

/**
 * Share of characters in word-like runs of four or more lower-case letters:
 * words (`HuggingFace`, `components`) have many, random tokens few. A run
 * counts only when it reads like a word: about a third vowels or more and no
 * four consonants in a row. Counting every run called one random 40-character
 * token in 60 a word (`…ktuzQ…intdyfqb…`) and let it through.
 */
function wordShare(s: string): number {
  let inWords = 0;
  for (const m of s.matchAll(/[a-z]{4,}/g)) if (wordLike(m[0])) inWords += m[0].length;
  return inWords / s.length;
}

function wordLike(run: string): boolean {
  const vowels = run.match(/[aeiouy]/g)?.length ?? 0;
  return vowels / run.length >= 0.3 && !/[^aeiouy]{4}/.test(run);
}

/** Share of characters that are digits. */
function digitShare(s: string): number {
  let d = 0;
  for (const c of s) if (c >= '0' && c <= '9') d++;
  return d / s.length;
}

/** Written where a secret would be, or written by the redactor: never a finding. */
function isPlaceholder(v: string): boolean {
  return (
    /\[REDACTED:/.test(v) ||
    /^(?:\$\{?|%|\{\{|<|\*|•|x{3,}|X{3,})/.test(v) ||
    /^(.)\1+$/.test(v) ||
    /^(?:your|my|example|placeholder|changeme|dummy|fake|sample|redacted|test|none|null|undefined|true|false)(?:[_-]|$)/i.test(v)
  );
}

/**
 * Identifiers the transcript format itself is full of: message, tool-call and
 * request ids, uuids, and the signatures of thinking blocks (base64 protobuf
 * that always opens `E…CkYI`): random, public, and the model's, not the user's.
 */
const KNOWN_IDS = /^E[A-Za-z0-9+/]{3}C[a-z][A-Za-z]I|^(?:[a-z]+_)?(?:msg|toolu|srvtoolu|req|call|chatcmpl|file|batch|msgbatch|run|thread|asst|vs|ftjob|resp|cache|evt|ch|pi|cus|sub|in|price|prod)[_-]|^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a token is random enough to be a key: the core test of `random-token`. */
export function looksRandom(v: string, minLength = 24): boolean {
  if (v.length < minLength || isPlaceholder(v) || KNOWN_IDS.test(v)) return false;
  // Hashes are random but public: hex of any case, and digests with their algorithm.
  if (/^[0-9a-f]+$/i.test(v) || /^(?:sha\d+|md5)[-:~=]/i.test(v)) return false;
  // A word-like prefix and a long hex body (`dop_v1_…`, `key-…`, `sntryu_…`): a token; a bare hex string is a hash.
  if (/^[A-Za-z][A-Za-z0-9]{1,12}[_.-](?:[A-Za-z0-9]{1,4}[_-])?[0-9a-f]{32,}$/.test(v) || /^[0-9a-f]{32}-us\d{1,2}$/.test(v)) return true;
  if (!/[a-z]/.test(v) || !/[A-Z]/.test(v) || !/[0-9]/.test(v)) return false;
  const core = v.replace(/^[A-Za-z]{1,10}[_-]/, '');
  if (KNOWN_IDS.test(core) || wordShare(core) >= 0.3) return false;
  return shannon(core) >= Math.min(4.2, Math.log2(core.length) - 0.6) && caseChangeRate(core) >= 0.22 && digitShare(core) >= 0.04;
}

/** Suspicious words in a name (substrings: `DBPASS`, `xAuthKey`, `sig`). */
const SUSPICIOUS_NAME = /secret|token|pass|pwd|key|auth|cred|sig|salt|cookie|session|bearer|private/i;
/** A name, its separator and a value: `NAME=v`, `"name": "v"`, `name: v`, `--name v`, `name v` after a flag. */
const ASSIGNMENT = /(?<![A-Za-z0-9_])(-{0,2}[A-Za-z_][A-Za-z0-9_.-]{0,62})(?:\\?["'])?[ \t]{0,3}(?:=>|:=|=|:|[ \t](?=[^\s=:]))[ \t]{0,3}(?:\\{0,3}["'`])?([^\s"'`<>,;&\\(){}[\]]{6,512})/g;

/** Values of password names are random-ish by intent, not by construction: anything not code or a word of the format. */
function passwordLike(v: string): boolean {
  if (v.length < 8 || isPlaceholder(v)) return false;
  if (/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(v)) return false; // a property path
  if (/[a-z][A-Z]/.test(v) && !/\d/.test(v)) return false; // camelCase identifier
  if (/^[A-Z_]+$/.test(v) || /^[a-z]+(?:_[a-z]+)+$/.test(v)) return false; // a constant's or variable's name
  return shannon(v) >= 2.8;
}

/** Names that contain a suspicious word and are still about something else. */
const NOT_SUSPICIOUS = /tokeniz|passage|passeng|bypass|compass|author|keyboard|keyword|monkey|hockey|turkey|keyframe|sessions?_?id|session_?(?:start|end)|signal|signature_?(?:help|type)|design|assign|sign(?:ed|up|out)|sign_?in(?!g)|sigma|sigterm|sigint|sigkill/i;

/** Finds values given to suspicious names that the entropy test calls secrets. */
function assignmentSuspects(text: string, out: Suspect[]): void {
  for (const m of text.matchAll(ASSIGNMENT)) {
    const name = m[1].replace(/^-+/, '');
    // A bare `key` (a cache key, a map key) says nothing; `api_key`, `KEY_ID` and the like do.
    if (!SUSPICIOUS_NAME.test(name) || NOT_SUSPICIOUS.test(name) || /^keys?$/i.test(name)) continue;
    // A call, index or member access after the value: code (`session = TemplateMessage(`).
    if (/^[([.]/.test(text[m.index + m[0].length] ?? '')) continue;
    // A bare blank separator only after a flag (`--password x`) or a netrc word.
    if (!/[=:]/.test(text.slice(m.index + m[1].length, m.index + m[0].length - m[2].length)) && !/^-|^password$|^passwd$/i.test(m[1])) continue;
    const v = m[2].replace(/[.,:!?]+$/, '');
    if (v.length < 6 || isPlaceholder(v)) continue;
    // A slug of words (`setup-uv-1-x86_64-unknown-linux-gnu-…`) is a name, not a key.
    if ((v.match(/(?:^|[-_/])[a-z]{2,}(?=[-_/]|$)/g) ?? []).length >= 3) continue;
    const pass = /pass|pwd/i.test(name);
    const random =
      v.length >= 10 && classes(v) >= 2 && shannon(v) >= 3.0 && (digitShare(v) > 0 || caseChangeRate(v) >= 0.3) && !/^[0-9a-f]{40}$|^[0-9a-f-]{36}$|^sha\d+[-:]|^\d+$/i.test(v);
    if (random || (pass && passwordLike(v))) out.push({ kind: 'entropy-assignment', value: v, index: m.index + m[0].length - m[2].length });
  }
}

/** Runs of token characters, split at the dots of JWT-like values. */
const TOKEN_RUN = /(?<![A-Za-z0-9+/=_.~-])[A-Za-z0-9+/=_~-]{24,}(?:\.[A-Za-z0-9+/=_~-]{6,})*/g;

function randomTokenSuspects(text: string, out: Suspect[]): void {
  for (const m of text.matchAll(TOKEN_RUN)) {
    // `data:image/png;base64,…` is an image, not a key.
    if (text.slice(Math.max(0, m.index - 8), m.index).endsWith('base64,')) continue;
    for (const part of m[0].split('.')) {
      // A path's segments (`src/components/Button`) are words with slashes.
      const pieces = part.split('/');
      if (pieces.length > 2 && pieces.every((p) => p.length < 20)) continue;
      // `HuggingFaceTB/SmolLM3-3B`: a piece that is a word or CamelCase words makes it a path or a name.
      if (pieces.length > 1 && pieces.some((p) => /^[A-Z]?[a-z]{3,}(?:[A-Z][a-z]+)*[A-Z]{0,3}$/.test(p))) continue;
      // base64 of text looks random but is text: the encoded-credential check judges what it says.
      if (looksRandom(part) && decodeText(part) === undefined) out.push({ kind: 'random-token', value: part, index: m.index + m[0].indexOf(part) });
    }
  }
}

/** A base64 (or base64url) run decoded, when what it holds is text. */
function decodeText(run: string): string | undefined {
  if (run.length < 8 || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(run)) return undefined;
  const buf = Buffer.from(run.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (buf.length < 6) return undefined;
  let printable = 0;
  for (const b of buf) if ((b >= 0x20 && b < 0x7f) || b === 0x0a || b === 0x0d || b === 0x09) printable++;
  return printable / buf.length >= 0.95 ? buf.toString('utf8') : undefined;
}

/** base64 runs that decode to text holding a credential. */
const BASE64 = /(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/_-]{12,}={0,2}(?![A-Za-z0-9+/=_-])/g;
const CREDENTIAL_TEXT = /password|passwd|secret|token|api[_-]?key|PRIVATE KEY|authorization|bearer|client[_-]?key|"auth"/i;

function encodedSuspects(text: string, out: Suspect[]): void {
  let runs = 0;
  for (const m of text.matchAll(BASE64)) {
    if (++runs > 5000) break;
    const run = m[0];
    if (/^[0-9a-f]+$/i.test(run) || /^[a-z]+$/i.test(run)) continue;
    const decoded = decodeText(run);
    if (decoded === undefined) continue;
    const userPass = /^[\w.@+~-]{1,128}:[^\s"'{}]{3,256}$/.test(decoded);
    if (userPass || CREDENTIAL_TEXT.test(decoded) || findSuspects(decoded, false).length) out.push({ kind: 'encoded-credential', value: run, index: m.index });
  }
}

/**
 * The independent detector over one text: values that look like secrets by
 * randomness rather than by any format or word list the redactor uses.
 */
export function findSuspects(text: string, decode = true): Suspect[] {
  const out: Suspect[] = [];
  if (text.includes('=') || text.includes(':') || text.includes(' -')) assignmentSuspects(text, out);
  randomTokenSuspects(text, out);
  if (decode) encodedSuspects(text, out);
  // One finding per value.
  const seen = new Set<string>();
  return out.filter((s) => (seen.has(s.value) ? false : (seen.add(s.value), true)));
}

/** A value shown in a report: its first and last two characters. */
export function maskValue(v: string): string {
  return v.length <= 6 ? '…' : `${v.slice(0, 2)}…${v.slice(-2)} (${v.length} chars)`;
}

/** Suspects as findings in the redaction report's shape (rule, count, masked samples). */
export function suspectFindings(text: string, options: { allowlist?: string[] } = {}): ScanFinding[] {
  const allowed = new Set(options.allowlist ?? []);
  const byKind = new Map<string, ScanFinding>();
  for (const s of findSuspects(text)) {
    if (allowed.has(s.value)) continue;
    let f = byKind.get(s.kind);
    if (!f) byKind.set(s.kind, (f = { rule: s.kind, count: 0, samples: [] }));
    f.count++;
    if (f.samples.length < 3) f.samples.push(`${text.slice(Math.max(0, s.index - 24), s.index).replace(/\s+/g, ' ').trimStart()}…[masked]`);
  }
  return [...byKind.values()];
}

/**
 * What an audit finds in a text: everything the redaction rules still detect
 * plus what the independent detector calls a secret. An empty list means the
 * text passes.
 */
export async function auditText(text: string, options: ScanOptions = {}): Promise<ScanFinding[]> {
  const ignored = new Set(options.ignoreRules ?? []);
  return [...(await scanText(text, options)), ...suspectFindings(text, options).filter((f) => !ignored.has(f.rule))];
}
