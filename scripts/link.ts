/**
 * `sessionpress link <session-id-or-prefix> [--message <uuid-prefix>] [--tool <tool-id-prefix>] [--prompt N]`
 * prints the published URL of a session, a prompt, one message or one tool
 * call (`--tool`, or a `toolu_…` id given to `--message`), and a Markdown line
 * to paste into a pull request.
 *
 * `sessionpress link --pr <number|owner/repo#N|url>` prints those lines for every
 * session that opened or updated that pull request, newest first.
 */
import { parseCommandLine } from './lib/cli.js';
import { openSession, openSessionById, sessionFileIncludes, sourceLayout } from '../src/lib/build/open-session.js';
import { linkTo } from '../src/lib/site/links.js';
import { groupByPullRequest, matchesPullRequest } from '../src/lib/site/pull-requests.js';
import { pagesBase } from '../src/lib/site/urls.js';
import { linkFragment, PASSWORD_VARIABLE, withLinkKey } from '../src/lib/encrypt/site.js';
import { loadConfig, type SessionpressConfig } from '../src/schemas/config.js';
import type { Session } from '../src/lib/transcript/types.js';

const USAGE = `usage: sessionpress link <session-id-or-prefix> [--message <uuid-prefix>] [--tool <tool-use-id-prefix>] [--prompt N] [--key] [--config FILE]
       sessionpress link --pr <number | owner/repo#N | pull request URL> [--key] [--config FILE]

  --key   for an encrypted site: the URL carries the key (#k=…) and opens without the password;
          needs SESSIONPRESS_PASSWORD and the same "site" and "base" as the build`;

/** Printed under links that carry the key of an encrypted site. */
export const KEY_WARNING = 'note: these links open the encrypted site without its password: share them only where the password could go. Changing the password revokes them.';

/** Printed under root-relative links: they only work once `site` says where the pages live. */
export const SITE_NOT_SET =
  'note: "site" is not set, so this link is relative to the site root. Set "site" in sessionpress.config.json (e.g. "site": "https://you.github.io") or SESSIONPRESS_SITE to get a full URL.';

export async function main(argv: string[], out: (line: string) => void = console.log): Promise<number> {
  const cli = parseCommandLine(argv, { message: { type: 'string', short: 'm' }, tool: { type: 'string', short: 't' }, prompt: { type: 'string', short: 'p' }, pr: { type: 'string' }, config: { type: 'string' }, key: { type: 'boolean' } }, USAGE, out, { max: 1 });
  if (!cli.ok) return cli.code;
  const { values, positionals } = cli;
  if (values.pr !== undefined ? positionals.length > 0 || values.message !== undefined || values.tool !== undefined || values.prompt !== undefined : positionals.length !== 1) {
    out(`${values.pr !== undefined ? '--pr takes no session id, --message, --tool or --prompt' : 'expected 1 argument, a session id or prefix'}\n\n${USAGE}`);
    return 2;
  }
  const prompt = values.prompt !== undefined ? Number.parseInt(values.prompt, 10) : undefined;
  if (values.prompt !== undefined && (!Number.isInteger(prompt) || prompt! < 1)) {
    out(`--prompt takes a prompt number from 1, not "${values.prompt}"`);
    return 2;
  }
  let config: SessionpressConfig;
  try {
    config = loadConfig(process.cwd(), values.config ? { ...process.env, SESSIONPRESS_CONFIG: values.config } : process.env);
  } catch (err) {
    out((err as Error).message);
    return 2;
  }
  let fragment: string | undefined;
  if (values.key) {
    const password = process.env[PASSWORD_VARIABLE];
    if (!password) {
      out(`--key needs the site's password in ${PASSWORD_VARIABLE}`);
      return 2;
    }
    if (!config.encrypt) out('note: "encrypt" is not on in this configuration; the key opens the site only if it was built encrypted with this password, site and base.');
    fragment = await linkFragment(password, config.site, config.base);
  }
  const keyed = (link: { url: string; markdown: string }) => (fragment ? { url: withLinkKey(link.url, fragment), markdown: link.markdown.replace(link.url, withLinkKey(link.url, fragment)) } : link);
  if (values.pr !== undefined) {
    const code = await linkPullRequest(config, values.pr, out, keyed);
    if (fragment && code === 0) out(KEY_WARNING);
    return code;
  }
  try {
    const opened = await openSessionById(config.sourceDir, positionals[0], config.redaction);
    const link = keyed(linkTo(opened.result.session, {
      site: config.site,
      base: pagesBase(config.base, config.prefix),
      pageSize: config.pageSize,
      entryId: opened.identity.entryId,
      message: values.message,
      tool: values.tool,
      prompt,
    }));
    out(link.url);
    out(link.markdown);
    if (!config.site) out(SITE_NOT_SET);
    if (fragment) out(KEY_WARNING);
    return 0;
  } catch (err) {
    // An unknown or ambiguous id, a session with no page, a prompt or message it does not have.
    out((err as Error).message);
    return 1;
  }
}

/** The sessions of the source that touched a pull request, grouped by PR, each with its link lines. */
async function linkPullRequest(config: SessionpressConfig, query: string, out: (line: string) => void, keyed: (link: { url: string; markdown: string }) => { url: string; markdown: string } = (l) => l): Promise<number> {
  const { layout, owners } = await sourceLayout(config.sourceDir);
  const found: Array<{ session: Session; entryId: string }> = [];
  for (const source of layout.sessions) {
    // Only a session file with a pr-link line can name a PR: skip the rest without parsing or redacting them.
    if (!(await sessionFileIncludes(source.path, '"pr-link"'))) continue;
    const opened = await openSession(source, { root: config.sourceDir, owners, redaction: config.redaction });
    if (!opened.result.ok) continue;
    const session = opened.result.session;
    if ((session.facts.pullRequests ?? []).some((pr) => matchesPullRequest(pr, query))) found.push({ session, entryId: opened.identity.entryId });
  }
  const groups = groupByPullRequest(found, (f) => ({ ...f.session.facts, pullRequests: (f.session.facts.pullRequests ?? []).filter((pr) => matchesPullRequest(pr, query)) }));
  if (!groups.length) {
    out(`no session in ${config.sourceDir} opened or updated pull request ${query} (sessions record them from Claude Code 2.1 on, as pr-link lines)`);
    return 1;
  }
  for (const g of groups) {
    out(`${g.label} ${g.url} — ${g.sessions.length} session${g.sessions.length === 1 ? '' : 's'}`);
    for (const { session, entryId } of g.sessions) {
      const link = keyed(linkTo(session, { site: config.site, base: pagesBase(config.base, config.prefix), pageSize: config.pageSize, entryId }));
      out(link.url);
      out(link.markdown);
    }
  }
  if (!config.site) out(SITE_NOT_SET);
  return 0;
}
