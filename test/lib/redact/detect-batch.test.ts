import { describe, expect, it } from 'vitest';
import { detectBatch } from '../../../src/lib/redact/detect-batch.js';
import { compilePatterns } from '../../../src/lib/redact/rules.js';

const GHP = 'ghp_' + 'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z05';

describe('detectBatch', () => {
  it('gives each value, login and name once, in the order first found, and every string anything was found in', async () => {
    const strings = [
      'nothing here at all',
      'cd /home/adalove/app && ls',
      `export TOKEN=${GHP}`,
      'cat /home/adalove/app/notes.txt',
      'the code ZX-12345-SECRET again',
      `again ${GHP} and /home/adalove`,
      'still nothing to see',
    ];
    const found = await detectBatch(strings, compilePatterns([{ name: 'deploy code', pattern: 'ZX-[0-9]{5}-SECRET' }]));
    const logins = found.ours.filter((f) => 'person' in f && f.value === 'adalove');
    expect(logins).toEqual([{ person: 'username', value: 'adalove' }]);
    const values = found.ours.filter((f) => 'rule' in f).map((f) => f.value);
    expect(new Set(values).size).toBe(values.length);
    expect(values).toContain('ZX-12345-SECRET');
    // The login's first finding comes before the code's: the order our rules met them.
    expect(found.ours.findIndex((f) => f.value === 'adalove')).toBeLessThan(found.ours.findIndex((f) => f.value === 'ZX-12345-SECRET'));
    expect(found.oursIn).toEqual([1, 2, 3, 4, 5]);
    expect(found.secretlint.map((h) => h.source)).toEqual(expect.arrayContaining([2, 5]));
  });
});
