import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPhotoRetention } from '../../src/modules/photos/photo-retention.service';
import { bookDirect, headersOf, staffDay, type StaffDay } from '../staff/staff-fixtures';
import { cameraJpeg } from './photo-fixtures';

/** PHOTO_STORAGE=s3 end to end, against a real S3-protocol server started here on a free port. */
describe('photos on S3 (s3rver)', () => {
  let w: StaffDay;
  let dir: string;
  let server: S3rver;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'photos-s3-api-'));
    server = new S3rver({
      port: 0,
      address: '127.0.0.1',
      silent: true,
      directory: dir,
      configureBuckets: [{ name: 'kringle-photos', configs: [] }],
    });
    const { port } = await server.run();
    w = await staffDay({
      PHOTO_STORAGE: 's3',
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_REGION: 'ap-southeast-2',
      S3_BUCKET: 'kringle-photos',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    });
  });
  afterAll(async () => {
    await w?.t.close();
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it(
    'uploads to the bucket, serves presigned previews and originals (≤ 15 min) without metadata, and deletes them ' +
      'at the end',
    async () => {
      const booking = await bookDirect(w.t.db, w.family, w.sessions[0]!.id);
      const boundary = `----kringle${randomUUID()}`;
      const payload = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="a.jpg"\r\nContent-Type: ` +
            `image/jpeg\r\n\r\n`,
        ),
        await cameraJpeg(),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const up = await w.t.app.inject({
        method: 'POST',
        url: `/api/v1/staff/bookings/${booking.id}/photos`,
        payload,
        headers: {
          'content-type': `multipart/form-data; boundary=${boundary}`,
          ...(await headersOf(w.t.app.idTokens, w.elf)),
        },
      });
      expect(up.statusCode).toBe(201);
      const photoId = up.json().items[0].id as string;

      const gallery = (await w.call('GET', `/bookings/${booking.id}/photos`, w.family)).json();
      const previewUrl = new URL(gallery.items[0].previewUrl);
      expect(Number(previewUrl.searchParams.get('X-Amz-Expires'))).toBeLessThanOrEqual(900);
      const preview = await fetch(previewUrl);
      expect(preview.status).toBe(200);
      const previewMeta = await sharp(Buffer.from(await preview.arrayBuffer())).metadata();
      expect(previewMeta.exif).toBeUndefined();

      // The demo booking's items name no real package: nothing included, so the original is locked.
      const locked = await w.call('GET', `/bookings/${booking.id}/photos/${photoId}/original`, w.family);
      expect(locked.statusCode).toBe(403);
      await w.t.db.execute(`update photos set unlocked_at = now() where id = '${photoId}'`);
      const redirect = await w.call('GET', `/bookings/${booking.id}/photos/${photoId}/original`, w.family);
      expect(redirect.statusCode).toBe(302);
      const original = await fetch(redirect.headers.location as string);
      expect(original.status).toBe(200);
      expect((await sharp(Buffer.from(await original.arrayBuffer())).metadata()).exif).toBeUndefined();

      w.clock.advance(61 * 86_400_000);
      expect((await runPhotoRetention(w.t.app)).galleriesDeleted).toBe(1);
      // Links handed out before the deletion answer nothing any more.
      expect((await fetch(redirect.headers.location as string)).status).toBe(404);
    },
  );
});
