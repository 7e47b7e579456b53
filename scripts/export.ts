/**
 * `sessionpress export <session-id-or-prefix> [--format md|html] [--out FILE] [--prompt N | --message UUID-PREFIX] [--split] [--plain]`
 *
 * Writes one session, redacted exactly as the site shows it, as GitHub
 * Markdown for a pull request or as one self-contained HTML file. Reads the
 * configured source (or SESSIONPRESS_SOURCE); needs no built site.
 */
import { writeFile } from 'node:fs/promises';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCommandLine } from './lib/cli.js';
import { sessionToHtml } from './lib/export/html.js';
import { sessionToMarkdown } from '../src/lib/export/markdown.js';
import { openSessionById } from '../src/lib/build/open-session.js';
import { pageOfMessage } from '../src/lib/site/pages.js';
import { absoluteUrl, pagesBase, sessionUrl } from '../src/lib/site/urls.js';
import { loadConfig } from '../src/schemas/config.js';
import type { Message, Session } from '../src/lib/transcript/types.js';

const USAGE = `usage: sessionpress export <session-id-or-prefix> [options]

  --format, -f md|html   Markdown for a pull request (default), or one self-contained HTML file
  --out, -o FILE         write here instead of standard output (with --split: FILE-1.md, FILE-2.md, …)
  --prompt, -p N         only prompt N and its answer
  --message, -m PREFIX   only the message whose uuid starts with PREFIX
  --split                Markdown: numbered parts of at most 65,536 characters instead of cutting
  --plain                Markdown for anywhere but GitHub: mentions, references and the assistant's
                         text as written, not made inert (the text of the site's index.md twins)
  --config FILE          a Sessionpress config (default: sessionpress.config.json if present)`;

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export interface ExportDeps {
  out?: (text: string) => void;
  err?: (line: string) => void;
}

/** Runs the export; returns the exit code (0 ok, 1 lookup failed, 2 usage error). */
export async function main(argv: string[], deps: ExportDeps = {}): Promise<number> {
  const out = deps.out ?? ((t: string) => process.stdout.write(t));
  const err = deps.err ?? ((l: string) => console.error(l));
  const cli = parseCommandLine(
    argv,
    {
      format: { type: 'string', short: 'f' },
      out: { type: 'string', short: 'o' },
      prompt: { type: 'string', short: 'p' },
      message: { type: 'string', short: 'm' },
      split: { type: 'boolean' },
      plain: { type: 'boolean' },
      config: { type: 'string' },
    },
    USAGE,
    err,
    { min: 1, max: 1 },
  );
  if (!cli.ok) return cli.code;
  const { values, positionals } = cli;
  const format = values.format ?? (values.out && extname(values.out).toLowerCase() === '.html' ? 'html' : 'md');
  const problem = checkOptions(format, values);
  if (problem) {
    err(`${problem}\n\n${USAGE}`);
    return 2;
  }
  const prompt = values.prompt !== undefined ? Number(values.prompt) : undefined;
  let config;
  let opened;
  try {
    config = loadConfig(process.cwd(), values.config ? { ...process.env, SESSIONPRESS_CONFIG: values.config } : process.env);
    opened = await openSessionById(config.sourceDir, positionals[0], config.redaction);
  } catch (e) {
    err((e as Error).message);
    return 1;
  }
  const session = opened.result.session;
  const slug = opened.identity.entryId;
  const target = pickTarget(session, prompt, values.message, config.pageSize);
  if (typeof target === 'string') {
    err(target);
    return 1;
  }
  const pageUrl = config.site ? absoluteUrl(sessionUrl(pagesBase(config.base, config.prefix), slug, target.link), config.site) : undefined;

  if (format === 'html') {
    const doc = await sessionToHtml(session, { root: repoRoot, pageUrl, turnFilter: target.turnFilter });
    await emit([doc], values.out, 'html', out, err);
    return 0;
  }
  const parts = sessionToMarkdown(session, {
    // Written for a pull request unless --plain: mentions and issue references in the transcript stay inert there.
    github: !values.plain,
    pageUrl,
    messageUrl: config.site ? (uuid) => absoluteUrl(sessionUrl(pagesBase(config.base, config.prefix), slug, { page: pageOfMessage(session, uuid, config.pageSize)?.page, message: uuid }), config.site) : undefined,
    turns: target.turnFilter ? session.turns.filter((t) => target.turnFilter!(t.index)) : undefined,
    messageFilter: target.messageFilter,
    split: values.split,
  });
  await emit(parts, values.out, 'md', out, err);
  return 0;
}

function checkOptions(format: string, values: { prompt?: string; message?: string; split?: boolean; plain?: boolean }): string | undefined {
  if (format !== 'md' && format !== 'html') return `--format takes md or html, not "${format}"`;
  if (values.prompt !== undefined && values.message !== undefined) return '--prompt and --message cannot be used together';
  if (values.prompt !== undefined && !/^[1-9]\d*$/.test(values.prompt)) return `--prompt takes a prompt number from 1, not "${values.prompt}"`;
  if (values.split && format !== 'md') return '--split only applies to --format md';
  if (values.plain && format !== 'md') return '--plain only applies to --format md';
  return undefined;
}

interface Target {
  /** Where the published page's link lands. */
  link: { page?: number; message?: string };
  turnFilter?: (index: number) => boolean;
  messageFilter?: (m: Message) => boolean;
}

/** What to export: the whole session, one prompt's turn, or one message; a message saying why not otherwise. */
function pickTarget(session: Session, prompt: number | undefined, message: string | undefined, pageSize: number): Target | string {
  if (prompt !== undefined) {
    const turn = session.turns.find((t) => t.index === prompt && t.prompt);
    if (!turn) return `session ${session.sessionId} has no prompt ${prompt} (it has ${session.facts.promptCount})`;
    return { link: { page: pageOfMessage(session, turn.prompt!.uuid, pageSize)?.page, message: turn.prompt!.uuid }, turnFilter: (i) => i === prompt };
  }
  if (message !== undefined) {
    const at = pageOfMessage(session, message, pageSize);
    if (!at) return `no message of session ${session.sessionId} has a uuid starting with "${message}"`;
    const turn = session.turns.find((t) => t.messages.some((m) => m.uuid === at.uuid));
    return { link: { page: at.page, message: at.uuid }, turnFilter: (i) => i === turn?.index, messageFilter: (m) => m.uuid === at.uuid };
  }
  return { link: {} };
}

/** Writes the document (or its parts) to a file, or to standard output with a line between parts. */
async function emit(parts: string[], file: string | undefined, ext: string, out: (t: string) => void, err: (l: string) => void): Promise<void> {
  if (!file) {
    out(parts.join('\n\n<!-- ✂ next part ✂ -->\n\n'));
    return;
  }
  const names = parts.length === 1 ? [file] : parts.map((_, i) => partName(file, i + 1, ext));
  for (const [i, name] of names.entries()) await writeFile(name, parts[i]);
  for (const [i, name] of names.entries()) err(`wrote ${name} (${parts[i].length.toLocaleString('en-US')} characters)`);
}

function partName(file: string, n: number, ext: string): string {
  const e = extname(file);
  const stem = e ? file.slice(0, -e.length) : file;
  return join(dirname(stem), `${stem.split(/[\\/]/).pop()}-${n}${e || `.${ext}`}`);
}
