import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditAction } from '@kringle/contracts/audit-actions';
import { checkInCodeFor } from '../../src/modules/check-in/check-in-codes';
import { cameraJpeg, multipart, qrPhoto, printItems } from '../photos/photo-fixtures';
import { auditRefusals, type AuditRefusals } from './audit-refusals';
import {
  bookDirect,
  createPerson,
  FAMILY_AS_SENT,
  headersOf,
  staffDay,
  type Person,
  type StaffDay,
} from './staff-fixtures';

/**
 * Issue 48 item 5: every change of a family's data (its profile, who's coming, its photos) writes an
 * audit entry in its transaction, tried twice as in audit-privileges.test.ts: once it writes its entry,
 * once a test trigger refuses the entry and the change is undone with it.
 */
describe('audit of privileges and family data', () => {
  let w: StaffDay;
  let dataDir: string;
  /** The test's switch: an action it is given cannot be written to the trail. */
  let audit: AuditRefusals;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'audit-family-data-'));
    w = await staffDay({ DATA_DIR: dataDir });
    audit = await auditRefusals(w.t.ownerUrl);
  });
  afterAll(async () => {
    await audit?.end();
    await w?.t.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const inject = async (method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, who: Person | null, payload?: object) =>
    w.t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: who ? await headersOf(w.t.app.idTokens, who) : {},
      ...(payload ? { payload } : {}),
    });
  const upload = async (url: string, files: Parameters<typeof multipart>[0]) => {
    const body = multipart(files);
    return w.t.app.inject({
      method: 'POST',
      url: `/api/v1${url}`,
      payload: body.payload,
      headers: { ...body.headers, ...(await headersOf(w.t.app.idTokens, w.elf)) },
    });
  };
  const entries = async (action: AuditAction) =>
    (
      await w.t.db.execute(
        sql`select actor_kind, actor_id, booking_id, before, after from audit_entries where action =
${action} order by seq`,
      )
    ).rows;
  const refusing = <T>(action: AuditAction, change: () => Promise<T>) => audit.refusing(action, change);

  it(
    "a family's own edit of its name or phone writes family.profile_changed (which fields, not their " + 'values)',
    async () => {
      const family = await createPerson(w.t.db, false, { firstName: 'Ivy', lastName: 'Holly' });
      expect(
        (await refusing('family.profile_changed', () => inject('PATCH', '/user/me', family, { phone: '0412 345 678' })))
          .statusCode,
      ).toBe(500);
      expect(
        (await w.t.db.execute(sql`select phone from users where id = ${family.id}::uuid`)).rows[0]!.phone,
      ).toBeNull();

      const res = await inject('PATCH', '/user/me', family, {
        phone: '0412 345 678',
        lastName: 'Berry',
        firstName: 'Ivy',
      });
      expect(res.statusCode, res.body).toBe(200);
      const [entry] = await entries('family.profile_changed');
      expect(entry).toMatchObject({
        actor_kind: 'family',
        actor_id: family.id,
        before: { changed: ['lastName', 'phone'] },
        after: { changed: ['lastName', 'phone'] },
      });
      expect(JSON.stringify(entry)).not.toMatch(/Berry|Holly|0412/);
    },
  );

  it(
    "a family's own edit of who's coming writes family.booking_details_changed with the head count, no " + 'names',
    async () => {
      const booked = await bookDirect(w.t.db, w.family, w.sessions[3]!.id);
      const details = { ...FAMILY_AS_SENT, children: [...FAMILY_AS_SENT.children, { firstName: 'Zed', age: 2 }] };
      const before = (await w.t.db.execute(sql`select details from bookings where id = ${booked.id}::uuid`)).rows[0]!
        .details;
      expect(
        (
          await refusing('family.booking_details_changed', () =>
            inject('PUT', `/bookings/${booked.id}/details`, w.family, details),
          )
        ).statusCode,
      ).toBe(500);
      expect(
        (await w.t.db.execute(sql`select details from bookings where id = ${booked.id}::uuid`)).rows[0]!.details,
      ).toEqual(before);

      expect((await inject('PUT', `/bookings/${booked.id}/details`, w.family, details)).statusCode).toBe(200);
      const [entry] = await entries('family.booking_details_changed');
      const people = FAMILY_AS_SENT.children.length + FAMILY_AS_SENT.adults;
      expect(entry).toMatchObject({
        actor_kind: 'family',
        actor_id: w.family.id,
        booking_id: booked.id,
        before: { people, changed: ['children'] },
        after: { people: people + 1, changed: ['children'] },
      });
      expect(JSON.stringify(entry)).not.toContain('Zed');
    },
  );

  it(
    'photo uploads, a hand assignment and a family unlock each write their entry; a failed entry keeps none of ' + 'it',
    async () => {
      const booked = await bookDirect(w.t.db, w.family, w.sessions[4]!.id);
      // Classic Print includes 2 digital photos (the demo season): unlocking is the family's choice.
      await w.t.db.execute(
        sql`update bookings set items =
${printItems(w.classic, 3995)}::jsonb
  where id = ${booked.id}::uuid`,
      );
      const photoCount = async () =>
        Number((await w.t.db.execute(sql`select count(*)::int as n from photos`)).rows[0]!.n);
      const count = await photoCount();
      expect(
        (
          await refusing('photo.uploaded', async () =>
            upload(`/staff/bookings/${booked.id}/photos`, [{ data: await cameraJpeg() }]),
          )
        ).statusCode,
      ).toBe(500);
      expect(await photoCount()).toBe(count);

      const direct = await upload(`/staff/bookings/${booked.id}/photos`, [
        { data: await cameraJpeg() },
        { data: await cameraJpeg() },
      ]);
      expect(direct.statusCode, direct.body).toBe(201);
      const ids = direct.json().items.map((p: { id: string }) => p.id);
      const batch = await upload(`/staff/photos/batch?locationId=${w.sydney}`, [
        { data: await cameraJpeg() },
        { data: await qrPhoto(await checkInCodeFor(w.t.db, booked)) },
        { data: await cameraJpeg() },
      ]);
      expect(batch.statusCode, batch.body).toBe(201);
      const stray = batch.json().unmatched[0].id as string;
      expect(await entries('photo.uploaded')).toMatchObject([
        {
          actor_kind: 'staff',
          actor_id: w.elf.id,
          booking_id: booked.id,
          before: { photos: 0 },
          after: { locationId: w.sydney, photos: 2, photoIds: ids },
        },
        { booking_id: null, after: { photos: 1, photoIds: [stray], unmatched: true } },
        { booking_id: booked.id, after: { photos: 1 } },
      ]);

      const assign = () => inject('POST', `/staff/photos/${stray}/assign`, w.elf, { bookingId: booked.id });
      expect((await refusing('photo.assigned', assign)).statusCode).toBe(500);
      expect(
        (await w.t.db.execute(sql`select booking_id from photos where id = ${stray}::uuid`)).rows[0]!.booking_id,
      ).toBeNull();
      expect((await assign()).statusCode).toBe(200);
      expect(await entries('photo.assigned')).toMatchObject([
        {
          actor_id: w.elf.id,
          booking_id: booked.id,
          before: { photoId: stray, bookingId: null },
          after: { photoId: stray, bookingId: booked.id },
        },
      ]);

      const unlock = () => inject('POST', `/bookings/${booked.id}/photos/unlock`, w.family, { photoIds: [ids[0]] });
      expect((await refusing('photo.unlocked', unlock)).statusCode).toBe(500);
      expect(
        (await w.t.db.execute(sql`select unlocked_at from photos where id = ${ids[0]}::uuid`)).rows[0]!.unlocked_at,
      ).toBeNull();
      expect((await unlock()).statusCode).toBe(200);
      expect(await entries('photo.unlocked')).toMatchObject([
        {
          actor_kind: 'family',
          actor_id: w.family.id,
          booking_id: booked.id,
          before: { unlocked: 0 },
          after: { unlocked: 1, photoIds: [ids[0]] },
        },
      ]);
    },
  );
});
