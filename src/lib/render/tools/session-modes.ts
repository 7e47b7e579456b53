/** Tools that change where or how the session works: EnterPlanMode, EnterWorktree, ExitWorktree. */
import type { ToolCall } from '../../transcript/types.js';
import type { RenderContext } from '../context.js';
import { html, type SafeHtml } from '../sanitize.js';
import { badgeHtml, field, noteHtml, orError, pathHtml, toolFrame } from './common.js';
import { resultText, str, structuredOrJson } from '../tool-data.js';

/** EnterPlanMode: one line; the result is instructions to the model, not news for a reader. */
export function renderEnterPlanMode(call: ToolCall, ctx: RenderContext): SafeHtml {
  const output = orError(call, () => (call.result ? noteHtml('Claude switched to plan mode: it plans and asks before changing anything.') : ''));
  return toolFrame(call, ctx, { output });
}

/** EnterWorktree: the worktree created and its branch. */
export function renderEnterWorktree(call: ToolCall, ctx: RenderContext): SafeHtml {
  const s = structuredOrJson(call);
  const output = orError(call, () => {
    if (!call.result) return '';
    const path = str(s?.worktreePath) ?? str(s?.path);
    const branch = str(s?.worktreeBranch) ?? str(s?.branch);
    if (path || branch) return html`${field('Worktree', pathHtml(path))}${field('Branch', branch ? html`<code>${branch}</code>` : undefined)}`;
    const text = resultText(call.result).trim();
    return text ? noteHtml(text.split('\n')[0]) : '';
  });
  return toolFrame(call, ctx, { summary: str(call.input.name), output });
}

/** ExitWorktree: kept or removed, and where the session went back to. */
export function renderExitWorktree(call: ToolCall, ctx: RenderContext): SafeHtml {
  const action = str(call.input.action);
  const s = structuredOrJson(call);
  const output = orError(call, () => {
    if (!call.result) return '';
    const back = str(s?.originalCwd);
    const message = str(s?.message) ?? resultText(call.result).trim().split('\n')[0];
    return html`${message ? noteHtml(message) : ''}${field('Back in', pathHtml(back))}`;
  });
  const badges = html`${action === 'remove' ? badgeHtml('remove', 'warn') : action ? badgeHtml(action) : ''}${call.input.discard_changes === true ? badgeHtml('discard changes', 'warn') : ''}`;
  return toolFrame(call, ctx, { summary: str(s?.worktreeBranch) ?? str(s?.worktreePath), badges, output });
}
