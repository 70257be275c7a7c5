import { FAMILY_CONSENTS } from '@kringle/contracts/family-consents';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectContractError } from '../security/security-fixtures';
import { privacyWorld, type PrivacyWorld } from './privacy-world';

const PARTS = [
  'account',
  'bookings',
  'details',
  'orders',
  'refunds',
  'emails',
  'checkIns',
  'waitlist',
  'photos',
  'consents',
  'choices',
  'auditEntries',
];

/** GET /user/export (APP 12, GDPR Art. 20): everything held about the family, and nothing of another. */
describe('download my data', () => {
  let w: PrivacyWorld;
  beforeAll(async () => {
    w = await privacyWorld();
  });
  afterAll(async () => w?.close());

  it('is one JSON attachment with every part filled, and nothing of another family', async () => {
    const who = await w.family({ firstName: 'Wilhelmina', lastName: 'Quixote' });
    const other = await w.family({ firstName: 'Bartholomew', lastName: 'Zed' });
    const b = await w.book(who);
    await w.call('PUT', `/bookings/${b.id}/details`, who, {
      children: [{ firstName: 'Mia', age: 6 }],
      adults: 1,
      pets: 0,
      accessNeeds: ['sensory'],
      consent: true,
    });
    const cancelled = await w.book(who);
    expect((await w.call('POST', `/bookings/${cancelled.id}/cancel`, who, {})).statusCode).toBe(200);
    // A check-in, a waitlist place and a photo, written as the set and the line would.
    await w.t.db.execute(sql`update bookings set checked_in_at = now() where id = ${b.id}::uuid`);
    const place = (await w.t.db.execute(sql`select location_id, slot_type_id from bookings where id = ${b.id}::uuid`))
      .rows[0]!;
    await w.t.db.execute(
      sql`insert into waitlist_entries (user_id, location_id, slot_type_id, date) values
(${who.id}::uuid, ${place.location_id}::uuid, ${place.slot_type_id}::uuid, current_date + 30)`,
    );
    await w.t.db.execute(
      sql`insert into photos (id, booking_id, location_id, width, height) values (gen_random_uuid(),
${b.id}::uuid, ${place.location_id}::uuid, 1600, 1200)`,
    );
    await w.call('PUT', '/user/consents/marketing_email', who, {
      given: true,
      wordingVersion: FAMILY_CONSENTS.marketing_email.version,
    });
    const theirs = await w.book(other);
    await w.call('PUT', `/bookings/${theirs.id}/details`, other, {
      children: [{ firstName: 'Zanzibar', age: 4 }],
      adults: 1,
      pets: 0,
      accessNeeds: ['auslan'],
      consent: true,
    });

    const res = await w.call('GET', '/user/export', who);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="my-data-\d{4}-\d{2}-\d{2}\.json"$/);
    expect(res.headers['cache-control']).toBe('no-store');
    const data = res.json();
    for (const part of PARTS) expect(data[part], part).toBeInstanceOf(Array);
    for (const part of PARTS) expect(data[part].length, part).toBeGreaterThan(0);
    expect(data.account).toEqual([
      expect.objectContaining({
        id: who.id,
        email: who.email,
        firstName: 'Wilhelmina',
        lastName: 'Quixote',
        phone: '+61 400 987 654',
      }),
    ]);
    expect(data.bookings.map((x: { reference: string }) => x.reference).sort()).toEqual(
      [b.reference, cancelled.reference].sort(),
    );
    expect(data.details).toEqual([
      expect.objectContaining({
        bookingId: b.id,
        details: expect.objectContaining({ children: [{ firstName: 'Mia', age: 6 }], accessNeeds: ['sensory'] }),
      }),
    ]);
    expect(data.orders).toHaveLength(2);
    expect(data.refunds).toEqual([
      expect.objectContaining({ bookingId: cancelled.id, amountCents: cancelled.amountCents }),
    ]);
    expect(data.emails.map((m: { subject: string }) => m.subject).join(' ')).toContain(b.reference);
    expect(data.checkIns).toEqual([expect.objectContaining({ bookingId: b.id, checkedInAt: expect.any(String) })]);
    expect(data.waitlist).toEqual([expect.objectContaining({ status: 'waiting' })]);
    expect(data.photos).toEqual([expect.objectContaining({ bookingId: b.id, width: 1600 })]);
    expect(data.consents).toEqual([
      expect.objectContaining({ bookingId: b.id, kind: 'access_needs', recordedByStaff: false }),
    ]);
    expect(data.auditEntries.map((a: { action: string }) => a.action)).toContain('cancel');
    // Nothing of the other family, wherever it might hide.
    for (const leak of [other.id, other.email, 'Bartholomew', 'Zanzibar', theirs.reference, theirs.id])
      expect(res.body, leak).not.toContain(leak);
  });

  it('needs a signed-in customer', async () => {
    expectContractError(await w.call('GET', '/user/export', null), 401, 'UNAUTHENTICATED');
  });
  it("is named by the family's local date, not UTC's (issue 53 item 16)", async () => {
    const who = await w.family({ firstName: 'Dora', lastName: 'Dateline' });
    await w.book(who);
    const now = w.clock.now();
    // The booking's location's calendar, whatever the hour in UTC (from 13:00 UTC Sydney is a day ahead, so that is
    // when this catches a UTC name).
    const zone = (
      await w.t.db.execute(
        sql`select l.timezone from bookings b join locations l on l.id = b.location_id where b.user_id =
${who.id}::uuid limit 1`,
      )
    ).rows[0]!.timezone as string;
    const local = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).format(now);
    const res = await w.call('GET', '/user/export', who);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="my-data-${local}.json"`);
  });
});
