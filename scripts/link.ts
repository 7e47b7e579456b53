/**
 * `npm run link -- <session-id-or-prefix> [--message <uuid-prefix>] [--prompt N]`
 * prints the published URL of a session, a prompt or one message, and a
 * Markdown line to paste into a pull request.
 */
import { parseCommandLine } from '../src/lib/cli.js';
import { discoverSources } from '../src/lib/discover.js';
import { assignSiblingAgents, loadSession } from '../src/lib/pipeline.js';
import { createRedactor } from '../src/lib/redact/index.js';
import { usernamesFromFolder } from '../src/lib/redact/usernames.js';
import { projectSlugOf } from '../src/lib/site/build-entries.js';
import { linkTo } from '../src/lib/site/links.js';
import { loadConfig } from '../src/schemas/config.js';

export async function main(argv: string[], out: (line: string) => void = console.log): Promise<number> {
  const usage = 'usage: npm run link -- <session-id-or-prefix> [--message <uuid-prefix>] [--prompt N]';
  const cli = parseCommandLine(argv, { message: { type: 'string', short: 'm' }, prompt: { type: 'string', short: 'p' } }, usage, out, { min: 1, max: 1 });
  if (!cli.ok) return cli.code;
  const { values, positionals } = cli;
  const config = loadConfig();
  const layout = await discoverSources(config.sourceDir);
  const prefix = positionals[0];
  const matches = layout.sessions.filter((s) => s.sessionId.startsWith(prefix));
  if (matches.length !== 1) {
    out(matches.length ? `"${prefix}" matches ${matches.length} sessions: ${matches.map((s) => s.sessionId).join(', ')}` : `no session id starts with "${prefix}" in ${config.sourceDir}`);
    return 1;
  }
  const source = matches[0];
  const redactor = createRedactor({ ...config.redaction, usernames: usernamesFromFolder(source.projectFolder) });
  const loaded = await loadSession(source, config.sourceDir, await assignSiblingAgents(layout), redactor);
  if (!loaded.result.ok) {
    out(`${source.relPath} has no page (${loaded.result.reason})`);
    return 1;
  }
  const prompt = values.prompt !== undefined ? Number.parseInt(values.prompt, 10) : undefined;
  if (values.prompt !== undefined && (!Number.isInteger(prompt) || prompt! < 1)) {
    out(`--prompt takes a prompt number from 1, not "${values.prompt}"`);
    return 2;
  }
  try {
    const link = linkTo(loaded.result.session, {
      site: config.site,
      base: config.base,
      pageSize: config.pageSize,
      projectSlug: projectSlugOf(source.projectFolder),
      message: values.message,
      prompt,
    });
    out(link.url);
    out(link.markdown);
    return 0;
  } catch (err) {
    out((err as Error).message);
    return 1;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2)).then((code) => process.exit(code));
}
