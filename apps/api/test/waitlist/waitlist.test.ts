import { describe, expect, it } from 'vitest';
import { waitlistDays } from './waitlist-fixture';

/** Joining and leaving a sold-out day's line, and what joining refuses. The offers: waitlist-offers.test.ts. */
describe('waitlist (API.md "Waitlist")', () => {
  const { w, family, call, join, entries, soldOut } = waitlistDays();

  it('joins a sold-out day, numbers the line, and shows each family only its own entries', async () => {
    const { day } = await soldOut();
    const [b, c] = [await family(), await family()];
    const first = await join(b, day);
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      locationId: day.locationId,
      slotTypeId: day.slotTypeId,
      date: day.date,
      status: 'waiting',
      position: 1,
      offer: null,
    });
    expect((await join(c, day)).json()).toMatchObject({ position: 2 });
    expect(await entries(b)).toHaveLength(1);
    expect((await entries(c)).map((e) => e.position)).toEqual([2]);
    // Another family's entry: 404, and nothing changes.
    expect((await call('DELETE', `/waitlist/${first.json().id}`, c)).json()).toMatchObject({ code: 'NOT_FOUND' });
    expect(await entries(b)).toHaveLength(1);
    expect((await call('DELETE', `/waitlist/${first.json().id}`, b)).statusCode).toBe(204);
    expect((await call('DELETE', `/waitlist/${first.json().id}`, b)).statusCode).toBe(404);
    expect((await entries(c)).map((e) => e.position)).toEqual([1]);
  });

  it(
    'refuses a day with a session on sale, a second entry for a day, more than WAITLIST_LIMIT days, and bad ' + 'input',
    async () => {
      const b = await family();
      const open = w.days[w.next++]!;
      expect((await join(b, open)).json()).toMatchObject({ code: 'WAITLIST_NOT_NEEDED' });
      const [d1, d2, d3] = [await soldOut(), await soldOut(), await soldOut()];
      expect((await join(b, d1.day)).statusCode).toBe(201);
      expect((await join(b, d1.day)).json()).toMatchObject({ code: 'ALREADY_WAITLISTED' });
      expect((await join(b, d2.day)).statusCode).toBe(201);
      expect((await join(b, d3.day)).json()).toMatchObject({
        code: 'WAITLIST_LIMIT',
        error: expect.stringContaining('2 days'),
      });
      const bad = await call('POST', '/waitlist', b, {
        locationId: d3.day.locationId,
        slotTypeId: d3.day.slotTypeId,
        date: '2026-13-01',
      });
      expect(bad.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
      expect((await call('POST', '/waitlist', b, { ...d3.day, slotId: undefined, extra: 1 })).json().code).toBe(
        'VALIDATION_FAILED',
      );
      const c = await family();
      expect(
        (
          await call('POST', '/waitlist', c, {
            locationId: d3.day.slotTypeId,
            slotTypeId: d3.day.slotTypeId,
            date: d3.day.date,
          })
        ).statusCode,
      ).toBe(404);
      expect(
        (
          await call('POST', '/waitlist', c, {
            locationId: d3.day.locationId,
            slotTypeId: d3.day.slotTypeId,
            date: '2020-01-01',
          })
        ).json().code,
      ).toBe('VALIDATION_FAILED');
      expect((await call('DELETE', '/waitlist/not-a-uuid', c)).statusCode).toBe(400);
    },
  );
});
