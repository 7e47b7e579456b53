/**
 * The pull request comment: a hidden marker first (how later runs find it),
 * then per session its title, facts, the overview (each prompt with its tool
 * tally, files changed, commits), a link to the published page when the site's
 * address is known, and the whole session as Markdown in a collapsed
 * `<details>`, cut so that the comment stays under GitHub's limit. Sessions are
 * already redacted; everything taken from a transcript goes through the GitHub
 * neutralisation (no mention, reference, tag or image comes alive).
 */
import prices from '../../../src/data/prices.json' with { type: 'json' };
import { createOverviewCollector } from '../../../src/lib/build/session-overview.js';
import { headingText, inlineCode, linkDestination, summaryText } from '../../../src/lib/export/gfm.js';
import { GITHUB_COMMENT_LIMIT, sessionToMarkdown } from '../../../src/lib/export/markdown.js';
import { countOf, formatCount, formatDuration, formatTimestamp } from '../../../src/lib/format.js';
import type { PriceTable } from '../../../src/lib/site/cost.js';
import { paginateTurns } from '../../../src/lib/site/pages.js';
import { formatCost, formatTally, projectRelative, sessionCost } from '../../../src/lib/site/summary.js';
import { promptTitleText, shortenTitle } from '../../../src/lib/transcript/build-session.js';
import type { Session } from '../../../src/lib/transcript/types.js';

/** The first line of our comment, and only of ours: a comment is ours when its body starts with it. */
export const COMMENT_MARKER = '<!-- sessionpress:pr-comment -->';

/** Whether a comment is the one this command keeps up to date (a quote of it, which starts with `>`, is not). */
export function isOurComment(body: string | undefined): boolean {
  return typeof body === 'string' && body.startsWith(COMMENT_MARKER);
}

const GITHUB = { github: true } as const;
/** Prompts listed per session in the overview; the rest are counted. */
const OVERVIEW_PROMPTS = 30;
/** Characters kept free under the limit (the closing lines, the cut note). */
const HEADROOM = 1_000;
/** Below this, a session's full Markdown is not worth including. */
const MIN_TRANSCRIPT = 2_000;

/** One session of the comment: the session (redacted) and where its page is. */
export interface CommentSession {
  session: Session;
  /** The published page (absolute) when the site's address is known. */
  pageUrl?: string;
  /** The published permalink to a message, by uuid. */
  messageUrl?: (uuid: string) => string | undefined;
  /** Why it is listed. */
  reasons: Array<'pr-link' | 'files'>;
}

export interface CommentOptions {
  /** Turns per page of the published site (links land on the right page). */
  pageSize: number;
  /** The whole comment's limit (default GitHub's). */
  limit?: number;
  /** Who wrote the added lines (blame-summary.ts), placed after the heading. */
  blameSummary?: string;
}

/**
 * The comment's Markdown, within the limit: the summaries first; what is left
 * is shared evenly by the sessions' full Markdown. Sessions whose summaries
 * no longer fit are counted at the end (never cut in the middle).
 */
export function commentBody(sessions: CommentSession[], options: CommentOptions): string {
  const limit = options.limit ?? GITHUB_COMMENT_LIMIT;
  const head = `${COMMENT_MARKER}\n## Claude Code sessions\n\n${countOf(sessions.length, 'session')} of this pull request, redacted. This comment is updated in place by \`sessionpress pr-comment\`.\n${options.blameSummary ? `\n${options.blameSummary}` : ''}`;
  const summaries = sessions.map((s) => sessionSummary(s, options.pageSize));
  let kept = sessions.length;
  const fixed = () => head.length + summaries.slice(0, kept).reduce((n, s) => n + s.length + 2, 0);
  while (kept > 1 && fixed() > limit - HEADROOM) kept--;
  const share = Math.floor((limit - HEADROOM - fixed()) / kept);
  const parts = [head];
  for (let i = 0; i < kept; i++) parts.push(summaries[i], transcriptDetails(sessions[i], share));
  if (kept < sessions.length) parts.push(`_${countOf(sessions.length - kept, 'more session')} left out to stay under GitHub's ${formatCount(GITHUB_COMMENT_LIMIT)}-character limit._\n`);
  return parts.join('\n');
}

/** Title, facts, link and overview of one session. */
function sessionSummary(s: CommentSession, pageSize: number): string {
  const { session } = s;
  const f = session.facts;
  const facts = [`**Project** ${inlineCode(f.projectName, GITHUB)}`];
  const when = formatTimestamp(f.firstTimestamp);
  if (when) facts.push(`**Date** ${when}`);
  const duration = formatDuration(f.durationMs);
  if (duration) facts.push(`**Duration** ${duration}`);
  if (f.models.length) facts.push(`**Models** ${f.models.map((m) => inlineCode(m, GITHUB)).join(', ')}`);
  const table = prices as PriceTable;
  const cost = f.usage.length ? formatCost(sessionCost(f.usage, table), table.currency) : '';
  if (cost) facts.push(`**Estimated cost** ${cost}`);
  const why = [s.reasons.includes('pr-link') ? 'it links this pull request' : '', s.reasons.includes('files') ? 'this pull request adds or changes its files' : ''].filter(Boolean).join(', and ');
  const lines = [`### ${headingText(session.title, GITHUB)}`, '', facts.join(' · ')];
  lines.push('', `${s.pageUrl ? `[Published page](${linkDestination(s.pageUrl)}) · ` : ''}Listed because ${why}.`);
  lines.push('', overviewMarkdown(s, pageSize));
  return lines.join('\n');
}

/** Each prompt with what it led to, then the files changed and the commits (bounded, the rest counted). */
function overviewMarkdown(s: CommentSession, pageSize: number): string {
  const collector = createOverviewCollector();
  // Paths inside the project read as the pull request shows them: `src/app.ts`.
  const path = (p: string) => inlineCode(projectRelative(p, s.session.facts.projectPath), GITHUB);
  const prompts: string[] = [];
  let more = 0;
  for (const [i, turns] of paginateTurns(s.session.turns, pageSize).entries()) {
    for (const turn of turns) {
      const facts = collector.add(turn, i + 1);
      if (!turn.prompt) continue;
      if (prompts.length >= OVERVIEW_PROMPTS) {
        more++;
        continue;
      }
      const text = summaryText(shortenTitle(promptTitleText(turn.prompt.text)) || '(empty prompt)', 120, GITHUB);
      const link = s.messageUrl?.(turn.prompt.uuid);
      const tally = facts.tools.length ? ` — ${summaryText(formatTally(facts.tools), 200, GITHUB)}` : '';
      const errors = facts.errors ? ` · ${countOf(facts.errors, 'error')}` : '';
      const files = facts.files.length ? ` · changed ${facts.files.map(path).join(', ')}${facts.filesMore ? ` and ${formatCount(facts.filesMore)} more` : ''}` : '';
      prompts.push(`${turn.index}. ${link ? `[${text}](${linkDestination(link)})` : text}${tally}${errors}${files}`);
    }
  }
  const overview = collector.result();
  const out = ['**Overview**', ''];
  if (prompts.length) out.push(prompts.join('\n'));
  else out.push('_No prompts._');
  if (more) out.push('', `_…and ${countOf(more, 'more prompt')}._`);
  if (overview.files.length) {
    const n = overview.files.length + overview.filesMore;
    out.push('', `**Files changed** (${formatCount(n)}): ${overview.files.map((x) => path(x.path)).join(', ')}${overview.filesMore ? `, and ${formatCount(overview.filesMore)} more` : ''}`);
  }
  if (overview.commits.length) {
    out.push('', `**Commits** (${formatCount(overview.commits.length + overview.commitsMore)})`, '');
    for (const c of overview.commits) out.push(`- ${c.hash ? `${inlineCode(c.hash, GITHUB)} ` : ''}${summaryText(c.message, 200, GITHUB)}${c.failed ? ' _(failed)_' : ''}`);
    if (overview.commitsMore) out.push(`- _…and ${formatCount(overview.commitsMore)} more_`);
  }
  return out.join('\n');
}

/** The session's whole Markdown, collapsed, within `share` characters (with a note saying what was cut). */
function transcriptDetails(s: CommentSession, share: number): string {
  const open = '<details>\n<summary>The whole session (Markdown)</summary>\n\n';
  const close = '\n\n</details>\n';
  const where = s.pageUrl ? `; read it whole on [the published page](${linkDestination(s.pageUrl)})` : '';
  if (share - open.length - close.length < MIN_TRANSCRIPT) return `_The whole session is left out: this comment has no room for it beside the other sessions${where}._\n`;
  const [md] = sessionToMarkdown(s.session, {
    github: true,
    pageUrl: s.pageUrl,
    messageUrl: s.messageUrl,
    limit: share - open.length - close.length,
    cutNote: (left, total) => `Cut to keep this comment under GitHub's ${formatCount(GITHUB_COMMENT_LIMIT)}-character limit: the last ${formatCount(left)} of ${formatCount(total)} blocks are left out${where}.`,
  });
  return `${open}${md}${close}`;
}
