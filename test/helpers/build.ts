import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { JSDOM } from 'jsdom';
import { problemsFilePath } from '../../src/lib/build/render-cache.js';
import { repoRoot } from './shared.js';

export interface BuildRun {
  code: number;
  log: string;
}

/**
 * Builds the site with `npm run build` into `outDir` with extra environment
 * (e.g. SESSIONPRESS_SOURCE). Unless the environment names one, the build gets
 * its own Astro cache folder beside `outDir` (`<outDir>-cache`), so builds of
 * different sources never share a content store.
 */
export function buildSite(outDir: string, env: Record<string, string>, args: string[] = []): Promise<BuildRun> {
  env = { SESSIONPRESS_CACHE_DIR: `${outDir}-cache`, ...env };
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', 'build', '--silent', '--', '--outDir', outDir, ...args], {
      cwd: repoRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    child.stdout.on('data', (d) => (log += d));
    child.stderr.on('data', (d) => (log += d));
    child.on('close', (code) => resolve({ code: code ?? 1, log }));
  });
}

/** The lines of the problems file a build by `buildSite` into `outDir` wrote (with its own cache folder). */
export function problemLines(outDir: string): string[] {
  return readFileSync(problemsFilePath(`${outDir}-cache`), 'utf8').split('\n').filter(Boolean);
}

/** Every file under a folder, recursively. */
export function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

/** Every page of a session in a built site (a long one is paginated), joined into one document. */
export function sessionDocument(outDir: string, sessionId: string): Document {
  const files = listFiles(join(outDir, 'sessions')).filter((f) => f.includes(`/${sessionId}/`) && f.endsWith('index.html')).sort();
  if (!files.length) throw new Error(`no page for ${sessionId}`);
  return new JSDOM(files.map((f) => readFileSync(f, 'utf8')).join('\n')).window.document;
}

/**
 * The text of every file under a folder as a searchable string: pagefind's
 * gzip-compressed index and fragment files are decompressed first, so a test
 * sees what a browser would get.
 */
export function readAllText(dir: string): Array<{ file: string; text: string }> {
  const out: Array<{ file: string; text: string }> = [];
  for (const file of listFiles(dir)) {
    if (statSync(file).size > 200 * 1024 * 1024) continue;
    let buf = readFileSync(file);
    if (buf[0] === 0x1f && buf[1] === 0x8b) {
      try {
        buf = gunzipSync(buf);
      } catch {
        // Not gzip after all.
      }
    }
    // pagefind prefixes its decompressed payloads with a signature line; the text after it is what matters.
    out.push({ file, text: buf.toString('utf8') });
  }
  return out;
}
