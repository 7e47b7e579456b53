/**
 * Tool calls: the input the model sends, the `tool_result` content the model
 * sees, and the `toolUseResult` Claude Code stores beside it for its own UI.
 * The file tools work on a {@link Project}, so their results agree with the
 * files' contents at that point of the session.
 */
import { structuredPatch } from 'diff';
import type { Json, JsonObject } from './json.js';
import type { Project } from './project.js';

export interface ToolCall {
  name: string;
  input: JsonObject;
  /** `tool_result.content` as the model sees it. */
  content: Json;
  /** The entry's `toolUseResult`, as Claude Code stores it for its own UI. */
  result: Json;
  isError?: boolean;
}

/** The Read tool's `cat -n`-like view: line numbers right-aligned to 6, then an arrow. */
function numbered(text: string, startLine = 1): string {
  const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
  return lines.map((line, i) => `${String(startLine + i).padStart(6)}→${line}`).join('\n');
}

/** A Read of the whole file `rel`, as it stands now. */
export function readTool(project: Project, rel: string): ToolCall {
  const content = project.read(rel);
  const lineCount = content.endsWith('\n') ? content.split('\n').length - 1 : content.split('\n').length;
  return {
    name: 'Read',
    input: { file_path: project.abs(rel) },
    content: numbered(content),
    result: {
      type: 'text',
      file: { filePath: project.abs(rel), content, numLines: lineCount, startLine: 1, totalLines: lineCount },
    },
  };
}

/** A Write that creates `rel`; the samples never overwrite a file with Write. */
export function writeTool(project: Project, rel: string, content: string): ToolCall {
  if (project.has(rel)) throw new Error(`${rel} exists; the samples only create new files with Write`);
  project.write(rel, content);
  return {
    name: 'Write',
    input: { file_path: project.abs(rel), content },
    content: `File created successfully at: ${project.abs(rel)}`,
    result: { type: 'create', filePath: project.abs(rel), content, structuredPatch: [], originalFile: null },
  };
}

/** `structuredPatch` hunks as Claude Code stores them (3 lines of context, no file headers). */
function hunks(before: string, after: string): Json {
  return structuredPatch('a', 'b', before, after, '', '', { context: 3 }).hunks.map((h) => ({
    oldStart: h.oldStart,
    oldLines: h.oldLines,
    newStart: h.newStart,
    newLines: h.newLines,
    lines: h.lines,
  }));
}

/** Replaces `oldString` in `text`, which must occur exactly once, as the Edit tool requires. */
export function applyOnce(text: string, oldString: string, newString: string, rel: string): string {
  const at = text.indexOf(oldString);
  if (at < 0 || text.indexOf(oldString, at + 1) >= 0) {
    throw new Error(`old_string must occur exactly once in ${rel}: ${JSON.stringify(oldString.slice(0, 60))}`);
  }
  return text.slice(0, at) + newString + text.slice(at + oldString.length);
}

/** An Edit of `rel` that replaces `oldString` (which must occur once) with `newString`. */
export function editTool(project: Project, rel: string, oldString: string, newString: string): ToolCall {
  const originalFile = project.read(rel);
  const updated = applyOnce(originalFile, oldString, newString, rel);
  project.write(rel, updated);
  return {
    name: 'Edit',
    input: { file_path: project.abs(rel), old_string: oldString, new_string: newString, replace_all: false },
    content: `The file ${project.abs(rel)} has been updated successfully.`,
    result: {
      filePath: project.abs(rel),
      oldString,
      newString,
      originalFile,
      structuredPatch: hunks(originalFile, updated),
      userModified: false,
      replaceAll: false,
    },
  };
}

/** A MultiEdit (2.0.x) of `rel`: the edits apply in order, each to the result of the one before. */
export function multiEditTool(project: Project, rel: string, edits: Array<[string, string]>): ToolCall {
  const originalFileContents = project.read(rel);
  let updated = originalFileContents;
  for (const [oldString, newString] of edits) updated = applyOnce(updated, oldString, newString, rel);
  project.write(rel, updated);
  const clip = (s: string) => (s.length > 50 ? `${s.slice(0, 50)}...` : s);
  const list = edits.map(([o, n], i) => `${i + 1}. Replaced "${clip(o)}" with "${clip(n)}"`).join('\n');
  const editsJson = edits.map(([o, n]) => ({ old_string: o, new_string: n, replace_all: false }));
  return {
    name: 'MultiEdit',
    input: { file_path: project.abs(rel), edits: editsJson },
    content: `Applied ${edits.length} edits to ${project.abs(rel)}:\n${list}`,
    result: {
      filePath: project.abs(rel),
      edits: editsJson,
      originalFileContents,
      structuredPatch: hunks(originalFileContents, updated),
      userModified: false,
    },
  };
}

export interface BashOptions {
  description: string;
  stderr?: string;
  /** Non-zero makes the call fail the way Claude Code records failures. */
  exitCode?: number;
  /** 2.1.x adds `noOutputExpected` to the stored result. */
  newer?: boolean;
}

/** A Bash call that printed `stdout`; a non-zero `exitCode` records it as failed. */
export function bashTool(command: string, stdout: string, options: BashOptions): ToolCall {
  const input = { command, description: options.description };
  if (options.exitCode) {
    const text = `Exit code ${options.exitCode}\n${[stdout, options.stderr ?? ''].filter(Boolean).join('\n')}`;
    return { name: 'Bash', input, content: text, result: `Error: ${text}`, isError: true };
  }
  const result: JsonObject = { stdout, stderr: options.stderr ?? '', interrupted: false, isImage: false };
  if (options.newer) result.noOutputExpected = false;
  return { name: 'Bash', input, content: stdout, result, isError: false };
}

/** A Grep in content mode with line numbers; `lines` are its matches (see `grepLines`). */
export function grepTool(pattern: string, path: string, lines: string[]): ToolCall {
  return {
    name: 'Grep',
    input: { pattern, path, output_mode: 'content', '-n': true },
    content: lines.length > 0 ? lines.join('\n') : 'No matches found',
    result: { mode: 'content', numFiles: 0, filenames: [], content: lines.join('\n'), numLines: lines.length },
  };
}

interface Todo {
  content: string;
  activeForm: string;
  status: 'pending' | 'in_progress' | 'completed';
}

/** A TodoWrite that replaces `oldTodos` with `newTodos`. */
function todoTool(oldTodos: Todo[], newTodos: Todo[]): ToolCall {
  const asJson = (todos: Todo[]): Json => todos.map((t) => ({ ...t }));
  return {
    name: 'TodoWrite',
    input: { todos: asJson(newTodos) },
    content:
      'Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable',
    result: { oldTodos: asJson(oldTodos), newTodos: asJson(newTodos) },
  };
}

/** A todo list that writes one TodoWrite call per change. */
export interface Todos {
  /** The first TodoWrite: the whole list, its first item in progress. */
  start(): ToolCall;
  /** Marks the first `done` items completed and the next one in progress. */
  step(done: number): ToolCall;
}

/** A todo list whose items move through their states as the work goes on. */
export function createTodos(items: Array<[content: string, activeForm: string]>): Todos {
  let current: Todo[] = items.map(([content, activeForm]) => ({ content, activeForm, status: 'pending' }));
  return {
    step(done: number): ToolCall {
      const next: Todo[] = current.map((t, i) => ({
        ...t,
        status: i < done ? 'completed' : i === done ? 'in_progress' : 'pending',
      }));
      const call = todoTool(current, next);
      current = next;
      return call;
    },
    start(): ToolCall {
      const call = todoTool([], current.map((t, i) => ({ ...t, status: i === 0 ? 'in_progress' : 'pending' })));
      current = current.map((t, i) => ({ ...t, status: i === 0 ? 'in_progress' : 'pending' }));
      return call;
    },
  };
}
