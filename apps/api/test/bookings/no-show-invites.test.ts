import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendDueNoShowInvites } from '../../src/modules/bookings/no-show-invites.service';
import { bookDirect, createPerson, staffDay, type Person, type StaffDay } from '../staff/staff-fixtures';

const MIN = 60_000;

/** Issue 56: a family marked no-show is invited back by e-mail once its session is over, once. */
describe('no-show invitations', () => {
  let w: StaffDay;
  let next = 0;
  const session = () => w.sessions[next++]!;

  beforeAll(async () => {
    w = await staffDay();
  });
  afterAll(async () => w?.t.close());

  const endOf = async (slotId: string) =>
    new Date(
      (await w.t.db.execute(sql`select end_at from slots where id = ${slotId}::uuid`)).rows[0]!.end_at as string,
    );
  const mailsTo = async (who: Person) =>
    (
      await w.t.db.execute(
        sql`select subject, text, html from mail_outbox where to_address = ${who.email} and subject like 'We missed%'`,
      )
    ).rows as { subject: string; text: string; html: string }[];
  async function markedNoShow() {
    const family = await createPerson(w.t.db, false);
    const s = session();
    const b = await bookDirect(w.t.db, family, s.id);
    w.clock.set(new Date(new Date(s.start_at).getTime() + MIN));
    const marked = await w.call('POST', `/staff/bookings/${b.id}/no-show`, w.elf);
    expect(marked.statusCode, marked.body).toBe(200);
    return { family, booking: b, end: await endOf(s.id) };
  }

  it('after the session ends, once, whatever the number of runs; with a link back to that day', async () => {
    const { family, booking, end } = await markedNoShow();
    expect(await sendDueNoShowInvites(w.t.app)).toBe(0);
    expect(await mailsTo(family)).toHaveLength(0);

    w.clock.set(new Date(end.getTime() + MIN));
    const counts = await Promise.all([sendDueNoShowInvites(w.t.app), sendDueNoShowInvites(w.t.app)]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await sendDueNoShowInvites(w.t.app)).toBe(0);

    const [mail, ...more] = await mailsTo(family);
    expect(more).toHaveLength(0);
    expect(mail!.subject).toBe('We missed you at Kringle Sydney, Pitt Street');
    expect(mail!.text).toContain(`/create-booking?date=${w.day}`);
    expect(mail!.text).toContain('join its waitlist');
    expect(mail!.text).toContain(
      `Missed sessions are not refunded under the booking policy, so booking ` + `${booking.reference} stays as it is.`,
    );
    expect(mail!.html).toContain('Book another session');
  });

  it('nothing for a family checked in late over its no-show, or whose mark was undone', async () => {
    const late = await markedNoShow();
    const arrived = await w.call('POST', '/staff/check-ins', w.elf, {
      locationId: w.sydney,
      reference: late.booking.reference,
    });
    expect(arrived.json()).toMatchObject({ attendance: 'checked_in' });
    const undone = await markedNoShow();
    expect((await w.call('POST', `/staff/bookings/${undone.booking.id}/undo`, w.elf)).json()).toMatchObject({
      attendance: 'confirmed',
    });
    w.clock.set(new Date(Math.max(late.end.getTime(), undone.end.getTime()) + MIN));
    await sendDueNoShowInvites(w.t.app);
    expect(await mailsTo(late.family)).toHaveLength(0);
    expect(await mailsTo(undone.family)).toHaveLength(0);
  });

  it('not for a no-show whose session ended more than two days before (a release does not mail old ones)', async () => {
    const { family, end } = await markedNoShow();
    w.clock.set(new Date(end.getTime() + 3 * 24 * 60 * MIN));
    expect(await sendDueNoShowInvites(w.t.app)).toBe(0);
    expect(await mailsTo(family)).toHaveLength(0);
  });
});

describe('AUTO_NO_SHOW=true', () => {
  let w: StaffDay;
  beforeAll(async () => {
    w = await staffDay({ AUTO_NO_SHOW: 'true' });
  });
  afterAll(async () => w?.t.close());

  it('a session over without a check-in is marked no-show by the system and invited; not one checked in', async () => {
    const [came, missed] = [w.sessions[0]!, w.sessions[1]!];
    const absent = await createPerson(w.t.db, false);
    const present = await createPerson(w.t.db, false);
    const a = await bookDirect(w.t.db, absent, missed.id);
    const p = await bookDirect(w.t.db, present, came.id);
    w.clock.set(new Date(new Date(came.start_at).getTime() + MIN));
    await w.call('POST', '/staff/check-ins', w.elf, { locationId: w.sydney, reference: p.reference });
    expect(await sendDueNoShowInvites(w.t.app)).toBe(0);

    const ends = await w.t.db.execute(
      sql`select max(end_at) as end_at from slots where id in (${missed.id}::uuid, ${came.id}::uuid)`,
    );
    w.clock.set(new Date(new Date(ends.rows[0]!.end_at as string).getTime() + MIN));
    expect(await sendDueNoShowInvites(w.t.app)).toBe(1);
    const rows = (
      await w.t.db.execute(
        sql`select id, no_show_at, checked_in_at from bookings where id in (${a.id}::uuid, ${p.id}::uuid)`,
      )
    ).rows;
    expect(rows.find((r) => r.id === a.id)!.no_show_at).not.toBeNull();
    expect(rows.find((r) => r.id === p.id)).toMatchObject({ no_show_at: null });
    const audit = await w.t.db.execute(
      sql`select actor_kind from audit_entries where booking_id = ${a.id}::uuid and action = 'markNoShow'`,
    );
    expect(audit.rows).toEqual([{ actor_kind: 'system' }]);
    const mails = await w.t.db.execute(
      sql`select subject from mail_outbox
          where to_address in (${absent.email}, ${present.email}) and subject like 'We missed%'`,
    );
    expect(mails.rows).toHaveLength(1);
  });
});
