import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { photos } from '../../src/db/schema/photos';
import { cameraJpeg, multipart, printItems } from './photo-fixtures';
import { expectContractError } from '../security/security-fixtures';
import { bookDirect, createPerson, headersOf, staffDay, type Person, type StaffDay } from '../staff/staff-fixtures';

describe('photos (issue 39)', () => {
  let w: StaffDay;
  let dataDir: string;
  let booking: { id: string; reference: string };
  let other: Person;
  let photoIds: string[] = [];

  const upload = async (url: string, files: Parameters<typeof multipart>[0], who: Person = w.elf) => {
    const body = multipart(files);
    return w.t.app.inject({
      method: 'POST',
      url: `/api/v1${url}`,
      payload: body.payload,
      headers: { ...body.headers, ...(await headersOf(w.t.app.idTokens, who)) },
    });
  };
  const get = async (url: string, who: Person | null) =>
    w.t.app.inject({
      method: 'GET',
      url: url.startsWith('/api/v1') ? url : `/api/v1${url}`,
      headers: who ? await headersOf(w.t.app.idTokens, who) : {},
    });
  const storedFiles = async () =>
    (await readdir(path.join(dataDir, 'photos'), { recursive: true })).filter((f) => f.endsWith('.jpg'));
  const photoRows = async () => (await w.t.db.select().from(photos)).length;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'photos-api-'));
    w = await staffDay({ DATA_DIR: dataDir });
    booking = await bookDirect(w.t.db, w.family, w.sessions[0]!.id);
    // Classic Print includes 2 digital photos (the demo season).
    await w.t.db.execute(
      sql`update bookings set items =
${printItems(w.classic, 3995)}::jsonb
  where id = ${booking.id}::uuid`,
    );
    other = await createPerson(w.t.db, false, { firstName: 'Other', lastName: 'Family' });
  });
  afterAll(async () => {
    await w?.t.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it(
    'the set uploads photos for a confirmed booking (201), any day; refuses what is not a JPEG and keeps nothing of ' +
      'a failed upload',
    async () => {
      const res = await upload(`/staff/bookings/${booking.id}/photos`, [
        { data: await cameraJpeg() },
        { data: await cameraJpeg(2400, 1600) },
        { data: await cameraJpeg() },
      ]);
      expect(res.statusCode).toBe(201);
      const items = res.json().items as { id: string; bookingId: string; width: number; previewUrl: string }[];
      expect(items.map((i) => i.bookingId)).toEqual([booking.id, booking.id, booking.id]);
      // Processed side by side (decision 0070), kept in the order sent.
      expect(items.map((i) => i.width)).toEqual([1200, 2400, 1200]);
      photoIds = items.map((i) => i.id);
      expect(await storedFiles()).toHaveLength(6);

      const png = await sharp({ create: { width: 20, height: 20, channels: 3, background: 'white' } })
        .png()
        .toBuffer();
      expectContractError(
        await upload(`/staff/bookings/${booking.id}/photos`, [
          { data: await cameraJpeg() },
          { data: png, type: 'image/png' },
        ]),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      );
      // Says JPEG, is not one: that file alone is rejected by name (issue 48 item 8, photo-rejections.test.ts).
      // Interrupted midway: the body ends inside the second file.
      const cut = multipart([{ data: await cameraJpeg() }, { data: await cameraJpeg() }]);
      const res2 = await w.t.app.inject({
        method: 'POST',
        url: `/api/v1/staff/bookings/${booking.id}/photos`,
        payload: cut.payload.subarray(0, cut.payload.length - 4000),
        headers: { ...cut.headers, ...(await headersOf(w.t.app.idTokens, w.elf)) },
      });
      expect(res2.statusCode).toBeGreaterThanOrEqual(400);
      // Over 30 MB: refused, after a photo before it was stored (deleted again).
      const huge = Buffer.concat([await cameraJpeg(), Buffer.alloc(31 * 1024 * 1024)]);
      expectContractError(
        await upload(`/staff/bookings/${booking.id}/photos`, [{ data: await cameraJpeg() }, { data: huge }]),
        413,
        'PAYLOAD_TOO_LARGE',
      );
      expect(await photoRows()).toBe(3);
      expect(await storedFiles()).toHaveLength(6);
      // Files wait for processing on disk (decision 0070); none is left once a request has ended, however it ended.
      expect(await readdir(path.join(dataDir, 'incoming'))).toEqual([]);

      expectContractError(
        await upload(`/staff/bookings/${randomUUID()}/photos`, [{ data: await cameraJpeg() }]),
        404,
        'NOT_FOUND',
      );
      expectContractError(
        await upload(`/staff/bookings/${booking.id}/photos`, [{ data: await cameraJpeg() }], w.family),
        403,
        'STAFF_ONLY',
      );
    },
  );

  it(
    "the family sees watermarked previews behind signed URLs carrying no metadata; another family's booking is " +
      '404',
    async () => {
      const res = await get(`/bookings/${booking.id}/photos`, w.family);
      expect(res.statusCode).toBe(200);
      const gallery = res.json();
      expect(gallery).toMatchObject({ included: 2, unlocked: 0 });
      expect(new Date(gallery.expiresAt).getTime()).toBe(w.clock.now().getTime() + 60 * 86_400_000);
      expect(gallery.items.map((i: { id: string }) => i.id)).toEqual(photoIds);
      // The booking says how many photos its gallery has, so the card can show "3 photos".
      expect((await get(`/bookings/${booking.id}`, w.family)).json().photoCount).toBe(3);
      expect(
        (await get('/bookings/upcoming-bookings', w.family))
          .json()
          .items.find((b: { id: string }) => b.id === booking.id).photoCount,
      ).toBe(3);
      const preview = await get(gallery.items[1].previewUrl, null);
      expect(preview.statusCode).toBe(200);
      expect(preview.headers['content-type']).toBe('image/jpeg');
      // Never indexed, never kept by a shared cache (issue 51, the Children's Online Privacy Code).
      expect(preview.headers['x-robots-tag']).toBe('noindex, noimageindex, nofollow');
      expect(preview.headers['cache-control']).toMatch(/^private/);
      const meta = await sharp(preview.rawPayload).metadata();
      expect(Math.max(meta.width, meta.height)).toBe(1600);
      expect(meta.exif).toBeUndefined();
      expect(preview.rawPayload.toString('latin1')).not.toContain('123456789');
      // An <img> or a download link cannot send X-App-Check: the signature is the only key asked for.
      const doc = (await w.t.app.inject('/api/v1/openapi.json')).json();
      expect(doc.paths['/api/v1/photo-files/photos/{photoId}/{file}'].get.security).toEqual([]);
      // Forged, or expired: 404.
      expect(
        (await get(gallery.items[1].previewUrl.replace(/sig=[^&]+/, `sig=${'A'.repeat(43)}`), null)).statusCode,
      ).toBe(404);
      expectContractError(await get(`/bookings/${booking.id}/photos`, other), 404, 'NOT_FOUND');
      expectContractError(await get(`/bookings/${booking.id}/photos/${photoIds[0]}/original`, other), 404, 'NOT_FOUND');
    },
  );

  it(
    'unlocks within the allowance, race-safe; originals only once unlocked; the zip holds the unlocked ' + 'originals',
    async () => {
      const family = await headersOf(w.t.app.idTokens, w.family);
      const unlock = (ids: string[]) =>
        w.t.app.inject({
          method: 'POST',
          url: `/api/v1/bookings/${booking.id}/photos/unlock`,
          headers: family,
          payload: { photoIds: ids },
        });
      expectContractError(
        await get(`/bookings/${booking.id}/photos/${photoIds[0]}/original`, w.family),
        403,
        'PHOTO_LOCKED',
      );
      expectContractError(await unlock(photoIds), 409, 'PHOTO_ALLOWANCE_USED');
      // Three devices at once, one photo each, two allowed: exactly two win.
      const results = await Promise.all(photoIds.map((id) => unlock([id])));
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 200, 409]);
      const gallery = (await get(`/bookings/${booking.id}/photos`, w.family)).json();
      expect(gallery.unlocked).toBe(2);
      const open = gallery.items.find((i: { unlocked: boolean }) => i.unlocked).id as string;
      expect((await unlock([open])).statusCode).toBe(200); // again: harmless

      const redirect = await get(`/bookings/${booking.id}/photos/${open}/original`, w.family);
      expect(redirect.statusCode).toBe(302);
      const url = new URL(redirect.headers.location as string, 'http://x');
      expect(Number(url.searchParams.get('expires')) * 1000 - w.clock.now().getTime()).toBeLessThanOrEqual(900_000);
      const original = await get(`${url.pathname}${url.search}`, null);
      expect(original.statusCode).toBe(200);
      expect((await sharp(original.rawPayload).metadata()).exif).toBeUndefined();

      const zip = await get(`/bookings/${booking.id}/photos.zip`, w.family);
      expect(zip.statusCode).toBe(200);
      expect(zip.headers['content-type']).toBe('application/zip');
      expect(zip.rawPayload.subarray(0, 2).toString()).toBe('PK');
      // Two local file headers (PK 03 04): the two unlocked originals.
      expect(zip.rawPayload.toString('latin1').split('PK\u0003\u0004').length - 1).toBe(2);

      // Each download is in the audit trail: the family, the booking, which photos.
      const trail = await w.t.db.execute(sql`
      select actor_kind, actor_id, action, after from audit_entries
      where booking_id = ${booking.id}::uuid and action like 'downloadPhoto%' order by seq`);
      expect(trail.rows).toEqual([
        {
          actor_kind: 'family',
          actor_id: w.family.id,
          action: 'downloadPhotoOriginal',
          after: { photoIds: [open], count: 1 },
        },
        {
          actor_kind: 'family',
          actor_id: w.family.id,
          action: 'downloadPhotoZip',
          after: {
            photoIds: gallery.items.filter((i: { unlocked: boolean }) => i.unlocked).map((i: { id: string }) => i.id),
            count: 2,
          },
        },
      ]);
    },
  );
});
