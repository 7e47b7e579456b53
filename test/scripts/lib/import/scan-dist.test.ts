import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scanDist } from '../../../../scripts/lib/import/scan-dist.js';
import { jpegSegment, jpegWith, JPEG_3X2, png3x2, pngChunk } from '../../../helpers/images.js';

const tmp = mkdtempSync(join(tmpdir(), 'sp-scan-dist-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('scanDist on images', () => {
  it('reports an image that still holds metadata or cannot be read, without quoting the metadata, and passes a clean one', async () => {
    const dist = join(tmp, 'dist');
    mkdirSync(join(dist, 'assets'), { recursive: true });
    writeFileSync(join(dist, 'assets', 'a.png'), png3x2([pngChunk('tEXt', 'Author\0Ada Lovelace')]));
    writeFileSync(join(dist, 'assets', 'b.jpg'), jpegWith([jpegSegment(0xfe, 'by Ada Lovelace')]));
    writeFileSync(join(dist, 'assets', 'c.webp'), Buffer.from('RIFF\xff\0\0\0WEBPVP8 ', 'latin1'));
    writeFileSync(join(dist, 'assets', 'clean.jpg'), JPEG_3X2);
    writeFileSync(join(dist, 'index.html'), '<html><body>nothing here</body></html>');
    const { files, findings } = await scanDist(dist);
    expect(files).toBe(5);
    expect(findings.map((f) => [f.file, f.findings.map((x) => `${x.rule}: ${x.samples.join()}`)]).sort()).toEqual([
      ['assets/a.png', ['image-metadata: tEXt']],
      ['assets/b.jpg', ['image-metadata: COM']],
      ['assets/c.webp', ['image-unreadable: the WebP file runs past the end of the image']],
    ]);
    expect(JSON.stringify(findings)).not.toContain('Ada');
  });
});
