/**
 * `sessionpress audit [source] [--strict] [--dist dist]`
 *
 * Reports per session what redaction finds (rule, count, masked sample). With
 * `--strict`, also scans the built site (every text file and pagefind's
 * compressed fragments) for anything the rules still detect, and exits
 * non-zero if there is any.
 */
import { existsSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { parseCommandLine } from './lib/cli.js';
import { discoverSources, noSessionsMessage, toPosix, type SessionSource } from '../src/lib/discover.js';
import { scanDist } from './lib/import/scan-dist.js';
import { auditEncryptedSite } from './lib/audit-encrypted.js';
import { folderUsernames, importSession } from './lib/import/import-session.js';
import { scanText } from '../src/lib/redact/scan.js';
import { assignSiblingAgents, readSessionText } from '../src/lib/build/open-session.js';
import type { RedactionOptions } from '../src/lib/redact/index.js';
import { CONFIG_FILE } from '../src/schemas/config.js';
import { loadRedactionOptions } from './import.js';

const USAGE = `usage: sessionpress audit [source] [--strict] [--dist DIR] [--config FILE]

  source         folder laid out like ~/.claude/projects (default: content/sessions)
  --strict       also scan the built site and exit 1 if anything is still detected
  --dist DIR     built site folder for --strict (default: dist)
  --cache DIR    for an encrypted site: the build's cache folder, which holds the plaintext it sealed
                 (default: SESSIONPRESS_CACHE_DIR, ./.sessionpress-cache or node_modules/.astro)
  --config FILE  Sessionpress config with a "redaction" section (default: ${CONFIG_FILE} if present)`;

export interface AuditDeps {
  out?: (line: string) => void;
  redaction?: RedactionOptions;
}

/** Runs the audit; returns the exit code (0 clean, 1 strict scan found something, 2 usage error or a source given that holds no session). */
export async function main(argv: string[], deps: AuditDeps = {}): Promise<number> {
  const out = deps.out ?? ((line: string) => console.log(line));
  const cli = parseCommandLine(argv, { strict: { type: 'boolean' }, dist: { type: 'string' }, config: { type: 'string' }, cache: { type: 'string' } }, USAGE, out, { max: 1 });
  if (!cli.ok) return cli.code;
  const { values, positionals } = cli;
  let redaction: RedactionOptions;
  try {
    redaction = deps.redaction ?? loadRedactionOptions(values.config);
  } catch (err) {
    out((err as Error).message);
    return 2;
  }

  const root = resolve(positionals[0] ?? 'content/sessions');
  let sourceFindings = 0;
  if (existsSync(root)) {
    const found = await auditSources(root, redaction, out);
    // A folder given by name that holds no session (~/.claude for ~/.claude/projects) audited nothing: not
    // "clean". With --strict the built site is what is judged, so the audit goes on to it.
    if (found === undefined && positionals[0] && !values.strict) return 2;
    sourceFindings = found ?? 0;
  } else if (positionals[0]) {
    out(`source folder ${root} does not exist`);
    return 2;
  } else out(`no sessions to audit (${root} does not exist)`);

  if (!values.strict) return 0;
  const dist = resolve(values.dist ?? 'dist');
  // The findings above are what redaction replaces on the way in; --strict fails only on what reached the built site.
  out(`--strict judges the built site (${values.dist ?? 'dist'}) only${sourceFindings ? `: the ${sourceFindings} finding(s) above are in the source files and are redacted by the import and the build, so they do not fail the audit` : ''}.`);
  if (!existsSync(dist)) {
    out(`--strict: built site ${dist} does not exist; build the site first`);
    return 2;
  }
  // An encrypted site is judged by the plaintext it was sealed from, once its published files check out.
  const encrypted = await auditEncryptedSite(dist, values.cache, out);
  if (encrypted.kind === 'failed') return encrypted.code;
  const { files, findings } = await scanDist(encrypted.kind === 'encrypted' ? encrypted.plainDir : dist, redaction);
  if (!findings.length) {
    out(`Built site: ${files} text file(s) scanned, nothing detected.`);
    return 0;
  }
  out(`Built site: ${findings.length} of ${files} file(s) still hold something the rules detect:`);
  for (const f of findings) {
    for (const x of f.findings) out(`  ${f.file}  ${x.rule} ×${x.count}  ${describeSample(x.rule, x.samples[0] ?? '')}`);
  }
  return 1;
}

/**
 * Redacts each session in memory exactly as `sessionpress import` does (the same
 * code, as a dry run: the same entries left out, the same usernames per
 * project folder, one redactor for the run), so both count the same findings
 * for the same file. Prints, per rule, where the first finding is and what it
 * becomes, never the finding itself. Returns the number of findings, or
 * undefined (said in one line) when the folder holds no session.
 */
async function auditSources(root: string, redaction: RedactionOptions, out: (line: string) => void): Promise<number | undefined> {
  const layout = await discoverSources(root);
  if (!layout.sessions.length) {
    out(await noSessionsMessage(root));
    return undefined;
  }
  const owners = await assignSiblingAgents(layout);
  const usernamesByFolder = await folderUsernames(layout.sessions);
  const totals = new Map<string, number>();
  let clean = 0;
  for (const s of layout.sessions) {
    const result = await importSession(s, {
      root,
      outDir: root,
      redaction,
      dryRun: true,
      siblingAgents: owners.get(s.sessionId) ?? [],
      folderUsernames: usernamesByFolder.get(s.projectFolder),
    });
    const report = result.report;
    if (!report.total) {
      clean++;
      continue;
    }
    const where = await firstLines(s, owners.get(s.sessionId) ?? [], root, report.findings.map((f) => f.rule), redaction);
    // File names hold usernames too: shown redacted, like everything the audit prints.
    for (const [rule, at] of where) where.set(rule, result.redactText(at));
    out(`${result.redactText(s.relPath)}: ${report.total} finding(s)`);
    for (const f of report.findings) {
      totals.set(f.rule, (totals.get(f.rule) ?? 0) + f.count);
      out(`  ${f.rule.padEnd(24)} ${String(f.count).padStart(5)}  ${describeSample(f.rule, f.samples[0] ?? '', where.get(f.rule))}`);
    }
  }
  out(`Sessions: ${layout.sessions.length}, clean: ${clean}, with findings: ${layout.sessions.length - clean}`);
  if (totals.size) out(`Total by rule: ${[...totals].sort((a, b) => b[1] - a[1]).map(([r, n]) => `${r} ${n}`).join(', ')}`);
  return [...totals.values()].reduce((a, b) => a + b, 0);
}

/** Placeholder a rule's findings become on the site and in imported copies. */
function replacementOf(rule: string): string {
  if (SUSPECT_KINDS.has(rule)) return 'no redaction rule knows it (a secret the rules missed, or a value to allow-list)';
  return rule === 'home-path' ? '~' : `[REDACTED:${rule}]`;
}

/** Findings of the audit's own detector, which redaction does not share. */
const SUSPECT_KINDS = new Set(['entropy-assignment', 'random-token', 'encoded-credential']);

/**
 * A finding's sample as the audit prints it: where it is first (file:line), the
 * key it was assigned to when there is one (`GITHUB_TOKEN=`, `"password": `)
 * with a token kind's public prefix, and what it becomes. Free text around it
 * (a person's name beside an address) is never shown.
 */
export function describeSample(rule: string, sample: string, where?: string): string {
  const context = sample.replace(/…\[masked\]$/, '');
  const key = /(?:^|[\s{,;(])((?:[A-Za-z_][\w.-]{0,40})\s*["']?\s*[:=]\s*["']?[A-Za-z]{0,8}[_-]?)$/.exec(context)?.[1] ?? '';
  return `${where ? `${where}  ` : ''}${key}…[masked] → ${replacementOf(rule)}`;
}

/** The first file:line of each rule's findings, read line by line (bounded: a huge file is not scanned twice in full). */
async function firstLines(s: SessionSource, siblings: string[], root: string, rules: string[], redaction: RedactionOptions): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  let budget = 20_000;
  for (const path of [s.path, ...s.subagentPaths, ...siblings, ...(s.sidecarPaths ?? []), ...(s.toolResultPaths ?? [])]) {
    const text = await readSessionText(path).catch(() => '');
    const lines = text.split('\n');
    for (let i = 0; i < lines.length && budget > 0 && found.size < rules.length; i++, budget--) {
      if (!lines[i]) continue;
      for (const f of await scanText(lines[i], redaction)) {
        if (!found.has(f.rule)) found.set(f.rule, `${toPosix(relative(root, path))}:${i + 1}`);
      }
    }
    if (found.size >= rules.length || budget <= 0) break;
  }
  return found;
}
