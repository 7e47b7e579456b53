/**
 * Regex source for a set of literals built as a trie (`sk-(?:ant-|proj-)`).
 * A flat alternation makes V8 try every literal at every position of the
 * text; a trie rejects a position on its first character. Each literal is
 * given as the regex fragments of its characters (escaped, or a caseless
 * class such as `[aA]`), so literals that differ only in ways the fragments
 * ignore share one path.
 */

type Trie = { end: boolean; next: Map<string, Trie> };

/**
 * How deeply one trie's groups may nest. V8 compiles a regex recursively and
 * aborts the whole process (not an exception) past about 2,700 nested
 * optional groups on Node 22: a session holding thousands of secrets that are
 * prefixes of each other (a token of every length) would end the build.
 */
export const MAX_TRIE_DEPTH = 256;

/**
 * The trie's regex source, `(?!)` (never matches) for no literal. With
 * `shortest`, a literal that is a prefix of longer ones ends the match there
 * (enough to find where one may start); otherwise every literal can match and
 * longer ones are tried first, as in an alternation sorted longest first.
 * A trie deeper than {@link MAX_TRIE_DEPTH} is cut into tries over bands of
 * the literals, longest first, joined as an alternation: a longer literal's
 * band comes first, so the order stays longest first. `maxDepth` is there
 * for tests, to make small tries take that path.
 */
export function trieSource(literals: Iterable<readonly string[]>, shortest = false, maxDepth = MAX_TRIE_DEPTH): string {
  const all = [...literals].filter((l) => l.length > 0);
  if (!all.length) return '(?!)';
  const whole = source(trieOf(all), shortest);
  if (whole.depth <= maxDepth) return whole.text;
  const sorted = all.sort((a, b) => b.length - a.length);
  return `(?:${bands(sorted, 0, sorted.length, shortest, maxDepth).join('|')})`;
}

/** Sources of tries over contiguous ranges of `sorted`, each within the depth; halves a range until it fits (one literal always does). */
function bands(sorted: readonly (readonly string[])[], from: number, to: number, shortest: boolean, maxDepth: number): string[] {
  const { text, depth } = source(trieOf(sorted.slice(from, to)), shortest);
  if (depth <= maxDepth || to - from === 1) return [text];
  const middle = (from + to) >>> 1;
  return [...bands(sorted, from, middle, shortest, maxDepth), ...bands(sorted, middle, to, shortest, maxDepth)];
}

function trieOf(literals: readonly (readonly string[])[]): Trie {
  const root: Trie = { end: false, next: new Map() };
  for (const fragments of literals) {
    let node = root;
    for (const f of fragments) {
      let child = node.next.get(f);
      if (!child) node.next.set(f, (child = { end: false, next: new Map() }));
      node = child;
    }
    node.end = true;
  }
  return root;
}

/** A node being written: the run of single-child nodes before it, its children, and their sources so far. */
interface Frame {
  lead: string;
  run: string;
  node: Trie;
  children: Array<[string, Trie]>;
  parts: string[];
  depth: number;
}

/**
 * The regex source of a trie and how deeply its groups nest. Iterative, with
 * its own stack: a long literal (a secret value) or a deep trie must not
 * recurse once per character or per node.
 */
function source(root: Trie, shortest: boolean): { text: string; depth: number } {
  // A run of single-child nodes is written as one string; a node that ends it is a leaf or opens a group.
  const open = (start: Trie): { run: string; node: Trie; leaf: boolean } => {
    let run = '';
    let node = start;
    while (node.next.size === 1 && !node.end) {
      const [[fragment, child]] = node.next;
      run += fragment;
      node = child;
    }
    return { run, node, leaf: node.end && (shortest || !node.next.size) };
  };
  const first = open(root);
  if (first.leaf) return { text: first.run, depth: 0 };
  const frame = (lead: string, run: string, node: Trie): Frame => ({ lead, run, node, children: [...node.next].reverse(), parts: [], depth: 0 });
  const stack: Frame[] = [frame('', first.run, first.node)];
  for (;;) {
    const top = stack[stack.length - 1];
    const next = top.children.pop();
    if (next) {
      const [fragment, child] = next;
      const o = open(child);
      if (o.leaf) top.parts.push(fragment + o.run);
      else stack.push(frame(fragment, o.run, o.node));
      continue;
    }
    const group = top.parts.length === 1 ? top.parts[0] : `(?:${top.parts.join('|')})`;
    // Greedy: the longer literals through this node are tried before the one that ends here.
    const text = top.lead + top.run + (top.node.end ? `(?:${group})?` : group);
    const depth = top.depth + 1;
    stack.pop();
    if (!stack.length) return { text, depth };
    const parent = stack[stack.length - 1];
    parent.parts.push(text);
    parent.depth = Math.max(parent.depth, depth);
  }
}

const SYNTAX = new Set('.*+?^${}()|[]\\');
const escapeRegex = (c: string): string => (SYNTAX.has(c) ? `\\${c}` : c);

/** A literal's characters as regex fragments that match exactly them. */
export function exactFragments(literal: string): string[] {
  // A loop over code points, not a replace per character: a session's secrets can add up to megabytes.
  const out: string[] = [];
  for (const c of literal) out.push(escapeRegex(c));
  return out;
}

/**
 * A literal's characters as fragments that match them in either case (`[aA]`),
 * without the `i` flag, so the trie can share one regex with case-sensitive
 * literals.
 */
export function caselessFragments(literal: string): string[] {
  return [...literal].map((c) => (c.toLowerCase() !== c.toUpperCase() ? `[${c.toLowerCase()}${c.toUpperCase()}]` : escapeRegex(c)));
}
