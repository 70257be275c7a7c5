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
