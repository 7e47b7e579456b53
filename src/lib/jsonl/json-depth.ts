/**
 * How deeply a line's arrays and objects may nest. `JSON.parse` reads any
 * depth, but the steps after it (redaction, the model, rendering) walk a
 * value recursively, and a line of 50,000 nested brackets (100 KB) overflowed
 * the stack and lost the whole session. Claude Code's records nest a few
 * dozen levels at most.
 */
export const MAX_JSON_DEPTH = 512;

/**
 * Whether `value` nests arrays and objects deeper than `limit` (the value
 * itself is level 1). Walks with its own stack, and stops at the first path
 * that is too deep.
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  const stack: Array<[object, number]> = [[value, 1]];
  for (let top = stack.pop(); top; top = stack.pop()) {
    const [node, depth] = top;
    if (depth > limit) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

/**
 * Whether a parsed JSON text nests deeper than {@link MAX_JSON_DEPTH}: the
 * one check every reader of session files makes. A text shorter than twice
 * the limit cannot hold that many brackets, so most lines skip the walk.
 */
export function nestsTooDeep(text: string, value: unknown): boolean {
  return text.length > 2 * MAX_JSON_DEPTH && nestsDeeperThan(value, MAX_JSON_DEPTH);
}
