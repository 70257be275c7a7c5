import { formatSessionTime, zonedToInstant } from '@kringle/contracts/dates';
import { describeChange } from '@kringle/contracts/audit-words';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectContractError } from '../security/security-fixtures';
import { bookDirect, createPerson, SYDNEY, staffDay, type Person, type StaffDay } from './staff-fixtures';

/**
 * Issue 53 item 9: the audit trail found by family, booking reference, staff e-mail and the location's local day, in
 * plain words.
 */
describe('audit trail filters', () => {
  let w: StaffDay;
  let manager: Person;
  let support: Person;
  let ivy: Person;
  let ivys: { id: string; reference: string };
  let other: { id: string; reference: string };

  beforeAll(async () => {
    w = await staffDay();
    manager = await createPerson(
      w.t.db,
      true,
      { firstName: 'Mona', lastName: 'Manager' },
      { role: 'manager', mfaEnrolled: true },
    );
    support = await createPerson(
      w.t.db,
      true,
      { firstName: 'Sue', lastName: 'Port' },
      { role: 'support', mfaEnrolled: true },
    );
    ivy = await createPerson(w.t.db, false, { firstName: 'Ivy', lastName: 'Tinselworth' });
    ivys = await bookDirect(w.t.db, ivy, w.sessions[0]!.id);
    other = await bookDirect(w.t.db, w.family, w.sessions[1]!.id);
    // 9:45 am in Sydney is 10:45 pm the day before in UTC: the local day and the UTC day differ.
    w.clock.set(zonedToInstant(w.day, '09:45', SYDNEY));
    expect(
      (await w.call('POST', '/staff/check-ins', w.elf, { locationId: w.sydney, reference: other.reference }))
        .statusCode,
    ).toBe(200);
    w.clock.set(zonedToInstant(w.day, '08:00', SYDNEY));
    const moved = await w.call('POST', `/staff/bookings/${ivys.id}/reschedule`, support, {
      slotId: w.sessions[2]!.id,
      reason: 'Asked on the phone',
    });
    expect(moved.statusCode, moved.body).toBe(200);
  });
  afterAll(async () => w?.t.close());

  const list = async (query: string) => {
    const res = await w.call('GET', `/staff/audit?${query}`, manager);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().items as {
      action: string;
      bookingId: string | null;
      actor: { email: string | null };
      about: { reference: string | null; family: { name: string } | null };
    }[];
  };

  it("by the family's name or e-mail (any part, any case), and by booking reference", async () => {
    const byName = await list('family=tinselW');
    expect(byName.map((e) => e.action)).toEqual(['staffReschedule']);
    expect(byName[0]!.about).toMatchObject({ reference: ivys.reference, family: { name: 'Ivy Tinselworth' } });
    expect(
      (await list(`family=${encodeURIComponent(ivy.email.toUpperCase().slice(0, 10))}`)).map((e) => e.bookingId),
    ).toEqual([ivys.id]);
    expect(await list('family=%25%25')).toEqual([]); // % is a character, not a wildcard
    expect((await list(`reference=${other.reference.toLowerCase()}`)).map((e) => [e.action, e.bookingId])).toEqual([
      ['checkIn', other.id],
    ]);
    expect(await list('reference=ZZZZ9999')).toEqual([]);
  });

  it("by staff e-mail, and by the location's local day", async () => {
    expect((await list(`staffEmail=${encodeURIComponent(w.elf.email.slice(0, 12))}`)).map((e) => e.action)).toEqual([
      'checkIn',
    ]);
    expect((await list(`staffEmail=${encodeURIComponent(support.email)}`)).map((e) => e.action)).toEqual([
      'staffReschedule',
    ]);
    // The local day holds both; as a UTC day it holds neither (both were the UTC day before).
    expect(
      (await list(`from=${w.day}&to=${w.day}&timeZone=${encodeURIComponent(SYDNEY)}`)).map((e) => e.action).sort(),
    ).toEqual(['checkIn', 'staffReschedule']);
    expect(await list(`from=${w.day}&to=${w.day}`)).toEqual([]);
    // The filters combine.
    expect(
      (
        await list(
          `from=${w.day}&to=${w.day}&timeZone=${encodeURIComponent(SYDNEY)}&staffEmail=` +
            `${encodeURIComponent(w.elf.email)}`,
        )
      ).map((e) => e.action),
    ).toEqual(['checkIn']);
    expectContractError(await w.call('GET', '/staff/audit?timeZone=Mars%2FOlympus', manager), 400, 'VALIDATION_FAILED');
    expectContractError(await w.call('GET', '/staff/audit?family=x', manager), 400, 'VALIDATION_FAILED');
    // The contract's first filters still work as API.md says.
    expect((await list(`bookingId=${ivys.id}&actorId=${support.id}`)).map((e) => e.action)).toEqual([
      'staffReschedule',
    ]);
  });

  it('says what changed in plain words, on the page and in the CSV', async () => {
    const [moved] = (await w.call('GET', `/staff/audit?bookingId=${ivys.id}`, manager)).json().items;
    const from = formatSessionTime(w.sessions[0]!.start_at, SYDNEY);
    const to = formatSessionTime(w.sessions[2]!.start_at, SYDNEY);
    expect(describeChange(moved, 'UTC')).toContain(`Session: ${from} → ${to}`);
    const [checkIn] = (await w.call('GET', `/staff/audit?bookingId=${other.id}`, manager)).json().items;
    expect(describeChange(checkIn, 'UTC')[0]).toBe('Status: Confirmed → Checked in');
    const csv = (await w.call('GET', `/staff/audit.csv?reference=${other.reference}`, manager)).body
      .trim()
      .split('\r\n');
    expect(csv[0]).toMatch(/Booking reference","Family","What changed"$/);
    expect(csv).toHaveLength(2);
    expect(csv[1]).toContain('"Checked in"'); // the action's label
    expect(csv[1]).toContain(`"${other.reference}"`);
    expect(csv[1]).toContain('Status: Confirmed → Checked in');
  });
});
