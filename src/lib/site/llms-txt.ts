/**
 * `llms.txt` (the llmstxt.org shape) for a Sessionpress site: the site's title
 * as the heading, one line of summary, then a section per project listing each
 * session by its title, linked to the session as Markdown (`index.md` beside
 * its page), with a few facts. An agent given the site's address finds every
 * transcript's text here without parsing HTML.
 */
import type { SessionEntry } from '../../schemas/session.js';
import { summaryText } from '../export/gfm.js';
import { countOf } from '../format.js';
import { groupByProject } from './collections.js';
import { sessionDay } from './summary.js';
import { absoluteUrl, sessionMarkdownUrl } from './urls.js';

export interface LlmsTxtOptions {
  /** The site's title (the config's `title`). */
  title: string;
  /** The base of Sessionpress's pages (`pagesBase`), ending in `/`. */
  base: string;
  /** The site's address: links are absolute when it is known, root-relative otherwise. */
  site?: string;
}

type Entry = { data: Pick<SessionEntry, 'facts' | 'slug' | 'projectSlug' | 'projectName' | 'title'> };

/** The text of `llms.txt`: every session, grouped by project (projects and sessions newest first). */
export function llmsTxt(entries: Entry[], options: LlmsTxtOptions): string {
  const projects = groupByProject(entries);
  const lines = [
    `# ${oneLine(options.title)}`,
    '',
    `> Claude Code sessions, redacted before publishing: ${countOf(entries.length, 'session')} in ${countOf(projects.length, 'project')}. Each link is a whole session as Markdown; its web page is the same address without \`index.md\`.`,
  ];
  for (const project of projects) {
    lines.push('', `## ${oneLine(project.name)}`, '');
    for (const { data } of project.sessions) {
      const url = absoluteUrl(sessionMarkdownUrl(options.base, data.slug), options.site);
      const facts = [sessionDay(data.facts.firstTimestamp), countOf(data.facts.promptCount, 'prompt'), countOf(data.facts.toolCallCount, 'tool call')].filter(Boolean);
      lines.push(`- [${oneLine(data.title)}](${url}): ${facts.join(', ')}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** Transcript or config text on one line of Markdown: no HTML, no link or emphasis syntax of its own. */
function oneLine(text: string): string {
  return summaryText(text, 200);
}
