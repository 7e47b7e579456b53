import { describe, expect, it } from 'vitest';
import { pieceOffsets } from '../../src/lib/piece-offsets.js';

describe('pieceOffsets', () => {
  it('tells which piece of a joined text every offset lies in, a separator counting with the piece before it', () => {
    const pieces = ['alpha', '', 'be', 'gamma'];
    const joined = pieces.join('\n--\n');
    // Each offset's owner, written out: a piece's characters, then the separator after it.
    const owner = pieces.flatMap((p, i) => Array.from({ length: p.length + (i < pieces.length - 1 ? 4 : 0) }, () => i));
    expect(owner).toHaveLength(joined.length);
    const { starts, pieceAt } = pieceOffsets(pieces.map((p) => p.length), 4);
    expect(starts).toEqual([0, 9, 13, 19]);
    for (const [i, start] of starts.entries()) expect(joined.startsWith(pieces[i] + (i < pieces.length - 1 ? '\n--\n' : ''), start)).toBe(true);
    // The empty piece owns only its separator; every offset has the piece it was written for.
    for (let at = 0; at < joined.length; at++) expect(pieceAt(at)).toBe(owner[at]);
  });

  it('finds the only piece of a text of one piece', () => {
    expect(pieceOffsets([10], 1).pieceAt(7)).toBe(0);
  });
});
