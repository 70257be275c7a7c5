import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditAction } from '@kringle/contracts/audit-actions';
import { checkInCodeFor } from '../../src/modules/check-in/check-in-codes';
import { cameraJpeg, multipart, qrPhoto, printItems } from '../photos/photo-fixtures';
import { awaitMails } from '../helpers/accounts';
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
 * Issue 48 item 5: every change of who can do what, and of a family's data, writes an audit entry
 * in its transaction. Each action is tried twice: once it writes its entry (before and after),
 * once the entry cannot be written (a test trigger refuses it) and the change is undone with it.
 */
describe('audit of privileges and family data', () => {
  let w: StaffDay;
  let dataDir: string;
  let manager: Person;
  /** The database's owner: the runtime role may not make the test's trigger (decision 0078). */
  let owner: pg.Client;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'audit-privileges-'));
    w = await staffDay({ DATA_DIR: dataDir });
    manager = await createPerson(
      w.t.db,
      true,
      { firstName: 'Mona', lastName: 'Manager' },
      { role: 'manager', mfaEnrolled: true },
    );
    // The test's switch: an action listed here cannot be written to the trail.
    owner = new pg.Client({ connectionString: w.t.ownerUrl });
    await owner.connect();
    await owner.query('create table test_refused_audit (action text primary key)');
    await owner.query('grant select on test_refused_audit to public');
    await owner.query(`create function test_refuse_audit() returns trigger language plpgsql as $$
      begin
        if exists (select 1 from test_refused_audit where action = new.action) then raise exception
        'audit refused by the test'; end if;
        return new;
      end $$`);
    await owner.query(
      'create trigger test_refuse_audit before insert on audit_entries for each row execute function ' +
        'test_refuse_audit()',
    );
  });
  afterAll(async () => {
    await owner?.end();
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
  /** Runs `change` while `action` cannot be written to the trail. */
  async function refusing<T>(action: AuditAction, change: () => Promise<T>): Promise<T> {
    await owner.query('insert into test_refused_audit values ($1)', [action]);
    try {
      return await change();
    } finally {
      await owner.query('delete from test_refused_audit where action = $1', [action]);
    }
  }
  const account = async (id: string) =>
    (await w.t.db.execute(sql`select staff_role, location_ids, active from users where id = ${id}::uuid`)).rows[0]!;

  it('inviting writes staff.invited naming the account; an invitation whose entry fails makes no account', async () => {
    const failed = await refusing('staff.invited', () =>
      inject('POST', '/staff/accounts', manager, {
        email: 'refused.invite@kringle.test',
        role: 'set',
        locationIds: [w.sydney],
      }),
    );
    expect(failed.statusCode).toBe(500);
    expect(
      (await w.t.db.execute(sql`select 1 from users where email = 'refused.invite@kringle.test'`)).rows,
    ).toHaveLength(0);
    expect(await entries('staff.invited')).toHaveLength(0);

    const res = await inject('POST', '/staff/accounts', manager, {
      email: 'holly.audit@kringle.test',
      role: 'set',
      locationIds: [w.sydney],
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().id as string;
    expect(await entries('staff.invited')).toMatchObject([
      {
        actor_kind: 'staff',
        actor_id: manager.id,
        before: { staffId: id, invited: false },
        after: { staffId: id, email: 'holly.audit@kringle.test', invited: true, role: 'set', locationIds: [w.sydney] },
      },
    ]);

    // Accepting: the member is the actor; a failed entry leaves the link usable and no password set.
    const code = new URL(
      /https?:\/\/\S+\/staff\/invite\?code=[\w-]+/.exec(
        (await awaitMails(w.t.db, 'holly.audit@kringle.test'))[0]!.text,
      )![0],
    ).searchParams.get('code')!;
    const accept = () => inject('POST', '/staff/invitations/accept', null, { code, password: 'Tinsel-Town-2026' });
    expect((await refusing('staff.invitation_accepted', accept)).statusCode).toBe(500);
    expect(await entries('staff.invitation_accepted')).toHaveLength(0);
    expect((await accept()).statusCode).toBe(200);
    expect(await entries('staff.invitation_accepted')).toMatchObject([
      {
        actor_kind: 'staff',
        actor_id: id,
        before: { staffId: id, invitationPending: true },
        after: { staffId: id, invitationPending: false },
      },
    ]);
  });

  it(
    'role, locations, deactivation and reactivation each write their entry with before and after; a failed entry ' +
      'changes nothing',
    async () => {
      const member = await createPerson(
        w.t.db,
        true,
        { firstName: 'Sam', lastName: 'Set' },
        { role: 'set', locationIds: [w.sydney] },
      );
      const patch = (body: object) => inject('PATCH', `/staff/accounts/${member.id}`, manager, body);

      expect((await refusing('staff.role_changed', () => patch({ role: 'support' }))).statusCode).toBe(500);
      expect(
        (await refusing('staff.locations_changed', () => patch({ locationIds: [w.sydney, w.brisbane] }))).statusCode,
      ).toBe(500);
      expect((await refusing('staff.deactivated', () => patch({ active: false }))).statusCode).toBe(500);
      expect(await account(member.id)).toMatchObject({ staff_role: 'set', location_ids: [w.sydney], active: true });

      expect((await patch({ role: 'support', locationIds: [w.sydney, w.brisbane] })).statusCode).toBe(200);
      expect((await patch({ active: false })).statusCode).toBe(200);
      expect((await patch({ active: true })).statusCode).toBe(200);
      // The same values again change nothing and write nothing.
      expect((await patch({ role: 'support', locationIds: [w.brisbane, w.sydney] })).statusCode).toBe(200);
      const who = { staffId: member.id, email: member.email };
      expect(await entries('staff.role_changed')).toMatchObject([
        { actor_id: manager.id, before: { ...who, role: 'set' }, after: { ...who, role: 'support' } },
      ]);
      expect(await entries('staff.locations_changed')).toMatchObject([
        { before: { ...who, locationIds: [w.sydney] }, after: { ...who, locationIds: [w.sydney, w.brisbane] } },
      ]);
      expect(await entries('staff.deactivated')).toMatchObject([
        { before: { ...who, active: true }, after: { ...who, active: false } },
      ]);
      expect(await entries('staff.reactivated')).toMatchObject([
        { before: { ...who, active: false }, after: { ...who, active: true } },
      ]);
    },
  );

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
