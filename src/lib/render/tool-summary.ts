/**
 * One line per tool call, as plain text: the tool, its key argument and how it
 * ended ("Read  src/app.ts  120 lines", "Bash  npm test  exit 1"). The session
 * page shows it as the row a call collapses to; the overview and the exports
 * build tallies from it. Plain text, not HTML: every caller escapes it.
 */
import { countOf, formatCount, formatDuration } from '../format.js';
import type { ToolCall } from '../transcript/types.js';
import { byToolName, cleanResultText, countLines, editLineCounts, keptOutput, lineCount, num, obj, parseMcpName, patchHunks, resultText, str, structured, type Hunk, type LineCounts } from './tool-data.js';
import { ROW_SUMMARIES } from './tools/row-summaries.js';

export interface ToolSummary {
  /** Display name of the tool ("Bash", "Todo", an MCP server's name). */
  tool: string;
  /** Its key argument on one line: a path, a command, a pattern, a URL, an agent's description. */
  target?: string;
  /** How it ended, on one line: "120 lines", "exit 1", "3 files", "+12 −4", "error: …", "no result". */
  outcome?: string;
  isError: boolean;
}

type Summarizer = (call: ToolCall) => { target?: string; outcome?: string };

/** Longest target or outcome kept: a row shows one line, the rest is in the expanded call. */
const MAX_CHARS = 160;

/** Display names that differ from the tool's own name. */
const DISPLAY: Record<string, string> = {
  TodoWrite: 'Todo',
  BashOutput: 'Bash output',
  KillShell: 'Kill shell',
  KillBash: 'Kill shell',
  NotebookEdit: 'Notebook edit',
  AskUserQuestion: 'Question',
  ExitPlanMode: 'Plan',
  SlashCommand: 'Command',
  TaskCreate: 'Task create',
  TaskUpdate: 'Task update',
  TaskList: 'Task list',
  WebFetch: 'Fetch',
  WebSearch: 'Web search',
  Agent: 'Task',
};


/** The first non-empty line of a text, shortened to fit a row. */
export function oneLine(text: string | undefined, max = MAX_CHARS): string | undefined {
  if (!text) return undefined;
  const lines = text.split('\n').map((l) => l.trim());
  const first = lines.find(Boolean);
  if (!first) return undefined;
  const more = lines.filter(Boolean).length > 1;
  const cut = first.length > max ? `${first.slice(0, max - 1).trimEnd()}…` : more ? `${first} …` : first;
  return cut.replace(/\s+/g, ' ');
}

/** The text of an error result without Claude Code's wrapper tags. */
function errorText(call: ToolCall): string {
  return cleanResultText(resultText(call.result))
    .replace(/<\/?tool_use_error>/g, '')
    .trim()
    .replace(/^(?:error:\s*)+/i, '');
}

/** Counts added and removed lines of diff hunks: "+12 −4". */
export function diffStat(hunks: Hunk[]): string | undefined {
  return statText(countLines(hunks));
}

/** Added and removed lines as a row says them: "+12 −4"; nothing for none. */
function statText({ added, removed }: LineCounts): string | undefined {
  return added || removed ? `+${formatCount(added)} −${formatCount(removed)}` : undefined;
}

function filePath(call: ToolCall): string | undefined {
  const s = structured(call);
  return str(call.input.file_path) ?? str(call.input.notebook_path) ?? str(call.input.path) ?? str(s?.filePath) ?? str(obj(s?.file)?.filePath);
}

function outputLines(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const clean = cleanResultText(text);
  return clean.trim() ? countOf(lineCount(clean), 'line') : 'no output';
}

const bash: Summarizer = (call) => {
  const target = oneLine(str(call.input.command));
  const s = structured(call);
  const r = call.result;
  if (!r) return { target };
  const exit = /exit code (\d+)/i.exec(r.isError ? resultText(r) : '')?.[1];
  if (exit) return { target, outcome: `exit ${exit}` };
  if (s?.interrupted === true) return { target, outcome: 'interrupted' };
  if (str(s?.backgroundTaskId)) return { target, outcome: 'running in background' };
  const stdout = keptOutput(call) ?? str(s?.stdout);
  const stderr = str(s?.stderr);
  if (stdout !== undefined || stderr !== undefined) return { target, outcome: outputLines(`${stdout ?? ''}${stdout && stderr ? '\n' : ''}${stderr ?? ''}`) };
  return { target, outcome: outputLines(resultText(r)) };
};

const bashOutput: Summarizer = (call) => {
  const s = structured(call);
  const target = oneLine(str(s?.command)) ?? str(call.input.bash_id) ?? str(call.input.shell_id) ?? str(call.input.task_id);
  const status = str(s?.status);
  const exitCode = num(s?.exitCode);
  const lines = typeof s?.stdout === 'string' ? outputLines(s.stdout) : undefined;
  return { target, outcome: [status, exitCode !== undefined ? `exit ${exitCode}` : undefined, lines].filter(Boolean).join(' · ') || undefined };
};

const killShell: Summarizer = (call) => ({ target: str(call.input.shell_id) ?? str(call.input.bash_id), outcome: call.result ? 'stopped' : undefined });

const read: Summarizer = (call) => {
  const s = structured(call);
  const file = obj(s?.file);
  const offset = num(call.input.offset);
  const limit = num(call.input.limit);
  const range = offset !== undefined || limit !== undefined ? ` (lines ${offset ?? 1}${limit !== undefined ? `–${(offset ?? 1) + limit - 1}` : '+'})` : '';
  const target = filePath(call) ? `${filePath(call)}${range}` : undefined;
  if (!call.result) return { target };
  if (s?.type === 'image' || (Array.isArray(call.result.content) && call.result.content.some((b) => b?.type === 'image'))) return { target, outcome: 'image' };
  const n = num(file?.numLines) ?? (typeof file?.content === 'string' ? lineCount(file.content) : undefined);
  if (n !== undefined) return { target, outcome: countOf(n, 'line') };
  const text = resultText(call.result).replace(/\n*<system-reminder>[\s\S]*$/, '');
  return { target, outcome: text.trim() ? countOf(lineCount(text), 'line') : 'empty' };
};

const edit: Summarizer = (call) => {
  const s = structured(call);
  const hunks = patchHunks(s?.structuredPatch);
  const counts = hunks.length ? countLines(hunks) : editLineCounts(str(call.input.old_string) ?? str(s?.oldString) ?? '', str(call.input.new_string) ?? str(s?.newString) ?? '', call);
  return { target: filePath(call), outcome: statText(counts) ?? 'no change' };
};

const multiEdit: Summarizer = (call) => {
  const s = structured(call);
  const edits = Array.isArray(call.input.edits) ? call.input.edits.map(obj).filter((e): e is Record<string, unknown> => !!e) : [];
  const hunks = patchHunks(s?.structuredPatch);
  const counts = hunks.length
    ? countLines(hunks)
    : edits
        .map((e) => editLineCounts(str(e.old_string) ?? '', str(e.new_string) ?? '', e))
        .reduce((sum, c) => ({ added: sum.added + c.added, removed: sum.removed + c.removed }), { added: 0, removed: 0 });
  return { target: filePath(call), outcome: [countOf(edits.length, 'edit'), statText(counts)].filter(Boolean).join(' · ') };
};

const write: Summarizer = (call) => {
  const s = structured(call);
  const hunks = patchHunks(s?.structuredPatch);
  if (s?.type === 'update' && hunks.length) return { target: filePath(call), outcome: diffStat(hunks) };
  const content = str(call.input.content) ?? str(s?.content) ?? '';
  return { target: filePath(call), outcome: `${s?.type === 'create' ? 'new file · ' : ''}${countOf(lineCount(content), 'line')}` };
};

const notebookEdit: Summarizer = (call) => {
  const cell = num(call.input.cell_number) ?? str(call.input.cell_id);
  const mode = str(call.input.edit_mode) ?? 'replace';
  return { target: filePath(call), outcome: `${mode}${cell !== undefined ? ` cell ${String(cell)}` : ''}` };
};

function searchOutcome(call: ToolCall): string | undefined {
  const r = call.result;
  if (!r) return undefined;
  const s = structured(call);
  if (typeof s?.content === 'string' && s.content) return countOf(num(s.numLines) ?? lineCount(s.content), 'matching line');
  const files = Array.isArray(s?.filenames) ? s.filenames.length : undefined;
  const n = num(s?.numFiles) ?? files;
  if (n !== undefined) return n ? countOf(n, 'file') : 'no matches';
  const text = cleanResultText(resultText(r));
  if (!text.trim() || /^No (files|matches) found/i.test(text.trim())) return 'no matches';
  const found = /^Found (\d+) files?/i.exec(text.trim());
  return found ? countOf(Number(found[1]), 'file') : countOf(lineCount(text), 'line');
}

const grep: Summarizer = (call) => {
  const where = str(call.input.glob) ?? str(call.input.type) ?? str(call.input.path);
  return { target: oneLine(`${str(call.input.pattern) ?? ''}${where ? ` in ${where}` : ''}`), outcome: searchOutcome(call) };
};

const glob: Summarizer = (call) => {
  const where = str(call.input.path);
  return { target: oneLine(`${str(call.input.pattern) ?? ''}${where ? ` in ${where}` : ''}`), outcome: searchOutcome(call) };
};

const ls: Summarizer = (call) => {
  const text = call.result ? cleanResultText(resultText(call.result)) : undefined;
  const entries = text?.split('\n').filter((l) => /^\s*- /.test(l)).length;
  return { target: str(call.input.path), outcome: entries !== undefined && call.result ? countOf(Math.max(0, entries - 1), 'entry', 'entries') : undefined };
};

const todoWrite: Summarizer = (call) => {
  const todos = Array.isArray(call.input.todos) ? call.input.todos.map(obj).filter((t): t is Record<string, unknown> => !!t) : [];
  const active = todos.find((t) => t.status === 'in_progress');
  const done = todos.filter((t) => t.status === 'completed').length;
  return { target: oneLine(str(active?.activeForm) ?? str(active?.content)), outcome: `${done}/${todos.length} done` };
};

const taskCreate: Summarizer = (call) => {
  const id = str(obj(structured(call)?.task)?.id);
  return { target: oneLine(str(call.input.subject)), outcome: id ? `#${id}` : undefined };
};

const taskUpdate: Summarizer = (call) => {
  const change = obj(structured(call)?.statusChange);
  const status = str(call.input.status);
  const id = str(call.input.taskId) ?? (call.input.taskId !== undefined ? String(call.input.taskId) : undefined);
  return { target: id ? `#${id}` : undefined, outcome: change ? `${str(change.from) ?? '?'} → ${str(change.to) ?? '?'}` : status };
};

const taskList: Summarizer = (call) => {
  const tasks = structured(call)?.tasks;
  return { outcome: Array.isArray(tasks) ? countOf(tasks.length, 'task') : undefined };
};

const agent: Summarizer = (call) => {
  const s = structured(call);
  const sub = call.subagent;
  const type = str(call.input.subagent_type) ?? sub?.agentType ?? str(s?.agentType);
  const description = str(call.input.description) ?? sub?.description;
  const target = oneLine([type, description].filter(Boolean).join(': ')) ?? oneLine(str(call.input.prompt));
  const tools = sub?.stats.toolUseCount ?? num(s?.totalToolUseCount);
  const duration = formatDuration(sub?.stats.durationMs ?? num(s?.totalDurationMs));
  const parts = [tools !== undefined ? countOf(tools, 'tool call') : undefined, duration || undefined].filter(Boolean);
  if (call.input.run_in_background === true && !parts.length) parts.push('in background');
  return { target, outcome: parts.join(' · ') || undefined };
};

const webFetch: Summarizer = (call) => {
  const s = structured(call);
  const code = num(s?.code);
  const bytes = num(s?.bytes);
  const outcome = [code !== undefined ? `${code} ${str(s?.codeText) ?? ''}`.trim() : undefined, bytes !== undefined ? `${formatCount(Math.max(1, Math.round(bytes / 1024)))} KB` : undefined].filter(Boolean).join(' · ');
  return { target: str(call.input.url) ?? str(s?.url), outcome: outcome || (call.result ? outputLines(str(s?.result) ?? resultText(call.result)) : undefined) };
};

const webSearch: Summarizer = (call) => {
  const results = structured(call)?.results;
  let links = 0;
  if (Array.isArray(results)) for (const r of results) if (Array.isArray(obj(r)?.content)) links += (obj(r)?.content as unknown[]).length;
  return { target: oneLine(str(call.input.query)), outcome: call.result ? countOf(links, 'result') : undefined };
};

const askUserQuestion: Summarizer = (call) => {
  const qs = Array.isArray(call.input.questions) ? call.input.questions.map(obj).filter((q): q is Record<string, unknown> => !!q) : [];
  const first = str(qs[0]?.question) ?? str(call.input.question);
  const answers = obj(structured(call)?.answers);
  const answer = answers ? Object.values(answers).find((v): v is string => typeof v === 'string') : undefined;
  return { target: oneLine(first), outcome: oneLine(answer) ?? (qs.length > 1 ? countOf(qs.length, 'question') : undefined) };
};

const exitPlanMode: Summarizer = (call) => {
  const plan = str(call.input.plan) ?? str(structured(call)?.plan);
  const heading = oneLine(plan?.replace(/^#+\s*/gm, ''));
  const r = call.result;
  return { target: heading, outcome: !r ? undefined : r.isError ? 'not approved' : /approved/i.test(resultText(r)) ? 'approved' : undefined };
};

const skill: Summarizer = (call) => ({ target: oneLine([str(call.input.skill) ?? str(call.input.command), str(call.input.args)].filter(Boolean).join(' ')) });

const slashCommand: Summarizer = (call) => ({ target: oneLine(str(call.input.command)) });

/** The first short string argument of an unknown tool, by the names tools usually give it. */
const KEY_ARGS = ['file_path', 'path', 'command', 'url', 'query', 'pattern', 'description', 'name', 'prompt', 'subject', 'message'];

function keyArgument(input: Record<string, unknown>): string | undefined {
  for (const k of KEY_ARGS) if (typeof input[k] === 'string' && input[k]) return oneLine(input[k] as string);
  const first = Object.values(input).find((v) => typeof v === 'string' && v.trim());
  return oneLine(first as string | undefined);
}

function genericOutcome(call: ToolCall): string | undefined {
  if (!call.result) return undefined;
  if (Array.isArray(call.result.content) && call.result.content.some((b) => b?.type === 'image')) return 'image';
  return outputLines(resultText(call.result));
}

const generic: Summarizer = (call) => ({ target: keyArgument(call.input), outcome: genericOutcome(call) });

const mcp: Summarizer = (call) => {
  const parsed = parseMcpName(call.name);
  const arg = keyArgument(call.input);
  return { target: oneLine([parsed?.tool, arg].filter(Boolean).join(' ')), outcome: genericOutcome(call) };
};

const SUMMARIZERS: Record<string, Summarizer> = {
  // The 2.1.x tools (TaskOutput, SendMessage, ToolSearch, Cron…, Team…): summarised beside their renderers.
  ...ROW_SUMMARIES,
  Bash: bash,
  BashOutput: bashOutput,
  KillShell: killShell,
  KillBash: killShell,
  Read: read,
  Write: write,
  Edit: edit,
  MultiEdit: multiEdit,
  NotebookEdit: notebookEdit,
  Grep: grep,
  Glob: glob,
  LS: ls,
  TodoWrite: todoWrite,
  TaskCreate: taskCreate,
  TaskUpdate: taskUpdate,
  TaskList: taskList,
  Task: agent,
  Agent: agent,
  WebFetch: webFetch,
  WebSearch: webSearch,
  AskUserQuestion: askUserQuestion,
  ExitPlanMode: exitPlanMode,
  Skill: skill,
  SlashCommand: slashCommand,
};

/** The summariser for a tool name (exposed so tests can check every dispatched tool has one). */
export function summarizerFor(name: string): Summarizer {
  return byToolName(SUMMARIZERS, name, { mcp, other: generic });
}

/** Whether a tool has its own summariser (not the generic one). */
export function hasSummarizer(name: string): boolean {
  return Object.prototype.hasOwnProperty.call(SUMMARIZERS, name);
}

/** The display name of a tool: MCP tools by their server. */
export function toolDisplayName(name: string): string {
  if (Object.prototype.hasOwnProperty.call(DISPLAY, name)) return DISPLAY[name];
  const parsed = parseMcpName(name);
  return parsed ? parsed.server.replace(/^plugin_/, '') : name;
}

/**
 * One line for a tool call: its display name, key argument and outcome, as
 * plain text. Never throws: odd input gives a summary with fewer parts.
 */
export function summarizeToolCall(call: ToolCall): ToolSummary {
  const isError = call.result?.isError === true;
  const tool = toolDisplayName(String(call.name));
  const input = obj(call.input) ?? {};
  const safe = input === call.input ? call : { ...call, input };
  let parts: { target?: string; outcome?: string };
  try {
    parts = summarizerFor(safe.name)(safe);
  } catch {
    parts = {};
  }
  const target = oneLine(parts.target);
  let outcome = oneLine(parts.outcome, 80);
  if (!call.result) outcome = 'no result';
  else if (isError && !/^exit \d+$|^not approved$/.test(outcome ?? '')) outcome = `error: ${oneLine(errorText(call), 80) ?? 'failed'}`;
  return { tool, ...(target ? { target } : {}), ...(outcome ? { outcome } : {}), isError };
}

/**
 * How many calls of each tool, most used first (ties in order of first use):
 * "3 Task · 2 Glob · 1 Todo" is built from it.
 */
export function toolTally(calls: ToolCall[]): Array<{ tool: string; count: number }> {
  const counts = new Map<string, number>();
  for (const c of calls) {
    const name = toolDisplayName(String(c.name));
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts].map(([tool, count]) => ({ tool, count })).sort((a, b) => b.count - a.count);
}
