import type { Session } from '../transcript/types.js';
import { pageOfMessage, pageOfPrompt, pageOfToolCall } from './pages.js';
import { absoluteUrl, sessionUrl } from './urls.js';

export interface LinkTarget {
  url: string;
  markdown: string;
}

export interface LinkOptions {
  /** `site` from the config, e.g. `https://you.github.io`; without it the URL is root-relative. */
  site?: string;
  /** `base` from the config, e.g. `/my-repo`. */
  base: string;
  pageSize: number;
  /** The session's entry id (its identity's `entryId`): the page's URL path. */
  entryId: string;
  message?: string;
  /** A tool call's `tool_use` id or its start: the link lands on the call (`#t-<id>`). */
  tool?: string;
  prompt?: number;
}

/** Tool call ids Claude Code writes start so; a message uuid never does. */
const TOOL_ID = /^toolu_/;

/**
 * The published URL of a session, one of its prompts, or one message, and a
 * Markdown line ready to paste into a pull request. Uses the same slug and
 * pagination as the build, so the link lands where the page puts the message.
 */
export function linkTo(session: Session, options: LinkOptions): LinkTarget {
  let target: { page: number; uuid?: string; tool?: string } | undefined;
  let label = session.title;
  // A tool call id given as a message (`--message toolu_…`) means the call.
  const tool = options.tool ?? (options.message && TOOL_ID.test(options.message) ? options.message : undefined);
  if (tool) {
    const call = pageOfToolCall(session, tool, options.pageSize);
    if (!call) throw new Error(`no tool call of session ${session.sessionId} has an id starting with "${tool}"`);
    target = { page: call.page, tool: call.id };
    label = `${session.title} — tool call ${call.id}`;
  } else if (options.message) {
    const found = pageOfMessage(session, options.message, options.pageSize);
    if (!found) throw new Error(`no message of session ${session.sessionId} has a uuid starting with "${options.message}"`);
    target = found;
    label = `${session.title} — message ${found.uuid.slice(0, 8)}`;
  } else if (options.prompt !== undefined) {
    target = pageOfPrompt(session, options.prompt, options.pageSize);
    if (!target) throw new Error(`session ${session.sessionId} has no prompt ${options.prompt} (it has ${session.facts.promptCount})`);
    label = `${session.title} — prompt ${options.prompt}`;
  }
  const url = absoluteUrl(sessionUrl(options.base, options.entryId, target ? { page: target.page, message: target.uuid, tool: target.tool } : {}), options.site);
  return { url, markdown: `[${label.replace(/[[\]]/g, '\\$&')}](${url})` };
}
