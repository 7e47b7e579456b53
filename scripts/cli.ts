/**
 * `sessionpress <command> [options]`: the command table, `--help` and
 * `--version`. Each command is a file beside this one exporting
 * `main(argv)`, loaded only when it runs; bin/sessionpress.mjs calls `main`.
 */
import { version } from './lib/cli.js';

interface Command {
  /** Its arguments, as the help shows them. */
  args: string;
  summary: string;
  /** Its module: `main(argv)` resolves with an exit code, or undefined while a server it started keeps running. */
  load: () => Promise<{ main: (argv: string[]) => Promise<number | undefined> }>;
}

/** Every command, in the order `--help` lists them. */
export const COMMANDS: Record<string, Command> = {
  build: { args: '[SOURCE] [--out DIR]', summary: 'build a site from SOURCE (default ~/.claude/projects) into ./sessionpress-site, redacted', load: () => import('./build.js') },
  dev: { args: '[SOURCE]', summary: 'serve the site while you work, rebuilt as session files change', load: () => import('./dev.js') },
  preview: { args: '[--out DIR]', summary: 'serve a built site locally, search included', load: () => import('./preview.js') },
  import: { args: '[SOURCE] [--pick]', summary: 'copy chosen sessions, redacted, into ./content/sessions', load: () => import('./import.js') },
  audit: { args: '[SOURCE] [--strict]', summary: 'show what redaction finds; --strict: fail if a built site still holds any', load: () => import('./audit.js') },
  link: { args: '<SESSION> [--prompt N]', summary: 'print the published URL of a session, prompt, message or tool call', load: () => import('./link.js') },
  export: { args: '<SESSION> [--format md|html]', summary: 'write one session as Markdown for a pull request, or one HTML file', load: () => import('./export.js') },
  capture: { args: '[--to DIR]', summary: 'a Claude Code hook: copy the session on stdin, redacted, into .claude-sessions/ of its repository', load: () => import('./capture.js') },
  'pr-comment': { args: '--repo OWNER/NAME --pr N', summary: "post (then update) one comment on a pull request with its sessions, redacted and audited", load: () => import('./pr-comment.js') },
  blame: { args: '--base REF [--head REF] [FILE…]', summary: 'who wrote each line a pull request adds: a tool call, a command, or a person (text, json, Agent Trace)', load: () => import('./blame.js') },
};


/** The help: one line per command of the table. */
export function help(): string {
  const width = Math.max(...Object.entries(COMMANDS).map(([name, c]) => name.length + c.args.length + 1));
  const rows = Object.entries(COMMANDS).map(([name, c]) => `  ${`${name} ${c.args}`.padEnd(width)}  ${c.summary}`);
  return `sessionpress ${version()}: publish Claude Code session transcripts as a static, searchable website

usage: npx sessionpress <command> [options]

${rows.join('\n')}

  --help, -h     this help; sessionpress <command> --help for a command's options
  --version, -v  the version

A sessionpress.config.json in the current folder is read (--config FILE names another).`;
}

/** Runs one command line; resolves with the exit code, or undefined while a server keeps running. */
export async function main(argv: string[], out: (line: string) => void = console.log): Promise<number | undefined> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    out(help());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    out(version());
    return 0;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    out(`unknown command "${name}"\n\n${help()}`);
    return 2;
  }
  // Astro's telemetry is Astro's to ask for: a user of this command never opted in.
  process.env.ASTRO_TELEMETRY_DISABLED ??= '1';
  process.env.ASTRO_DISABLE_UPDATE_CHECK ??= 'true';
  // A log written to a file or a pipe gets no colour codes (picocolors colours whenever CI is set).
  if (!process.stdout.isTTY) process.env.NO_COLOR ??= '1';
  return (await command.load()).main(rest);
}
