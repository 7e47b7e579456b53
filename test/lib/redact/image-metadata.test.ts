import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { imageFormatOf, stripImageMetadata } from '../../../src/lib/redact/image-metadata.js';
import { gifExtension, gifWith, JPEG_3X2, jpegSegment, jpegWith, png3x2, pngChunk, tiff, WEBP_3X2, webpChunk, webpWith } from '../../helpers/images.js';

/** What people's images carry: a name, a home path, a position. Each is looked for, byte for byte, in what is kept. */
const PERSONAL = ['Ada Lovelace', '/Users/ada/', '51.5007', 'motion-photo-video', 'SN-48213', 'comment-by-ada'];
const XMP = `<x:xmpmeta><rdf:Description xmp:CreatorTool="Editor" photoshop:History="saved /Users/ada/Pictures/beach.png" dc:creator="Ada Lovelace" exif:GPSLatitude="51.5007"/></x:xmpmeta>`;
const EXIF = tiff([
  { tag: 0x013b, ascii: 'Ada Lovelace' }, // Artist
  { tag: 0xa431, ascii: 'SN-48213' }, // BodySerialNumber
  { tag: 0x0112, short: 6 }, // Orientation: rotate 90° clockwise
  { tag: 0x010e, ascii: 'at 51.5007, -0.1246' }, // ImageDescription
]);

function scrubbed(bytes: Buffer): { bytes: Buffer; removed: string[] } {
  const r = stripImageMetadata(bytes);
  if (!r.ok) throw new Error(r.reason);
  return r;
}

function expectNothingPersonal(bytes: Buffer): void {
  const text = bytes.toString('latin1');
  for (const s of PERSONAL) expect(text.includes(s), s).toBe(false);
}

/** The chunk types of a PNG, in order, each checked against its CRC. */
function pngChunks(bytes: Buffer): string[] {
  const types: string[] = [];
  let at = 8;
  while (at < bytes.length) {
    const length = bytes.readUInt32BE(at);
    types.push(bytes.toString('latin1', at + 4, at + 8));
    expect(pngChunk(types.at(-1)!, bytes.subarray(at + 8, at + 8 + length)).equals(bytes.subarray(at, at + 12 + length))).toBe(true);
    at += 12 + length;
  }
  return types;
}

/** The JPEG's segment markers up to its first scan, as `APP0`, `DQT`…; with the APP1 bodies. */
function jpegHeader(bytes: Buffer): { markers: string[]; app1: Buffer[] } {
  const names: Record<number, string> = { 0xdb: 'DQT', 0xc4: 'DHT', 0xc0: 'SOF0', 0xda: 'SOS', 0xfe: 'COM' };
  const markers: string[] = [];
  const app1: Buffer[] = [];
  let at = 2;
  for (;;) {
    const m = bytes[at + 1];
    const length = bytes.readUInt16BE(at + 2);
    markers.push(names[m] ?? (m >= 0xe0 && m <= 0xef ? `APP${m - 0xe0}` : m.toString(16)));
    if (m === 0xe1) app1.push(bytes.subarray(at + 4, at + 2 + length));
    if (m === 0xda) return { markers, app1 };
    at += 2 + length;
  }
}

describe('imageFormatOf', () => {
  it('knows the four formats pages show by their first bytes, and nothing else', () => {
    expect(imageFormatOf(png3x2())).toBe('png');
    expect(imageFormatOf(JPEG_3X2)).toBe('jpeg');
    expect(imageFormatOf(WEBP_3X2)).toBe('webp');
    expect(imageFormatOf(gifWith([]))).toBe('gif');
    expect(imageFormatOf(Buffer.from('%PDF-1.7\n'))).toBeUndefined();
    expect(imageFormatOf(Buffer.from('RIFF\0\0\0\0WAVEfmt '))).toBeUndefined();
    expect(imageFormatOf(Buffer.alloc(0))).toBeUndefined();
  });
});

describe('PNG', () => {
  it('keeps the pixels and how to draw them, and leaves out text, EXIF, times, private chunks and what follows the end', () => {
    const input = png3x2(
      [
        pngChunk('iCCP', Buffer.concat([Buffer.from('sRGB\0\0'), Buffer.from([0x78, 0x9c, 0x03, 0, 0, 0, 0, 1])])),
        pngChunk('pHYs', Buffer.from([0, 0, 0x0b, 0x13, 0, 0, 0x0b, 0x13, 1])),
        pngChunk('eXIf', EXIF),
        pngChunk('tEXt', 'Author\0Ada Lovelace'),
        pngChunk('iTXt', `XML:com.adobe.xmp\0\0\0\0\0${XMP}`),
        pngChunk('zTXt', 'Comment\0\0comment-by-ada'),
        pngChunk('tIME', Buffer.from([7, 234, 11, 29, 1, 2, 3])),
        pngChunk('iDOT', Buffer.alloc(28)),
      ],
      Buffer.from('motion-photo-video'),
    );
    const out = scrubbed(input);
    expect(pngChunks(out.bytes)).toEqual(['IHDR', 'iCCP', 'pHYs', 'IDAT', 'IEND']);
    expect(out.removed).toEqual(['eXIf', 'tEXt', 'iTXt', 'zTXt', 'tIME', 'iDOT', 'bytes after IEND']);
    expectNothingPersonal(out.bytes);
    // The same pixels: the image data is the input's, byte for byte.
    const idat = out.bytes.indexOf('IDAT') + 4;
    expect(inflateSync(out.bytes.subarray(idat, out.bytes.length - 16)).length).toBe(2 * (1 + 3 * 3));
  });

  it('refuses an image of more blocks than any real one has, in milliseconds and without holding them all', () => {
    const empty = pngChunk('zzZZ', '');
    const base = png3x2();
    const made = (n: number) => Buffer.concat([base.subarray(0, 33), ...Array.from({ length: n }, () => empty), base.subarray(33)]);
    expect(stripImageMetadata(made(100_001))).toEqual({ ok: false, reason: 'it has more than 100,000 blocks' });
    const many = scrubbed(made(5_000));
    expect(many.bytes.equals(base)).toBe(true);
  });

  it('gives back the very same bytes when there is nothing to leave out', () => {
    const input = png3x2();
    const out = scrubbed(input);
    expect(out.bytes).toBe(input);
    expect(out.removed).toEqual([]);
  });

  it('refuses a PNG cut short or with a chunk that runs past its end, rather than publish what it could not read', () => {
    const whole = png3x2([pngChunk('tEXt', 'Author\0Ada Lovelace')]);
    const cut = stripImageMetadata(whole.subarray(0, whole.length - 20));
    expect(cut.ok).toBe(false);
    const lying = Buffer.from(whole);
    lying.writeUInt32BE(0x7fffffff, 8 + 25);
    expect(stripImageMetadata(lying).ok).toBe(false);
  });
});

describe('JPEG', () => {
  it('leaves out EXIF, XMP, IPTC, comments and what follows the end, keeping JFIF, the ICC profile and the image', () => {
    const input = jpegWith(
      [
        jpegSegment(0xe1, Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), EXIF])),
        jpegSegment(0xe1, `http://ns.adobe.com/xap/1.0/\0${XMP}`),
        jpegSegment(0xed, 'Photoshop 3.0\x008BIM\x04\x04\0\0\0\0\0\x10\x1c\x02\x50\0\x0cAda Lovelace'),
        jpegSegment(0xfe, 'comment-by-ada'),
      ],
      Buffer.from('motion-photo-video'),
    );
    const out = scrubbed(input);
    expectNothingPersonal(out.bytes);
    expect(out.removed).toEqual(['EXIF', 'APP1', 'APP13', 'COM', 'bytes after EOI']);
    const { markers, app1 } = jpegHeader(out.bytes);
    expect(markers.slice(0, 3)).toEqual(['APP0', 'APP1', 'APP2']);
    // The only EXIF left says how to turn the image, and nothing else.
    expect(app1).toHaveLength(1);
    expect(app1[0].toString('latin1', 0, 6)).toBe('Exif\0\0');
    const ifd = app1[0].subarray(6);
    expect(ifd.readUInt16BE(8)).toBe(1);
    expect(ifd.readUInt16BE(10)).toBe(0x0112);
    expect(ifd.readUInt16BE(18)).toBe(6);
    // Everything after the added EXIF is the original image, byte for byte.
    expect(out.bytes.subarray(out.bytes.length - (JPEG_3X2.length - 20)).equals(JPEG_3X2.subarray(20))).toBe(true);
  });

  it("leaves out thumbnails, which can show the picture as it was before a crop: JFIF's own and a JFXX segment", () => {
    const jfifEnd = 4 + JPEG_3X2.readUInt16BE(4);
    const jfif = JPEG_3X2.subarray(6, jfifEnd);
    // The same JFIF header with a 2 × 1 thumbnail, whose six RGB bytes spell a name.
    const withThumb = Buffer.concat([jfif.subarray(0, 12), Buffer.from([2, 1]), Buffer.from('Ada Lo', 'latin1')]);
    const input = Buffer.concat([JPEG_3X2.subarray(0, 2), jpegSegment(0xe0, withThumb), jpegSegment(0xe0, 'JFXX\0\x13comment-by-ada'), JPEG_3X2.subarray(jfifEnd)]);
    const out = scrubbed(input);
    expect(out.removed).toEqual(['JFIF thumbnail', 'APP0']);
    expect(out.bytes.toString('latin1')).not.toContain('Ada Lo');
    expectNothingPersonal(out.bytes);
    expect(out.bytes.equals(JPEG_3X2)).toBe(true);
  });

  it('adds no EXIF when the orientation is the normal one, or there was none', () => {
    const upright = scrubbed(jpegWith([jpegSegment(0xe1, Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff([{ tag: 0x0112, short: 1 }, { tag: 0x013b, ascii: 'Ada Lovelace' }])]))]));
    expect(upright.bytes.equals(JPEG_3X2)).toBe(true);
    expect(scrubbed(JPEG_3X2).bytes).toBe(JPEG_3X2);
  });

  it('refuses a JPEG whose scan never ends or whose segment runs past the end', () => {
    expect(stripImageMetadata(JPEG_3X2.subarray(0, JPEG_3X2.length - 2)).ok).toBe(false);
    expect(stripImageMetadata(JPEG_3X2.subarray(0, 30)).ok).toBe(false);
  });
});

describe('GIF', () => {
  it('keeps the frame, its graphic control and the loop count, and leaves out comments, XMP and what follows the trailer', () => {
    const loop = gifExtension(0xff, Buffer.from([1, 0, 0]), Buffer.from('NETSCAPE2.0'));
    // Graphic control: 4 bytes (no transparency, no delay), then the terminator.
    const control = Buffer.from('21f9040000000000', 'hex');
    const input = gifWith([loop, control, gifExtension(0xfe, 'comment-by-ada'), gifExtension(0xff, XMP, Buffer.from('XMP DataXMP'))], Buffer.from('motion-photo-video'));
    const out = scrubbed(input);
    expectNothingPersonal(out.bytes);
    expect(out.removed).toEqual(['comment', 'application extension', 'bytes after the trailer']);
    expect(out.bytes.equals(gifWith([loop, control]))).toBe(true);
  });

  it('refuses a GIF with a block of an unknown kind or cut in a data block', () => {
    const bad = Buffer.concat([gifWith([]).subarray(0, 19), Buffer.from([0x99]), gifWith([]).subarray(19)]);
    expect(stripImageMetadata(bad).ok).toBe(false);
    const whole = gifWith([gifExtension(0xfe, 'comment-by-ada')]);
    expect(stripImageMetadata(whole.subarray(0, 25)).ok).toBe(false);
  });
});

describe('WebP', () => {
  it('leaves out EXIF, XMP and unknown chunks, clears the flags that announced them and keeps the ICC profile and the image', () => {
    const input = webpWith([webpChunk('EXIF', EXIF), webpChunk('XMP ', XMP), webpChunk('ZZZZ', 'comment-by-ada')], 0x08 | 0x04, Buffer.from('motion-photo-video'));
    const out = scrubbed(input);
    expectNothingPersonal(out.bytes);
    expect(out.removed).toEqual(['EXIF', 'XMP', 'ZZZZ', 'bytes after the RIFF chunk']);
    expect(out.bytes.equals(WEBP_3X2)).toBe(true);
  });

  it('names a chunk whose type is not letters, digits or blanks only as unknown: a report prints the names', () => {
    const out = scrubbed(webpWith([webpChunk('\x1b[2J', 'x')], 0));
    expect(out.removed).toEqual(['unknown']);
    expect(out.bytes.equals(WEBP_3X2)).toBe(true);
  });

  it('refuses a WebP whose chunk runs past the RIFF size', () => {
    const input = webpWith([webpChunk('EXIF', EXIF)], 0x08);
    const lying = Buffer.from(input);
    lying.writeUInt32LE(0x7fff, input.length - EXIF.length - 4);
    expect(stripImageMetadata(lying).ok).toBe(false);
  });
});
