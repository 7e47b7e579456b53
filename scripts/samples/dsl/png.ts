/**
 * A minimal PNG writer for pasted images: a square 8-bit RGB canvas, filled
 * with rectangles, encoded without any dependency. Samples need a real image
 * that decodes, not a photograph, and a few hundred bytes keep the JSONL small.
 */
import { deflateSync } from 'node:zlib';

export type Rgb = [number, number, number];

export interface Canvas {
  /** Paints the `w`×`h` rectangle whose top-left pixel is (`x0`, `y0`). */
  fill(x0: number, y0: number, w: number, h: number, rgb: Rgb): void;
  /** The PNG file, base64-encoded as an image block's `source.data`. */
  toBase64(): string;
}

/** A white `size`×`size` canvas. */
export function createCanvas(size: number): Canvas {
  // Raw scanlines: one filter-type byte, then three bytes per pixel.
  const stride = 1 + size * 3;
  const pixels = Buffer.alloc(size * stride, 0xff);
  for (let y = 0; y < size; y++) pixels[y * stride] = 0; // filter type: none
  return {
    fill(x0, y0, w, h, rgb) {
      for (let y = y0; y < y0 + h; y++) {
        for (let x = x0; x < x0 + w; x++) pixels.set(rgb, y * stride + 1 + x * 3);
      }
    },
    toBase64: () => encodePng(size, pixels).toString('base64'),
  };
}

function encodePng(size: number, pixels: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(pixels, { level: 9 })),
    pngChunk('IEND', new Uint8Array()),
  ]);
}

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** Length, type, data, then the CRC of type and data. */
function pngChunk(type: string, data: Uint8Array): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const out = Buffer.alloc(body.length + 8);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), body.length + 4);
  return out;
}
