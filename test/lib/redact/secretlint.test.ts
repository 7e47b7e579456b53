import { describe, expect, it } from 'vitest';
import { SECRETLINT_CHUNK, secretlintChunk, secretlintChunks, SEPARATOR } from '../../../src/lib/redact/secretlint.js';

const GHP = 'ghp_' + 'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z05';
const SLACK = 'xoxb-' + '123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx';

describe('secretlintChunk', () => {
  it('names the string each secret was found in, by its index in the chunk', async () => {
    const strings = ['nothing to see', `token ${GHP} here`, '', 'still nothing', `slack ${SLACK}`];
    const hits = await secretlintChunk(strings);
    expect(hits.length).toBeGreaterThanOrEqual(2);
    for (const hit of hits) expect(strings[hit.source]).toContain(hit.value);
    expect(new Set(hits.map((h) => h.source))).toEqual(new Set([1, 4]));
  });
});

describe('secretlintChunks', () => {
  it('cuts the strings in order into chunks of at most a chunk\'s length joined, a longer string alone', () => {
    const line = 'x'.repeat(100_000);
    const long = 'y'.repeat(SECRETLINT_CHUNK + 10);
    const strings = [...Array.from({ length: 100 }, (_, i) => `${i}${line}`), long, ...Array.from({ length: 50 }, (_, i) => `${i}${line}`)];
    const chunks = secretlintChunks(strings);
    expect(chunks.flat()).toEqual(strings);
    expect(chunks.length).toBeGreaterThanOrEqual(3);
    expect(chunks).toContainEqual([long]);
    for (const chunk of chunks) if (chunk.length > 1) expect(chunk.join(SEPARATOR).length).toBeLessThanOrEqual(SECRETLINT_CHUNK);
    // Full chunks: the next string would not have fitted.
    for (const [i, chunk] of chunks.slice(0, -1).entries()) expect(chunk.join(SEPARATOR).length + SEPARATOR.length + chunks[i + 1][0].length).toBeGreaterThan(SECRETLINT_CHUNK);
    expect(secretlintChunks([])).toEqual([]);
  });
});
