import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main, shotFile } from '../../scripts/screenshots.js';
import { buildSite } from '../helpers/build.js';
import { repoRoot } from '../helpers/shared.js';

/** Width, height and the colour of the top-left pixel of an 8-bit RGB(A) PNG. */
function readPng(file: string): { width: number; height: number; corner: number[] } {
  const buf = readFileSync(file);
  expect(buf.subarray(1, 4).toString()).toBe('PNG');
  const width = buf.readUInt32BE(16);
  const height = buf.readUInt32BE(20);
  const channels = buf[25] === 6 ? 4 : 3;
  const idat: Buffer[] = [];
  for (let at = 8; at < buf.length; ) {
    const len = buf.readUInt32BE(at);
    if (buf.toString('latin1', at + 4, at + 8) === 'IDAT') idat.push(buf.subarray(at + 8, at + 8 + len));
    at += 12 + len;
  }
  // Whatever the first row's filter, its first pixel is stored as is (every predictor of it is 0).
  const raw = inflateSync(Buffer.concat(idat));
  return { width, height, corner: [...raw.subarray(1, 1 + channels)].slice(0, 3) };
}

const out = mkdtempSync(join(tmpdir(), 'sp-shots-site-'));
const shots = mkdtempSync(join(tmpdir(), 'sp-shots-'));

beforeAll(async () => {
  const run = await buildSite(out, { SESSIONPRESS_SOURCE: join(repoRoot, 'content', 'sessions') });
  if (run.code !== 0) throw new Error(`build failed:\n${run.log.slice(-3000)}`);
}, 300_000);

afterAll(() => {
  for (const d of [out, `${out}-cache`, shots]) rmSync(d, { recursive: true, force: true });
});

describe('npm run screenshots', () => {
  it('writes one PNG per shot, width and theme, of the asked size and theme', async () => {
    const lines: string[] = [];
    const code = await main(['--dist', out, '--out', shots, '--only', 'index,diff', '--widths', '390,1280', '--themes', 'light,dark'], { out: (l) => lines.push(l) });
    expect(code, lines.join('\n')).toBe(0);
    expect(readdirSync(shots).sort()).toEqual(
      ['index', 'diff'].flatMap((s) => [390, 1280].flatMap((w) => ['light', 'dark'].map((t) => shotFile(s as 'index', w, t as 'light')))).sort(),
    );
    for (const w of [390, 1280]) {
      const light = readPng(join(shots, shotFile('index', w, 'light')));
      const dark = readPng(join(shots, shotFile('index', w, 'dark')));
      expect(light.width).toBe(w);
      expect(dark.width).toBe(w);
      // The header's background: light in the light theme, dark in the dark one.
      expect(Math.min(...light.corner)).toBeGreaterThan(200);
      expect(Math.max(...dark.corner)).toBeLessThan(80);
    }
    // Small enough to commit.
    for (const f of readdirSync(shots)) expect(readFileSync(join(shots, f)).length).toBeLessThan(400 * 1024);
  }, 300_000);

  it('refuses an unknown shot or theme with the usage, and writes nothing', async () => {
    const lines: string[] = [];
    const dir = join(shots, 'none');
    expect(await main(['--dist', out, '--out', dir, '--only', 'everything'], { out: (l) => lines.push(l) })).toBe(2);
    expect(await main(['--dist', out, '--out', dir, '--themes', 'sepia'], { out: (l) => lines.push(l) })).toBe(2);
    expect(lines.join('\n')).toContain('usage: npm run screenshots');
    expect(existsSync(dir)).toBe(false);
  });
});
