import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/**
 * A hash of every source file of `src/lib/` (the model, redaction and the
 * renderers). It is part of each session's digest, so changing any of them
 * voids the render cache: a stale page can never survive an upgrade or an edit.
 */
export function pipelineFingerprint(): string {
  if (cached) return cached;
  const libDir = fileURLToPath(new URL('..', import.meta.url));
  const hash = createHash('sha256');
  if (existsSync(libDir)) {
    const files = readdirSync(libDir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && /\.(ts|json)$/.test(e.name))
      .map((e) => join(e.parentPath, e.name))
      .sort();
    for (const f of files) hash.update(f.slice(libDir.length)).update(readFileSync(f));
  }
  cached = hash.digest('hex').slice(0, 16);
  return cached;
}
