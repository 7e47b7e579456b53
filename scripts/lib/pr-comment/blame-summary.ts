/**
 * The comment's "Who wrote the added lines" section: per changed file, how
 * many of its added lines each tool call, command or person wrote, each call
 * linked to its permalink when the site's address is known
 * ("`src/retry.py`: 15 of 18 added lines by prompt 1 (Write), 2 by prompt 2
 * (Edit), 1 by a person or unknown"). Files blame only lists say why. Paths
 * are code spans; nothing else taken from the repository or the sessions is
 * written, so the section needs no more neutralising than that.
 */
import { inlineCode } from '../../../src/lib/export/gfm.js';
import { countOf, formatCount } from '../../../src/lib/format.js';
import type { Author, BlameReport } from '../../../src/lib/blame/blame.js';
import { agentLabel, fileKindText } from '../../../src/lib/blame/format.js';

/** Files listed before the rest are counted. */
const MAX_FILES = 40;
/** Writers named per file before the rest are summed. */
const MAX_WRITERS = 6;

/** A call's label in the summary: `prompt 2 (Edit)`, `prompt 3 (Bash command)`, `prompt 2 of session 2 (Edit, subagent Explore)`. */
function callLabel(a: Extract<Author, { type: 'tool' | 'command' }>, sessions: number): string {
  const where = a.call.prompt ? `prompt ${a.call.prompt.index}` : 'no prompt';
  const of = sessions > 1 ? ` of session ${a.session + 1}` : '';
  const what = [a.type === 'command' ? `${a.call.tool} command` : a.call.tool, agentLabel(a.call)].filter(Boolean).join(', ');
  return `${where}${of} (${what})`;
}

/** The section's Markdown, or '' when the pull request adds no line. */
export function blameSummaryMarkdown(report: BlameReport): string {
  const files = report.files.filter((f) => f.added > 0 || f.kind !== 'text');
  if (!files.length) return '';
  const lines: string[] = ['### Who wrote the added lines', ''];
  let byTools = 0;
  let total = 0;
  for (const f of report.files) {
    total += f.lines.length;
    byTools += f.lines.filter((l) => l.author.type !== 'person').length;
  }
  if (total) lines.push(`${formatCount(byTools)} of ${countOf(total, 'added line')} were written by tool calls or commands of the sessions below (\`sessionpress blame\`); the rest by a person or unknown.`, '');
  // The pull request's own session files are one line, not one each.
  const sessionFiles = files.filter((f) => f.kind === 'session').length;
  const listed = files.filter((f) => f.kind !== 'session');
  for (const f of listed.slice(0, MAX_FILES)) {
    const path = inlineCode(f.path, { github: true });
    if (f.kind !== 'text') {
      lines.push(`- ${path}: ${fileKindText(f.kind)}`);
      continue;
    }
    const writers = new Map<string, { label: string; url?: string; count: number }>();
    let person = 0;
    for (const l of f.lines) {
      const a = l.author;
      if (a.type === 'person') {
        person++;
        continue;
      }
      const w = writers.get(a.call.id);
      if (w) w.count++;
      else writers.set(a.call.id, { label: callLabel(a, report.sessions.length), url: /^https?:\/\//.test(a.url) ? a.url : undefined, count: 1 });
    }
    const named = [...writers.values()].sort((x, y) => y.count - x.count);
    const parts = named.slice(0, MAX_WRITERS).map((w) => `${formatCount(w.count)} by ${w.url ? `[${w.label}](${w.url})` : w.label}`);
    const rest = named.slice(MAX_WRITERS).reduce((n, w) => n + w.count, 0);
    if (rest) parts.push(`${formatCount(rest)} by ${countOf(named.length - MAX_WRITERS, 'other call')}`);
    if (person) parts.push(`${formatCount(person)} by a person or unknown`);
    const [first, ...others] = parts;
    const lead = first ? first.replace(/^(\S+) by/, `$1 of ${countOf(f.lines.length, 'added line')} by`) : '';
    lines.push(`- ${path}: ${[lead, ...others].join(', ')}`);
  }
  if (listed.length > MAX_FILES) lines.push(`- _…and ${countOf(listed.length - MAX_FILES, 'more file')}._`);
  if (sessionFiles) lines.push(`- ${countOf(sessionFiles, 'session file')} of this pull request, not blamed`);
  return `${lines.join('\n')}\n`;
}
