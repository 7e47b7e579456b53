/**
 * `npm run audit -- [source] [--strict] [--dist dist]`
 *
 * Reports per session what redaction finds (rule, count, masked sample). With
 * `--strict`, also scans the built site (every text file and pagefind's
 * compressed fragments) for anything the rules still detect, and exits
 * non-zero if there is any.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseCommandLine } from './lib/cli.js';
import { discoverSources } from '../src/lib/discover.js';
import { scanDist } from './lib/import/scan-dist.js';
import { readJsonl } from '../src/lib/jsonl/read-jsonl.js';
import { assignSiblingAgents } from '../src/lib/build/open-session.js';
import { createRedactor, type RedactionOptions } from '../src/lib/redact/index.js';
import { CONFIG_FILE } from '../src/schemas/config.js';
import { loadRedactionOptions } from './import.js';

const USAGE = `usage: npm run audit -- [source] [--strict] [--dist DIR] [--config FILE]

  source         folder laid out like ~/.claude/projects (default: content/sessions)
  --strict       also scan the built site and exit 1 if anything is still detected
  --dist DIR     built site folder for --strict (default: dist)
  --config FILE  Sessionpress config with a "redaction" section (default: ${CONFIG_FILE} if present)`;

export interface AuditDeps {
  out?: (line: string) => void;
  redaction?: RedactionOptions;
}

/** Runs the audit; returns the exit code (0 clean, 1 strict scan found something, 2 usage error). */
export async function main(argv: string[], deps: AuditDeps = {}): Promise<number> {
  const out = deps.out ?? ((line: string) => console.log(line));
  const cli = parseCommandLine(argv, { strict: { type: 'boolean' }, dist: { type: 'string' }, config: { type: 'string' } }, USAGE, out, { max: 1 });
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
  if (existsSync(root)) await auditSources(root, redaction, out);
  else if (positionals[0]) {
    out(`source folder ${root} does not exist`);
    return 2;
  } else out(`no sessions to audit (${root} does not exist)`);

  if (!values.strict) return 0;
  const dist = resolve(values.dist ?? 'dist');
  if (!existsSync(dist)) {
    out(`--strict: built site ${dist} does not exist; run npm run build first`);
    return 2;
  }
  const { files, findings } = await scanDist(dist, redaction);
  if (!findings.length) {
    out(`Built site: ${files} text file(s) scanned, nothing detected.`);
    return 0;
  }
  out(`Built site: ${findings.length} of ${files} file(s) still hold something the rules detect:`);
  for (const f of findings) {
    for (const x of f.findings) out(`  ${f.file}  ${x.rule} ×${x.count}  ${x.samples[0] ?? ''}`);
  }
  return 1;
}

/** Redacts each session in memory (nothing is written) and prints what was found. */
async function auditSources(root: string, redaction: RedactionOptions, out: (line: string) => void): Promise<void> {
  const layout = await discoverSources(root);
  const owners = await assignSiblingAgents(layout);
  const redactor = createRedactor(redaction);
  const totals = new Map<string, number>();
  let clean = 0;
  for (const s of layout.sessions) {
    const values: unknown[] = [];
    for (const path of [s.path, ...s.subagentPaths, ...(owners.get(s.sessionId) ?? [])]) {
      values.push(...(await readJsonl(path)).records.map((r) => r.value));
    }
    const report = await redactor.redactSession(values, { projectFolders: [s.projectFolder] });
    if (!report.total) {
      clean++;
      continue;
    }
    out(`${redactor.redactText(s.relPath)}: ${report.total} finding(s)`);
    for (const f of report.findings) {
      totals.set(f.rule, (totals.get(f.rule) ?? 0) + f.count);
      out(`  ${f.rule.padEnd(24)} ${String(f.count).padStart(5)}  ${f.samples[0] ?? ''}`);
    }
  }
  out(`Sessions: ${layout.sessions.length}, clean: ${clean}, with findings: ${layout.sessions.length - clean}`);
  if (totals.size) out(`Total by rule: ${[...totals].sort((a, b) => b[1] - a[1]).map(([r, n]) => `${r} ${n}`).join(', ')}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2)).then((code) => process.exit(code));
}
