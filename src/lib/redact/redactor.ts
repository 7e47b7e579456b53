import { derivedTextOf, type DerivedText } from '../derived-text.js';
import {
  compilePatterns,
  detectValues,
  findPrivateKeyBlocks,
  HOME_PATH_RULE,
  NAME_RULE,
  PLACEHOLDER_SOURCE,
  PRIVATE_KEY_RULE,
  terminalEscapeEndsAt,
  UNIX_HOME_SOURCE,
  USERNAME_RULE,
  WINDOWS_HOME_SOURCE,
  type CompiledPattern,
} from './rules.js';
import { imageFormatOf, stripImageMetadata } from './image-metadata.js';
import { secretlintChunks } from './secretlint.js';
import { detectBatch, type BatchDetector, type BatchFindings, type RuleFinding } from './detect-batch.js';
import { caselessFragments, exactFragments, trieSource } from './trie-regex.js';
import { printedValues } from './command-output.js';
import type { CleanStrings } from './clean-strings.js';
import type { ExtraPattern, RedactionOptions, RedactionProgress, RedactionReport, RedactSessionOptions, Redactor, SessionHints } from './types.js';
import { isDistinctiveUsername, NON_PERSONAL_HOMES, usernameForms, usernamesFromCwds, usernamesFromFolder } from './usernames.js';

/** Strings shorter than this cannot hold a secret or a home path. */
const MIN_DETECT_LENGTH = 7;
/** Repeated strings at least this long are redacted once per session (progress entries repeat tool output). */
const CACHE_MIN_LENGTH = 128;
const MAX_SAMPLES = 3;
const IMAGE_NOTE = '[image removed]';
const TOOL_OUTPUT_NOTE = '[tool output removed]';
const COMMAND_OUTPUT_RULE = 'command-output';
/** Findings for images: metadata taken out, and images not published because they could not be read to take it out. */
const IMAGE_METADATA_RULE = 'image-metadata';
const IMAGE_UNREADABLE_RULE = 'image-unreadable';

/** A redactor's options, compiled once and shared by every session it redacts. */
interface RedactorConfig {
  extra: CompiledPattern[];
  allowlist: string[];
  allowSet: Set<string>;
  /** Configured names, trimmed, deduplicated, at least two characters. */
  names: string[];
}

function compileConfig(options: RedactionOptions): RedactorConfig {
  const extra = compilePatterns(options.extraPatterns ?? []);
  const allowlist = (options.allowlist ?? []).filter((a) => a.length > 0);
  const names = [...new Set((options.names ?? []).map((n) => n.trim()).filter((n) => n.length >= 2))];
  return { extra, allowlist, allowSet: new Set(allowlist), names };
}

/** Per-session state: the value → placeholder mapping and what was found. */
interface SessionState {
  config: RedactorConfig;
  /** Secret value → placeholder. */
  placeholders: Map<string, string>;
  /** Secret value → rule. */
  rules: Map<string, string>;
  /** Group key (first line of a private key) → placeholder. */
  groups: Map<string, string>;
  counters: Map<string, number>;
  usernames: Set<string>;
  /** People's names the session gave with their address or as git's author. */
  names: Set<string>;
  findings: Map<string, { count: number; samples: Set<string> }>;
  cache: Map<string, string>;
  /** The replacement regexes by {@link RegexForm}, built when first needed. */
  regexes: Map<RegexForm, RegExp>;
  /** Where a secret value may start in a string, or `false` when every string may be matched with the values (see {@link replaceMatches}); found when first needed. */
  valueStart: RegExp | false | null;
  /**
   * Where a secret value, login or name may start (see {@link mayNeedReplacing}): `false` when there is
   * none, `true` when there are too many to look for in one fast regex; found when first needed.
   */
  learntStart: RegExp | boolean | null;
  /** What the replacement regex and its looks are built from ({@link replacedFragments}); found when first needed. */
  fragments: ReplacedFragments | null;
}

function newState(config: RedactorConfig): SessionState {
  return {
    config,
    placeholders: new Map(),
    rules: new Map(),
    groups: new Map(),
    counters: new Map(),
    usernames: new Set(),
    names: new Set(),
    findings: new Map(),
    cache: new Map(),
    regexes: new Map(),
    valueStart: null,
    learntStart: null,
    fragments: null,
  };
}

const ALNUM = /[A-Za-z0-9]/;
const PATH_WORD = /[\w.~-]/;

/**
 * An escaped character just before a position: `%2F` (or `%252F`, encoded
 * twice) in a URL, `\u002F`, `\x2F`, `\n` or `\t` in JSON or code (the escapes
 * of rules.ts's `ESCAPE` that end in a letter or digit). A backslash escaped
 * itself (`\\nada`) escapes no `n`.
 */
const ESCAPED_CHAR_AT_END = /(?:%(?:25)?[0-9A-Fa-f]{2}|(?<!\\)(?:\\\\)*\\(?:u[0-9A-Fa-f]{4}|x[0-9A-Fa-f]{2}|[nrtbf]))$/;

/**
 * Whether the match at `index` continues a word (`x/home/y`, `grandma`): the
 * character before it is of `word`, and is not the end of a terminal escape
 * sequence (`ESC[1mada` is a colour code, then a name) or of an escaped
 * character (`%2Fada`, `\u002Fada`: a slash, then a name).
 */
function wordBefore(s: string, index: number, word: RegExp): boolean {
  return index > 0 && word.test(s[index - 1]) && !terminalEscapeEndsAt(s, index) && !ESCAPED_CHAR_AT_END.test(s.slice(Math.max(0, index - 12), index));
}
/**
 * Creates a redactor. Expensive parts (secretlint's config) are module-level;
 * a redactor holds the options and the mapping of the session it last saw.
 *
 * Design, for speed: per session, every distinct string is scanned once by our
 * rules (cheap pre-checks first) and all of them go through secretlint in a few
 * multi-MB calls; the secret values found are then replaced in every string by
 * one combined regex that also rewrites home paths, usernames and names.
 */
export function createRedactor(options: RedactionOptions = {}): Redactor {
  const config = compileConfig(options);
  let state = newState(config);

  return {
    async redactSession(values: unknown[], hints: SessionHints = {}, { clean, progress, detector }: RedactSessionOptions = {}): Promise<RedactionReport> {
      state = newState(config);
      seedUsernames(state, options, hints);
      applyDrops(values, options);
      scrubImages(state, values);
      // Pass 1: find every secret value, so that pass 2 can replace them all in one go. A string the
      // last redaction of this session found clean is not looked at again (a grown session's old lines).
      const strings = distinctStrings(values);
      // A derived text found clean last time is known as carried by its object: the set of carried strings would hold it.
      const carriedDerived = new Set<DerivedText>();
      const carry = (s: Scanned) => {
        if (typeof s === 'string') return clean!.carry(s);
        if (!clean!.carry(s.read(), false)) return false;
        carriedDerived.add(s);
        return true;
      };
      const found = await detectSecrets(state, clean ? strings.filter((s) => !carry(s)) : strings, options.extraPatterns ?? [], progress, detector);
      // Secrets, names and logins printed bare by commands that print nothing else (`gh auth token`, `git config user.name`, `whoami`): known by the command, not by their look.
      const printed = printedValues(values);
      for (const v of printed.secret) register(state, COMMAND_OUTPUT_RULE, v);
      for (const v of printed.name) addName(state, v);
      for (const v of printed.username) addUsername(state, v);
      // Pass 2: replace in place. A string is clean when no rule found anything in it and nothing in it was replaced:
      // whatever it could teach, it taught nothing.
      progress?.({ step: 'replace' });
      state.cache.clear();
      const decided = new Set<string>();
      // A string clean last time had nothing replaced in it then: it can only change now if something learnt since appears in it.
      const learnt = clean?.learntSince(replacedValues(state));
      let changedSince: ((s: string) => boolean) | undefined;
      // A derived text is not cached, nor kept among the strings decided: they would hold it.
      walk(values, (s, derived) => {
        if (clean && s.length >= MIN_DETECT_LENGTH && (derived ? carriedDerived.has(derived) : clean.carried(s))) {
          changedSince ??= learnt === undefined ? () => true : mayHold(learnt);
          if (!changedSince(s)) return s;
          const out = redactString(state, s, !derived);
          if (out !== s) clean.lose(s);
          return out;
        }
        const out = redactString(state, s, !derived);
        if (clean && s.length >= MIN_DETECT_LENGTH && (derived || !decided.has(s))) {
          if (!derived) decided.add(s);
          if (out === s && !found.has(s)) clean.add(s);
        }
        return out;
      });
      return report(state);
    },

    redactText(text: string): string {
      detect(state, text);
      return redactString(state, text);
    },

    knownUsernames(): string[] {
      return [...state.usernames];
    },
  };
}

/** Usernames known before reading: configured, from the project folder's name, from the session's working folders. */
function seedUsernames(state: SessionState, options: RedactionOptions, hints: SessionHints): void {
  for (const u of options.usernames ?? []) addUsername(state, u);
  for (const f of hints.projectFolders ?? []) for (const u of usernamesFromFolder(f)) addUsername(state, u);
  for (const u of usernamesFromCwds(hints.cwds ?? [])) addUsername(state, u);
}

/** What the replacement regex looks for beyond its fixed patterns (see {@link buildRegex}), each tagged by its kind: `v` a secret value, `u` a login, `n` a name. */
function replacedValues(state: SessionState): string[] {
  return [...[...state.placeholders.keys()].map((v) => `v${v}`), ...[...state.usernames].map((u) => `u${u}`), ...[...state.names].map((n) => `n${n}`)];
}

/**
 * Whether a string may hold one of `learnt` (tagged as by {@link replacedValues}):
 * each as the replacement regex matches it (logins in any case), wherever it
 * stands. A string it says no to is matched by the replacement regex exactly
 * where it was before they were learnt.
 */
function mayHold(learnt: readonly string[]): (s: string) => boolean {
  if (!learnt.length) return () => false;
  const fragments = learnt.map((t) => (t[0] === 'u' ? caselessFragments(t.slice(1)) : exactFragments(t.slice(1))));
  let source = trieSource(fragments);
  // Too long for V8 to optimise (see LONG_REGEX_SOURCE), it looks for where one may start instead: a string that
  // holds only a start is replaced in for nothing, which costs far less (187 values learnt, 20 MB carried: 4.1 s to 0.3 s).
  if (source.length > LONG_REGEX_SOURCE) source = valueStartSource(fragments);
  const regex = new RegExp(source);
  return (s) => regex.test(s);
}

/**
 * Every distinct string long enough to hold a secret, so that each is scanned
 * once however often it repeats, in the order they come; a derived text
 * unmade, in its place. A file as Read's result numbers it comes with its
 * lines unnumbered after it: a number before each line hides what a rule
 * finds by its lines (a `.pgpass` line, a YAML value under its name), and
 * the values found there are replaced in the numbered text as anywhere. A
 * Read's numbered text made from the file's (shared-result-text.ts) needs
 * none: the file's text is in the same record.
 */
function distinctStrings(values: unknown[]): Scanned[] {
  const unique = new Set<string>();
  const scanned: Scanned[] = [];
  walk(
    values,
    (s) => {
      if (s.length < MIN_DETECT_LENGTH || unique.has(s)) return s;
      unique.add(s);
      scanned.push(s);
      const file = NUMBERED_START.test(s) ? s.replace(NUMBERED_LINE, '') : s;
      if (file !== s && file.length >= MIN_DETECT_LENGTH && !unique.has(file)) {
        unique.add(file);
        scanned.push(file);
      }
      return s;
    },
    // Made when its turn comes, not held with the others (a Read's numbered text, which a file read twice repeats).
    (text) => {
      if (text.length >= MIN_DETECT_LENGTH) scanned.push(text);
    },
  );
  return scanned;
}

/** The start of a file's text as Claude Code's Read numbers it: its first line's number, right-aligned, and `→` (a tab before 2.0). */
const NUMBERED_START = /^ *\d+(?:→|\t)/;
/** Each line's number, as {@link NUMBERED_START}. */
const NUMBERED_LINE = /^ *\d+(?:→|\t)/gm;

/** A string to look at for secrets: held, or made when looked at (src/lib/derived-text.ts). */
type Scanned = string | DerivedText;

function textOf(s: Scanned): string {
  return typeof s === 'string' ? s : s.read();
}

/**
 * Batches a redaction needs before it shares them with a `detector`: on fewer
 * (less than about half a second of work) the other thread's start, when it
 * starts on demand, costs more than it saves (an 8 MB append to a 100 MB
 * session took 3.9 s with it, 3.6 s without).
 */
const SHARED_MIN_BATCHES = 4;

/**
 * Registers the secret values in the strings and returns the strings any rule
 * found something in. The strings are looked at in batches (secretlint's
 * chunks), here and, with a `detector`, on another thread at once, each taking
 * the next batch when done with one; then the findings are registered in the
 * order one thread looking at every string in turn would have found them
 * (secretlint's, then ours: where both know a value, secretlint's rule names
 * it more precisely), so the placeholders are the same either way.
 * `progress`: the characters looked at, each string once by each rule set, of
 * twice the strings' length.
 */
async function detectSecrets(
  state: SessionState,
  strings: Scanned[],
  extraPatterns: readonly ExtraPattern[],
  progress?: (p: RedactionProgress) => void,
  detector?: BatchDetector,
): Promise<Set<string>> {
  const batches = secretlintChunks(strings);
  const results: BatchFindings[] = new Array(batches.length);
  const length = (batch: Scanned[]) => batch.reduce((n, s) => n + s.length, 0);
  const total = 2 * length(strings);
  let done = 0;
  progress?.({ step: 'detect', done, total });
  let next = 0;
  const finish = (i: number, findings: BatchFindings) => {
    results[i] = findings;
    done += 2 * length(batches[i]);
    progress?.({ step: 'detect', done, total });
  };
  const here = async () => {
    for (let i = next++; i < batches.length; i = next++) finish(i, await detectBatch(batches[i].map(textOf), state.config.extra));
  };
  const there = async (detect: BatchDetector) => {
    for (let i = next++; i < batches.length; i = next++) {
      try {
        finish(i, await detect(batches[i].map(textOf), extraPatterns));
      } catch {
        // The other thread died: this batch, and those left, are looked at here.
        finish(i, await detectBatch(batches[i].map(textOf), state.config.extra));
        return;
      }
    }
  };
  await Promise.all([here(), ...(detector && batches.length >= SHARED_MIN_BATCHES ? [there(detector)] : [])]);
  const found = new Set<string>();
  for (const [i, { secretlint }] of results.entries()) {
    for (const hit of secretlint) {
      register(state, hit.rule, hit.value);
      found.add(textOf(batches[i][hit.source]));
    }
  }
  for (const [i, { ours, oursIn }] of results.entries()) {
    for (const at of oursIn) found.add(textOf(batches[i][at]));
    for (const f of ours) learn(state, f);
  }
  return found;
}

/** Runs our rules over one string and learns what they find at once (a free string: see `redactText`). */
function detect(state: SessionState, s: string): void {
  detectValues(
    s,
    (rule, value, group) => learn(state, { rule, value, group }),
    (person, value) => learn(state, { person, value }),
    state.config.extra,
  );
}

/** Learns one finding of our rules: a secret value gets its placeholder, a login or a name is blanked from now on. */
function learn(state: SessionState, f: RuleFinding): void {
  if ('rule' in f) register(state, f.rule, f.value, f.group);
  else if (f.person === 'username') addUsername(state, f.value);
  else addName(state, f.value);
}

function isAllowed(config: RedactorConfig, value: string): boolean {
  return config.allowSet.has(value) || config.allowlist.some((a) => a.includes(value));
}

/** Gives a secret value its placeholder; the values of one group (a private key's lines) share one. */
function register(state: SessionState, rule: string, value: string, group?: string): void {
  if (value.length < 4 || state.placeholders.has(value) || isAllowed(state.config, value)) return;
  let placeholder = group !== undefined ? state.groups.get(group) : undefined;
  if (!placeholder) {
    const n = (state.counters.get(rule) ?? 0) + 1;
    state.counters.set(rule, n);
    placeholder = n === 1 ? `[REDACTED:${rule}]` : `[REDACTED:${rule}#${n}]`;
    if (group !== undefined) state.groups.set(group, placeholder);
  }
  state.placeholders.set(value, placeholder);
  state.rules.set(value, rule);
  invalidate(state);
}

/** A person's name found in the session (with an e-mail address, as git's author): blanked as a word, in its own case. */
function addName(state: SessionState, name: string): void {
  if (state.names.has(name)) return;
  state.names.add(name);
  invalidate(state);
}

function addUsername(state: SessionState, name: string): void {
  if (NON_PERSONAL_HOMES.has(name) || state.usernames.has(name)) return;
  for (const form of usernameForms(name)) state.usernames.add(form);
  invalidate(state);
}

/** A new value or username changes the regex, and with it every cached result. */
function invalidate(state: SessionState): void {
  state.regexes.clear();
  state.valueStart = null;
  state.learntStart = null;
  state.fragments = null;
  state.cache.clear();
}

function record(state: SessionState, rule: string, context: string, secret: string): void {
  recordSample(state, rule, maskSample(context, secret));
}

/** Counts one finding of `rule`, keeping its sample among the first few (a sample holds nothing private). */
function recordSample(state: SessionState, rule: string, sample: string): void {
  let f = state.findings.get(rule);
  if (!f) state.findings.set(rule, (f = { count: 0, samples: new Set() }));
  f.count++;
  if (f.samples.size < MAX_SAMPLES) f.samples.add(sample);
}

function report(state: SessionState): RedactionReport {
  const findings = [...state.findings]
    .map(([rule, f]) => ({ rule, count: f.count, samples: [...f.samples] }))
    .sort((a, b) => b.count - a.count || a.rule.localeCompare(b.rule));
  return { findings, total: findings.reduce((n, f) => n + f.count, 0) };
}

/**
 * Which replacement regex a string needs: bit 1, the Windows home form (the
 * string holds `Users`); bit 2, the secret values (one may start in it).
 */
type RegexForm = number;
const WITH_WINDOWS = 1;
const WITH_VALUES = 2;

/**
 * One regex for the whole replacement pass. Groups: 1 an existing
 * placeholder (kept), 2 a known secret value, 3/4 the name in a Unix/Windows
 * home path, 5 a username, 6 a configured name, 7 a login that is an ordinary
 * word, in an encoded project folder name. Word boundaries before a
 * match are checked in code (see {@link UNIX_HOME_SOURCE}). Without
 * `WITH_VALUES` group 2 never matches, so a string no value can be in is
 * matched exactly as by the whole regex.
 */
function buildRegex(state: SessionState, form: RegexForm): RegExp {
  const { values, users, names, folderUsers } = replacedFragments(state);
  const source = [
    `(${PLACEHOLDER_SOURCE})`,
    `(${form & WITH_VALUES ? trieSource(values) : '(?!)'})`,
    UNIX_HOME_SOURCE,
    form & WITH_WINDOWS ? WINDOWS_HOME_SOURCE : '((?!))',
    `(${trieSource(users)})(?![A-Za-z0-9])`,
    `(${trieSource(names)})(?![A-Za-z0-9])`,
    // Without such a login, no lookbehind to try at every position.
    folderUsers.length ? `(?<=${FOLDER_HOME_BEFORE})(${trieSource(folderUsers)})(?![A-Za-z0-9])` : '((?!))',
  ].join('|');
  return new RegExp(source, 'g');
}

interface ReplacedFragments {
  values: string[][];
  users: string[][];
  names: string[][];
  /** Logins blanked only in an encoded project folder (`-Users-chip-app`): those `users` leaves out as ordinary words. */
  folderUsers: string[][];
}

/**
 * What comes before the login in an encoded project folder name (`-home-`,
 * `-Users-`, `C--Users-`), at the start of a name: Claude Code's folder for
 * `/Users/chip/app` is `-Users-chip-app`, a path form of the login however
 * ordinary a word it is, and it names every session file of the project.
 */
const FOLDER_HOME_BEFORE = String.raw`(?<![A-Za-z0-9])(?:[A-Za-z]-)?-(?:home|Users)-`;

/** A login as its folder name can hold it: letters, digits and dashes (Claude Code's encoding makes every other character a dash). */
const FOLDER_SEGMENT = /^[A-Za-z0-9][A-Za-z0-9-]*$/;

/**
 * What the replacement regex looks for beyond its fixed patterns, as regex
 * fragments (tries of them are built longest literal first: a config may name
 * thousands of people, a session hold hundreds of secrets, and a flat
 * alternation tried each at every position took a build of the samples from 9
 * s to 86 s with 12,000 names): the secret values; the logins, in any case;
 * the configured names in any case, and the names a session gave with an
 * address in theirs (`Will Smith`, not `will smith`).
 */
function replacedFragments(state: SessionState): ReplacedFragments {
  if (state.fragments) return state.fragments;
  const allowed = (s: string): boolean => isAllowed(state.config, s);
  return (state.fragments = {
    values: [...state.placeholders.keys()].map(exactFragments),
    users: [...state.usernames].filter(isDistinctiveUsername).filter((u) => !allowed(u)).map(caselessFragments),
    folderUsers: [...state.usernames].filter((u) => !isDistinctiveUsername(u) && !NON_PERSONAL_HOMES.has(u) && FOLDER_SEGMENT.test(u) && !allowed(u)).map(caselessFragments),
    names: [...state.config.names.filter((n) => !allowed(n)).map(caselessFragments), ...[...state.names].filter((n) => !allowed(n)).map(exactFragments)],
  });
}

/**
 * Whether the replacement regex can change `s` at all: each of its groups
 * that replaces something needs a text of its own in the string (a home path
 * its `/home/` or `Users`, an encoded project folder its `-home-` or `Users`; a
 * value, login or name its first characters). An
 * existing placeholder is kept as it is, so a string with nothing else is
 * returned unchanged either way. Most strings of a session have none of them,
 * and these looks cost far less than a pass of the whole regex, whose every
 * alternative is tried at every `/`, bracket and first letter of a login.
 */
function mayNeedReplacing(state: SessionState, s: string): boolean {
  if (s.includes('/home/') || s.includes('Users') || s.includes('-home-')) return true;
  if (state.learntStart === null) {
    const { values, users, names } = replacedFragments(state);
    const all = [...values, ...users, ...names];
    const source = all.length ? valueStartSource(all) : '';
    // Past what V8 optimises (a config naming thousands of people), the look would cost more than it saves.
    state.learntStart = !source ? false : source.length > LONG_REGEX_SOURCE ? true : new RegExp(source);
  }
  return typeof state.learntStart === 'boolean' ? state.learntStart : state.learntStart.test(s);
}

/** Redacts one string (cached per session when long, as long strings repeat, unless told not to). */
function redactString(state: SessionState, input: string, cache = true): string {
  if (input.length === 0) return input;
  const cacheable = cache && input.length >= CACHE_MIN_LENGTH;
  if (cacheable) {
    const hit = state.cache.get(input);
    if (hit !== undefined) return hit;
  }
  const s = replaceMatches(state, input.includes('PRIVATE KEY') ? redactKeys(state, input) : input);
  if (cacheable) state.cache.set(input, s);
  return s;
}

/** Rewrites private key blocks as a whole, so no line of one survives. */
function redactKeys(state: SessionState, s: string): string {
  const blocks = findPrivateKeyBlocks(s);
  if (!blocks.length) return s;
  let out = '';
  let last = 0;
  for (const b of blocks) {
    if (b.start < last) continue;
    out += s.slice(last, b.start);
    const placeholder = state.groups.get(b.lines[0]) ?? state.placeholders.get(b.lines[0]) ?? `[REDACTED:${PRIVATE_KEY_RULE}]`;
    record(state, PRIVATE_KEY_RULE, out, '');
    out += placeholder;
    last = b.end;
  }
  return out + s.slice(last);
}

/** Characters of each value that {@link valueStartSource} looks for, before the values themselves are tried. */
const VALUE_START_CHARS = 8;
/** Regex source longer than this V8 no longer optimises (measured on Node 22: a regex of 20,465 characters scanned text in 68 ms, one of 20,979 in 1,014 ms). */
const LONG_REGEX_SOURCE = 20 * 1024;

/**
 * Replaces every secret value, home path, username and name in one pass of
 * the combined regex. When the values make it long, they are part of it only
 * for a string where one may start (its first characters are in the string):
 * past about 20 KB of source V8 stops optimising a regex, and every string
 * then took twenty times as long (a 20 MB session holding 200 generated
 * credentials: 2.1 s to replace, against 0.08 s without them). Below that,
 * looking for where values start first would only add a pass.
 */
function replaceMatches(state: SessionState, s: string): string {
  if (!mayNeedReplacing(state, s)) return s;
  state.valueStart ??= valueStartRegex(state);
  const values = state.placeholders.size > 0 && (state.valueStart === false || state.valueStart.test(s));
  const form = (s.includes('Users') ? WITH_WINDOWS : 0) | (values ? WITH_VALUES : 0);
  let regex = state.regexes.get(form);
  if (!regex) state.regexes.set(form, (regex = buildRegex(state, form)));
  regex.lastIndex = 0;
  let out = '';
  let last = 0;
  for (let m = regex.exec(s); m !== null; m = regex.exec(s)) {
    const r = replacementFor(state, s, m);
    if (r === 'keep') continue;
    if (r === 'retry') {
      regex.lastIndex = m.index + 1;
      continue;
    }
    out += s.slice(last, m.index);
    record(state, r.rule, out, m[0]);
    out += r.replacement;
    last = m.index + m[0].length;
  }
  return last > 0 ? out + s.slice(last) : s;
}

/**
 * A regex that finds where any secret value of the session may start (the
 * first characters of each, as a trie that stops at the shortest), or `false`
 * when the whole replacement regex is short enough to be used on every string.
 */
function valueStartRegex(state: SessionState): RegExp | false {
  // Kept: a string that holds `Users` and may hold a value is matched with this one.
  const whole = buildRegex(state, WITH_VALUES | WITH_WINDOWS);
  state.regexes.set(WITH_VALUES | WITH_WINDOWS, whole);
  if (whole.source.length <= LONG_REGEX_SOURCE) return false;
  return new RegExp(valueStartSource(replacedFragments(state).values));
}

/** Regex source that finds where one of `literals` (as regex fragments) may start: the first characters of each, as a trie that stops at the shortest. */
function valueStartSource(literals: ReadonlyArray<readonly string[]>): string {
  return trieSource(literals.map((f) => f.slice(0, VALUE_START_CHARS)), true);
}

/**
 * What a match of the combined regex becomes: a replacement and its rule,
 * `keep` to leave it, or `retry` to look again from the next character.
 */
function replacementFor(state: SessionState, s: string, m: RegExpExecArray): { replacement: string; rule: string } | 'keep' | 'retry' {
  if (m[1] !== undefined) return 'keep'; // an existing placeholder stays as it is
  if (m[2] !== undefined) return { replacement: state.placeholders.get(m[2]) as string, rule: state.rules.get(m[2]) as string };
  if (m[3] !== undefined || m[4] !== undefined) {
    const name = (m[3] ?? m[4]) as string;
    // `https://host/home/x` and `x/home/y` are not home folders; a username inside may still match.
    if (NON_PERSONAL_HOMES.has(name) || wordBefore(s, m.index, m[3] !== undefined ? PATH_WORD : ALNUM)) return 'retry';
    return { replacement: '~', rule: HOME_PATH_RULE };
  }
  if (wordBefore(s, m.index, ALNUM)) return 'keep'; // part of a longer word
  const rule = m[5] !== undefined || m[7] !== undefined ? USERNAME_RULE : NAME_RULE;
  return { replacement: `[REDACTED:${rule}]`, rule };
}

/** Public prefixes that name a token's kind (`ghp_`, `sk-ant-`) without revealing any of it. */
const KIND_PREFIX =
  /^(?:gh[pousr]_|github_pat_|sk-ant-|sk-proj-|sk-svcacct-|sk-|sk_live_|sk_test_|rk_live_|pk_live_|npm_|xox[abposr]-|SG\.|AKIA|ASIA|AIza|eyJ|glpat-|hf_|shpat_|dop_v1_|lin_api_|AGE-SECRET-KEY-1|PMAK-|xapp-|whsec_|pypi-|rubygems_|hvs\.|dp\.pt\.|gsk_|pplx-|xkeysib-|NRAK-|SK(?=[0-9a-f]{32}))/;

/**
 * A finding's sample: the (already redacted) text before it and, for tokens
 * with a well-known prefix, that prefix, which names the kind but none of the
 * secret.
 */
function maskSample(before: string, secret: string): string {
  const context = before.slice(-32).replace(/\s+/g, ' ').trimStart();
  const prefix = KIND_PREFIX.exec(secret)?.[0] ?? '';
  return `${context}${prefix}…[masked]`;
}

/** Keys that are names a program gave a field (`type`, `ghp_…` too): see {@link renamedKey}. */
const IDENTIFIER_KEY = /^[A-Za-z_$][\w$-]*$/;
/** A placeholder of a secret, not of a username or a name. */
const SECRET_PLACEHOLDER = new RegExp(`\\[REDACTED:(?!(?:${USERNAME_RULE}|${NAME_RULE})[\\]#])`);

/**
 * What an object key becomes. Keys are transcript text too (a structured tool
 * result can key a map by token, by path or by author), so every key goes
 * through `fn`, but a key that reads as a field name (`type`, `ada`) loses
 * only a secret: a login that happened to equal a field of the record would
 * otherwise rename that field in every entry.
 */
function renamedKey(key: string, fn: (s: string) => string): string {
  const renamed = fn(key);
  if (renamed === key || !IDENTIFIER_KEY.test(key) || SECRET_PLACEHOLDER.test(renamed)) return renamed;
  return key;
}

/**
 * Replaces every string of a JSON tree in place, object keys too (see
 * {@link renamedKey}). Base64 payloads of images and documents are skipped:
 * they are binary, large, and never shown as text. A string is written back
 * only when `fn` changed it. A derived text (src/lib/derived-text.ts) is made
 * for `fn`, which is handed it as `derived` too, or with `onDerived` handed to
 * it unmade instead.
 */
export function walk(root: unknown, fn: (s: string, derived?: DerivedText) => string, onDerived?: (text: DerivedText) => void): void {
  // Keys repeat in every entry (`type`, `content`): one that stays as it is is looked at once per walk (one that changes is each time, so that every occurrence is counted).
  const unchanged = new Set<string>();
  const visit = (node: unknown): unknown => {
    if (typeof node === 'string') return fn(node);
    if (node === null || typeof node !== 'object') return node;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const v = node[i];
        if (typeof v !== 'string') visit(v);
        else {
          const out = fn(v);
          if (out !== v) node[i] = out;
        }
      }
      return node;
    }
    const obj = node as Record<string, unknown>;
    const binary = obj.type === 'base64';
    const derived = derivedTextOf(obj);
    let renames: Map<string, string> | null = null;
    for (const key of Object.keys(obj)) {
      if ((binary && key === 'data') || key === 'base64') continue;
      if (derived?.key === key && onDerived) onDerived(derived.text);
      else {
        const v = obj[key];
        if (typeof v === 'string') {
          // Written only when it changes: a derived text stays derived.
          const out = fn(v, derived?.key === key ? derived.text : undefined);
          if (out !== v) obj[key] = out;
        } else if (v !== null && typeof v === 'object') visit(v);
      }
      if (unchanged.has(key)) continue;
      const renamed = renamedKey(key, fn);
      if (renamed === key) unchanged.add(key);
      else (renames ??= new Map()).set(key, renamed);
    }
    if (renames) {
      // Rebuilt rather than patched, so that the keys keep their order.
      const entries = Object.entries(obj);
      for (const [k] of entries) delete obj[k];
      for (const [k, v] of entries) obj[renames.get(k) ?? k] = v;
    }
    return obj;
  };
  visit(root);
}

/** Base64 of the first bytes of a PNG, JPEG, GIF or WebP image: a payload that starts so is decoded and checked. */
const IMAGE_BASE64_START = /^(?:iVBORw0KGgo|\/9j\/|R0lGOD|UklGR)/;

/**
 * Takes the metadata out of every image the session holds (EXIF with a
 * position, XMP with paths, text chunks, comments: see image-metadata.ts),
 * wherever the session holds them (content blocks, a file read, an
 * attachment: see {@link mapBinaryPayloads}). An image that cannot be read is
 * replaced by an empty string, which pages show as an image not shown, and
 * counted: nothing of it is published.
 */
function scrubImages(state: SessionState, values: unknown[]): void {
  mapBinaryPayloads(values, (payload) => (IMAGE_BASE64_START.test(payload) ? scrubImage(state, payload) : payload));
}

/**
 * Calls `fn` with every binary payload of JSON trees and puts back what it
 * returns: a string under `base64`, or under `data` of a `type: "base64"`
 * record or starting like an image (an attachment's image has no such type).
 * The one definition of where sessions keep binaries, for redaction and for
 * what an imported copy leaves out. `holder` is the object the payload is in.
 * ({@link walk} skips only the first two kinds as text: a string that merely
 * starts like an image is redacted as text too, so none can hide a secret.)
 */
export function mapBinaryPayloads(values: unknown[], fn: (payload: string, holder: Record<string, unknown>) => string): void {
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    const obj = node as Record<string, unknown>;
    for (const key of Object.keys(obj)) {
      const v = obj[key];
      if (typeof v !== 'string') visit(v);
      else if (key === 'base64' || (key === 'data' && (obj.type === 'base64' || IMAGE_BASE64_START.test(v)))) obj[key] = fn(v, obj);
    }
  };
  for (const v of values) visit(v);
}

/** One image's base64 without its metadata (the same string when it had none), or '' when it cannot be read. */
function scrubImage(state: SessionState, base64: string): string {
  const bytes = Buffer.from(base64, 'base64');
  const format = imageFormatOf(bytes);
  // Starts like an image but is none (a text that happens to): not an image, so nothing to take out.
  if (!format) return base64;
  const scrub = stripImageMetadata(bytes);
  if (!scrub.ok) {
    recordSample(state, IMAGE_UNREADABLE_RULE, `${format.toUpperCase()}: ${scrub.reason}`);
    return '';
  }
  if (!scrub.removed.length) return base64;
  recordSample(state, IMAGE_METADATA_RULE, `${format.toUpperCase()}: ${[...new Set(scrub.removed)].join(', ')}`);
  return scrub.bytes.toString('base64');
}

/** Applies the drop switches (images, thinking, tool output) to the entries in place. */
function applyDrops(values: unknown[], options: RedactionOptions): void {
  if (!options.dropImages && !options.dropThinking && !options.dropToolOutput) return;
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) {
        const item = node[i] as Record<string, unknown> | null;
        const type = item && typeof item === 'object' ? item.type : undefined;
        if (options.dropThinking && (type === 'thinking' || type === 'redacted_thinking')) {
          node.splice(i, 1);
          continue;
        }
        if (options.dropImages && type === 'image') {
          node[i] = { type: 'text', text: IMAGE_NOTE };
          continue;
        }
        if (options.dropToolOutput && type === 'tool_result' && item) {
          item.content = TOOL_OUTPUT_NOTE;
          continue;
        }
        visit(item);
      }
      return;
    }
    const obj = node as Record<string, unknown>;
    if (options.dropToolOutput) {
      if ('toolUseResult' in obj) delete obj.toolUseResult;
      if (obj.type === 'progress' && obj.data && typeof obj.data === 'object') {
        const data = obj.data as Record<string, unknown>;
        delete data.output;
        delete data.fullOutput;
      }
    }
    for (const v of Object.values(obj)) visit(v);
  };
  for (const v of values) visit(v);
}
