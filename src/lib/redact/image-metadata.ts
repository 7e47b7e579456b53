/**
 * Image metadata, taken out before an image is stored or published.
 *
 * A screenshot or a photo pasted into a session carries more than its pixels:
 * EXIF (GPS position, camera serial, the owner's name, dates), XMP (editing
 * history with file paths), PNG text chunks, JPEG and GIF comments, and bytes
 * after the image's end (a phone's "motion photo" appends a whole video). The
 * page shows the pixels only, so only what a browser needs to draw them is
 * kept: each format is walked block by block, blocks are copied whole (their
 * checksums stay valid), and anything not known to be needed is left out.
 * An image whose structure cannot be walked is not published at all.
 */

/** The outcome for one image: its bytes without metadata and the names of the blocks left out, or why it could not be read. */
export type ImageScrub = { ok: true; bytes: Buffer; removed: string[] } | { ok: false; reason: string };

/** The image formats pages show, by their first bytes. */
export type ImageFormat = 'png' | 'jpeg' | 'gif' | 'webp';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The format of an image by its first bytes, or undefined for anything else. */
export function imageFormatOf(bytes: Buffer): ImageFormat | undefined {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 6 && (bytes.toString('latin1', 0, 6) === 'GIF87a' || bytes.toString('latin1', 0, 6) === 'GIF89a')) return 'gif';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  return undefined;
}

/**
 * The image without its metadata. Only PNG, JPEG, GIF and WebP are read (the
 * formats pages show); anything else, or an image cut short or malformed,
 * gives `ok: false`. An image with nothing to take out comes back as the same
 * Buffer, so a caller can tell that nothing changed.
 */
export function stripImageMetadata(bytes: Buffer): ImageScrub {
  try {
    switch (imageFormatOf(bytes)) {
      case 'png':
        return stripPng(bytes);
      case 'jpeg':
        return stripJpeg(bytes);
      case 'gif':
        return stripGif(bytes);
      case 'webp':
        return stripWebp(bytes);
      default:
        return { ok: false, reason: 'not a PNG, JPEG, GIF or WebP image' };
    }
  } catch (err) {
    if (err instanceof Malformed) return { ok: false, reason: err.message };
    throw err;
  }
}

class Malformed extends Error {}

/**
 * Blocks an image may have: far more than any real one (images sent to Claude
 * are a few MB; a 100 MB PNG in 8 KB chunks has 12,800), and few enough that
 * a file made of millions of empty chunks costs milliseconds, not gigabytes.
 */
const MAX_BLOCKS = 100_000;

/** Counts the blocks of one image; refuses it past {@link MAX_BLOCKS}. */
function blockCounter(): () => void {
  let n = 0;
  return () => {
    if (++n > MAX_BLOCKS) throw new Malformed(`it has more than ${MAX_BLOCKS.toLocaleString('en')} blocks`);
  };
}

/** The kept blocks joined, or the input itself when every byte was kept. */
function result(bytes: Buffer, kept: Buffer[], removed: string[]): ImageScrub {
  if (!removed.length) return { ok: true, bytes, removed };
  return { ok: true, bytes: Buffer.concat(kept), removed };
}

function need(bytes: Buffer, end: number, what: string): void {
  if (end > bytes.length) throw new Malformed(`${what} runs past the end of the image`);
}

/**
 * PNG chunks a browser uses to draw the image: the critical ones, transparency,
 * colour (gamma, chromaticities, sRGB, an ICC profile, HDR), background,
 * significant bits, pixel size, and APNG's animation. Text (`tEXt`, `zTXt`,
 * `iTXt`, where XMP lives), `eXIf`, `tIME` and every private chunk (Apple's
 * `iDOT`) are left out.
 */
const PNG_KEEP = new Set(['IHDR', 'PLTE', 'IDAT', 'IEND', 'tRNS', 'gAMA', 'cHRM', 'sRGB', 'iCCP', 'cICP', 'mDCV', 'cLLI', 'bKGD', 'sBIT', 'pHYs', 'acTL', 'fcTL', 'fdAT']);

function stripPng(bytes: Buffer): ImageScrub {
  const kept: Buffer[] = [PNG_SIGNATURE];
  const removed: string[] = [];
  const block = blockCounter();
  let at = 8;
  for (;;) {
    block();
    need(bytes, at + 8, 'a PNG chunk');
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    if (!/^[A-Za-z]{4}$/.test(type)) throw new Malformed('a PNG chunk has no valid type');
    const end = at + 12 + length;
    need(bytes, end, `the PNG chunk ${type}`);
    if (PNG_KEEP.has(type)) kept.push(bytes.subarray(at, end));
    else removed.push(type);
    at = end;
    if (type === 'IEND') break;
  }
  if (at < bytes.length) removed.push('bytes after IEND');
  return result(bytes, kept, removed);
}

/**
 * JPEG segments kept: JFIF (APP0, without a thumbnail), an ICC profile (APP2
 * `ICC_PROFILE`), Adobe's colour transform (APP14), and every segment that is
 * not an application or comment one (tables, frame and scan headers, restart
 * intervals). EXIF and XMP (APP1), with their thumbnails, are left out, but the
 * EXIF orientation is kept in a minimal EXIF of its own: without it a phone
 * photo would show on its side.
 */
function stripJpeg(bytes: Buffer): ImageScrub {
  const kept: Buffer[] = [bytes.subarray(0, 2)];
  const removed: string[] = [];
  let orientation: number | undefined;
  const block = blockCounter();
  let at = 2;
  for (;;) {
    block();
    need(bytes, at + 2, 'a JPEG marker');
    if (bytes[at] !== 0xff) throw new Malformed('a JPEG segment does not start with a marker');
    const marker = bytes[at + 1];
    // Fill bytes before a marker.
    if (marker === 0xff) {
      at++;
      continue;
    }
    if (marker === 0xd9) {
      kept.push(bytes.subarray(at, at + 2));
      at += 2;
      break;
    }
    // Markers without a length: TEM and the restart markers (outside a scan they carry nothing).
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      kept.push(bytes.subarray(at, at + 2));
      at += 2;
      continue;
    }
    need(bytes, at + 4, 'a JPEG segment length');
    const length = bytes.readUInt16BE(at + 2);
    if (length < 2) throw new Malformed('a JPEG segment has an impossible length');
    let end = at + 2 + length;
    need(bytes, end, 'a JPEG segment');
    const body = bytes.subarray(at + 4, end);
    if (marker === 0xda) {
      // A scan: its entropy-coded data runs to the next marker that is not a stuffed 0xFF00 or a restart marker.
      end = scanEnd(bytes, end);
      kept.push(bytes.subarray(at, end));
    } else if (marker === 0xe1) {
      if (body.toString('latin1', 0, 6) === 'Exif\0\0') orientation ??= exifOrientation(body.subarray(6));
      removed.push(body.toString('latin1', 0, 4) === 'Exif' ? 'EXIF' : 'APP1');
    } else if (marker === 0xe0 && body.toString('latin1', 0, 5) === 'JFIF\0' && body.length > JFIF_HEADER) {
      // A JFIF thumbnail: it may show the picture as it was before a crop.
      kept.push(jfifWithoutThumbnail(body));
      removed.push('JFIF thumbnail');
    } else if ((marker >= 0xe0 && marker <= 0xef && !isKeptApplicationSegment(marker, body)) || marker === 0xfe) {
      removed.push(marker === 0xfe ? 'COM' : `APP${marker - 0xe0}`);
    } else {
      kept.push(bytes.subarray(at, end));
    }
    at = end;
  }
  if (at < bytes.length) removed.push('bytes after EOI');
  if (orientation !== undefined && orientation !== 1) kept.splice(firstAfterJfif(kept), 0, orientationSegment(orientation));
  return result(bytes, kept, removed);
}

/** Where the minimal EXIF goes (where readers look for it): after a JFIF segment when the image starts with one, else right after SOI. */
function firstAfterJfif(kept: Buffer[]): number {
  const first = kept[1];
  return first && first[1] === 0xe0 && first.toString('latin1', 4, 9) === 'JFIF\0' ? 2 : 1;
}

/** The bytes of a JFIF segment's body up to its thumbnail: identifier, version, units, densities, the thumbnail's width and height. */
const JFIF_HEADER = 14;

/** A JFIF segment with its header only, saying it has no thumbnail. */
function jfifWithoutThumbnail(body: Buffer): Buffer {
  const out = Buffer.alloc(4 + JFIF_HEADER);
  out[0] = 0xff;
  out[1] = 0xe0;
  out.writeUInt16BE(2 + JFIF_HEADER, 2);
  body.copy(out, 4, 0, JFIF_HEADER - 2);
  return out;
}

/** Application segments kept: JFIF (its JFXX extension is only a thumbnail), an ICC profile, Adobe's colour transform. */
function isKeptApplicationSegment(marker: number, body: Buffer): boolean {
  if (marker === 0xe0) return body.toString('latin1', 0, 5) === 'JFIF\0';
  if (marker === 0xe2) return body.toString('latin1', 0, 12) === 'ICC_PROFILE\0';
  if (marker === 0xee) return body.toString('latin1', 0, 5) === 'Adobe';
  return false;
}

/** The end of a scan's entropy-coded data, which starts at `at`: the next real marker. */
function scanEnd(bytes: Buffer, at: number): number {
  let i = at;
  for (;;) {
    i = bytes.indexOf(0xff, i);
    if (i < 0 || i + 1 >= bytes.length) throw new Malformed('a JPEG scan has no end');
    const next = bytes[i + 1];
    if (next === 0x00 || (next >= 0xd0 && next <= 0xd7) || next === 0xff) {
      i += next === 0xff ? 1 : 2;
      continue;
    }
    return i;
  }
}

/** The orientation (tag 0x0112) of a TIFF-structured EXIF block, when it holds a valid one. */
function exifOrientation(tiff: Buffer): number | undefined {
  if (tiff.length < 8) return undefined;
  const order = tiff.toString('latin1', 0, 2);
  if (order !== 'II' && order !== 'MM') return undefined;
  const le = order === 'II';
  const u16 = (o: number) => (le ? tiff.readUInt16LE(o) : tiff.readUInt16BE(o));
  const u32 = (o: number) => (le ? tiff.readUInt32LE(o) : tiff.readUInt32BE(o));
  const ifd = u32(4);
  if (ifd + 2 > tiff.length) return undefined;
  const count = u16(ifd);
  for (let i = 0; i < count; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > tiff.length) return undefined;
    if (u16(entry) === 0x0112 && u16(entry + 2) === 3) {
      const value = u16(entry + 8);
      return value >= 1 && value <= 8 ? value : undefined;
    }
  }
  return undefined;
}

/** An APP1 segment whose EXIF holds the orientation and nothing else. */
function orientationSegment(orientation: number): Buffer {
  const exif = Buffer.alloc(6 + 8 + 2 + 12 + 4);
  exif.write('Exif\0\0', 0, 'latin1');
  exif.write('MM\0*', 6, 'latin1');
  exif.writeUInt32BE(8, 10);
  exif.writeUInt16BE(1, 14);
  exif.writeUInt16BE(0x0112, 16);
  exif.writeUInt16BE(3, 18);
  exif.writeUInt32BE(1, 20);
  exif.writeUInt16BE(orientation, 24);
  // The next IFD offset stays 0: there is none.
  const head = Buffer.from([0xff, 0xe1, 0, 0]);
  head.writeUInt16BE(exif.length + 2, 2);
  return Buffer.concat([head, exif]);
}

/** GIF application extensions kept: the loop count of an animation. */
const GIF_KEEP_APPLICATIONS = new Set(['NETSCAPE2.0', 'ANIMEXTS1.0']);

/**
 * GIF blocks kept: the header and colour tables, frames, graphic controls and
 * plain text (drawn as part of the image), and the looping extension. Comments
 * and every other application extension (XMP lives in one) are left out.
 */
function stripGif(bytes: Buffer): ImageScrub {
  need(bytes, 13, 'the GIF header');
  const flags = bytes[10];
  let at = 13 + (flags & 0x80 ? 3 * 2 ** ((flags & 0x07) + 1) : 0);
  need(bytes, at, 'the GIF colour table');
  const kept: Buffer[] = [bytes.subarray(0, at)];
  const removed: string[] = [];
  const block = blockCounter();
  for (;;) {
    block();
    need(bytes, at + 1, 'a GIF block');
    const kind = bytes[at];
    if (kind === 0x3b) {
      kept.push(bytes.subarray(at, at + 1));
      at++;
      break;
    }
    if (kind === 0x2c) {
      need(bytes, at + 10, 'a GIF image descriptor');
      const local = bytes[at + 9];
      const start = at;
      at += 10 + (local & 0x80 ? 3 * 2 ** ((local & 0x07) + 1) : 0);
      // The LZW minimum code size, then the data sub-blocks.
      at = subBlocksEnd(bytes, at + 1);
      kept.push(bytes.subarray(start, at));
      continue;
    }
    if (kind !== 0x21) throw new Malformed('a GIF block of an unknown kind');
    need(bytes, at + 2, 'a GIF extension');
    const label = bytes[at + 1];
    const start = at;
    const end = subBlocksEnd(bytes, at + 2);
    if (label === 0xf9 || label === 0x01) kept.push(bytes.subarray(start, end));
    else if (label === 0xff && GIF_KEEP_APPLICATIONS.has(bytes.toString('latin1', at + 3, at + 14))) kept.push(bytes.subarray(start, end));
    else removed.push(label === 0xfe ? 'comment' : label === 0xff ? 'application extension' : `extension ${label}`);
    at = end;
  }
  if (at < bytes.length) removed.push('bytes after the trailer');
  return result(bytes, kept, removed);
}

/** The end of a run of GIF data sub-blocks starting at `at` (each a length byte, then that many bytes; 0 ends the run). */
function subBlocksEnd(bytes: Buffer, at: number): number {
  let i = at;
  for (;;) {
    need(bytes, i + 1, 'a GIF data block');
    const size = bytes[i];
    i += 1 + size;
    if (size === 0) return i;
    need(bytes, i, 'a GIF data block');
  }
}

/** WebP chunks kept: the image data, its alpha, animation, and the ICC profile. `EXIF`, `XMP ` and unknown chunks are left out. */
const WEBP_KEEP = new Set(['VP8 ', 'VP8L', 'VP8X', 'ALPH', 'ANIM', 'ANMF', 'ICCP']);
/** VP8X flag bits saying the file holds EXIF (0x08) or XMP (0x04): cleared with the chunks. */
const VP8X_METADATA_FLAGS = 0x08 | 0x04;

function stripWebp(bytes: Buffer): ImageScrub {
  const declared = bytes.readUInt32LE(4) + 8;
  need(bytes, declared, 'the WebP file');
  const kept: Buffer[] = [];
  const removed: string[] = [];
  const block = blockCounter();
  let at = 12;
  while (at < declared) {
    block();
    need(bytes, at + 8, 'a WebP chunk');
    const type = bytes.toString('latin1', at, at + 4);
    const size = bytes.readUInt32LE(at + 4);
    const end = at + 8 + size + (size & 1);
    // A chunk's type is four bytes of the file: named only when they are letters, digits or blanks (a report prints it).
    const name = /^[A-Za-z0-9 ]{4}$/.test(type) ? type.trim() : 'unknown';
    if (end > declared) throw new Malformed(`a WebP chunk (${name}) runs past the end of the image`);
    if (WEBP_KEEP.has(type)) kept.push(bytes.subarray(at, end));
    else removed.push(name);
    at = end;
  }
  if (declared < bytes.length) removed.push('bytes after the RIFF chunk');
  if (!removed.length) return { ok: true, bytes, removed };
  const body = Buffer.concat(kept);
  const vp8x = body.toString('latin1', 0, 4) === 'VP8X' ? body : undefined;
  if (vp8x && vp8x.length > 8) vp8x[8] &= ~VP8X_METADATA_FLAGS;
  const head = Buffer.alloc(12);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(body.length + 4, 4);
  head.write('WEBP', 8, 'latin1');
  return { ok: true, bytes: Buffer.concat([head, body]), removed };
}
