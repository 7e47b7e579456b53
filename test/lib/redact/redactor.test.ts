import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cleanStringsKey, createCleanStrings } from '../../../src/lib/redact/clean-strings.js';
import { detectBatch, type BatchDetector } from '../../../src/lib/redact/detect-batch.js';
import { derivedTextOf, deriveText } from '../../../src/lib/derived-text.js';
import { createRedactor } from '../../../src/lib/redact/redactor.js';
import { compilePatterns } from '../../../src/lib/redact/rules.js';
import { SECRETLINT_CHUNK } from '../../../src/lib/redact/secretlint.js';
import type { RedactionOptions, RedactionProgress } from '../../../src/lib/redact/types.js';
import { CONTEXTS, generateCredentials, placeInContext } from '../../helpers/credentials.js';

const TOKEN = 'ghp_' + 'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z05';

/** A session of many lines (about three of secretlint's chunks of distinct strings, so that detection reports on the way), one holding a token. */
const lines = () =>
  Array.from({ length: 9000 }, (_, i) => ({
    type: 'user',
    message: { content: i === 1234 ? `deploy with ${TOKEN}` : `line ${i}: ${'plain words of a long tool output '.repeat(40)}` },
  }));
/** The length of the session's distinct strings long enough to hold a secret: its lines' text and the keys of seven letters. */
const distinctLength = (values: ReturnType<typeof lines>) => values.reduce((n, v) => n + v.message.content.length, 0) + 'message'.length + 'content'.length;

describe('redactSession progress', () => {
  it('reports looking for secrets from nothing to all of it, in order, then the replacing, and redacts as without it', async () => {
    const seen: RedactionProgress[] = [];
    const values = lines();
    const report = await createRedactor().redactSession(values, {}, { progress: (p) => seen.push(p) });
    const plain = lines();
    await createRedactor().redactSession(plain);
    expect(values).toEqual(plain);
    expect(JSON.stringify(values)).not.toContain(TOKEN);
    expect(report.total).toBeGreaterThan(0);

    const looked = seen.filter((p) => p.step === 'detect');
    const total = 2 * distinctLength(lines());
    expect(looked.every((p) => p.total === total)).toBe(true);
    expect(looked[0].done).toBe(0);
    expect(looked.at(-1)!.done).toBe(total);
    expect(looked.map((p) => p.done)).toEqual([...looked.map((p) => p.done)].sort((a, b) => a - b));
    // Reports on the way, not only at the ends: one per batch of strings looked at.
    expect(looked.filter((p) => p.done > 0 && p.done < total).length).toBeGreaterThanOrEqual(2);
    expect(seen.at(-1)).toEqual({ step: 'replace' });
    expect(seen.filter((p) => p.step === 'replace')).toHaveLength(1);
  });

  it('counts only the strings it looks at: those its last redaction found clean are not', async () => {
    const key = cleanStringsKey('salt', 'head');
    const first = createCleanStrings(key);
    await createRedactor().redactSession(lines(), {}, { clean: first });
    const seen: RedactionProgress[] = [];
    await createRedactor().redactSession(lines(), {}, { clean: createCleanStrings(key, first.toBuffer()), progress: (p) => seen.push(p) });
    const looked = seen.filter((p) => p.step === 'detect');
    // Every string but the token's was clean last time: only that one is looked at again.
    expect(looked.at(-1)).toEqual({ step: 'detect', done: 2 * `deploy with ${TOKEN}`.length, total: 2 * `deploy with ${TOKEN}`.length });
  });
});

/** Distinct filler of about `chars` characters, as lines of a long tool output. */
const filler = (tag: string, chars: number) => Array.from({ length: Math.ceil(chars / 1300) }, (_, i) => `${tag} ${i}: ${'words of a long tool output, nothing secret in them '.repeat(25)}`);

const CREDENTIALS = generateCredentials();
const PEOPLE = ['Ada Lovelace', 'Grace Hopper', 'Alan Turing', 'Edsger Dijkstra', 'Barbara Liskov'];

/** `a` and `b`, from where they first differ: a few hundred characters, not two sessions of 20 MB. */
const fromFirstDifference = (a: string, b: string) => {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return [a.slice(Math.max(0, i - 100), i + 200), b.slice(Math.max(0, i - 100), i + 200)];
};

/**
 * A session whose secrets lie in every one of its batches of strings (each
 * about one secretlint chunk), of every format, several of a kind, in an order
 * where numbering matters: the first found is `#1` wherever it was looked at.
 */
function manySecrets(): unknown[] {
  const values: unknown[] = [];
  for (let batch = 0; batch < 5; batch++) {
    // A tenth of the formats in each batch: a kind's first value in one batch, its second in another.
    const said = CREDENTIALS.filter((_, i) => i % 10 === batch).map((c, i) => placeInContext(c, CONTEXTS[(i + batch) % CONTEXTS.length]));
    values.push({
      type: 'user',
      message: { content: [...said, `cd /home/adalove${batch}/work && git log --format='%an <%ae>'\nAuthor: ${PEOPLE[batch]} <${PEOPLE[batch].split(' ')[0].toLowerCase()}@qux.io>`, `deploy code ZX-${batch}0042-SECRET`] },
    });
    for (const line of filler(`batch ${batch}`, SECRETLINT_CHUNK - 64 * 1024)) values.push({ type: 'assistant', message: { content: line } });
  }
  return values;
}

const OPTIONS: RedactionOptions = { extraPatterns: [{ name: 'deploy code', pattern: 'ZX-[0-9]{5}-SECRET' }] };

/** A detector as another thread would be: it sees copies, compiles the patterns itself, and answers after `delay(i)` ms (its `i`th batch). */
function elsewhere(delay: (i: number) => number, calls: string[][] = []): BatchDetector {
  return async (strings, patterns) => {
    const copy = structuredClone(strings);
    calls.push(copy);
    await new Promise((r) => setTimeout(r, delay(calls.length - 1)));
    return structuredClone(await detectBatch(copy, compilePatterns(structuredClone(patterns))));
  };
}

describe('redactSession with a detector on another thread', () => {
  it('finds what one thread finds and numbers the placeholders alike, whichever thread finishes which batch first', async () => {
    const alone = manySecrets();
    const reportAlone = await createRedactor(OPTIONS).redactSession(alone);
    const text = JSON.stringify(alone);
    // The session is what the test says it is: placeholders numbered beyond one, an extra pattern's, logins and names found.
    // Numbered in the order the strings come (each rule set's findings in turn): the first batch's code first, the last one's fifth.
    expect(text.match(/deploy code \[REDACTED:[^\]]+\]/g)).toEqual([1, 2, 3, 4, 5].map((n) => `deploy code [REDACTED:deploy-code${n > 1 ? `#${n}` : ''}]`));
    expect(text).toContain('(github-pat): [REDACTED:github-token] —');
    expect(text).toContain('[REDACTED:github-token#2]');
    expect(text).toContain('cd ~/work');
    expect(text).not.toContain('adalove');
    expect(text).not.toContain('Dijkstra');
    expect(text).not.toContain('ZX-40042-SECRET');

    // Slow, then fast: the other thread's later batches finish before its first.
    for (const delay of [() => 0, (i: number) => (i === 0 ? 300 : 0), (i: number) => 40 * (i % 2)]) {
      const calls: string[][] = [];
      const shared = manySecrets();
      const report = await createRedactor(OPTIONS).redactSession(shared, {}, { detector: elsewhere(delay, calls) });
      expect(calls.length).toBeGreaterThan(0);
      expect(calls.some((batch) => batch.some((s) => s.includes('ZX-')))).toBe(true);
      const [got, want] = fromFirstDifference(JSON.stringify(shared), text);
      expect(got).toBe(want);
      expect(report).toEqual(reportAlone);
    }
  }, 60_000);

  it('looks at the batches the other thread could not answer itself, and those left: nothing is missed when it dies', async () => {
    const alone = manySecrets();
    await createRedactor(OPTIONS).redactSession(alone);
    const dying = manySecrets();
    let asked = 0;
    const detector: BatchDetector = async () => {
      asked++;
      throw new Error('worker thread stopped (exit code 1)');
    };
    await createRedactor(OPTIONS).redactSession(dying, {}, { detector });
    expect(asked).toBe(1);
    const [got, want] = fromFirstDifference(JSON.stringify(dying), JSON.stringify(alone));
    expect(got).toBe(want);
  }, 60_000);
});

describe('redactSession with secrets enough to make the replacement regex long', () => {
  // 150 tokens of about 250 characters, each registered in its own string and repeated in another, with a home path:
  // their regex is far past the 20 KB of source V8 still optimises, so values are looked for only where one may start.
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const tokens = Array.from({ length: 150 }, (_, i) => `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: `user-${i}`, scope: 'read write admin '.repeat(6) })}.${createHash('sha256').update(String(i)).digest('base64url')}`);

  it('replaces every value wherever it is, and what is not a value as it always did', async () => {
    const values = [
      ...tokens.map((t, i) => ({ type: 'user', message: { content: `token ${i}: ${t}` } })),
      ...tokens.map((t, i) => ({ type: 'assistant', message: { content: `cd /home/alice/app${i} && curl -H "Authorization: Bearer ${t.slice(0, 4)}" -d '${t}'` } })),
      { type: 'user', message: { content: 'cd /home/alice/project && ls C:\\Users\\alice\\Desktop' } },
      { type: 'user', message: { content: `${tokens[7].slice(0, 40)} is how the seventh one starts, and nothing else of it` } },
    ];
    await createRedactor().redactSession(values);
    const text = JSON.stringify(values);
    for (const t of tokens) expect(text).not.toContain(t.split('.')[1]);
    expect(text).toContain('token 0: [REDACTED:jwt]');
    expect(text).toContain('token 149: [REDACTED:jwt#150]');
    expect(text).toContain(`cd ~/app3 && curl -H \\"Authorization: Bearer eyJh\\" -d '[REDACTED:jwt#4]'`);
    expect(text).toContain('cd ~/project && ls ~\\\\Desktop');
    expect(text).toContain(`${tokens[7].slice(0, 40)} is how the seventh one starts`);
  });
});

describe('redactSession with people enough to make the look for them long', () => {
  // 4,000 configured names of letters from a hash, capitalised: where any of them may start is far past the 20 KB
  // of source V8 still optimises, so every string goes to the replacement regex, as before that look existed.
  const word = (seed: string, length: number) =>
    [...createHash('sha256').update(seed).digest()].slice(0, length).map((b, i) => String.fromCharCode((i === 0 ? 65 : 97) + (b % 26))).join('');
  const names = Array.from({ length: 4000 }, (_, i) => `${word(`first ${i}`, 8)} ${word(`last ${i}`, 7)}`);

  it('blanks a name in a string that holds nothing else the regex looks for, in any case, and leaves other strings alone', async () => {
    const values = [
      { type: 'user', message: { content: `thanks to ${names[2345].toUpperCase()} for the review` } },
      { type: 'assistant', message: { content: `${names[17]} and ${names[3999]} agreed` } },
      { type: 'assistant', message: { content: 'nothing personal in this line at all' } },
    ];
    await createRedactor({ names }).redactSession(values);
    expect(values.map((v) => v.message.content)).toEqual([
      'thanks to [REDACTED:name] for the review',
      '[REDACTED:name] and [REDACTED:name] agreed',
      'nothing personal in this line at all',
    ]);
  });
});

describe('a text made each time it is read (a Read result numbered from its file)', () => {
  /** Values where every `i % 3 === 1` record's text is derived (made on each read) when `derive`, plain otherwise; the others are plain. */
  function records(texts: string[], derive: boolean): Array<Record<string, unknown>> {
    return texts.map((text, i) => {
      const block: Record<string, unknown> = { type: 'tool_result', tool_use_id: `t${i}`, content: text };
      if (derive && i % 3 === 1) deriveText(block, 'content', text.length, () => [...text].join(''));
      return { type: 'user', message: { role: 'user', content: [block] } };
    });
  }
  const blockOf = (v: Record<string, unknown>) => ((v.message as { content: Array<Record<string, unknown>> }).content)[0];

  it('is looked at for secrets and redacted like a plain string, with the same placeholders in the same order', async () => {
    const credentials = generateCredentials();
    // Each credential in one text, derived or plain, interleaved: the placeholders are numbered by first finding, so the order must hold.
    const texts = credentials.map((c, i) => `config ${i}\n${c.snippet}\n${'   filler line\n'.repeat(5)}`);
    const derived = records(texts, true);
    const plain = records(texts, false);
    await createRedactor().redactSession(derived);
    await createRedactor().redactSession(plain);
    expect(JSON.stringify(derived)).toBe(JSON.stringify(plain));
    const out = JSON.stringify(derived);
    for (const c of credentials) for (const secret of c.secrets) expect(out, c.format).not.toContain(secret);
    // A derived text that held a secret is a plain value now: what it holds is the redacted text.
    for (const [i, v] of derived.entries()) if (i % 3 === 1) expect(derivedTextOf(blockOf(v))).toBeUndefined();
  });

  it('is carried as clean to the next redaction of a grown session without being held, and a value learnt since is still replaced in it', async () => {
    const key = cleanStringsKey('salt', 'head');
    const password = 'Qv7-lorem-Xk29pz';
    // The password stands bare in a file read: nothing says it is one until a later line names it.
    const texts = Array.from({ length: 9 }, (_, i) => `${String(i + 1).padStart(6)}→const value${i} = compute(${i}); // ${i === 4 ? password : 'plain'}\n`.repeat(20));
    const first = createCleanStrings(key);
    await createRedactor().redactSession(records(texts, true), {}, { clean: first });
    const grown = [...records(texts, true), { type: 'user', message: { role: 'user', content: `export DB_PASSWORD=${password}` } }];
    const clean = createCleanStrings(key, first.toBuffer());
    await createRedactor().redactSession(grown, {}, { clean });
    for (const [i, v] of grown.slice(0, texts.length).entries()) {
      const text = blockOf(v).content as string;
      if (i === 4) {
        // Carried as clean, then changed by what was learnt since: a plain value, redacted.
        expect(text).not.toContain(password);
        expect(derivedTextOf(blockOf(v))).toBeUndefined();
        continue;
      }
      expect(text).toBe(texts[i]);
      // A carried plain string is held by the set of carried strings; a carried derived text is not.
      expect(clean.carried(texts[i])).toBe(i % 3 !== 1);
      if (i % 3 === 1) expect(derivedTextOf(blockOf(v))?.key).toBe('content');
    }
    expect(JSON.stringify(grown)).not.toContain(password);
  });

  it('stays derived when nothing in it is replaced', async () => {
    const texts = Array.from({ length: 9 }, (_, i) => `${String(i + 1).padStart(6)}→export const value${i} = compute(${i}); // nothing secret on this line\n`.repeat(20));
    const derived = records(texts, true);
    const report = await createRedactor().redactSession(derived);
    expect(report.total).toBe(0);
    for (const [i, v] of derived.entries()) {
      expect(blockOf(v).content).toBe(texts[i]);
      if (i % 3 === 1) expect(derivedTextOf(blockOf(v))?.key).toBe('content');
    }
  });
});
