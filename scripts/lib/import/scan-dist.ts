import { readFile } from 'node:fs/promises';
import { extname, relative } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { toPosix } from '../../../src/lib/discover.js';
import { listFiles } from '../../../src/lib/fs/parallel.js';
import { stripImageMetadata } from '../../../src/lib/redact/image-metadata.js';
import { createRedactor } from '../../../src/lib/redact/redactor.js';
import type { ScanFinding } from '../../../src/lib/redact/scan.js';
import { auditText, findSuspects } from '../audit-detector.js';
import type { RedactionOptions } from '../../../src/lib/redact/types.js';

export interface DistFinding {
  /** Path relative to the scanned folder. */
  file: string;
  findings: ScanFinding[];
}

const TEXT_EXTENSIONS = new Set(['.html', '.htm', '.json', '.js', '.mjs', '.cjs', '.css', '.txt', '.xml', '.svg', '.md', '.webmanifest', '.map', '.csv']);
/** Site code, not transcript data: third-party bundles carry author addresses and example paths. */
const CODE_EXTENSIONS = new Set(['.js', '.mjs', '.cjs', '.css', '.map']);
/** Credits in site code (pagefind's translators: `thanks_to: "Jan Claasen <jan@…>"`) are names given with an address too. */
const CODE_IGNORED_RULES = ['email', 'home-path', 'username', 'name'];
/** The independent detector's rules: site code (minified bundles) is full of random-looking strings, so only data files get them. */
const SUSPECT_RULES = ['entropy-assignment', 'random-token', 'encoded-credential'];
/** Images pages show: checked for metadata (a site built before it was taken out still holds it). */
const IMAGE_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg', '.gif', '.webp']);
/** Files scanned together before a clean batch lets them all pass. */
const BATCH = 64;

/**
 * Scans a built site for anything the redaction rules or the audit's
 * independent detector (`audit-detector.ts`) still detect: every
 * text file (HTML with entities decoded, JSON, scripts) and pagefind's
 * gzip-compressed `*.pf_fragment` files. `[REDACTED:…]` placeholders and `~`
 * paths are not findings. Images are findings when they still hold metadata
 * (`image-metadata`, with the kinds of block) or cannot be read to tell
 * (`image-unreadable`). Files are scanned in batches; only a batch with a
 * finding is scanned again file by file, to name the file.
 */
export async function scanDist(dir: string, options: RedactionOptions = {}): Promise<{ files: number; findings: DistFinding[] }> {
  const paths = await listFiles(dir);
  const groups: Record<'data' | 'code', Array<{ file: string; text: string }>> = { data: [], code: [] };
  const findings: DistFinding[] = [];
  let images = 0;
  for (const path of paths) {
    if (IMAGE_EXTENSIONS.has(extname(path).toLowerCase())) {
      images++;
      const found = imageFinding(await readFile(path));
      if (found) findings.push({ file: toPosix(relative(dir, path)), findings: [found] });
      continue;
    }
    const text = await readText(path);
    if (text === undefined) continue;
    groups[CODE_EXTENSIONS.has(extname(path)) ? 'code' : 'data'].push({ file: toPosix(relative(dir, path)), text });
  }
  for (const [kind, files] of Object.entries(groups)) {
    const ignoreRules = kind === 'code' ? CODE_IGNORED_RULES : [];
    for (let i = 0; i < files.length; i += BATCH) {
      const batch = files.slice(i, i + BATCH);
      const report = await createRedactor(options).redactSession(batch.map((f) => f.text));
      // The redaction rules, and the audit's own detector (it shares no rule with them), on data files.
      const suspects = kind === 'data' && batch.some((f) => findSuspects(f.text).some((x) => !options.allowlist?.includes(x.value)));
      if (!suspects && !report.findings.some((f) => !ignoreRules.includes(f.rule))) continue;
      for (const f of batch) {
        const found = await auditText(f.text, { ...options, ignoreRules: kind === 'code' ? [...ignoreRules, ...SUSPECT_RULES] : ignoreRules });
        if (found.length) findings.push({ file: f.file, findings: found });
      }
    }
  }
  return { files: groups.data.length + groups.code.length + images, findings };
}

/** What an image still holds that redaction takes out, as a finding; undefined for a clean image. */
function imageFinding(bytes: Buffer): ScanFinding | undefined {
  const scrub = stripImageMetadata(bytes);
  if (!scrub.ok) return { rule: 'image-unreadable', count: 1, samples: [scrub.reason] };
  if (!scrub.removed.length) return undefined;
  return { rule: 'image-metadata', count: 1, samples: [[...new Set(scrub.removed)].join(', ')] };
}

/** The searchable text of a file, or undefined for binary files. */
async function readText(path: string): Promise<string | undefined> {
  if (path.endsWith('.pf_fragment')) {
    const buf = await readFile(path);
    try {
      return gunzipSync(buf).toString('utf8');
    } catch {
      return buf.toString('utf8'); // not compressed after all
    }
  }
  const ext = extname(path);
  if (!TEXT_EXTENSIONS.has(ext)) return undefined;
  const text = await readFile(path, 'utf8');
  return ext === '.html' || ext === '.htm' || ext === '.svg' || ext === '.xml' ? decodeEntities(text) : text;
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Decodes character references, so that `&quot;token&quot;: …` is seen as the assignment it shows. */
export function decodeEntities(html: string): string {
  if (!html.includes('&')) return html;
  return html.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
      return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : m;
    }
    return NAMED[ref.toLowerCase()] ?? m;
  });
}
