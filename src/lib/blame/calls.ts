/**
 * What a session did to files, in the order it did it: every Write, Edit,
 * MultiEdit and NotebookEdit call (and every whole-file Read and Bash command,
 * which tell what changed between edits) of the session, its subagents, its
 * workflow agents, its forks and its teammates, with the prompt each answered.
 * Pure: works on the model (src/lib/transcript/types.ts) of an opened session.
 */
import { agentsIn, spawnedBy } from '../transcript/entries.js';
import { paginateTurns } from '../site/pages.js';
import { promptTitleText, shortenTitle } from '../transcript/build-session.js';
import type { AssistantMessage, Message, Session, Subagent, ToolCall } from '../transcript/types.js';

/** Who made a call: the session itself, or one of its agents. */
export interface AgentRef {
  kind: 'main' | 'subagent' | 'workflow' | 'teammate' | 'fork';
  /** The agent's name, type or description, when it has one. */
  name?: string;
}

/** One call as blame reports it. */
export interface CallRef {
  /** The `tool_use` id: the call's permalink anchor. */
  id: string;
  tool: string;
  /** The prompt the call answered (the main session's prompt an agent's call served). */
  prompt?: { index: number; text: string };
  model?: string;
  agent: AgentRef;
  /** When it ran (the result's time, else the message's). */
  timestamp?: string;
  /** The page of the session that shows it (1-based). */
  page: number;
  /** For a Bash call: its command (redacted, as the session holds it). */
  command?: string;
}

/** One edit of a string, as Edit and MultiEdit take it. */
export interface StringEdit {
  oldString: string;
  newString: string;
  replaceAll: boolean;
}

/** What a call did to one file. */
export type FileOp =
  | { op: 'write'; path: string; content: string }
  | { op: 'edit'; path: string; edits: StringEdit[]; original?: string; patchAdded?: string[] }
  | { op: 'notebook'; path: string; source: string }
  | { op: 'observe'; path: string; content: string };

/** A call that touched files (or ran a command), in the order the session made it. */
export interface SessionEvent {
  call: CallRef;
  /** Order within the session: time first, then the order the transcript shows. */
  seq: number;
  ops: FileOp[];
  /** Set for a Bash call. */
  bash?: boolean;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const obj = (v: unknown): Record<string, unknown> | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined);

/** The lines a `structuredPatch` adds (`+` lines of every hunk), or undefined when there is none. */
function patchAdded(result: Record<string, unknown> | undefined): string[] | undefined {
  const hunks = result?.structuredPatch;
  if (!Array.isArray(hunks)) return undefined;
  const out: string[] = [];
  for (const h of hunks) {
    const lines = obj(h)?.lines;
    if (Array.isArray(lines)) for (const l of lines) if (typeof l === 'string' && l.startsWith('+')) out.push(l.slice(1));
  }
  return out;
}

/** What one call did to files; empty for a call that failed, never finished, or touches no file. */
export function fileOpsOf(call: ToolCall): FileOp[] {
  if (!call.result || call.result.isError) return [];
  const input = call.input;
  const result = obj(call.result.toolUseResult);
  const original = str(result?.originalFile) ?? str(result?.originalFileContents);
  switch (call.name) {
    case 'Write': {
      const path = str(input.file_path) ?? str(result?.filePath);
      const content = str(input.content) ?? str(result?.content);
      return path !== undefined && content !== undefined ? [{ op: 'write', path, content }] : [];
    }
    case 'Edit': {
      const path = str(input.file_path) ?? str(result?.filePath);
      const oldString = str(input.old_string) ?? str(result?.oldString);
      const newString = str(input.new_string) ?? str(result?.newString);
      if (path === undefined || oldString === undefined || newString === undefined) return [];
      const replaceAll = input.replace_all === true || result?.replaceAll === true;
      return [{ op: 'edit', path, edits: [{ oldString, newString, replaceAll }], ...(original !== undefined ? { original } : {}), ...(patchAdded(result) ? { patchAdded: patchAdded(result) } : {}) }];
    }
    case 'MultiEdit': {
      const path = str(input.file_path) ?? str(result?.filePath);
      const list = Array.isArray(input.edits) ? input.edits : Array.isArray(result?.edits) ? result.edits : [];
      const edits: StringEdit[] = [];
      for (const e of list) {
        const o = obj(e);
        const oldString = str(o?.old_string);
        const newString = str(o?.new_string);
        if (oldString !== undefined && newString !== undefined) edits.push({ oldString, newString, replaceAll: o?.replace_all === true });
      }
      if (path === undefined || !edits.length) return [];
      return [{ op: 'edit', path, edits, ...(original !== undefined ? { original } : {}), ...(patchAdded(result) ? { patchAdded: patchAdded(result) } : {}) }];
    }
    case 'NotebookEdit': {
      const path = str(input.notebook_path);
      const mode = str(input.edit_mode) ?? str(result?.edit_mode);
      const source = str(input.new_source) ?? str(result?.new_source);
      if (path === undefined || source === undefined || mode === 'delete') return [];
      return [{ op: 'notebook', path, source }];
    }
    case 'Read': {
      // A whole file read is a snapshot of it: what changed since the last edit was not this session's tools.
      const file = obj(result?.file);
      const path = str(input.file_path) ?? str(file?.filePath);
      const content = str(file?.content);
      if (path === undefined || content === undefined || input.offset !== undefined || input.limit !== undefined) return [];
      const start = file?.startLine;
      const num = file?.numLines;
      const total = file?.totalLines;
      if ((start !== undefined && start !== 1) || (typeof num === 'number' && typeof total === 'number' && num < total)) return [];
      return [{ op: 'observe', path, content }];
    }
    default:
      return [];
  }
}

/** A prompt's number and first words. */
function promptOf(index: number, text: string | undefined): CallRef['prompt'] {
  return { index, text: shortenTitle(promptTitleText(text ?? ''), 60) || '(empty prompt)' };
}

/** The agent kind of a subagent, by how it came to be. */
function agentRefOf(sub: Subagent): AgentRef {
  const kind: AgentRef['kind'] = sub.role === 'teammate' ? 'teammate' : sub.role === 'fork' ? 'fork' : sub.workflowRunId ? 'workflow' : 'subagent';
  const name = sub.name ?? sub.agentType ?? sub.description;
  return name ? { kind, name } : { kind };
}

/**
 * Every call of a session that writes, reads whole or runs a command, with
 * the prompt, page, model and agent of each, ordered by when it ran (the
 * transcript's order breaks ties and orders calls without a time).
 */
export function sessionEvents(session: Session, pageSize: number): SessionEvent[] {
  const events: Array<Omit<SessionEvent, 'seq'> & { order: number; time: number }> = [];
  const seen = new Set<Subagent>();
  let order = 0;
  const visit = (messages: Message[], page: number, prompt: CallRef['prompt'], agent: AgentRef) => {
    for (const m of messages) {
      if (m.kind === 'assistant') for (const call of m.toolCalls) addCall(call, m, page, prompt, agent);
      const agents = m.kind === 'assistant' ? [] : agentsIn(m, false);
      for (const sub of agents) enter(sub, page, prompt);
    }
  };
  const enter = (sub: Subagent, page: number, prompt: CallRef['prompt']) => {
    if (seen.has(sub)) return;
    seen.add(sub);
    visit(sub.messages, page, prompt, agentRefOf(sub));
  };
  const addCall = (call: ToolCall, m: AssistantMessage, page: number, prompt: CallRef['prompt'], agent: AgentRef) => {
    const timestamp = call.result?.timestamp ?? m.timestamp;
    const ref: CallRef = { id: call.id, tool: call.name, page, agent, ...(prompt ? { prompt } : {}), ...(m.model ? { model: m.model } : {}), ...(timestamp ? { timestamp } : {}) };
    const time = timestamp ? Date.parse(timestamp) : Number.NaN;
    if (call.name === 'Bash' && call.result && !call.result.isError) {
      const command = str(call.input.command);
      if (command !== undefined) events.push({ call: { ...ref, command }, ops: [], bash: true, order: order++, time });
    } else {
      const ops = fileOpsOf(call);
      if (ops.length) events.push({ call: ref, ops, order: order++, time });
    }
    for (const sub of spawnedBy(call)) enter(sub, page, prompt);
  };
  for (const [i, turns] of paginateTurns(session.turns, pageSize).entries()) {
    for (const turn of turns) visit(turn.messages, i + 1, turn.prompt ? promptOf(turn.index, turn.prompt.text) : undefined, { kind: 'main' });
  }
  // Calls with no time keep their place after the last timed call before them.
  let last = Number.NEGATIVE_INFINITY;
  for (const e of events) {
    if (Number.isNaN(e.time)) e.time = last;
    else last = Math.max(last, e.time);
  }
  events.sort((a, b) => a.time - b.time || a.order - b.order);
  return events.map(({ order: _o, time: _t, ...e }, seq) => ({ ...e, seq }));
}

/**
 * The roots a session's absolute paths are relative to: its project path
 * (`cwd`), every other `cwd` its prompts were typed in, and its worktree and
 * the folder it entered that from.
 */
export function sessionRoots(session: Session): string[] {
  const roots = new Set<string>();
  const add = (p: unknown) => {
    if (typeof p === 'string' && (p.startsWith('/') || p.startsWith('~') || /^[A-Za-z]:[\\/]/.test(p))) roots.add(toSlashes(p).replace(/\/+$/, ''));
  };
  add(session.facts.projectPath);
  add(session.facts.worktree?.path);
  add(session.facts.worktree?.enteredFrom);
  for (const m of session.messages) if (m.kind === 'user') add(m.raw.cwd);
  return [...roots].filter(Boolean);
}

function toSlashes(p: string): string {
  return p.replace(/\\/g, '/');
}

/**
 * The path a session's file has in the pull request, or undefined when it is
 * none of the changed files: the longest changed path the file's path ends
 * with, whose remaining prefix is one of the session's roots or a folder above
 * one (the git root above a `cwd` in a subfolder). A relative path is taken
 * from the first root. Another machine's checkout under another path is fine:
 * only the session's own roots are compared with its own paths.
 */
export function repoPathOf(filePath: string, roots: string[], changed: ReadonlySet<string>): string | undefined {
  const p = toSlashes(filePath);
  if (!p.startsWith('/') && !p.startsWith('~') && !/^[A-Za-z]:\//.test(p)) return changed.has(p.replace(/^\.\//, '')) ? p.replace(/^\.\//, '') : undefined;
  const parts = p.split('/');
  // Longest first; the prefix is at least one folder deep (never the file system's root or `~` alone).
  for (let k = 2; k < parts.length; k++) {
    const candidate = parts.slice(k).join('/');
    if (!changed.has(candidate)) continue;
    const prefix = parts.slice(0, k).join('/');
    if (prefix === '~') continue;
    if (roots.some((r) => r === prefix || r.startsWith(`${prefix}/`))) return candidate;
  }
  return undefined;
}
