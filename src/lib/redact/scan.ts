import { createRedactor } from './redactor.js';
import type { RedactionFinding, RedactionOptions } from './types.js';

export type ScanFinding = RedactionFinding;

export interface ScanOptions extends RedactionOptions {
  /** Rules not to report (e.g. `email` in third-party script bundles). */
  ignoreRules?: string[];
}

/**
 * What the redaction rules still detect in a text (a built page, a search
 * fragment): an empty list means nothing left to redact. `[REDACTED:…]`
 * placeholders and `~` paths are not findings, so redacted output scans clean.
 */
export async function scanText(text: string, options: ScanOptions = {}): Promise<ScanFinding[]> {
  const redactor = createRedactor({ ...options, dropImages: false, dropThinking: false, dropToolOutput: false });
  const report = await redactor.redactSession([text]);
  const ignored = new Set(options.ignoreRules ?? []);
  return report.findings.filter((f) => !ignored.has(f.rule));
}
