/**
 * Small real images and the metadata people's images carry, put into them
 * block by block, for the tests of image metadata removal. The JPEG and the
 * WebP were made by Chromium's canvas (3 × 2 pixels, the top-left one green,
 * the rest red, with the sRGB ICC profile Chromium embeds); the PNG of the
 * same pixels and the 1 × 1 GIF are built here.
 */
import { crc32, deflateSync } from 'node:zlib';

/** A baseline JPEG: SOI, JFIF, an ICC profile (APP2), tables, frame, scan, EOI. */
export const JPEG_3X2 = Buffer.from(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/4gHYSUNDX1BST0ZJTEUAAQEAAAHIAAAAAAQwAABtbnRyUkdCIFhZWiAH4AABAAEAAAAAAABhY3NwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQAA9tYAAQAAAADTLQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAlkZXNjAAAA8AAAACRyWFlaAAABFAAAABRnWFlaAAABKAAAABRiWFlaAAABPAAAABR3dHB0AAABUAAAABRyVFJDAAABZAAAAChnVFJDAAABZAAAAChiVFJDAAABZAAAAChjcHJ0AAABjAAAADxtbHVjAAAAAAAAAAEAAAAMZW5VUwAAAAgAAAAcAHMAUgBHAEJYWVogAAAAAAAAb6IAADj1AAADkFhZWiAAAAAAAABimQAAt4UAABjaWFlaIAAAAAAAACSgAAAPhAAAts9YWVogAAAAAAAA9tYAAQAAAADTLXBhcmEAAAAAAAQAAAACZmYAAPKnAAANWQAAE9AAAApbAAAAAAAAAABtbHVjAAAAAAAAAAEAAAAMZW5VUwAAACAAAAAcAEcAbwBvAGcAbABlACAASQBuAGMALgAgADIAMAAxADb/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/wAARCAACAAMDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAf/xAAYEAEBAQEBAAAAAAAAAAAAAAABAgARQf/EABUBAQEAAAAAAAAAAAAAAAAAAAQH/8QAGhEAAQUBAAAAAAAAAAAAAAAAAAECBDNxsf/aAAwDAQACEQMRAD8Al9U1TVK0vVfczMUtUalmJw//2Q==',
  'base64',
);

/** A lossless WebP in the extended format: RIFF, VP8X (with the ICC flag), ICCP, VP8L. */
export const WEBP_3X2 = Buffer.from(
  'UklGRgQCAABXRUJQVlA4WAoAAAAgAAAAAgAAAQAASUNDUMgBAAAAAAHIAAAAAAQwAABtbnRyUkdCIFhZWiAH4AABAAEAAAAAAABhY3NwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQAA9tYAAQAAAADTLQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAlkZXNjAAAA8AAAACRyWFlaAAABFAAAABRnWFlaAAABKAAAABRiWFlaAAABPAAAABR3dHB0AAABUAAAABRyVFJDAAABZAAAAChnVFJDAAABZAAAAChiVFJDAAABZAAAAChjcHJ0AAABjAAAADxtbHVjAAAAAAAAAAEAAAAMZW5VUwAAAAgAAAAcAHMAUgBHAEJYWVogAAAAAAAAb6IAADj1AAADkFhZWiAAAAAAAABimQAAt4UAABjaWFlaIAAAAAAAACSgAAAPhAAAts9YWVogAAAAAAAA9tYAAQAAAADTLXBhcmEAAAAAAAQAAAACZmYAAPKnAAANWQAAE9AAAApbAAAAAAAAAABtbHVjAAAAAAAAAAEAAAAMZW5VUwAAACAAAAAcAEcAbwBvAGcAbABlACAASQBuAGMALgAgADIAMAAxADZWUDhMFgAAAC8CQAAAD3Ar1WG+WfP8RxpucBDR/xA=',
  'base64',
);

/** A PNG chunk with its CRC. */
export function pngChunk(type: string, data: Buffer | string): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), typeof data === 'string' ? Buffer.from(data, 'latin1') : data]);
  const out = Buffer.alloc(body.length + 8);
  out.writeUInt32BE(body.length - 4, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), body.length + 4);
  return out;
}

/** A 3 × 2 RGB PNG of the same pixels, with `extra` chunks between IHDR and IDAT (where tools put metadata) and `tail` after IEND. */
export function png3x2(extra: Buffer[] = [], tail = Buffer.alloc(0)): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(3, 0);
  ihdr.writeUInt32BE(2, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const green = [0x00, 0xaa, 0x66];
  const red = [0xcc, 0x00, 0x33];
  const rows = Buffer.from([0, ...green, ...red, ...red, 0, ...red, ...red, ...red]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    ...extra,
    pngChunk('IDAT', deflateSync(rows)),
    pngChunk('IEND', ''),
    tail,
  ]);
}

/** A TIFF block (big-endian) with one IFD of SHORT and ASCII entries, as EXIF holds them. */
export function tiff(entries: Array<{ tag: number; short?: number; ascii?: string }>): Buffer {
  const ifdSize = 2 + entries.length * 12 + 4;
  const head = Buffer.alloc(8 + ifdSize);
  head.write('MM\0*', 0, 'latin1');
  head.writeUInt32BE(8, 4);
  head.writeUInt16BE(entries.length, 8);
  const strings: Buffer[] = [];
  let dataAt = 8 + ifdSize;
  entries.forEach((e, i) => {
    const at = 10 + i * 12;
    head.writeUInt16BE(e.tag, at);
    if (e.short !== undefined) {
      head.writeUInt16BE(3, at + 2);
      head.writeUInt32BE(1, at + 4);
      head.writeUInt16BE(e.short, at + 8);
    } else {
      const s = Buffer.from(`${e.ascii}\0`, 'latin1');
      head.writeUInt16BE(2, at + 2);
      head.writeUInt32BE(s.length, at + 4);
      head.writeUInt32BE(dataAt, at + 8);
      strings.push(s);
      dataAt += s.length;
    }
  });
  return Buffer.concat([head, ...strings]);
}

/** A JPEG segment: marker, length, body. */
export function jpegSegment(marker: number, body: Buffer | string): Buffer {
  const data = typeof body === 'string' ? Buffer.from(body, 'latin1') : body;
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(data.length + 2, 2);
  return Buffer.concat([head, data]);
}

/** The JPEG above with `segments` after its JFIF segment (where cameras and editors put theirs) and `tail` after EOI. */
export function jpegWith(segments: Buffer[], tail = Buffer.alloc(0)): Buffer {
  const jfifEnd = 2 + 2 + JPEG_3X2.readUInt16BE(4);
  return Buffer.concat([JPEG_3X2.subarray(0, jfifEnd), ...segments, JPEG_3X2.subarray(jfifEnd), tail]);
}

/** A WebP chunk, padded to an even size. */
export function webpChunk(type: string, data: Buffer | string): Buffer {
  const body = typeof data === 'string' ? Buffer.from(data, 'latin1') : data;
  const head = Buffer.alloc(8);
  head.write(type, 0, 'latin1');
  head.writeUInt32LE(body.length, 4);
  return Buffer.concat([head, body, body.length & 1 ? Buffer.alloc(1) : Buffer.alloc(0)]);
}

/** The WebP above with `chunks` added at its end and the VP8X flags of `flags` set, as a file that says it holds them. */
export function webpWith(chunks: Buffer[], flags: number, tail = Buffer.alloc(0)): Buffer {
  const body = Buffer.concat([WEBP_3X2.subarray(12), ...chunks]);
  body[8] |= flags;
  const head = Buffer.from(WEBP_3X2.subarray(0, 12));
  head.writeUInt32LE(body.length + 4, 4);
  return Buffer.concat([head, body, tail]);
}

/** A 1 × 1 GIF89a (global colour table of two, one frame) with `extensions` before its frame and `tail` after the trailer. */
export function gifWith(extensions: Buffer[], tail = Buffer.alloc(0)): Buffer {
  // GIF89a, 1 × 1, a global table of two colours (black, white).
  const header = Buffer.from('474946383961' + '0100' + '0100' + '800000' + '000000' + 'ffffff', 'hex');
  // An image descriptor at 0,0 of 1 × 1, LZW code size 2, one data block of 2 bytes, the terminator.
  const frame = Buffer.from('2c' + '00000000' + '01000100' + '00' + '02' + '024401' + '00', 'hex');
  return Buffer.concat([header, ...extensions, frame, Buffer.from([0x3b]), tail]);
}

/** A GIF extension: introducer, label, then `data` in sub-blocks of at most 255 bytes, then the terminator. */
export function gifExtension(label: number, data: Buffer | string, first?: Buffer): Buffer {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'latin1') : data;
  const blocks: Buffer[] = first ? [Buffer.from([first.length]), first] : [];
  for (let i = 0; i < bytes.length; i += 255) {
    const part = bytes.subarray(i, i + 255);
    blocks.push(Buffer.from([part.length]), part);
  }
  return Buffer.concat([Buffer.from([0x21, label]), ...blocks, Buffer.from([0])]);
}
