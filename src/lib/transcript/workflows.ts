/**
 * Workflow runs (2.1.2xx): the `Workflow` tool runs a script that fans out
 * into agents whose files live under `<session>/subagents/workflows/<runId>/`.
 * Many of those files are empty (0 bytes, or an empty `.meta.json`): Claude
 * Code kept no transcript, which is a fact to show, not a problem. Beside
 * them, `journal.jsonl` records each agent's start and result
 * (`{"type":"started"|"result","key":"v2:<sha256>","agentId",…}`): not
 * transcript, but it names agents and keeps results their files do not.
 * Pure data.
 */
import type { JsonlRecord } from '../jsonl/read-jsonl.js';
import type { Subagent } from './types.js';

/** What a run's journal says about one agent. */
export interface JournalAgent {
  agentId: string;
  /** Position of its first line in the journal: the run's start order. */
  order: number;
  /** What it was asked or is called, when the journal says (`label`, `description`, `name`, `prompt`). */
  label?: string;
  /** What it returned, as text, when the journal holds it. */
  result?: string;
}

const LABEL_FIELDS = ['label', 'description', 'name', 'title', 'prompt'] as const;
const RESULT_FIELDS = ['result', 'output', 'text', 'summary', 'content', 'value'] as const;
/** Characters of a journal result kept: it stands beside a transcript, not in place of a log. */
const RESULT_MAX = 4000;

/** Reads a run's journal into its agents, by agent id; lines without an agent id are skipped. */
export function readJournal(records: JsonlRecord[]): Map<string, JournalAgent> {
  const out = new Map<string, JournalAgent>();
  records.forEach((r, i) => {
    const v = r.value;
    const agentId = typeof v.agentId === 'string' && v.agentId ? v.agentId : undefined;
    if (!agentId) return;
    let a = out.get(agentId);
    if (!a) out.set(agentId, (a = { agentId, order: i }));
    const label = firstText(v, LABEL_FIELDS);
    if (label && !a.label) a.label = label;
    if (v.type === 'result') {
      const result = firstText(v, RESULT_FIELDS);
      if (result) a.result = result.length > RESULT_MAX ? `${result.slice(0, RESULT_MAX)}…` : result;
    }
  });
  return out;
}

/** The first field that holds text: a string, or an object's `text`/`content` string. */
function firstText(v: Record<string, unknown>, fields: readonly string[]): string | undefined {
  for (const f of fields) {
    const x = v[f];
    if (typeof x === 'string' && x.trim()) return x.trim();
    if (x && typeof x === 'object' && !Array.isArray(x)) {
      const inner = (x as Record<string, unknown>).text ?? (x as Record<string, unknown>).content;
      if (typeof inner === 'string' && inner.trim()) return inner.trim();
    }
  }
  return undefined;
}

/** An agent of a run whose file holds no entries (or that only the journal names). */
export function emptyWorkflowAgent(agentId: string, runId: string, file?: string): Subagent {
  return { agentId, file, source: 'file', prompt: '', messages: [], turns: [], stats: { toolUseCount: 0 }, workflowRunId: runId, noTranscript: true };
}

/** Whether two agent ids name the same agent (a file's id may carry an `a` the journal's lacks, or the other way round). */
function sameAgent(a: string | undefined, b: string): boolean {
  return !!a && (a === b || a === `a${b}` || `a${a}` === b);
}

/**
 * Completes a run's agents from its journal: an agent the journal names but
 * no file holds gets an empty entry (no transcript kept), each agent gets the
 * journal's label when it has no description and the journal's result when
 * its transcript has no reply of its own, and the agents go in the order the
 * journal started them (else by their first timestamp, else by file name).
 */
export function completeRun(runId: string, agents: Subagent[], journal: Map<string, JournalAgent> | undefined): Subagent[] {
  const out = [...agents];
  for (const j of journal?.values() ?? []) {
    const sub = out.find((a) => sameAgent(a.agentId, j.agentId));
    const target = sub ?? emptyWorkflowAgent(j.agentId, runId);
    if (!sub) out.push(target);
    if (j.label && !target.description) target.description = j.label;
    if (j.result && !hasReply(target)) target.journalResult = j.result;
  }
  // Named by what it was asked to do: every agent of a run has the same type.
  for (const a of out) if (!a.description && a.prompt.trim()) a.description = firstLine(a.prompt);
  const orderOf = (a: Subagent) => [...(journal?.values() ?? [])].find((j) => sameAgent(a.agentId, j.agentId))?.order ?? Number.MAX_SAFE_INTEGER;
  const firstTime = (a: Subagent) => a.messages.find((m) => m.timestamp)?.timestamp ?? '\uffff';
  return out
    .map((a, i) => ({ a, i }))
    .sort((x, y) => orderOf(x.a) - orderOf(y.a) || firstTime(x.a).localeCompare(firstTime(y.a)) || x.i - y.i)
    .map((x) => x.a);
}

/** The first line of a prompt, cut to a title's length. */
function firstLine(text: string): string {
  const line = text.split('\n').find((l) => l.trim())?.trim() ?? '';
  return line.length > 120 ? `${line.slice(0, 119).trimEnd()}…` : line;
}

/** Whether an agent's transcript ends with words of its own (its reply). */
function hasReply(a: Subagent): boolean {
  const last = [...a.messages].reverse().find((m) => m.kind === 'assistant');
  return !!last && last.kind === 'assistant' && last.blocks.some((b) => b.type === 'text' && typeof (b as { text?: unknown }).text === 'string' && (b as { text: string }).text.trim() !== '');
}
