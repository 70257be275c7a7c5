import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditAction } from '@kringle/contracts/audit-actions';
import { awaitMails } from '../helpers/accounts';
import { auditRefusals, type AuditRefusals } from './audit-refusals';
import { createPerson, headersOf, staffDay, type Person, type StaffDay } from './staff-fixtures';

/**
 * Issue 48 item 5: every change of who can do what writes an audit entry in its transaction. Each
 * action is tried twice: once it writes its entry (before and after), once the entry cannot be
 * written (a test trigger refuses it) and the change is undone with it. A family's data:
 * audit-family-data.test.ts.
 */
describe('audit of privileges and family data', () => {
  let w: StaffDay;
  let dataDir: string;
  let manager: Person;
  /** The test's switch: an action it is given cannot be written to the trail. */
  let audit: AuditRefusals;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'audit-privileges-'));
    w = await staffDay({ DATA_DIR: dataDir });
    manager = await createPerson(
      w.t.db,
      true,
      { firstName: 'Mona', lastName: 'Manager' },
      { role: 'manager', mfaEnrolled: true },
    );
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
  const entries = async (action: AuditAction) =>
    (
      await w.t.db.execute(
        sql`select actor_kind, actor_id, booking_id, before, after from audit_entries where action =
${action} order by seq`,
      )
    ).rows;
  const refusing = <T>(action: AuditAction, change: () => Promise<T>) => audit.refusing(action, change);
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
});
