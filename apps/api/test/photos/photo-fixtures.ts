import { randomUUID } from 'node:crypto';
import QRCode from 'qrcode';
import sharp from 'sharp';

/** A camera-like JPEG: EXIF with a serial number, GPS, an orientation that turns it upright. */
export async function cameraJpeg(width = 1200, height = 800, orientation = 1): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 40 } } })
    .jpeg()
    .withMetadata({
      orientation,
      exif: {
        IFD0: { Make: 'Canon', Model: 'EOS R6', Copyright: 'Set 3' },
        IFD2: { BodySerialNumber: '123456789' },
        IFD3: {
          GPSLatitudeRef: 'S',
          GPSLatitude: '33/1 52/1 0/1',
          GPSLongitudeRef: 'E',
          GPSLongitude: '151/1 12/1 0/1',
        },
      },
    })
    .toBuffer();
}

/**
 * A JPEG whose header says 16000 × 16000 (256 megapixels, 768 MB once decoded) though the file is
 * small: one colour compresses to about 1.5 MB (issue 48 item 7's decompression probe). Encoding it
 * streams, so making it costs no such memory.
 */
export async function oversizedJpeg(width = 16000, height = 16000): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 20, g: 120, b: 60 } } })
    .jpeg({ quality: 50 })
    .toBuffer();
}

/** A camera JPEG cut off partway, as an interrupted copy leaves it: its header reads, its pixels do not. */
export async function truncatedJpeg(): Promise<Buffer> {
  const whole = await sharp({
    create: {
      width: 1200,
      height: 800,
      channels: 3,
      background: { r: 0, g: 0, b: 0 },
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .jpeg()
    .toBuffer();
  return whole.subarray(0, Math.floor(whole.length * 0.6));
}

/** A photo of a QR code held up in front of the camera. */
export async function qrPhoto(text: string): Promise<Buffer> {
  const qr = await QRCode.toBuffer(text, { errorCorrectionLevel: 'M', scale: 10, margin: 4 });
  return sharp({ create: { width: 1600, height: 1200, channels: 3, background: { r: 90, g: 110, b: 120 } } })
    .composite([{ input: qr, gravity: 'center' }])
    .jpeg()
    .withMetadata({ exif: { IFD0: { Make: 'Canon' } } })
    .toBuffer();
}

/** A multipart body as a browser's FormData sends it. */
export function multipart(files: { data: Buffer; type?: string; field?: string; name?: string }[]) {
  const boundary = `----kringle${randomUUID()}`;
  const chunks: Buffer[] = [];
  files.forEach((f, i) => {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; ` +
          (`name="${f.field ?? 'files'}"; filename="${f.name ?? `IMG_${i}.jpg`}"\r\nContent-Type: ` +
            `${f.type ?? 'image/jpeg'}\r\n\r\n`),
      ),
    );
    chunks.push(f.data, Buffer.from('\r\n'));
  });
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** An order's items column with one Classic Print at `cents` (written behind the API to set up a case). */
export const printItems = (id: string, cents: number): string =>
  JSON.stringify([
    { id, type: 'package', name: 'Classic Print', quantity: 1, unitPriceCents: cents, totalCents: cents },
  ]);
