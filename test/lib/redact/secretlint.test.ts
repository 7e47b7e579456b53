import { describe, expect, it } from 'vitest';
import { secretlintValues } from '../../../src/lib/redact/secretlint.js';

const GHP = 'ghp_' + 'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z05';
const SLACK = 'xoxb-' + '123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx';

describe('secretlintValues', () => {
  it('names the string each secret was found in, by its index in the list', async () => {
    const strings = ['nothing to see', `token ${GHP} here`, '', 'still nothing', `slack ${SLACK}`];
    const hits = await secretlintValues(strings);
    expect(hits.length).toBeGreaterThanOrEqual(2);
    for (const hit of hits) expect(strings[hit.source]).toContain(hit.value);
    expect(new Set(hits.map((h) => h.source))).toEqual(new Set([1, 4]));
  });
});
