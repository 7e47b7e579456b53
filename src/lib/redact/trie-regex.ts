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
 * The trie's regex source, `(?!)` (never matches) for no literal. With
 * `shortest`, a literal that is a prefix of longer ones ends the match there
 * (enough to find where one may start); otherwise every literal can match and
 * longer ones are tried first, as in an alternation sorted longest first.
 */
export function trieSource(literals: Iterable<readonly string[]>, shortest = false): string {
  const root: Trie = { end: false, next: new Map() };
  let any = false;
  for (const fragments of literals) {
    if (!fragments.length) continue;
    any = true;
    let node = root;
    for (const f of fragments) {
      let child = node.next.get(f);
      if (!child) node.next.set(f, (child = { end: false, next: new Map() }));
      node = child;
    }
    node.end = true;
  }
  return any ? source(root, shortest) : '(?!)';
}

function source(start: Trie, shortest: boolean): string {
  // A run of single-child nodes is written in a loop: a long literal (a secret value) must not recurse once per character.
  let out = '';
  let node = start;
  while (node.next.size === 1 && !node.end) {
    const [[fragment, child]] = node.next;
    out += fragment;
    node = child;
  }
  if (node.end && (shortest || !node.next.size)) return out;
  const alternatives = [...node.next].map(([fragment, child]) => fragment + source(child, shortest));
  const group = alternatives.length === 1 ? alternatives[0] : `(?:${alternatives.join('|')})`;
  // Greedy: the longer literals through this node are tried before the one that ends here.
  return out + (node.end ? `(?:${group})?` : group);
}

const escapeRegex = (c: string): string => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A literal's characters as regex fragments that match exactly them. */
export function exactFragments(literal: string): string[] {
  return [...literal].map(escapeRegex);
}

/**
 * A literal's characters as fragments that match them in either case (`[aA]`),
 * without the `i` flag, so the trie can share one regex with case-sensitive
 * literals.
 */
export function caselessFragments(literal: string): string[] {
  return [...literal].map((c) => (c.toLowerCase() !== c.toUpperCase() ? `[${c.toLowerCase()}${c.toUpperCase()}]` : escapeRegex(c)));
}
