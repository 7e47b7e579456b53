/**
 * `sessionpress import [source] [--project P] [--session ID] [--since D] [--until D] [--pick] [--out DIR] [--dry-run]`
 *
 * Copies chosen sessions (with their subagent files) from `~/.claude/projects`
 * (or any folder laid out like it) into `content/sessions/`, redacted, and
 * prints what it did: sessions, findings by rule, bytes before and after, and
 * the bad lines it left out.
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { parseCommandLine } from './lib/cli.js';
import { formatDiagnostic, type Diagnostic } from '../src/lib/diagnostics.js';
import { discoverSources, noSessionsMessage, type SessionSource } from '../src/lib/discover.js';
import { folderUsernames, importSession, type ImportSessionResult } from './lib/import/import-session.js';
import { parseDateBound, selectSessions, transcriptSpans } from './lib/import/select.js';
import { quickTitle } from './lib/import/title.js';
import { assignSiblingAgents } from '../src/lib/build/open-session.js';
import type { RedactionOptions } from '../src/lib/redact/index.js';
import { CONFIG_FILE, redactionConfigSchema } from '../src/schemas/config.js';

const USAGE = `usage: sessionpress import [source] [options]

  source              folder laid out like ~/.claude/projects (default: ~/.claude/projects),
                      or a session id or prefix to import from the default folder
  --project, -p NAME  project folder name or part of it (repeatable)
  --session, -s ID    session id or id prefix (repeatable)
  --since DATE        sessions with a message on or after DATE (YYYY-MM-DD or ISO time;
                      the transcript's own timestamps, not the file's)
  --until DATE        sessions with a message up to and including DATE
  --pick              choose sessions from a list
  --out DIR           destination (default: content/sessions)
  --dry-run, -n       show what would be imported, write nothing
  --config FILE       Sessionpress config with a "redaction" section (default: ${CONFIG_FILE} if present)

Without --project, --session, --since, --until or --pick, every session is imported.`;

/** Options the lead's tooling or tests may pass instead of a config file. */
export interface ImportDeps {
  out?: (line: string) => void;
  redaction?: RedactionOptions;
  /** Show a progress bar (default: when stdout is a terminal and there is a lot to do). */
  progress?: boolean;
}

export interface ImportSummary {
  imported: ImportSessionResult[];
  failed: Array<{ session: string; error: string }>;
  bytesIn: number;
  bytesOut: number;
  findings: Map<string, number>;
}

/** Runs the import; returns the exit code (0 ok, 1 some session failed or nothing matched, 2 usage error). */
export async function main(argv: string[], deps: ImportDeps = {}): Promise<number> {
  const out = deps.out ?? ((line: string) => console.log(line));
  const cli = parseCommandLine(
    argv,
    {
      project: { type: 'string', short: 'p', multiple: true },
      session: { type: 'string', short: 's', multiple: true },
      since: { type: 'string' },
      until: { type: 'string' },
      pick: { type: 'boolean' },
      out: { type: 'string', short: 'o' },
      'dry-run': { type: 'boolean', short: 'n' },
      config: { type: 'string' },
    },
    USAGE,
    out,
    { max: 1 },
  );
  if (!cli.ok) return cli.code;
  const { values, positionals } = cli;
  // A positional argument is a folder when one exists by that name, else a session id or prefix.
  const { root, idArg } = sourceOrSession(positionals[0]);
  const sessionIds = [...(values.session ?? []), ...(idArg ? [idArg] : [])];
  const outDir = resolve(values.out ?? 'content/sessions');
  const dryRun = values['dry-run'] ?? false;
  if (!existsSync(root)) {
    out(idArg ? `"${idArg}" is not a folder, so it was taken as a session id in ${root}, which does not exist; for a session in another folder: sessionpress import <folder> --session ${idArg}` : `source folder ${root} does not exist`);
    return 2;
  }

  let redaction: RedactionOptions;
  let since: Date | undefined;
  let until: Date | undefined;
  try {
    redaction = deps.redaction ?? loadRedactionOptions(values.config);
    since = values.since ? parseDateBound(values.since, 'since') : undefined;
    until = values.until ? parseDateBound(values.until, 'until') : undefined;
  } catch (err) {
    out((err as Error).message);
    return 2;
  }

  const layout = await discoverSources(root);
  const candidates = selectSessions(layout.sessions, { projects: values.project, sessions: sessionIds });
  // Dates come from the transcripts' own timestamps, read only for the sessions still in question.
  const spans = since || until ? await transcriptSpans(candidates) : undefined;
  let chosen = selectSessions(candidates, { since, until, spans });
  const undated = spans ? candidates.filter((c) => !spans.has(c.path)).length : 0;
  if (undated) out(`${undated} session(s) have no timestamp to compare with --since/--until and were left out`);
  if (values.pick) {
    const picked = await pick(chosen);
    if (!picked) {
      out('cancelled, nothing imported');
      return 1;
    }
    chosen = picked;
  }
  if (!chosen.length) {
    // A folder with no session at all is said as such (and the folder probably meant named), not as "no match".
    if (!layout.sessions.length) out(await noSessionsMessage(root));
    else out(idArg ? `"${idArg}" is not a folder, and no session id in ${root} starts with it` : `no session in ${root} matches`);
    return 1;
  }

  const owners = await assignSiblingAgents(layout);
  const usernamesByFolder = await folderUsernames(layout.sessions.filter((s) => chosen.some((c) => c.projectFolder === s.projectFolder)));
  const summary: ImportSummary = { imported: [], failed: [], bytesIn: 0, bytesOut: 0, findings: new Map() };
  const totalBytes = chosen.reduce((n, s) => n + s.size, 0);
  const bar = (deps.progress ?? (process.stdout.isTTY && (chosen.length > 20 || totalBytes > 50e6))) ? await startProgress(chosen.length) : undefined;
  for (const source of chosen) {
    try {
      const result = await importSession(source, {
        root,
        outDir,
        redaction,
        dryRun,
        siblingAgents: owners.get(source.sessionId) ?? [],
        folderUsernames: usernamesByFolder.get(source.projectFolder),
      });
      summary.imported.push(result);
      summary.bytesIn += result.bytesIn;
      summary.bytesOut += result.bytesOut;
      for (const f of result.report.findings) summary.findings.set(f.rule, (summary.findings.get(f.rule) ?? 0) + f.count);
    } catch (err) {
      summary.failed.push({ session: source.relPath, error: (err as Error).message });
    }
    bar?.advance(1, source.sessionId.slice(0, 8));
  }
  bar?.stop(`${summary.imported.length} sessions processed`);
  printSummary(summary, { outDir, dryRun }, out);
  printNotRead(layout.problems, out);
  return summary.failed.length ? 1 : 0;
}

/** What discovery refused (links, unsafe names): never copied, never silently. Local output, so real names. */
export function printNotRead(problems: readonly Diagnostic[], out: (line: string) => void): void {
  if (!problems.length) return;
  out(`Not read (${problems.length}):`);
  for (const d of problems) out(`  ${formatDiagnostic(d)}`);
}

function printSummary(summary: ImportSummary, ctx: { outDir: string; dryRun: boolean }, out: (line: string) => void): void {
  const verb = ctx.dryRun ? 'Would import' : 'Imported';
  const files = summary.imported.reduce((n, r) => n + r.files.length, 0);
  out(`${verb} ${summary.imported.length} session(s), ${files} file(s) → ${ctx.outDir}`);
  for (const r of summary.imported) {
    out(`  ${r.files[0].target}  ${formatBytes(r.bytesIn)} → ${formatBytes(r.bytesOut)}, ${r.report.total} redaction(s)${r.files.length > 1 ? `, ${r.files.length - 1} subagent file(s)` : ''}`);
  }
  if (summary.findings.size) {
    out('Findings by rule:');
    const width = Math.max(...[...summary.findings.keys()].map((k) => k.length));
    for (const [rule, count] of [...summary.findings].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))) {
      out(`  ${rule.padEnd(width)}  ${count}`);
    }
  } else out('Findings by rule: none');
  const bad = summary.imported.flatMap((r) => r.badLines);
  if (bad.length) {
    out(`Bad lines left out (${bad.length}):`);
    for (const d of bad) out(`  ${formatDiagnostic(d)}`);
  }
  const notes = summary.imported.flatMap((r) => r.notes);
  if (notes.length) {
    out(`Lines repaired (${notes.length}):`);
    for (const d of notes) out(`  ${formatDiagnostic(d)}`);
  }
  out(`Bytes: ${formatBytes(summary.bytesIn)} → ${formatBytes(summary.bytesOut)}`);
  if (summary.failed.length) {
    out(`Failed (${summary.failed.length}):`);
    for (const f of summary.failed) out(`  ${f.session}: ${f.error}`);
  }
  if (ctx.dryRun) out('Dry run: nothing was written.');
}

/**
 * The source folder and session id a positional argument names: an existing
 * folder is the source; anything else that looks like a session id (or prefix)
 * selects that session in the default source, `~/.claude/projects`.
 */
export function sourceOrSession(arg: string | undefined): { root: string; idArg?: string } {
  const fallback = resolve(homedir(), '.claude', 'projects');
  if (arg === undefined) return { root: fallback };
  if (existsSync(resolve(arg)) || !/^[A-Za-z0-9_-]+$/.test(arg)) return { root: resolve(arg) };
  return { root: fallback, idArg: arg };
}

/** Reads the `redaction` section of the config file, validated like the site does. */
export function loadRedactionOptions(configPath: string | undefined): RedactionOptions {
  const file = resolve(configPath ?? CONFIG_FILE);
  if (!existsSync(file)) {
    if (configPath) throw new Error(`--config: ${file} does not exist`);
    return {};
  }
  let raw: { redaction?: unknown };
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`${file}: not valid JSON (${(err as Error).message})`);
  }
  const parsed = redactionConfigSchema.safeParse(raw.redaction ?? {});
  if (!parsed.success) {
    throw new Error(`${file}: invalid "redaction" section:\n${parsed.error.issues.map((i) => `  - ${i.path.join('.')}: ${i.message}`).join('\n')}`);
  }
  return parsed.data;
}

/** Interactive multi-select of sessions: project, date, title and size. Undefined when cancelled. */
async function pick(sessions: SessionSource[]): Promise<SessionSource[] | undefined> {
  const { multiselect, isCancel } = await import('@clack/prompts');
  const sorted = [...sessions].sort((a, b) => b.mtimeMs - a.mtimeMs);
  const options = [];
  for (const s of sorted) {
    const date = new Date(s.mtimeMs).toISOString().slice(0, 16).replace('T', ' ');
    options.push({ value: s, label: `${s.projectFolder}  ${date}  ${await quickTitle(s.path)}`, hint: formatBytes(s.size) });
  }
  const chosen = await multiselect({ message: 'Sessions to import (space to select, enter to confirm)', options, required: false });
  return isCancel(chosen) ? undefined : (chosen as SessionSource[]);
}

async function startProgress(max: number): Promise<{ advance(step: number, msg: string): void; stop(msg: string): void }> {
  const { progress } = await import('@clack/prompts');
  const bar = progress({ max });
  bar.start('Importing sessions');
  return bar;
}

function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} kB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
