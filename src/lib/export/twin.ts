/**
 * The Markdown twin of a session page: the whole session as the text of
 * `sessionpress export --format md`, written beside the session's first page
 * (`…/<session>/index.md`) so a reader or an agent given a link can fetch the
 * text without parsing HTML. Made from the same redacted Session as the pages.
 */
import { sessionUrlFromMarkdown } from '../site/urls.js';
import type { Session, Turn } from '../transcript/types.js';
import { markdownParts } from './markdown.js';

/**
 * The whole session as one Markdown document: no cut to a length (each tool's
 * input and output keeps the export's own cut, with a note that the page has
 * the rest). Links point at the session's pages relative to the twin itself
 * (`./#m-<uuid>`, `2/#m-<uuid>`), so the text does not depend on where the
 * site is published and is cached with the pages.
 *
 * @param anchors message uuid → the 1-based page that shows it (`RenderedSession.anchors`)
 */
export function markdownTwin(session: Session, anchors: Readonly<Record<string, number>>): string {
  const parts = twinParts(session, anchors);
  return parts.header + parts.turns(session.turns);
}

/**
 * The twin in pieces (see `markdownParts`): its header, which holds the
 * session's running totals, and the Markdown of any run of turns. A page's
 * Markdown depends only on its turns and on the pages its prompts are on, so
 * the render cache takes that of a page whose digest is unchanged from the
 * last render's twin (render-cache.ts) instead of writing it again.
 */
export function twinParts(session: Session, anchors: Readonly<Record<string, number>>): { header: string; turns(turns: Turn[]): string } {
  return markdownParts(session, {
    pageUrl: sessionUrlFromMarkdown(),
    messageUrl: (uuid) => sessionUrlFromMarkdown({ page: anchors[uuid], message: uuid }),
  });
}
