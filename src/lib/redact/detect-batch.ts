import { detectValues, type CompiledPattern } from './rules.js';
import { secretlintChunk, type SecretlintHit } from './secretlint.js';
import type { ExtraPattern } from './types.js';

/**
 * One thing our rules found in a batch: a secret value (with the group it
 * shares a placeholder with), or a login or a person's name.
 */
export type RuleFinding = { rule: string; value: string; group?: string } | { person: 'username' | 'name'; value: string };

/**
 * What both rule sets found in one batch of strings. Plain data: a batch can
 * be looked at on another thread.
 */
export interface BatchFindings {
  /** secretlint's hits, in the order it reports them; `source` is the string's index in the batch. */
  secretlint: SecretlintHit[];
  /**
   * Our rules' findings in the order they found them, each value once: the
   * redactor registers a value, login or name at its first finding and never
   * changes it after, so a later one would change nothing (and a session
   * naming one path in every line would hold a finding per line).
   */
  ours: RuleFinding[];
  /** The indices of the strings our rules found anything in, in order. */
  oursIn: number[];
}

/**
 * Looks at a batch of strings on another thread (a session's helper thread,
 * src/lib/build/helper-thread.ts) as {@link detectBatch} does here, with
 * the patterns compiled there (a regex does not cross threads whole).
 */
export type BatchDetector = (strings: string[], extraPatterns: readonly ExtraPattern[]) => Promise<BatchFindings>;

/** Characters our rules look at between two turns of the event loop, so that a thread looking at a batch still hears another thread's answer. */
const YIELD_CHARS = 1 << 20;

/**
 * Runs secretlint's rules, then ours, over a batch of strings (one of
 * `secretlintChunks`) and returns what they found, without deciding anything:
 * the redactor registers the findings of every batch in order (redactor.ts),
 * so that placeholders are numbered as if one thread had looked at every
 * string in turn. Each string is looked at with no state, so the answer
 * depends on the batch alone.
 */
export async function detectBatch(strings: readonly string[], extra: readonly CompiledPattern[]): Promise<BatchFindings> {
  const secretlint = await secretlintChunk(strings);
  const ours: RuleFinding[] = [];
  const oursIn: number[] = [];
  // A value by its kind as the redactor keys it: secret values whatever their rule, logins, names.
  const seen = new Set<string>();
  let since = 0;
  for (let at = 0; at < strings.length; at++) {
    const s = strings[at];
    let any = false;
    detectValues(
      s,
      (rule, value, group) => {
        any = true;
        if (seen.has(`v${value}`)) return;
        seen.add(`v${value}`);
        ours.push(group === undefined ? { rule, value } : { rule, value, group });
      },
      (person, value) => {
        any = true;
        const key = `${person === 'username' ? 'u' : 'n'}${value}`;
        if (seen.has(key)) return;
        seen.add(key);
        ours.push({ person, value });
      },
      extra,
    );
    if (any) oursIn.push(at);
    since += s.length;
    if (since >= YIELD_CHARS) {
      since = 0;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
  return { secretlint, ours, oursIn };
}
