import { readdirSync, readFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import sharp, { type Metadata } from 'sharp';
import jsQR from 'jsqr';

/** The long edge of a preview; families see these before they unlock anything. */
export const PREVIEW_LONG_EDGE = 1600;
/** QR codes are read on a small greyscale copy: a phone screen or printed card fills much of the frame. */
const QR_LONG_EDGE = 1000;

// libvips runs in libuv's thread pool, off the event loop; one thread per image and at most
// PROCESSING_SLOTS images at once, so a set uploading 200 photos leaves threads for the API's
// own work (argon2, file reads) and its read budgets hold.
sharp.concurrency(1);
sharp.cache(false);
const PROCESSING_SLOTS = 2;
let running = 0;
const waiting: (() => void)[] = [];

/**
 * Two images at once keep both cores of a small host busy (decision 0070), so the threads doing
 * the pixel work (libvips's own, about nine tenths of its CPU) run at a lower priority than the
 * event loop and PostgreSQL: a read waits for no photo, and a photo loses nothing when nothing
 * else wants the core. Linux only (a thread's nice is its own there; raising it needs no rights).
 */
const PROCESSING_NICE = 10;
function yieldToRequests(): void {
  if (process.platform !== 'linux') return;
  let tids: string[];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return;
  }
  for (const tid of tids) {
    try {
      // "tid (name) state ...": the name may hold spaces; the nice value is the 19th field.
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      if (stat.slice(stat.indexOf('(') + 1, close) !== 'libvips worker') continue;
      if (Number(stat.slice(close + 2).split(' ')[16]) < PROCESSING_NICE) setPriority(Number(tid), PROCESSING_NICE);
    } catch {
      // The thread ended meanwhile: nothing to do.
    }
  }
}

async function inSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= PROCESSING_SLOTS) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    // libvips starts its threads as it needs them (from threads at the normal priority): any new one is lowered now.
    yieldToRequests();
    waiting.shift()?.();
  }
}

export interface ProcessedPhoto {
  /** The original, orientation applied, re-encoded as JPEG with no metadata at all. */
  original: Buffer;
  /** At most PREVIEW_LONG_EDGE on the long edge, watermarked, no metadata. */
  preview: Buffer;
  width: number;
  height: number;
  previewWidth: number;
  previewHeight: number;
}

/**
 * A file of an upload that is not kept, and why: not a JPEG libvips can read whole (a truncated or
 * corrupt file), or more pixels than PHOTO_MAX_PIXELS. The request's other files are kept.
 */
export class RejectedPhotoError extends Error {
  constructor(
    readonly code: 'UNSUPPORTED_MEDIA_TYPE' | 'PAYLOAD_TOO_LARGE',
    message: string,
  ) {
    super(message);
  }
}

const megapixels = (pixels: number) => `${Math.round(pixels / 100_000) / 10} megapixels`;

/**
 * Reads only the JPEG's header (sharp's metadata decodes no pixels) and refuses, before anything
 * is decoded, a file that is not a JPEG or that would decode to more than `maxPixels`: a 1.5 MB
 * file of one colour can say 16000 × 16000, 768 MB once decoded (issue 48 item 7).
 */
export async function inspectPhoto(input: Buffer | string, maxPixels: number): Promise<void> {
  let meta: Metadata;
  try {
    meta = await sharp(input, { failOn: 'error' }).metadata();
  } catch {
    throw new RejectedPhotoError('UNSUPPORTED_MEDIA_TYPE', 'not a JPEG that can be read');
  }
  if (meta.format !== 'jpeg') throw new RejectedPhotoError('UNSUPPORTED_MEDIA_TYPE', 'not a JPEG');
  const pixels = (meta.width ?? 0) * (meta.height ?? 0);
  if (pixels > maxPixels) {
    throw new RejectedPhotoError(
      'PAYLOAD_TOO_LARGE',
      `${meta.width} × ${meta.height} pixels (${megapixels(pixels)}); at most ${megapixels(maxPixels)}`,
    );
  }
}

const escapeXml = (s: string) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

function watermarkSvg(width: number, height: number, brand: string): Buffer {
  const size = Math.max(16, Math.round(Math.min(width, height) / 9));
  const text = escapeXml(brand);
  // Diagonal across the middle (hard to crop away) and a smaller mark in a corner.
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
      `<g font-family="sans-serif" font-weight="bold" fill="#ffffff" fill-opacity="0.35" stroke="#000000" ` +
      `stroke-opacity="0.2" stroke-width="1">` +
      `<text x="50%" y="50%" ` +
      `font-size="${size}" text-anchor="middle" dominant-baseline="middle" transform="rotate(-30 ` +
      `${width / 2} ${height / 2})">${text} PREVIEW</text>` +
      (`<text x="${width - 12}" y="${height - 12}" font-size="${Math.round(size / 3)}" text-anchor="end">` +
        `${text}</text>`) +
      `</g></svg>`,
  );
}

/**
 * Sharp keeps no metadata unless asked (no withMetadata/keepExif/keepIccProfile here), so EXIF, GPS,
 * XMP, IPTC and camera serials are all dropped; the pixels are converted to sRGB first so a wide
 * gamut photo still looks right without its profile. `rotate()` applies the EXIF orientation
 * before the EXIF goes. `input` is the JPEG or the path of a file holding it (an upload waiting
 * on disk, read by libvips itself).
 */
export async function processPhoto(input: Buffer | string, brand: string, maxPixels: number): Promise<ProcessedPhoto> {
  return inSlot(async () => {
    await inspectPhoto(input, maxPixels);
    let decoded;
    try {
      // limitInputPixels again, in case a header could say less than the decoder then reads.
      decoded = await sharp(input, { failOn: 'error', limitInputPixels: maxPixels })
        .rotate()
        .toColourspace('srgb')
        .jpeg({ quality: 92, mozjpeg: false })
        .toBuffer({ resolveWithObject: true });
    } catch {
      // A header that reads but pixels that do not: a truncated or corrupt file (issue 48 item 8).
      throw new RejectedPhotoError(
        'UNSUPPORTED_MEDIA_TYPE',
        'a JPEG that cannot be read to its end (truncated or damaged)',
      );
    }
    const { data: original, info } = decoded;
    const resized = await sharp(original)
      .resize({ width: PREVIEW_LONG_EDGE, height: PREVIEW_LONG_EDGE, fit: 'inside', withoutEnlargement: true })
      .toBuffer({ resolveWithObject: true });
    const preview = await sharp(resized.data)
      .composite([{ input: watermarkSvg(resized.info.width, resized.info.height, brand), top: 0, left: 0 }])
      .jpeg({ quality: 80 })
      .toBuffer();
    return {
      original,
      preview,
      width: info.width,
      height: info.height,
      previewWidth: resized.info.width,
      previewHeight: resized.info.height,
    };
  });
}

/** The text of a QR code in the photo, or null when there is none (or it cannot be read). */
export async function readQrCode(input: Buffer | string, maxPixels: number): Promise<string | null> {
  return inSlot(async () => {
    await inspectPhoto(input, maxPixels);
    try {
      const { data, info } = await sharp(input, { limitInputPixels: maxPixels })
        .rotate()
        .resize({ width: QR_LONG_EDGE, height: QR_LONG_EDGE, fit: 'inside', withoutEnlargement: true })
        .greyscale()
        .ensureAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      // jsQR wants RGBA; a greyscale image with alpha has 2 channels, so spread it out.
      const rgba = new Uint8ClampedArray(info.width * info.height * 4);
      for (let i = 0, j = 0; i < data.length; i += info.channels, j += 4) {
        rgba[j] = rgba[j + 1] = rgba[j + 2] = data[i]!;
        rgba[j + 3] = 255;
      }
      return jsQR(rgba, info.width, info.height, { inversionAttempts: 'attemptBoth' })?.data ?? null;
    } catch {
      return null;
    }
  });
}
