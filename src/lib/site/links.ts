import type { Session } from '../transcript/types.js';
import { pageOfMessage, pageOfPrompt } from './pages.js';
import { sessionEntryId } from './slug.js';
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
  projectSlug: string;
  message?: string;
  prompt?: number;
}

/**
 * The published URL of a session, one of its prompts, or one message, and a
 * Markdown line ready to paste into a pull request. Uses the same slug and
 * pagination as the build, so the link lands where the page puts the message.
 */
export function linkTo(session: Session, options: LinkOptions): LinkTarget {
  let target: { page: number; uuid: string } | undefined;
  let label = session.title;
  if (options.message) {
    target = pageOfMessage(session, options.message, options.pageSize);
    if (!target) throw new Error(`no message of session ${session.sessionId} has a uuid starting with "${options.message}"`);
    label = `${session.title} — message ${target.uuid.slice(0, 8)}`;
  } else if (options.prompt !== undefined) {
    target = pageOfPrompt(session, options.prompt, options.pageSize);
    if (!target) throw new Error(`session ${session.sessionId} has no prompt ${options.prompt} (it has ${session.facts.promptCount})`);
    label = `${session.title} — prompt ${options.prompt}`;
  }
  const url = absoluteUrl(sessionUrl(options.base, sessionEntryId(options.projectSlug, session.sessionId), target ? { page: target.page, message: target.uuid } : {}), options.site);
  return { url, markdown: `[${label.replace(/[[\]]/g, '\\$&')}](${url})` };
}
