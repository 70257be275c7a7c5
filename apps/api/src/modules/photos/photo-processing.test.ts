import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cameraJpeg, oversizedJpeg, qrPhoto, truncatedJpeg } from '../../../test/photos/photo-fixtures';
import { processPhoto, readQrCode, RejectedPhotoError } from './photo-processing';

/** PHOTO_MAX_PIXELS's default. */
const MAX = 60_000_000;

const exiftool = (() => {
  try {
    execFileSync('exiftool', ['-ver'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe('processPhoto', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'photos-proc-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('the input does carry EXIF and GPS (so the next test proves something)', async () => {
    const meta = await sharp(await cameraJpeg()).metadata();
    expect(meta.exif?.length).toBeGreaterThan(0);
    expect(meta.exif!.toString('latin1')).toContain('123456789');
  });

  it('applies the orientation, strips every metadata block, bounds and watermarks the preview', async () => {
    // Orientation 6: stored 1200x800, shown turned a quarter: 800x1200.
    const out = await processPhoto(await cameraJpeg(2400, 1600, 6), 'Kringle', MAX);
    expect([out.width, out.height]).toEqual([1600, 2400]);
    expect(Math.max(out.previewWidth, out.previewHeight)).toBe(1600);
    for (const file of [out.original, out.preview]) {
      const meta = await sharp(file).metadata();
      expect(meta.format).toBe('jpeg');
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(meta.iptc).toBeUndefined();
      expect(meta.icc).toBeUndefined();
      expect(meta.orientation).toBeUndefined();
      expect(file.toString('latin1')).not.toContain('123456789');
      expect(file.toString('latin1')).not.toContain('Canon');
    }
    const previewMeta = await sharp(out.preview).metadata();
    expect([previewMeta.width, previewMeta.height]).toEqual([out.previewWidth, out.previewHeight]);
    // The watermark changed pixels of the plain red frame.
    const stats = await sharp(out.preview).stats();
    expect(stats.channels[1]!.max).toBeGreaterThan(100);
  });

  it.skipIf(!exiftool && process.env.CI !== 'true')(
    'exiftool finds no EXIF, GPS, XMP or IPTC in either file',
    async () => {
      const out = await processPhoto(await cameraJpeg(), 'Kringle', MAX);
      for (const [name, file] of [
        ['original.jpg', out.original],
        ['preview.jpg', out.preview],
      ] as const) {
        const target = path.join(dir, name);
        await writeFile(target, file);
        const groups = execFileSync('exiftool', ['-G0', '-s', '-a', target]).toString();
        expect(groups).not.toMatch(/^\[(EXIF|GPS|XMP|IPTC|MakerNotes|ICC_Profile)\]/m);
      }
    },
  );

  it('refuses what is not a JPEG', async () => {
    await expect(processPhoto(Buffer.from('not an image'), 'Kringle', MAX)).rejects.toBeInstanceOf(RejectedPhotoError);
    const png = await sharp({ create: { width: 10, height: 10, channels: 3, background: 'white' } })
      .png()
      .toBuffer();
    await expect(processPhoto(png, 'Kringle', MAX)).rejects.toBeInstanceOf(RejectedPhotoError);
  });

  it('refuses a photo above the pixel limit from its header, before decoding it (issue 48 item 7)', async () => {
    const huge = await oversizedJpeg();
    expect(huge.length).toBeLessThan(3 * 1024 * 1024);
    const before = process.resourceUsage().maxRSS;
    const refused = processPhoto(huge, 'Kringle', MAX);
    await expect(refused).rejects.toBeInstanceOf(RejectedPhotoError);
    await expect(refused).rejects.toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      message: '16000 × 16000 pixels (256 megapixels); at most 60 megapixels',
    });
    await expect(readQrCode(huge, MAX)).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    // Decoded, it would have taken 768 MB: the process's peak grew by far less (kilobytes in KB).
    expect(process.resourceUsage().maxRSS - before).toBeLessThan(100 * 1024);
  });

  it('refuses a truncated JPEG whose header reads but whose pixels do not (issue 48 item 8)', async () => {
    await expect(processPhoto(await truncatedJpeg(), 'Kringle', MAX)).rejects.toMatchObject({
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: expect.stringMatching(/truncated/),
    });
  });

  it('decodes at most two photos at once in a process, however many are asked for at once', async () => {
    const input = await cameraJpeg(2400, 1600);
    let peak = 0;
    const sample = setInterval(() => {
      peak = Math.max(peak, sharp.counters().process);
    }, 1);
    try {
      await Promise.all(Array.from({ length: 8 }, () => processPhoto(input, 'Kringle', MAX)));
    } finally {
      clearInterval(sample);
    }
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThanOrEqual(2);
  });
});

describe('readQrCode', () => {
  it('reads a check-in code photographed in the frame, and nothing from a plain photo', async () => {
    expect(await readQrCode(await qrPhoto('KRINGLE-CHECKIN-abc123'), MAX)).toBe('KRINGLE-CHECKIN-abc123');
    expect(await readQrCode(await cameraJpeg(), MAX)).toBeNull();
  });
});

describe.runIf(process.platform === 'linux')('processing yields to requests (decision 0070)', () => {
  const niceOfThreads = (name: string) =>
    readdirSync('/proc/self/task').flatMap((tid) => {
      try {
        const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
        const close = stat.lastIndexOf(')');
        return stat.slice(stat.indexOf('(') + 1, close) === name ? [Number(stat.slice(close + 2).split(' ')[16])] : [];
      } catch {
        return [];
      }
    });

  it(
    "libvips's worker threads run at a lower priority than the event loop once a photo has been " + 'processed',
    async () => {
      const input = await cameraJpeg(2400, 1600);
      await Promise.all([processPhoto(input, 'Kringle', MAX), processPhoto(input, 'Kringle', MAX)]);
      const workers = niceOfThreads('libvips worker');
      expect(workers.length).toBeGreaterThan(0);
      expect(workers.every((nice) => nice >= 10)).toBe(true);
      // The thread answering requests keeps its priority.
      expect(Number(readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ')[16])).toBe(0);
    },
  );
});
