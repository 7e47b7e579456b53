import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The module every cached render comes from: whatever it imports, directly or not, can change a cached page. */
const RENDER_ENTRY = fileURLToPath(new URL('./process-session.ts', import.meta.url));

/** Relative `import … from './x.js'` and `export … from` specifiers (type-only ones included: cheap, and safe). */
const RELATIVE_IMPORT = /(?:import|export)\s[^'"]*?from\s*['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

/**
 * Every source file a render depends on: the transitive relative imports of
 * `process-session.ts`, sorted. Code only the scripts use (import, audit,
 * bench) is not reached, so editing it keeps every cached render.
 */
export function renderSourceFiles(entry: string = RENDER_ENTRY): string[] {
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file) || !existsSync(file)) continue;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(RELATIVE_IMPORT)) {
      const spec = m[1] ?? m[2];
      const target = resolve(dirname(file), spec);
      // Sources import `./x.js` for `./x.ts`.
      queue.push(target.endsWith('.js') && !existsSync(target) ? target.replace(/\.js$/, '.ts') : target);
    }
  }
  return [...seen].sort();
}

let cached: string | undefined;

/**
 * A hash of the code every session render depends on (the model, redaction,
 * the renderers, the build path). It is part of each session's digest, so
 * changing any of it voids the render cache: a stale page can never survive
 * an upgrade or an edit.
 */
export function pipelineFingerprint(entry: string = RENDER_ENTRY): string {
  // Computed once per process for the real code; another entry (a test's copy of the tree) every time.
  if (entry === RENDER_ENTRY && cached) return cached;
  const base = dirname(dirname(entry));
  const hash = createHash('sha256');
  for (const f of renderSourceFiles(entry)) hash.update(relative(base, f)).update(readFileSync(f));
  const digest = hash.digest('hex').slice(0, 16);
  if (entry === RENDER_ENTRY) cached = digest;
  return digest;
}
