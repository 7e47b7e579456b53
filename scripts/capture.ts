/**
 * `sessionpress capture [--to DIR] [--config FILE]`: a Claude Code hook.
 *
 * Reads the hook's JSON on stdin (`session_id`, `transcript_path`, `cwd`,
 * `hook_event_name`) and copies that session, with its subagents, sidecars and
 * kept outputs, redacted, into DIR (default `.claude-sessions/`) of the git
 * repository the session ran in, laid out like `~/.claude/projects`, exactly
 * as `sessionpress import` would. Run again, it replaces the copy.
 *
 * It never gets in Claude Code's way: each run writes one line to stderr and
 * to `DIR/capture.log`, and ends with 0 when it copied (or had nothing to do)
 * and 1 on any problem. Never 2: for PreCompact, exit code 2 blocks the
 * compaction, and for every other non-zero code Claude Code carries on and
 * shows stderr only in its verbose mode, a non-blocking error.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { parseCommandLine } from './lib/cli.js';
import { captureCounts, captureSession, locateSession } from './lib/capture/capture-session.js';
import { findRepoRoot, parseHookInput } from './lib/capture/hook-input.js';
import { loadRedactionOptions } from './import.js';
import { createSafeTarget } from '../src/lib/fs/safe-write.js';
import { createRedactor, type Redactor } from '../src/lib/redact/index.js';
import { CONFIG_FILE } from '../src/schemas/config.js';

export const DEFAULT_CAPTURE_DIR = '.claude-sessions';
/** The log beside the copies: one line per run. */
export const CAPTURE_LOG = 'capture.log';

const USAGE = `usage: sessionpress capture [--to DIR] [--config FILE]   (a Claude Code hook: reads the hook's JSON on stdin)

  --to DIR       where the copies go: relative to the root of the git repository the session
                 ran in (default: ${DEFAULT_CAPTURE_DIR}), or an absolute folder
  --config FILE  Sessionpress config with a "redaction" section, relative to the repository
                 (default: ${CONFIG_FILE} there, if present)

Exit code 0 when the session was copied or there was nothing to do, 1 on any problem
(never 2, which would block a compaction); one line on stderr and in DIR/${CAPTURE_LOG}.`;

export interface CaptureDeps {
  /** The hook's stdin (default: read to its end). */
  stdin?: () => Promise<string>;
  /** Where the log line goes besides the log file (default: stderr). */
  err?: (line: string) => void;
  out?: (line: string) => void;
}

/** Runs one capture; resolves with 0 (copied, or nothing to copy) or 1 (a problem, logged). */
export async function main(argv: string[], deps: CaptureDeps = {}): Promise<number> {
  const err = deps.err ?? ((line: string) => process.stderr.write(`${line}\n`));
  try {
    return await capture(argv, deps, err);
  } catch (e) {
    // Whatever the problem, the hook's output gets one line, not a stack (and no path: it is not redacted here).
    err(`${stamp()} capture failed: ${(e as Error).name}`);
    return 1;
  }
}

async function capture(argv: string[], deps: CaptureDeps, err: (line: string) => void): Promise<number> {
  const out = deps.out ?? ((line: string) => console.log(line));
  // Usernames of the machine's own home, so that even a problem's message is redacted before it is logged.
  const redactor = createRedactor();
  await redactor.redactSession([], { cwds: [homedir(), process.cwd()] });
  const log = (line: string, logDir?: string) => logLine(line, { redactor, logDir, err });
  const usage: string[] = [];
  const cli = parseCommandLine(argv, { to: { type: 'string' }, config: { type: 'string' } }, USAGE, (l) => usage.push(l), { max: 0 });
  if (!cli.ok) {
    if (cli.code === 0) usage.forEach((l) => out(l));
    // A usage error is a problem like any other: one line, and never exit 2 from a hook.
    else await log(`capture: ${usage[0].split('\n')[0].split(/\.\s/)[0]} (sessionpress capture --help)`);
    return cli.code === 0 ? 0 : 1;
  }

  let text: string;
  try {
    text = await (deps.stdin ?? readStdin)();
  } catch (e) {
    await log(`capture: cannot read the hook input: ${(e as Error).message}`);
    return 1;
  }
  const parsed = parseHookInput(text, process.cwd());
  if (!parsed.ok) {
    await log(`capture: ${parsed.reason}`);
    return 1;
  }
  const { input } = parsed;
  // The file is what is copied, so its name is the session's id here (Claude Code's session_id is the same).
  const head = `${input.event} ${basename(input.transcriptPath, '.jsonl')}`;
  await redactor.redactSession([], { cwds: [homedir(), input.cwd], projectFolders: [basename(dirname(input.transcriptPath))] });

  // The copies belong to the repository the session ran in. Outside one there is no such place, and
  // copying into whatever folder Claude Code was started in would scatter transcripts: skip, unless
  // --to names a folder of its own.
  const repo = findRepoRoot(input.cwd);
  const to = cli.values.to;
  if (!repo && !(to && isAbsolute(to))) {
    await log(`${head}: not copied, ${input.cwd} is not in a git repository (--to an absolute folder copies it anyway)`);
    return 0;
  }
  const base = repo ?? process.cwd();
  const outDir = resolve(base, to ?? DEFAULT_CAPTURE_DIR);

  try {
    if (!existsSync(input.transcriptPath)) {
      await log(`${head}: transcript ${input.transcriptPath} does not exist`, outDir);
      return 1;
    }
    const located = await locateSession(input.transcriptPath);
    if (!located) {
      await log(`${head}: ${input.transcriptPath} is not a session file`, outDir);
      return 1;
    }
    const config = cli.values.config ? resolve(base, cli.values.config) : join(base, CONFIG_FILE);
    const redaction = cli.values.config || existsSync(config) ? loadRedactionOptions(config) : {};
    const result = await captureSession(located, { outDir, redaction, cwd: input.cwd });
    const n = captureCounts(result);
    const where = relative(base, join(outDir, result.outFolder)) || '.';
    const bad = result.badLines.length ? `, ${result.badLines.length} bad line(s) left out` : '';
    await log(
      `${head}: copied ${n.files} file(s) (${n.agents} agent(s), ${n.keptOutputs} kept output(s)), ${result.report.total} redaction(s)${bad} → ${where}`,
      outDir,
    );
    return 0;
  } catch (e) {
    // One line, never a stack: the hook's output is no place for one.
    await log(`${head}: not copied: ${(e as Error).message.split('\n')[0]}`, outDir);
    return 1;
  }
}

/**
 * Writes one log line, redacted (a problem's message may name a home
 * folder), stamped with the time, to stderr and appended to the log file
 * in `logDir` when there is one. Appending one short line is atomic, so
 * concurrent hooks do not interleave; a log that cannot be written is not a
 * reason to fail.
 */
async function logLine(line: string, ctx: { redactor: Redactor; logDir?: string; err: (line: string) => void }): Promise<void> {
  // One line whatever a message holds: a newline in it would start a line that looks like a run of its own.
  const stamped = `${stamp()} ${ctx.redactor.redactText(line).replace(/[\r\n\t]+/g, ' ')}`;
  ctx.err(stamped);
  if (!ctx.logDir) return;
  try {
    // Never through a link: a committed `capture.log -> ~/.bashrc` would get our line appended.
    await createSafeTarget(ctx.logDir).appendFile(join(ctx.logDir, CAPTURE_LOG), `${stamped}\n`);
  } catch (e) {
    // stderr has the line; say once why the log file does not.
    ctx.err(`${stamp()} ${ctx.redactor.redactText(`capture: ${CAPTURE_LOG} not written: ${(e as Error).message}`).replace(/[\r\n\t]+/g, ' ')}`);
  }
}

/** The time a log line starts with: UTC, to the second. */
function stamp(): string {
  return new Date().toISOString().replace(/\.\d+Z$/, 'Z');
}

/** The whole of stdin; nothing when it is a terminal (run by hand, not by a hook). */
async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
