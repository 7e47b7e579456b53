/**
 * `npm run link -- <session-id-or-prefix> [--message <uuid-prefix>] [--prompt N]`
 * prints the published URL of a session, a prompt or one message, and a
 * Markdown line to paste into a pull request.
 */
import { parseCommandLine } from './lib/cli.js';
import { openSessionById } from '../src/lib/build/open-session.js';
import { linkTo } from '../src/lib/site/links.js';
import { projectSlugOf } from '../src/lib/site/slug.js';
import { loadConfig } from '../src/schemas/config.js';

export async function main(argv: string[], out: (line: string) => void = console.log): Promise<number> {
  const usage = 'usage: npm run link -- <session-id-or-prefix> [--message <uuid-prefix>] [--prompt N]';
  const cli = parseCommandLine(argv, { message: { type: 'string', short: 'm' }, prompt: { type: 'string', short: 'p' } }, usage, out, { min: 1, max: 1 });
  if (!cli.ok) return cli.code;
  const { values, positionals } = cli;
  const prompt = values.prompt !== undefined ? Number.parseInt(values.prompt, 10) : undefined;
  if (values.prompt !== undefined && (!Number.isInteger(prompt) || prompt! < 1)) {
    out(`--prompt takes a prompt number from 1, not "${values.prompt}"`);
    return 2;
  }
  const config = loadConfig();
  try {
    const opened = await openSessionById(config.sourceDir, positionals[0], config.redaction);
    const link = linkTo(opened.result.session, {
      site: config.site,
      base: config.base,
      pageSize: config.pageSize,
      projectSlug: projectSlugOf(opened.source.projectFolder),
      message: values.message,
      prompt,
    });
    out(link.url);
    out(link.markdown);
    return 0;
  } catch (err) {
    // An unknown or ambiguous id, a session with no page, a prompt or message it does not have.
    out((err as Error).message);
    return 1;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2)).then((code) => process.exit(code));
}
