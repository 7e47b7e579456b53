import type { Diagnostic } from '../diagnostics.js';
import { classifyUser, messageOf } from './entries.js';
import type { Entry } from './types.js';

interface Node {
  key: string;
  entry: Entry;
  parent?: Node;
  children: Node[];
  /** File index of the newest conversation entry in this subtree, or -1. */
  newest: number;
}

/** The entries of one branch that was rewound away from. */
export interface BranchEntries {
  forkParentUuid: string;
  firstUuid: string;
  entries: Entry[];
}

/** Where the active chain jumps back: a message filed under an entry written long before it (a peer message's stale parent). */
export interface ChainJump {
  /** The entry that jumps, its line, and the line of the parent it names. */
  uuid: string;
  line: number;
  parentLine: number;
}

/** Where the chain is broken: an entry whose parent is not in the file (it starts a new root). */
export interface ChainBreak {
  uuid: string;
  line: number;
  /** Whether this is the file's first entry (a session continued from another file, a trimmed excerpt). */
  first: boolean;
}

export interface ActiveBranch {
  /** Entries of the active conversation, in file order. */
  active: Entry[];
  abandoned: BranchEntries[];
  /** Messages filed under a stale parent, shown in the order written (see `ChainJump`). */
  jumps: ChainJump[];
  /** Entries whose parent is missing (see `ChainBreak`). */
  breaks: ChainBreak[];
  diagnostics: Diagnostic[];
}

/**
 * Builds the `parentUuid` tree of one transcript and resolves its active branch.
 *
 * - Compaction: a `compact_boundary` with `parentUuid: null` hangs off its
 *   `logicalParentUuid`; any other extra root (1.0.x summaries, a missing parent,
 *   a broken cycle) continues the conversation in file order.
 * - A fork is a rewind only when its children begin different human prompts or
 *   different assistant messages (another `message.id`). Then the child whose
 *   subtree holds the newest conversation entry is active and the others are
 *   abandoned. Every other fork (parallel tool calls, progress and hook leaves,
 *   a `!bash` aside) is part of the active transcript.
 * - Duplicate uuids, missing parents, missing uuids and cycles give diagnostics
 *   (a parent in `knownElsewhere`, the spawning session of an agent file, is not missing).
 *
 * Iterative throughout: real sessions have chains of tens of thousands of entries.
 */
export function resolveActiveBranch(entries: Entry[], file: string, knownElsewhere?: ReadonlySet<string>): ActiveBranch {
  const diagnostics: Diagnostic[] = [];
  const report = (line: number, code: Diagnostic['code'], reason: string) => diagnostics.push({ file, line, code, reason });

  const byUuid = new Map<string, Node>();
  const nodes: Node[] = [];
  for (const entry of entries) {
    if (!entry.uuid) {
      if (entry.type === 'user' || entry.type === 'assistant' || entry.type === 'system') {
        report(entry.line, 'missing-uuid', `${entry.type} entry has no uuid; kept in file order under its parent`);
        nodes.push({ key: `line:${entry.line}`, entry, children: [], newest: -1 });
      }
      continue;
    }
    const seen = byUuid.get(entry.uuid);
    if (seen) {
      const identical = JSON.stringify(seen.entry.raw) === JSON.stringify(entry.raw);
      report(entry.line, 'duplicate-uuid', `uuid ${entry.uuid} was already used on line ${seen.entry.line}${identical ? ' (identical copy, skipped)' : ' (different content, the first one is kept)'}`);
      continue;
    }
    const node: Node = { key: entry.uuid, entry, children: [], newest: -1 };
    byUuid.set(entry.uuid, node);
    nodes.push(node);
  }

  const roots: Node[] = [];
  const breaks: ChainBreak[] = [];
  for (const node of nodes) {
    const { parentUuid, logicalParentUuid } = node.entry;
    const parent = parentUuid ? byUuid.get(parentUuid) : logicalParentUuid ? byUuid.get(logicalParentUuid) : undefined;
    if (parent && parent !== node) {
      node.parent = parent;
      parent.children.push(node);
    } else {
      // An agent file hangs off the session that spawned it: a parent in that file is not missing.
      if (parentUuid && !knownElsewhere?.has(parentUuid)) {
        report(node.entry.line, 'missing-parent', `parent ${parentUuid} is not in this file; the entry starts a new root`);
        if (node.entry.uuid) breaks.push({ uuid: node.entry.uuid, line: node.entry.line, first: node === nodes[0] });
      }
      roots.push(node);
    }
  }

  // Nodes not reachable from a root sit on (or under) a parent cycle: cut each cycle
  // at its earliest entry so that nothing is lost and no walk loops.
  const reached = new Set<Node>();
  markReached(roots, reached);
  for (const node of nodes) {
    if (reached.has(node)) continue;
    const path: Node[] = [];
    const onPath = new Set<Node>();
    let cur: Node | undefined = node;
    while (cur && !onPath.has(cur) && !reached.has(cur)) {
      onPath.add(cur);
      path.push(cur);
      cur = cur.parent;
    }
    if (!cur || reached.has(cur)) continue;
    const cycle = path.slice(path.indexOf(cur));
    const head = cycle.reduce((a, b) => (a.entry.index <= b.entry.index ? a : b));
    report(head.entry.line, 'parent-cycle', `parent cycle through lines ${cycle.map((n) => n.entry.line).sort((a, b) => a - b).join(', ')}; cut at line ${head.entry.line}`);
    const parent = head.parent!;
    parent.children = parent.children.filter((c) => c !== head);
    head.parent = undefined;
    roots.push(head);
    markReached([head], reached);
  }
  roots.sort((a, b) => a.entry.index - b.entry.index);

  // Post-order over a breadth-first listing: children are always after their parent.
  const order: Node[] = [];
  for (const root of roots) {
    const queue = [root];
    for (let i = 0; i < queue.length; i++) {
      order.push(queue[i]);
      for (const child of queue[i].children) queue.push(child);
    }
  }
  for (let i = order.length - 1; i >= 0; i--) {
    const n = order[i];
    if (isConversation(n.entry)) n.newest = Math.max(n.newest, n.entry.index);
    if (n.parent) n.parent.newest = Math.max(n.parent.newest, n.newest);
  }

  const abandoned: BranchEntries[] = [];
  const answers = answersToInjected(entries);
  const active = collect(roots, abandoned, answers);
  return { active, abandoned, jumps: findJumps(active, byUuid, answers), breaks, diagnostics };
}

/**
 * A user line Claude Code injected rather than a person typed: another
 * session's or a teammate's message, a background task's notification.
 * Claude Code files such a line (and often the turn that answers it) under
 * whatever entry it last knew, which may be long before it arrived.
 */
function isInjected(entry: Entry): boolean {
  if (entry.type !== 'user') return false;
  const kind = classifyUser(entry);
  return kind === 'agent-message' || kind === 'task-notification';
}

/** Injected lines and the assistant entries written right after one (their answers), by uuid. */
function answersToInjected(entries: Entry[]): Set<string> {
  const out = new Set<string>();
  let lastConversation: Entry | undefined;
  for (const e of entries) {
    if (e.type !== 'user' && e.type !== 'assistant') continue;
    if (e.uuid && (isInjected(e) || (e.type === 'assistant' && lastConversation && e.uuid && out.has(lastConversation.uuid ?? '') && lastConversation.type === 'user'))) out.add(e.uuid);
    lastConversation = e;
  }
  return out;
}

/**
 * The active entries that jump back: an injected line (or its answer) whose
 * parent was written before other conversation that is not its ancestor. One
 * jump per place: an answer filed under the same parent as its message is not
 * a second jump.
 */
function findJumps(active: Entry[], byUuid: Map<string, Node>, answers: Set<string>): ChainJump[] {
  const jumps: ChainJump[] = [];
  let previous: Entry | undefined;
  let lastParent: string | undefined;
  for (const e of active) {
    if (e.type !== 'user' && e.type !== 'assistant') continue;
    const parent = e.parentUuid ? byUuid.get(e.parentUuid)?.entry : undefined;
    if (e.uuid && answers.has(e.uuid) && parent && previous && parent.index < previous.index && parent !== previous && e.parentUuid !== lastParent) {
      jumps.push({ uuid: e.uuid, line: e.line, parentLine: parent.line });
      lastParent = e.parentUuid ?? undefined;
    } else if (!answers.has(e.uuid ?? '')) {
      lastParent = undefined;
    }
    previous = e;
  }
  return jumps;
}

function markReached(starts: Node[], reached: Set<Node>): void {
  const stack = [...starts];
  while (stack.length) {
    const n = stack.pop()!;
    if (reached.has(n)) continue;
    reached.add(n);
    stack.push(...n.children);
  }
}

function isConversation(entry: Entry): boolean {
  if (entry.type === 'assistant') return true;
  if (entry.type !== 'user') return false;
  const kind = classifyUser(entry);
  return kind !== 'meta';
}

/** What starts a branch: a human prompt or an assistant message; anything else is a side step. */
function branchSignature(entry: Entry): string | undefined {
  if (entry.type === 'user' && classifyUser(entry) === 'prompt') return `prompt:${entry.uuid}`;
  if (entry.type === 'assistant') {
    const id = messageOf(entry)?.id;
    return `assistant:${typeof id === 'string' ? id : entry.uuid}`;
  }
  return undefined;
}

/**
 * Walks from the given starts, keeping active children and recording rewound
 * ones. A fork where an injected line (or its answer) meets older work is no
 * rewind: the line was filed under a stale parent, and every branch is kept.
 */
function collect(starts: Node[], abandoned: BranchEntries[], answers: ReadonlySet<string> = new Set()): Entry[] {
  const out: Entry[] = [];
  const stack = [...starts];
  while (stack.length) {
    const n = stack.pop()!;
    out.push(n.entry);
    if (n.children.length === 0) continue;
    if (n.children.length === 1) {
      stack.push(n.children[0]);
      continue;
    }
    const groups = new Map<string, Node[]>();
    for (const child of n.children) {
      const sig = branchSignature(child.entry);
      if (!sig) continue;
      const g = groups.get(sig);
      if (g) g.push(child);
      else groups.set(sig, [child]);
    }
    if (groups.size < 2 || n.children.some((c) => answers.has(c.key))) {
      stack.push(...n.children);
      continue;
    }
    let best: string | undefined;
    let bestNewest = -2;
    for (const [sig, group] of groups) {
      const newest = Math.max(...group.map((c) => c.newest));
      // Ties go to the later branch: a rewind is written after what it replaces.
      const last = Math.max(...group.map((c) => c.entry.index));
      const score = newest * 1 + last / 1e9;
      if (score > bestNewest) {
        bestNewest = score;
        best = sig;
      }
    }
    for (const child of n.children) {
      const sig = branchSignature(child.entry);
      if (!sig || sig === best) {
        stack.push(child);
        continue;
      }
      const entries = collect([child], abandoned, answers).sort((a, b) => a.index - b.index);
      abandoned.push({ forkParentUuid: n.key, firstUuid: child.key, entries });
    }
  }
  return out.sort((a, b) => a.index - b.index);
}
