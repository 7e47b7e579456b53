/**
 * Dispatches a tool call to its renderer by name. Never throws: a renderer that
 * fails on odd input falls back to the generic JSON view.
 */
import type { ToolCall } from '../transcript/types.js';
import type { RenderContext } from './context.js';
import type { SafeHtml } from './sanitize.js';
import { byToolName } from './tool-data.js';
import { renderAgent } from './tools/agent.js';
import { renderBash, renderBashOutput, renderKillShell } from './tools/bash.js';
import { renderEdit, renderMultiEdit, renderNotebookEdit, renderRead, renderWrite } from './tools/files.js';
import { renderGeneric, renderMcp } from './tools/generic.js';
import { renderAskUserQuestion, renderExitPlanMode, renderSkill, renderSlashCommand } from './tools/interaction.js';
import { renderGlob, renderGrep, renderLs } from './tools/search.js';
import { renderCronCreate, renderCronDelete, renderCronList, renderMonitor, renderScheduleWakeup, renderTaskOutput, renderTaskStop } from './tools/background.js';
import { renderListMcpResources, renderLsp, renderReadMcpResource, renderToolSearch } from './tools/discovery.js';
import { renderEnterPlanMode, renderEnterWorktree, renderExitWorktree } from './tools/session-modes.js';
import { renderTaskCreate, renderTaskGet, renderTaskList, renderTaskUpdate, renderTodoWrite } from './tools/tasks.js';
import { renderSendMessage, renderTeamCreate, renderTeamDelete } from './tools/team.js';
import { renderWorkflow } from './tools/workflow.js';
import { renderWebFetch, renderWebSearch } from './tools/web.js';

export type ToolRenderer = (call: ToolCall, ctx: RenderContext) => SafeHtml;

const RENDERERS: Record<string, ToolRenderer> = {
  Bash: renderBash,
  BashOutput: renderBashOutput,
  KillShell: renderKillShell,
  KillBash: renderKillShell,
  Read: renderRead,
  Write: renderWrite,
  Edit: renderEdit,
  MultiEdit: renderMultiEdit,
  NotebookEdit: renderNotebookEdit,
  Grep: renderGrep,
  Glob: renderGlob,
  LS: renderLs,
  TodoWrite: renderTodoWrite,
  TaskCreate: renderTaskCreate,
  TaskUpdate: renderTaskUpdate,
  TaskList: renderTaskList,
  Task: renderAgent,
  Agent: renderAgent,
  WebFetch: renderWebFetch,
  WebSearch: renderWebSearch,
  AskUserQuestion: renderAskUserQuestion,
  ExitPlanMode: renderExitPlanMode,
  Skill: renderSkill,
  SlashCommand: renderSlashCommand,
  TaskGet: renderTaskGet,
  TaskOutput: renderTaskOutput,
  TaskStop: renderTaskStop,
  EnterPlanMode: renderEnterPlanMode,
  EnterWorktree: renderEnterWorktree,
  ExitWorktree: renderExitWorktree,
  Monitor: renderMonitor,
  ScheduleWakeup: renderScheduleWakeup,
  CronCreate: renderCronCreate,
  CronList: renderCronList,
  CronDelete: renderCronDelete,
  SendMessage: renderSendMessage,
  TeamCreate: renderTeamCreate,
  TeamDelete: renderTeamDelete,
  ToolSearch: renderToolSearch,
  LSP: renderLsp,
  Workflow: renderWorkflow,
  ListMcpResourcesTool: renderListMcpResources,
  ReadMcpResourceTool: renderReadMcpResource,
};

/** The renderer used for a tool name (exposed for tests). */
export function rendererFor(name: string): ToolRenderer {
  return byToolName(RENDERERS, name, { mcp: renderMcp, other: renderGeneric });
}

/**
 * Renders one tool call with its result (and subagent transcript) as
 * `SafeHtml` (highlighting placeholders are resolved by the message renderer).
 */
export function renderToolCallHtml(call: ToolCall, ctx: RenderContext): SafeHtml {
  const input = call.input && typeof call.input === 'object' && !Array.isArray(call.input) ? call.input : {};
  const safeCall: ToolCall = input === call.input ? call : { ...call, input };
  try {
    return rendererFor(call.name)(safeCall, ctx);
  } catch {
    try {
      return renderGeneric(safeCall, ctx);
    } catch {
      return renderGeneric({ id: call.id, name: String(call.name), input: {}, entryUuid: call.entryUuid }, ctx);
    }
  }
}

/** One tool call's markup as text (for use outside a message: tests, previews). */
export function renderToolCall(call: ToolCall, ctx: RenderContext): string {
  return renderToolCallHtml(call, ctx).value;
}
