/** Agent teams: SendMessage (a message to a teammate), TeamCreate and TeamDelete. */
import type { ToolCall } from '../../transcript/types.js';
import type { RenderContext } from '../context.js';
import { html, type HtmlValue, type SafeHtml } from '../sanitize.js';
import { badgeHtml, field, longMarkdown, markdownBlock, noteHtml, orError, toolFrame } from './common.js';
import { obj, resultText, str, structuredOrJson } from '../tool-data.js';

/** Structured message kinds (`{type: "shutdown_request", …}`) in words. */
const MESSAGE_TYPES: Record<string, string> = {
  message: 'message',
  broadcast: 'broadcast',
  shutdown_request: 'shutdown request',
  shutdown_response: 'shutdown response',
  plan_approval_request: 'plan approval request',
  plan_approval_response: 'plan approval response',
};

/** The body of a message: text as markdown, or a structured message's type and its text fields. */
function messageBody(message: unknown, ctx: RenderContext): HtmlValue {
  if (typeof message === 'string') return message.trim() ? longMarkdown(message, 'Message') : '';
  const o = obj(message);
  if (!o) return '';
  const fields = Object.entries(o)
    .filter(([k, v]) => k !== 'type' && (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'))
    .map(([k, v]) => field(k.replace(/_/g, ' '), String(v)));
  return html`${fields}`;
}

/** SendMessage: to whom, its summary and text; the answer says whether it was delivered. */
export function renderSendMessage(call: ToolCall, ctx: RenderContext): SafeHtml {
  const i = call.input;
  const to = str(i.to) ?? str(i.recipient) ?? (i.type === 'broadcast' ? 'everyone' : undefined);
  const message = i.message ?? i.content;
  const kind = str(obj(message)?.type) ?? str(i.type);
  const s = structuredOrJson(call);
  const output = orError(call, () => {
    if (!call.result) return '';
    if (s) {
      const ok = s.success !== false;
      const text = str(s.message) ?? (ok ? 'Sent.' : 'Not sent.');
      return noteHtml(text);
    }
    const text = resultText(call.result).trim();
    return text ? noteHtml(text) : '';
  });
  const badges = html`${kind && kind !== 'message' ? badgeHtml(MESSAGE_TYPES[kind] ?? kind.replace(/_/g, ' ')) : ''}${s && s.success === false ? badgeHtml('not delivered', 'warn') : ''}`;
  const input = html`${field('Summary', str(i.summary))}${messageBody(message, ctx)}`;
  return toolFrame(call, ctx, { summary: to ? html`to <strong>${to}</strong>` : undefined, badges, input, output });
}

/** TeamCreate: the team's name and purpose, and who leads it. */
export function renderTeamCreate(call: ToolCall, ctx: RenderContext): SafeHtml {
  const i = call.input;
  const s = structuredOrJson(call);
  const output = orError(call, () => {
    if (!call.result) return '';
    if (s) return html`${field('Lead agent', str(s.lead_agent_id))}${field('Team file', str(s.team_file_path) ? html`<code class="path">${str(s.team_file_path)}</code>` : undefined)}`;
    const text = resultText(call.result).trim();
    return text ? noteHtml(text) : '';
  });
  const input = html`${field('Purpose', str(i.description))}${field('Agent type', str(i.agent_type))}${teamMembers(call, ctx)}`;
  return toolFrame(call, ctx, { summary: html`<strong>${str(i.team_name) ?? str(s?.team_name) ?? ''}</strong>`, input, output });
}

/** The team's members as its config lists them (only when the source tree held the config): name, type, model, and what each was asked, closed. */
function teamMembers(call: ToolCall, ctx: RenderContext): SafeHtml {
  const team = call.team;
  if (!team?.members.length) return html``;
  const items = team.members.map(
    (m) =>
      html`<li data-team-member="${m.name}"><strong>${m.name}</strong>${m.agentType ? html` <span class="badge badge-agent">${m.agentType}</span>` : ''}${m.model ? html` <code>${m.model}</code>` : ''}${m.prompt ? html`<details class="agent-prompt"><summary>Prompt · ${m.prompt.length} chars</summary>${markdownBlock(m.prompt)}</details>` : ''}</li>`,
  );
  return html`<div class="team-members"><p class="count">Members (from the team's config)${team.lead ? html` · led by <code>${team.lead}</code>` : ''}</p><ul>${items}</ul></div>`;
}

/** TeamDelete: whether the team was removed, and who was still active if not. */
export function renderTeamDelete(call: ToolCall, ctx: RenderContext): SafeHtml {
  const s = structuredOrJson(call);
  const output = orError(call, () => {
    if (!call.result) return '';
    const text = str(s?.message) ?? resultText(call.result).trim();
    return text ? noteHtml(text) : '';
  });
  const failed = s?.success === false;
  return toolFrame(call, ctx, { summary: str(call.input.team_name) ?? str(s?.team_name), badges: failed ? badgeHtml('not deleted', 'warn') : undefined, output });
}
