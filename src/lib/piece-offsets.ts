/**
 * Where each piece of a joined text starts (`pieces.join(separator)`, given
 * the pieces' lengths and the separator's), and which piece an offset of the
 * joined text lies in: the last piece starting at or before it, found by
 * bisection. A separator's offsets belong to the piece before it.
 */
export function pieceOffsets(lengths: Iterable<number>, separatorLength: number): { starts: number[]; pieceAt(at: number): number } {
  const starts: number[] = [];
  let at = 0;
  for (const length of lengths) {
    starts.push(at);
    at += length + separatorLength;
  }
  return {
    starts,
    pieceAt(pos: number): number {
      let lo = 0;
      let hi = starts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (starts[mid] <= pos) lo = mid;
        else hi = mid - 1;
      }
      return lo;
    },
  };
}
