import { describe, expect, it } from 'vitest';
import { cleanStringsKey, createCleanStrings } from '../../../src/lib/redact/clean-strings.js';
import { createRedactor } from '../../../src/lib/redact/redactor.js';
import type { RedactionProgress } from '../../../src/lib/redact/types.js';

const TOKEN = 'ghp_' + 'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z05';

/** A session of many lines (several MB of distinct strings, so our rules report on the way), one holding a token. */
const lines = () =>
  Array.from({ length: 3000 }, (_, i) => ({
    type: 'user',
    message: { content: i === 1234 ? `deploy with ${TOKEN}` : `line ${i}: ${'plain words of a long tool output '.repeat(40)}` },
  }));
/** The length of the session's distinct strings long enough to hold a secret: its lines' text and the keys of seven letters. */
const distinctLength = (values: ReturnType<typeof lines>) => values.reduce((n, v) => n + v.message.content.length, 0) + 'message'.length + 'content'.length;

describe('redactSession progress', () => {
  it('reports looking for secrets from nothing to all of it, in order, then the replacing, and redacts as without it', async () => {
    const seen: RedactionProgress[] = [];
    const values = lines();
    const report = await createRedactor().redactSession(values, {}, undefined, (p) => seen.push(p));
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
    // Reports on the way, not only at the ends: secretlint's half, then ours by the megabyte.
    expect(looked.some((p) => p.done === total / 2)).toBe(true);
    expect(looked.filter((p) => p.done > total / 2 && p.done < total).length).toBeGreaterThan(0);
    expect(seen.at(-1)).toEqual({ step: 'replace' });
    expect(seen.filter((p) => p.step === 'replace')).toHaveLength(1);
  });

  it('counts only the strings it looks at: those its last redaction found clean are not', async () => {
    const key = cleanStringsKey('salt', 'head');
    const first = createCleanStrings(key);
    await createRedactor().redactSession(lines(), {}, first);
    const seen: RedactionProgress[] = [];
    await createRedactor().redactSession(lines(), {}, createCleanStrings(key, first.toBuffer()), (p) => seen.push(p));
    const looked = seen.filter((p) => p.step === 'detect');
    // Every string but the token's was clean last time: only that one is looked at again.
    expect(looked.at(-1)).toEqual({ step: 'detect', done: 2 * `deploy with ${TOKEN}`.length, total: 2 * `deploy with ${TOKEN}`.length });
  });
});
