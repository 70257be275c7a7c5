import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { photos } from '../../src/db/schema/photos';
import { checkInCodeFor } from '../../src/modules/check-in/check-in-codes';
import { cameraJpeg, multipart, qrPhoto, printItems } from './photo-fixtures';
import { runPhotoRetention } from '../../src/modules/photos/photo-retention.service';
import { photoKey, photoStorageFor } from '../../src/modules/photos/photo-storage';
import { expectContractError } from '../security/security-fixtures';
import { bookDirect, createPerson, headersOf, staffDay, type Person, type StaffDay } from '../staff/staff-fixtures';

/**
 * Photos after the booking's own uploads (photos.test.ts): a shooting sequence sorted by QR code, then the gallery's
 * e-mails, its extension and its deletion. It starts where photos.test.ts leaves off: three photos, two unlocked.
 */
describe('photos (issue 39)', () => {
  let w: StaffDay;
  let dataDir: string;
  let booking: { id: string; reference: string };
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
    // The booking's own photos, as photos.test.ts uploads them, and its 2 included ones unlocked.
    const res = await upload(`/staff/bookings/${booking.id}/photos`, [
      { data: await cameraJpeg() },
      { data: await cameraJpeg(2400, 1600) },
      { data: await cameraJpeg() },
    ]);
    expect(res.statusCode).toBe(201);
    photoIds = res.json().items.map((i: { id: string }) => i.id);
    const unlocked = await w.t.app.inject({
      method: 'POST',
      url: `/api/v1/bookings/${booking.id}/photos/unlock`,
      headers: await headersOf(w.t.app.idTokens, w.family),
      payload: { photoIds: photoIds.slice(0, 2) },
    });
    expect(unlocked.statusCode).toBe(200);
  });
  afterAll(async () => {
    await w?.t.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it(
    "a shooting sequence: each family's QR code starts its photos; before the first code or after an unknown one, " +
      'unmatched; assigned by hand',
    async () => {
      const code = await checkInCodeFor(w.t.db, booking);
      const before = await photoRows();
      const res = await upload(`/staff/photos/batch?locationId=${w.sydney}`, [
        { data: await cameraJpeg() }, // before any code
        { data: await qrPhoto(code) },
        { data: await cameraJpeg() },
        { data: await cameraJpeg() },
        { data: await qrPhoto('NOT-A-CODE') },
        { data: await cameraJpeg() },
      ]);
      expect(res.statusCode).toBe(201);
      const body = res.json();
      expect(body.assigned).toEqual([{ bookingId: booking.id, count: 2 }]);
      expect(body.unmatched).toHaveLength(2);
      expect(await photoRows()).toBe(before + 4); // the code photos are not kept

      const stray = body.unmatched[0].id as string;
      const assign = (bookingId: string) => w.call('POST', `/staff/photos/${stray}/assign`, w.elf, { bookingId });
      expectContractError(await assign(randomUUID()), 404, 'NOT_FOUND');
      const assigned = await assign(booking.id);
      expect(assigned.statusCode).toBe(200);
      expect(assigned.json().bookingId).toBe(booking.id);
      expect((await get(`/bookings/${booking.id}/photos`, w.family)).json().items).toHaveLength(6);
    },
  );

  it(
    'one "ready" e-mail, reminders 7 days and 1 day before the end, then every file and row deleted; staff can ' +
      'extend',
    async () => {
      const mails = async () =>
        (
          await w.t.db.execute(
            sql`select subject from mail_outbox where subject like ${`%${booking.reference}%`} order by created_at`,
          )
        ).rows.map((r) => r.subject as string);
      // Two processes' jobs at once: the e-mail goes once.
      const [a, b] = await Promise.all([runPhotoRetention(w.t.app), runPhotoRetention(w.t.app)]);
      expect(a.ready + b.ready).toBe(1);
      expect((await runPhotoRetention(w.t.app)).ready).toBe(0);
      const preview = (await get(`/bookings/${booking.id}/photos`, w.family)).json().items[0].previewUrl as string;

      // Manager or support, with a reason: the set may not, and a reason is required.
      const support = await createPerson(
        w.t.db,
        true,
        { firstName: 'Sam', lastName: 'Support' },
        { role: 'support', mfaEnrolled: true },
      );
      const extend = (who: Person, body: object) =>
        w.call('POST', `/staff/bookings/${booking.id}/photos/extend`, who, body);
      expectContractError(
        await extend(w.elf, { days: 1, reason: 'Family asked for more time' }),
        403,
        'ROLE_FORBIDDEN',
      );
      expectContractError(await extend(support, { days: 1 }), 400, 'VALIDATION_FAILED');
      expectContractError(
        await w.call('POST', `/staff/bookings/${randomUUID()}/photos/extend`, support, { reason: 'Family asked' }),
        404,
        'NOT_FOUND',
      );
      const extended = await extend(support, { days: 1, reason: 'Family asked for more time' });
      expect(extended.statusCode).toBe(200);
      const end = new Date(extended.json().expiresAt).getTime();
      expect(end).toBe(w.clock.now().getTime() + 61 * 86_400_000);
      // The support desk's booking shows the gallery's end, where the extend form is.
      expect((await w.call('GET', `/staff/bookings/${booking.id}`, support)).json().galleryExpiresAt).toBe(
        new Date(end).toISOString(),
      );
      const [entry] = (
        await w.t.db.execute(
          sql`select actor_kind, actor_email, reason, before, after from audit_entries where booking_id =
${booking.id}::uuid and action = 'extendPhotoGallery'`,
        )
      ).rows;
      expect(entry).toEqual({
        actor_kind: 'staff',
        actor_email: support.email,
        reason: 'Family asked for more time',
        before: { expiresAt: new Date(end - 86_400_000).toISOString() },
        after: { expiresAt: new Date(end).toISOString(), days: 1 },
      });

      w.clock.set(new Date(end - 6.5 * 86_400_000));
      await runPhotoRetention(w.t.app);
      w.clock.set(new Date(end - 0.5 * 86_400_000));
      // The stray left in the tray: its own 60 days from upload are over by now.
      expect((await runPhotoRetention(w.t.app)).unmatchedDeleted).toBe(1);
      expect(await mails()).toEqual([
        `Your photos with Santa are ready (${booking.reference})`,
        `Your photos will be deleted in 7 days (${booking.reference})`,
        `Your photos will be deleted tomorrow (${booking.reference})`,
      ]);

      w.clock.set(new Date(end + 1000));
      // Past its end the gallery is closed at once, before the job has deleted anything.
      expect((await get(`/bookings/${booking.id}/photos`, w.family)).json()).toMatchObject({
        items: [],
        expiresAt: null,
      });
      const run = await runPhotoRetention(w.t.app);
      expect(run.galleriesDeleted).toBe(1);
      expect(await photoRows()).toBe(0);
      expect(await storedFiles()).toHaveLength(0);
      const gallery = (await get(`/bookings/${booking.id}/photos`, w.family)).json();
      expect(gallery).toMatchObject({ items: [], expiresAt: null });
      expect((await get(`/bookings/${booking.id}`, w.family)).json().photoCount).toBe(0);
      // A link signed now, within its 15 minutes: the photo is gone, so is the link.
      const fresh = await photoStorageFor(w.t.app).signedUrl(photoKey(photoIds[0]!, 'preview'), 900);
      expect((await get(fresh, null)).statusCode).toBe(404);
      expect((await get(preview, null)).statusCode).toBe(404);
    },
  );
});
