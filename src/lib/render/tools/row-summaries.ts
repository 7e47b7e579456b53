/**
 * The one-line row (key argument, outcome) of the tools added for issue 11,
 * in the shape `tool-summary.ts` uses, so its summariser table can take them
 * in one line (`...ROW_SUMMARIES`). Plain text: the caller escapes it.
 */
import { formatCount, formatDuration } from '../../format.js';
import type { ToolCall } from '../../transcript/types.js';
import { jsonObjectOf, num, obj, resultText, str, structured, taggedValue } from '../tool-data.js';

export type RowSummarizer = (call: ToolCall) => { target?: string; outcome?: string };

const text = (call: ToolCall) => (call.result ? resultText(call.result) : '');
const firstLine = (s: string | undefined) => s?.trim().split('\n')[0];
const json = (call: ToolCall) => structured(call) ?? jsonObjectOf(text(call));

function taskStatus(call: ToolCall): string | undefined {
  const t = obj(structured(call)?.task);
  return str(t?.status) ?? taggedValue(text(call), 'status');
}

/** Row summaries by tool name. */
export const ROW_SUMMARIES: Record<string, RowSummarizer> = {
  TaskOutput: (c) => ({ target: str(c.input.task_id) ?? str(c.input.bash_id), outcome: structured(c)?.retrieval_status === 'timeout' ? 'still running' : taskStatus(c) }),
  TaskStop: (c) => ({ target: str(c.input.task_id) ?? str(c.input.shell_id), outcome: c.result ? 'stopped' : undefined }),
  TaskGet: (c) => {
    const t = obj(structured(c)?.task);
    return { target: `#${str(c.input.taskId) ?? ''}${str(t?.subject) ? ` ${str(t?.subject)}` : ''}`, outcome: str(t?.status)?.replace(/_/g, ' ') };
  },
  EnterPlanMode: (c) => ({ outcome: c.result ? 'plan mode on' : undefined }),
  EnterWorktree: (c) => ({ target: str(c.input.name), outcome: str(json(c)?.worktreeBranch) }),
  ExitWorktree: (c) => ({ target: str(json(c)?.worktreeBranch), outcome: str(c.input.action) === 'remove' ? 'removed' : str(c.input.action) === 'keep' ? 'kept' : undefined }),
  Monitor: (c) => ({ target: str(c.input.description) ?? firstLine(str(c.input.command)), outcome: /\btask ([\w-]+)/.exec(text(c))?.[0] }),
  ScheduleWakeup: (c) => {
    const s = num(c.input.delaySeconds) ?? num(c.input.delay_seconds);
    return { target: str(c.input.reason), outcome: s !== undefined ? `in ${formatDuration(s * 1000)}` : undefined };
  },
  CronCreate: (c) => ({ target: str(c.input.cron), outcome: /\bjob ([\w-]+)/i.exec(text(c))?.[0] }),
  CronList: (c) => {
    const lines = text(c).trim() ? text(c).trim().split('\n').length : 0;
    return { outcome: c.result ? `${formatCount(lines)} job${lines === 1 ? '' : 's'}` : undefined };
  },
  CronDelete: (c) => ({ target: str(c.input.id), outcome: c.result ? 'cancelled' : undefined }),
  SendMessage: (c) => {
    const to = str(c.input.to) ?? str(c.input.recipient);
    const s = json(c);
    return { target: `${to ? `to ${to}` : ''}${str(c.input.summary) ? `: ${str(c.input.summary)}` : ''}` || undefined, outcome: s ? (s.success === false ? 'not sent' : 'sent') : undefined };
  },
  TeamCreate: (c) => ({ target: str(c.input.team_name), outcome: c.result ? 'created' : undefined }),
  TeamDelete: (c) => ({ target: str(c.input.team_name) ?? str(json(c)?.team_name), outcome: json(c)?.success === false ? 'not deleted' : c.result ? 'deleted' : undefined }),
  ToolSearch: (c) => {
    const q = str(c.input.query) ?? '';
    const m = structured(c)?.matches;
    const n = Array.isArray(m) ? m.length : Array.isArray(c.result?.content) ? c.result!.content.length : undefined;
    return { target: q.replace(/^select:/, ''), outcome: n !== undefined ? `${formatCount(n)} tool${n === 1 ? '' : 's'}` : undefined };
  },
  LSP: (c) => ({ target: `${str(c.input.operation) ?? ''} ${str(c.input.filePath) ?? ''}${num(c.input.line) !== undefined ? `:${num(c.input.line)}` : ''}`.trim() || undefined }),
  Workflow: (c) => ({ target: str(c.input.name) ?? /\bname\s*:\s*['"`]([^'"`]+)/.exec(str(c.input.script) ?? '')?.[1] ?? str(c.input.scriptPath), outcome: /Task ID:\s*([\w-]+)/i.exec(text(c))?.[0] }),
  ListMcpResourcesTool: (c) => {
    const list = Array.isArray(c.result?.toolUseResult) ? (c.result!.toolUseResult as unknown[]) : undefined;
    return { target: str(c.input.server), outcome: list ? `${formatCount(list.length)} resource${list.length === 1 ? '' : 's'}` : undefined };
  },
  ReadMcpResourceTool: (c) => ({ target: str(c.input.uri), outcome: str(c.input.server) }),
};
