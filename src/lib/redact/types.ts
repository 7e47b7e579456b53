import type { CleanStrings } from './clean-strings.js';
import type { BatchDetector } from './detect-batch.js';

/** An extra secret pattern from the site's configuration. */
export interface ExtraPattern {
  /** Rule name, used in the placeholder: `[REDACTED:<name>]`. */
  name: string;
  /** JavaScript regular expression source. With a capture group, only group 1 is redacted. */
  pattern: string;
  /** Regular expression flags; `g` is always added. */
  flags?: string;
}

export interface RedactionOptions {
  extraPatterns?: ExtraPattern[];
  /** Strings that are never redacted, even when a rule matches them. */
  allowlist?: string[];
  /** Real names and other words to anonymise (case-insensitive, whole words) → `[REDACTED:name]`. */
  names?: string[];
  /** Login names known in advance (added to those found in the session). */
  usernames?: string[];
  /** Replace image blocks with a short text note. */
  dropImages?: boolean;
  /** Remove thinking blocks. */
  dropThinking?: boolean;
  /** Replace tool results (and `toolUseResult`, progress output) with a short note. */
  dropToolOutput?: boolean;
}

export interface RedactionFinding {
  /** Rule name as used in placeholders, e.g. `github-token`, `email`, `home-path`. */
  rule: string;
  /** Occurrences replaced. */
  count: number;
  /** Masked context such as `export GITHUB_TOKEN=ghp_…[masked]`; never the secret itself. */
  samples: string[];
}

export interface RedactionReport {
  findings: RedactionFinding[];
  /** Sum of the counts. */
  total: number;
}

export interface SessionHints {
  /** Encoded project folder names (`-home-ada-work-api`): their usernames are redacted too. */
  projectFolders?: string[];
  /** Working directories known from elsewhere. */
  cwds?: string[];
}

/** How one session's redaction goes about it (see `Redactor.redactSession`). */
export interface RedactSessionOptions {
  /**
   * The strings the last redaction of this session found nothing in and
   * replaced nothing in (`carry`) are not looked at for secrets again, nor
   * replaced in unless something learnt since appears in them (`learntSince`);
   * this redaction records its own (`add`); see clean-strings.ts.
   */
  clean?: CleanStrings;
  /** Told how far it has come as it goes (see {@link RedactionProgress}). */
  progress?: (p: RedactionProgress) => void;
  /** Looks for secrets in a share of the strings on another thread at the same time (see detect-batch.ts); the result is the same without it. */
  detector?: BatchDetector;
}

export interface Redactor {
  /**
   * Redacts every string (and path-like keys) of the given JSON values in
   * place; one call = one session (session file + its subagent files, so
   * placeholders are stable across them).
   */
  redactSession(values: unknown[], hints?: SessionHints, options?: RedactSessionOptions): Promise<RedactionReport>;
  /** Redacts one free string with the session's current mapping (e.g. a project folder name for a URL). */
  redactText(text: string): string;
  /** Usernames known to the redactor after the last session (options, hints, cwd values, paths). */
  knownUsernames(): string[];
}

/**
 * How far a session's redaction has come: while looking for secrets, the
 * characters looked at so far of `total` (each distinct string once by
 * secretlint's rules and once by ours, so `total` is twice their length);
 * then the replacing.
 */
export type RedactionProgress = { step: 'detect'; done: number; total: number } | { step: 'replace' };
