/**
 * What the model does with each `type: "attachment"` entry of 2.1.x. The
 * kinds were read off real records and the peers' parsers; Claude Code adds
 * new ones every few releases, so anything not listed is hidden and counted
 * under its own name (never warned about, never dropped silently).
 */

/** How an attachment reaches the reader. */
export type AttachmentDisposition =
  /** An `AttachmentMessage` where it happened (hook results with something to say, files, memory). */
  | { show: 'message' }
  /** A `MarkerMessage` (plan mode, auto mode, effort changes). */
  | { show: 'marker'; markerType: string; value: string }
  /** A queued prompt (`queued_command`). */
  | { show: 'queued-prompt' }
  /** Not shown; counted under `hidden` in the build summary. */
  | { show: 'hidden'; hidden: string };

/** Hook outcomes: shown compactly where they happened when they say something. */
const HOOK_KINDS = new Set([
  'hook_success',
  'hook_non_blocking_error',
  'hook_blocking_error',
  'hook_error_during_execution',
  'hook_cancelled',
  'hook_stopped_continuation',
  'hook_additional_context',
  'hook_permission_decision',
  'hook_system_message',
  // 2.1.2xx: an async hook's answer, arriving after the turn it ran in.
  'async_hook_response',
]);

/** Files, edits and memory the model was given: collapsible context. */
const CONTEXT_KINDS = new Set([
  'file',
  'edited_text_file',
  'edited_image_file',
  'nested_memory',
  'compact_file_reference',
  'directory',
  'pdf_reference',
  'selected_lines_in_ide',
  'opened_file_in_ide',
  'invoked_skills',
  'task_status',
  'diagnostics',
]);

/** Mode switches written as attachments: what the marker says, by attachment type. */
const MARKER_KINDS: Record<string, { markerType: string; value: string }> = {
  plan_mode: { markerType: 'plan-mode', value: 'entered' },
  plan_mode_reentry: { markerType: 'plan-mode', value: 're-entered' },
  plan_mode_exit: { markerType: 'plan-mode', value: 'exited' },
  auto_mode: { markerType: 'auto-mode', value: 'on' },
  auto_mode_exit: { markerType: 'auto-mode', value: 'off' },
  ultra_effort_enter: { markerType: 'effort', value: 'ultra' },
  ultra_effort_exit: { markerType: 'effort', value: 'normal' },
};

/** Attachments that become a marker whose value the attachment holds: the marker type, and the fields that may name the value. */
const VALUE_MARKER_KINDS: Record<string, { markerType: string; fields: string[]; fallback: string }> = {
  // 2.1.2xx: the session was handed to or taken back from a remote (claude.ai) session.
  remote_session_change: { markerType: 'remote-session', fields: ['status', 'state', 'change', 'action', 'kind'], fallback: 'changed' },
};

/** Reminders, listings and budget notes Claude Code feeds the model: nothing a reader needs. */
const HIDDEN_KINDS: Record<string, string> = {
  task_reminder: 'reminders',
  todo_reminder: 'reminders',
  total_tokens_reminder: 'reminders',
  batching_reminder_sent: 'reminders',
  silent_turn_reminder: 'reminders',
  critical_system_reminder: 'reminders',
  date_change: 'reminders',
  read_truncation_notice: 'reminders',
  output_style: 'reminders',
  skill_listing: 'listings',
  agent_listing_delta: 'listings',
  deferred_tools_delta: 'listings',
  mcp_instructions_delta: 'listings',
  command_permissions: 'listings',
  dynamic_skill: 'listings',
  budget_usd: 'budget notes',
  token_usage: 'budget notes',
};

/**
 * Decides how an attachment is shown. A hook that succeeded without output
 * is noise in a transcript (most sessions run several per turn), so it is
 * counted, not shown.
 */
export function attachmentDisposition(att: Record<string, unknown>): AttachmentDisposition {
  const type = typeof att.type === 'string' ? att.type : '';
  if (type === 'queued_command') return { show: 'queued-prompt' };
  const marker = MARKER_KINDS[type];
  if (marker) return { show: 'marker', ...marker };
  const valued = Object.hasOwn(VALUE_MARKER_KINDS, type) ? VALUE_MARKER_KINDS[type] : undefined;
  if (valued) {
    const value = valued.fields.map((f) => att[f]).find((v): v is string => typeof v === 'string' && v.trim() !== '');
    return { show: 'marker', markerType: valued.markerType, value: value ?? valued.fallback };
  }
  if (isHookAttachment(att)) return (type === 'hook_success' || type === 'async_hook_response') && !hookSaidSomething(att) ? { show: 'hidden', hidden: 'hook results' } : { show: 'message' };
  if (CONTEXT_KINDS.has(type)) return { show: 'message' };
  const hidden = HIDDEN_KINDS[type];
  if (hidden) return { show: 'hidden', hidden };
  return { show: 'hidden', hidden: `attachments of unknown kind ${type || '(none)'}` };
}

/** Whether an attachment is a hook's outcome (its output fields may point to whole outputs kept beside the session). */
export function isHookAttachment(att: Record<string, unknown>): boolean {
  return typeof att.type === 'string' && HOOK_KINDS.has(att.type);
}

/** Whether a successful hook left output a reader may want (an empty object on stdout is the usual nothing). */
function hookSaidSomething(att: Record<string, unknown>): boolean {
  const said = (v: unknown) => typeof v === 'string' && v.trim() !== '' && v.trim() !== '{}';
  return said(att.content) || said(att.stdout) || said(att.stderr) || (typeof att.exitCode === 'number' && att.exitCode !== 0);
}
