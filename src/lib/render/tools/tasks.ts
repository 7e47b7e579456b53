/** TodoWrite and the task-board tools (TaskCreate, TaskUpdate, TaskList). */
import type { ToolCall } from '../../transcript/types.js';
import type { RenderContext } from '../context.js';
import { html, type SafeHtml } from '../sanitize.js';
import { errorBlock, field, markdownBlock, textBlock, toolFrame } from './common.js';
import { obj, resultText, str, structured, structuredList } from '../tool-data.js';

const STATUS_LABEL: Record<string, string> = { pending: 'Pending', in_progress: 'In progress', completed: 'Completed', deleted: 'Deleted' };

function statusClass(status: string): string {
  return status.replace(/[^a-z_]/gi, '').replace(/_/g, '-') || 'unknown';
}

interface Todo {
  content: string;
  status: string;
  activeForm?: string;
}

function todosOf(value: unknown): Todo[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value
    .map(obj)
    .filter((t): t is Record<string, unknown> => !!t)
    .map((t) => ({ content: str(t.content) ?? str(t.subject) ?? '', status: str(t.status) ?? 'pending', activeForm: str(t.activeForm) }));
}

/**
 * A checklist: each item with a visible, labelled status. One element per item:
 * its class names a known status, and transcript.css draws the icon (hidden from
 * screen readers) and writes the status after the text (read out); an unknown
 * status is written from `data-status`. `withCount`: a line saying how many are done, for lists whose row
 * does not say it.
 */
export function todoList(todos: Todo[], withCount = true): SafeHtml {
  const counts = { done: todos.filter((t) => t.status === 'completed').length, total: todos.length };
  const count = withCount ? html`<p class="count">${counts.done} of ${counts.total} completed</p>` : '';
  return html`${count}<ul class="todos">${todos.map(
    (t) =>
      html`<li class="${STATUS_LABEL[t.status] ? statusClass(t.status) : 'other'}"${STATUS_LABEL[t.status] ? '' : html` data-status="${t.status}"`}>${t.content}${t.status === 'in_progress' && t.activeForm && t.activeForm !== t.content ? html` <span class="todo-active">${t.activeForm}</span>` : ''}</li>`,
  )}</ul>`;
}

/** TodoWrite: the new list as a checklist. The result text is boilerplate, so only errors show. */
export function renderTodoWrite(call: ToolCall, ctx: RenderContext): SafeHtml {
  const fromInput = todosOf(call.input.todos);
  const todos = fromInput ?? todosOf(structured(call)?.newTodos) ?? [];
  const r = call.result;
  const output = r?.isError ? errorBlock(resultText(r)) : html``;
  // No summary and no count line: the row says how many are done ("2/5 done", counted from the input).
  return toolFrame(call, ctx, { input: todoList(todos, !fromInput), output });
}

/** TaskCreate: subject and description. */
export function renderTaskCreate(call: ToolCall, ctx: RenderContext): SafeHtml {
  const i = call.input;
  const task = obj(structured(call)?.task);
  const input = html`${field('Description', str(i.description))}${field('Active form', str(i.activeForm))}`;
  const summary = html`${task && str(task.id) ? html`#${str(task.id)} ` : ''}${str(i.subject) ?? ''}`;
  return toolFrame(call, ctx, { summary, input });
}

/** TaskUpdate: which task and what changed. */
export function renderTaskUpdate(call: ToolCall, ctx: RenderContext): SafeHtml {
  const i = call.input;
  const s = structured(call);
  const change = obj(s?.statusChange);
  const fields = Object.entries(i)
    .filter(([k]) => k !== 'taskId')
    .map(([k, v]) => field(k, typeof v === 'string' ? v : JSON.stringify(v)));
  const badges = change ? html` <span class="badge">${str(change.from) ?? '?'} → ${str(change.to) ?? '?'}</span>` : html``;
  return toolFrame(call, ctx, { summary: `#${str(i.taskId) ?? String(i.taskId ?? '')}`, input: html`${fields}`, badges });
}

/** Tasks of a TaskList result: structured `tasks`, else `#1 [status] subject (owner)` lines of the text. */
function boardOf(call: ToolCall): Todo[] | undefined {
  const tasks = structuredList(call, 'tasks');
  if (tasks) {
    return tasks.map((t) => ({ content: `#${str(t.id) ?? '?'} ${str(t.subject) ?? ''}${str(t.owner) ? ` (${str(t.owner)})` : ''}`, status: str(t.status) ?? 'pending' }));
  }
  const text = call.result && !call.result.isError ? resultText(call.result).trim() : '';
  if (!text) return undefined;
  const rows = text.split('\n').filter((l) => l.trim()).map((l) => /^#(\S+)\s+\[([\w-]+)\]\s+(.*)$/.exec(l.trim()));
  if (!rows.every(Boolean)) return undefined;
  return rows.map((m) => ({ content: `#${m![1]} ${m![3]}`, status: m![2] }));
}

/** TaskList: the board as a checklist. */
export function renderTaskList(call: ToolCall, ctx: RenderContext): SafeHtml {
  const list = boardOf(call);
  if (!list) return toolFrame(call, ctx, {});
  return toolFrame(call, ctx, { output: todoList(list) });
}

/** TaskGet: one task of the board, with its status, owner and dependencies. */
export function renderTaskGet(call: ToolCall, ctx: RenderContext): SafeHtml {
  const id = str(call.input.taskId) ?? str(call.input.task_id) ?? '';
  const task = obj(structured(call)?.task);
  const r = call.result;
  let output = html``;
  if (r?.isError) output = errorBlock(resultText(r));
  else if (task) {
    const status = str(task.status);
    const list = (v: unknown) => (Array.isArray(v) && v.length ? v.map((x) => `#${String(x)}`).join(', ') : undefined);
    output = html`<p class="task-subject">${str(task.subject) ?? ''}${status ? html` <span class="todo-status">${STATUS_LABEL[status] ?? status}</span>` : ''}</p>${field('Owner', str(task.owner))}${field('Blocked by', list(task.blockedBy))}${field('Blocks', list(task.blocks))}${str(task.description) ? markdownBlock(str(task.description) as string) : ''}`;
  } else if (r && resultText(r).trim()) {
    const text = resultText(r).trim();
    output = text.includes('\n') ? textBlock(text) : html`<p class="tool-message">${text}</p>`;
  }
  return toolFrame(call, ctx, { summary: `#${id}`, output });
}
