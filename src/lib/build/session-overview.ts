/**
 * The session overview: what happened, at a glance, and where to jump. It is
 * computed once while a session is rendered (the pages a prompt or call lands
 * on are known only there) and stored small: every list is bounded, and what
 * is left out is counted so the page can say "and N more".
 */
import { toolTally } from '../render/tool-summary.js';
import { resultText } from '../render/tool-data.js';
import { agentsIn, spawnedBy } from '../transcript/entries.js';
import type { Message, Subagent, ToolCall, Turn } from '../transcript/types.js';

/** Most entries kept per overview list; the rest are counted, not stored. */
export const OVERVIEW_LIMITS = { files: 40, subagents: 20, commits: 20, promptFiles: 3 } as const;

/** Tools whose calls change a file, and the input field naming it. */
const FILE_TOOLS: Record<string, string> = { Edit: 'file_path', Write: 'file_path', MultiEdit: 'file_path', NotebookEdit: 'notebook_path' };

/** What one prompt led to: added to its table-of-contents item. */
export interface PromptFacts {
  /** Tool calls the answer made (not its subagents'), by tool display name, most used first: `[name, count]`. */
  tools: Array<[string, number]>;
  /** Calls whose result was an error. */
  errors: number;
  /** From the prompt to the last message of its answer (the turn's own duration when the log has one). */
  durationMs?: number;
  /** Files it changed (its subagents' changes included), at most `OVERVIEW_LIMITS.promptFiles`. */
  files: string[];
  filesMore: number;
}

/** Where in the session something happened: the page and the message to link to. */
export interface OverviewPlace {
  page: number;
  uuid: string;
  /** The prompt it answers (0 before the first prompt). */
  prompt: number;
}

export interface OverviewFile extends OverviewPlace {
  path: string;
  /** Calls that changed it, its subagents' included. */
  edits: number;
}

export interface OverviewSubagent extends OverviewPlace {
  agentType?: string;
  description?: string;
  /** Its own tool calls (nested subagents' not counted). */
  toolCalls: number;
  durationMs?: number;
}

export interface OverviewCommit extends OverviewPlace {
  /** First line of the commit message: from git's own `[branch hash] subject` line when the result has one, else from `-m`. */
  message: string;
  hash?: string;
  /** The command's result was an error (nothing committed, a hook refused…). */
  failed: boolean;
}

export interface SessionOverview {
  files: OverviewFile[];
  filesMore: number;
  subagents: OverviewSubagent[];
  subagentsMore: number;
  commits: OverviewCommit[];
  commitsMore: number;
}

/** Every tool call of a turn's assistant messages, in order (not those of subagents). */
export function turnCalls(messages: Message[]): ToolCall[] {
  return messages.flatMap((m) => (m.kind === 'assistant' ? m.toolCalls : []));
}

/** The file a call changes, or undefined for a call that changes none. */
export function changedFile(call: ToolCall): string | undefined {
  const field = FILE_TOOLS[call.name];
  const v = field ? call.input[field] : undefined;
  return typeof v === 'string' && v.trim() ? v.trim() : undefined;
}


/** The calls' subagents and theirs, depth first. */
function nestedSubagents(calls: ToolCall[]): Subagent[] {
  return calls.flatMap((c) => spawnedBy(c).flatMap((sub) => [sub, ...nestedSubagents(turnCalls(sub.messages))]));
}

/** Every file-changing call of a turn, its subagents' (at any depth) included, in order. */
export function fileChanges(calls: ToolCall[]): Array<{ call: ToolCall; path: string }> {
  const all = [...calls, ...nestedSubagents(calls).flatMap((s) => turnCalls(s.messages))];
  return all.flatMap((call) => {
    const path = changedFile(call);
    return path ? [{ call, path }] : [];
  });
}

const GIT_COMMIT = /\bgit\b(?:\s+-[Cc]\s+\S+)*\s+commit\b/;

/** The `git commit` commands of a Bash call (`git add . && git commit -m …` included). */
export function isGitCommit(call: ToolCall): boolean {
  const cmd = call.input.command;
  return call.name === 'Bash' && typeof cmd === 'string' && GIT_COMMIT.test(cmd);
}

/**
 * The first line of the message a `git commit` command gives: a heredoc
 * (`-m "$(cat <<'EOF' … EOF)"`), a quoted `-m`/`--message`, or an unquoted word.
 */
export function commitMessageFromCommand(command: string): string | undefined {
  const at = command.search(GIT_COMMIT);
  const tail = at >= 0 ? command.slice(at) : command;
  const heredoc = /<<-?\s*['"]?(\w+)['"]?\s*\n([\s\S]*?)\n\s*\1\b/.exec(tail);
  if (heredoc) return firstLine(heredoc[2]);
  const quoted = /(?:\s-[a-zA-Z]*m|\s--message)(?:\s+|=)(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([^\s;&|]+))/.exec(tail);
  if (!quoted) return undefined;
  return firstLine((quoted[1] ?? quoted[2] ?? quoted[3] ?? '').replace(/\\(["\\$`])/g, '$1'));
}

/** git's summary line after a commit: `[main 1a2b3c4] Subject` (also `[main (root-commit) 1a2b3c4]`). */
const COMMIT_LINE = /^\[[^\]\s]+(?: \([^)]*\))? ([0-9a-f]{7,40})\] (.+)$/m;

function commitOf(call: ToolCall): { message: string; hash?: string; failed: boolean } | undefined {
  const text = call.result ? resultText(call.result) : '';
  const line = COMMIT_LINE.exec(text);
  const message = line?.[2].trim() ?? commitMessageFromCommand(String(call.input.command));
  if (!message) return undefined;
  return { message, hash: line?.[1], failed: !line && (call.result?.isError ?? false) };
}

function firstLine(text: string): string | undefined {
  const line = text.split('\n').map((l) => l.trim()).find(Boolean);
  return line ? line.slice(0, 200) : undefined;
}

/**
 * The turn's own duration when the log has one, else from the prompt to the
 * last assistant message: later system lines or attachments of the turn can
 * come long after the answer and would inflate it.
 */
function turnDuration(turn: Turn): number | undefined {
  if (turn.durationMs !== undefined) return turn.durationMs;
  const start = turn.prompt?.timestamp ? Date.parse(turn.prompt.timestamp) : NaN;
  const answers = turn.messages.filter((m) => m.kind === 'assistant' && m.timestamp).map((m) => Date.parse(m.timestamp!));
  const end = answers.length ? Math.max(...answers.filter((t) => Number.isFinite(t))) : NaN;
  return Number.isFinite(start) && Number.isFinite(end) && end >= start ? end - start : undefined;
}

/** The message a call is shown in: the assistant message that holds it (anchors name messages, not entries). */
function messageOf(turn: Turn, call: ToolCall): string {
  const m = turn.messages.find((x) => x.kind === 'assistant' && x.toolCalls.includes(call));
  return m?.uuid ?? turn.prompt?.uuid ?? turn.messages[0]?.uuid ?? '';
}

/**
 * Collects the overview turn by turn, in reading order: `add` returns the
 * facts of the turn's prompt; `result` the session's lists, bounded.
 */
export function createOverviewCollector() {
  const files = new Map<string, OverviewFile>();
  const subagents: OverviewSubagent[] = [];
  const commits: OverviewCommit[] = [];
  let subagentCount = 0;
  let commitCount = 0;

  return {
    /** `page`: the page of the turn, or of each message by its uuid (a turn split by weight spans pages). */
    add(turn: Turn, page: number | ((uuid: string) => number)): PromptFacts {
      const prompt = turn.prompt ? turn.index : 0;
      const pageOf = typeof page === 'function' ? page : () => page;
      const calls = turnCalls(turn.messages);
      const changed = fileChanges(calls);
      for (const { call, path } of changed) {
        const known = files.get(path);
        if (known) known.edits++;
        else {
          const uuid = messageOf(turn, calls.includes(call) ? call : ownerCall(calls, call));
          files.set(path, { path, edits: 1, page: pageOf(uuid), prompt, uuid });
        }
      }
      // Agents in reading order: those the calls spawned, and forks where they were forked.
      for (const m of turn.messages) {
        for (const sub of agentsIn(m, false)) {
          subagentCount++;
          const call = m.kind === 'assistant' ? m.toolCalls.find((c) => spawnedBy(c).includes(sub)) : undefined;
          if (subagents.length < OVERVIEW_LIMITS.subagents) subagents.push(subagentEntry(sub, call, { page: pageOf(m.uuid), prompt, uuid: m.uuid }));
        }
      }
      for (const call of calls) {
        if (isGitCommit(call)) {
          const c = commitOf(call);
          if (!c) continue;
          commitCount++;
          if (commits.length < OVERVIEW_LIMITS.commits) {
            const uuid = messageOf(turn, call);
            commits.push({ ...c, page: pageOf(uuid), prompt, uuid });
          }
        }
      }
      const paths = [...new Set(changed.map((c) => c.path))];
      return {
        tools: toolTally(calls).map((t): [string, number] => [t.tool, t.count]),
        errors: calls.filter((c) => c.result?.isError).length,
        durationMs: turnDuration(turn),
        files: paths.slice(0, OVERVIEW_LIMITS.promptFiles),
        filesMore: Math.max(0, paths.length - OVERVIEW_LIMITS.promptFiles),
      };
    },
    result(): SessionOverview {
      const all = [...files.values()];
      return {
        files: all.slice(0, OVERVIEW_LIMITS.files),
        filesMore: Math.max(0, all.length - OVERVIEW_LIMITS.files),
        subagents,
        subagentsMore: subagentCount - subagents.length,
        commits,
        commitsMore: commitCount - commits.length,
      };
    },
  };
}

/** The session-level call whose subagent (at any depth) made `inner`. */
function ownerCall(calls: ToolCall[], inner: ToolCall): ToolCall {
  return calls.find((c) => nestedSubagents([c]).some((s) => turnCalls(s.messages).includes(inner))) ?? inner;
}

/** A subagent as the overview lists it; a Task's type and description fall back to the call's own input. */
function subagentEntry(sub: Subagent, call: ToolCall | undefined, place: OverviewPlace): OverviewSubagent {
  const input = (k: string) => (call && sub === call.subagent && typeof call.input[k] === 'string' ? (call.input[k] as string) : undefined);
  return {
    ...place,
    agentType: sub.agentType ?? input('subagent_type'),
    description: (sub.description ?? input('description') ?? (sub.noTranscript ? 'Workflow agent (no transcript kept)' : undefined))?.slice(0, 200),
    toolCalls: turnCalls(sub.messages).length,
    durationMs: sub.stats.durationMs,
  };
}
