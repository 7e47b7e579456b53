/**
 * Images pasted into a session, read by a tool or attached, carrying what
 * people's images carry (EXIF with a name, a serial number and a position, XMP
 * with a home path, PNG text, comments, a video after the end): none of it is
 * in the built site, its caches or its search index, and each image still
 * shows, the right way up, in a real browser.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser.js';
import { buildSite, listFiles, type BuildRun } from '../helpers/build.js';
import { rand } from '../helpers/credentials.js';
import { gifExtension, gifWith, jpegSegment, jpegWith, png3x2, pngChunk, tiff, webpChunk, webpWith } from '../helpers/images.js';
import { serveStatic, type StaticServer } from '../helpers/serve.js';

const LOWER = 'bcdfghjklmnpqrstvwxz';
/** Invented on every run, so that nothing else in a site can hold them. */
const owner = `Q${rand(LOWER, 6)} Z${rand(LOWER, 7)}`;
const login = `q${rand(LOWER, 8)}`;
const serial = `SN${rand('0123456789', 9)}`;
const position = `51.${rand('0123456789', 6)}`;
const video = `ftypmp42${rand(LOWER, 12)}`;
const PRIVATE = [owner, login, serial, position, video];

const xmp = `<x:xmpmeta><rdf:Description dc:creator="${owner}" photoshop:History="saved /Users/${login}/Pictures/shot.png" exif:GPSLatitude="${position}"/></x:xmpmeta>`;
const exif = (orientation: number) =>
  tiff([
    { tag: 0x013b, ascii: owner },
    { tag: 0xa431, ascii: serial },
    { tag: 0x0112, short: orientation },
    { tag: 0x010e, ascii: `at ${position}` },
  ]);
const images = {
  png: png3x2([pngChunk('eXIf', exif(1)), pngChunk('tEXt', `Author\0${owner}`), pngChunk('iTXt', `XML:com.adobe.xmp\0\0\0\0\0${xmp}`)], Buffer.from(video)),
  // Turned a quarter clockwise by its EXIF: a browser shows the 3 × 2 pixels as 2 × 3.
  jpeg: jpegWith([jpegSegment(0xe1, Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), exif(6)])), jpegSegment(0xe1, `http://ns.adobe.com/xap/1.0/\0${xmp}`), jpegSegment(0xfe, owner)], Buffer.from(video)),
  webp: webpWith([webpChunk('EXIF', exif(1)), webpChunk('XMP ', xmp)], 0x08 | 0x04),
  gif: gifWith([gifExtension(0xfe, owner), gifExtension(0xff, xmp, Buffer.from('XMP DataXMP'))], Buffer.from(video)),
};

const tmp = mkdtempSync(join(tmpdir(), 'sp-image-metadata-'));
const root = join(tmp, 'projects');
const out = join(tmp, 'dist');
const id = randomUUID();
let run: BuildRun;
let server: StaticServer;
let browser: Browser;

/** One session: each image pasted by the user, then the PNG again as a file Claude read. */
function writeSession(): void {
  const base = { sessionId: id, version: '2.1.100', cwd: `/Users/${login}/photos`, gitBranch: 'main', userType: 'external', isSidechain: false };
  const pasted = Object.entries(images).map(([kind, bytes]) => ({ type: 'image', source: { type: 'base64', media_type: `image/${kind}`, data: bytes.toString('base64') } }));
  const lines = [
    { type: 'user', uuid: 'u1', parentUuid: null, timestamp: '2026-11-01T10:00:00Z', message: { role: 'user', content: [{ type: 'text', text: 'What is in these pictures?' }, ...pasted] }, ...base },
    { type: 'assistant', uuid: 'a1', parentUuid: 'u1', timestamp: '2026-11-01T10:00:05Z', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: `/Users/${login}/photos/shot.png` } }], stop_reason: 'tool_use', usage: { input_tokens: 1, output_tokens: 1 } }, ...base },
    { type: 'user', uuid: 'u2', parentUuid: 'a1', timestamp: '2026-11-01T10:00:06Z', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: images.png.toString('base64') } }] }] }, toolUseResult: { type: 'image', file: { base64: images.png.toString('base64'), type: 'image/png', originalSize: images.png.length } }, ...base },
    { type: 'assistant', uuid: 'a2', parentUuid: 'u2', timestamp: '2026-11-01T10:00:09Z', message: { id: 'msg_2', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'Red squares with a green corner.' }], stop_reason: 'end_turn', usage: { input_tokens: 1, output_tokens: 1 } }, ...base },
  ];
  const folder = join(root, `-Users-${login}-photos`);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, `${id}.jsonl`), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
}

beforeAll(async () => {
  writeSession();
  run = await buildSite(out, { SESSIONPRESS_SOURCE: root });
  if (run.code !== 0) throw new Error(`build failed:\n${run.log.slice(-3000)}`);
  server = await serveStatic(out);
  browser = await launchBrowser();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('images with metadata', () => {
  it('leave none of it in any file of the site or its caches, images included', () => {
    const files = [...listFiles(out), ...listFiles(`${out}-cache`)];
    const assets = files.filter((f) => /\.(png|jpe?g|gif|webp)$/.test(f));
    expect(assets.length).toBeGreaterThanOrEqual(4);
    for (const file of files) {
      const bytes = readFileSync(file).toString('latin1');
      for (const s of PRIVATE) expect(bytes.includes(s), `${s} in ${file}`).toBe(false);
    }
  });

  it('still show, every one of them, and the photo turned as its EXIF said', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}sessions/photos/${id}/`);
    const shown = await page.$$eval('figure.image img', async (imgs) =>
      Promise.all(
        (imgs as HTMLImageElement[]).map(async (img) => {
          // Lazy images below the fold would never load in a page nobody scrolls.
          img.loading = 'eager';
          await img.decode();
          return { src: img.getAttribute('src') ?? '', w: img.naturalWidth, h: img.naturalHeight };
        }),
      ),
    );
    await page.close();
    const byType = (ext: RegExp) => shown.filter((s) => ext.test(s.src));
    expect(byType(/\.png$/).length).toBeGreaterThanOrEqual(2);
    for (const s of byType(/\.png$/)) expect([s.w, s.h]).toEqual([3, 2]);
    expect(byType(/\.jpe?g$/).map((s) => [s.w, s.h])).toEqual([[2, 3]]);
    expect(byType(/\.webp$/).map((s) => [s.w, s.h])).toEqual([[3, 2]]);
    expect(byType(/\.gif$/).map((s) => [s.w, s.h])).toEqual([[1, 1]]);
  });
});
