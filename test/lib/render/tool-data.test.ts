import { describe, expect, it } from 'vitest';
import { computeHunks, countLines, editLineCounts } from '../../../src/lib/render/tool-data.js';

describe('computeHunks and editLineCounts', () => {
  const oldText = 'one\ntwo\nthree\n';
  const newText = 'one\n2\n3\nthree\n';

  it('gives the hunks between two texts, and the lines they add and remove', () => {
    const hunks = computeHunks(oldText, newText);
    expect(hunks[0].lines).toEqual([' one', '-two', '+2', '+3', ' three']);
    expect(countLines(hunks)).toEqual({ added: 2, removed: 1 });
  });

  it("counts an edit's lines once, when its diff is drawn, for its row and its Markdown twin", () => {
    const edit = { old_string: oldText, new_string: newText };
    computeHunks(oldText, newText, edit);
    const counts = editLineCounts(oldText, newText, edit);
    expect(counts).toEqual({ added: 2, removed: 1 });
    expect(editLineCounts(oldText, newText, edit), 'the counts kept with the edit').toBe(counts);
    // An edit whose diff was not drawn gets its counts all the same, counted once too.
    const undrawn = {};
    const first = editLineCounts(oldText, newText, undrawn);
    expect(first).toEqual(counts);
    expect(editLineCounts(oldText, newText, undrawn)).toBe(first);
  });

  it('counts again when the owner comes with other texts', () => {
    const edit = {};
    computeHunks(oldText, newText, edit);
    expect(editLineCounts(oldText, 'one\ntwo\nthree\nfour\n', edit)).toEqual({ added: 1, removed: 0 });
    expect(editLineCounts(oldText, newText, edit)).toEqual({ added: 2, removed: 1 });
  });
});
