import { localDateOf } from '@kringle/contracts/dates';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client';
import type { IdTokens } from '../../src/modules/accounts/id-tokens';
import { startApiProcesses, type ApiProcesses } from '../helpers/api-processes';
import { bookDirect, createPerson, FAMILY_AS_SENT, headersOf, type Person } from './staff-fixtures';
import { createProcessesDatabase } from '../helpers/processes-database';

/**
 * Issue 19: "Two staff devices checking in the same family, or selling the same free session, give
 * one result", across three real API processes on one PostgreSQL (as holds-concurrency.test.ts).
 * These processes run on the real clock, so the sessions are made for a few minutes from now (and
 * the lead time is off, so online holds really race the sales), at a location where that is still
 * today: a session made at 23:58 for 00:01 is tomorrow's, and neither sold nor checked in today.
 */
describe('staff devices racing, three API processes', () => {
  let api: ApiProcesses;
  let db: Db;
  let close: () => Promise<void>;
  let idTokens: IdTokens;
  let location: string;
  let slotType: string;
  let packageId: string;
  let elves: Person[];
  let minute = 2;

  /** A session of its own, starting a few minutes from now (so it is today there and not over). */
  async function freshSession(): Promise<string> {
    const start = new Date(Date.now() + minute++ * 60_000);
    const rows = await db.execute(sql`
      insert into slots (location_id, slot_type_id, kind, start_at, end_at)
      values (${location}::uuid, ${slotType}::uuid, 'session', ${start.toISOString()}::timestamptz,
      ${new Date(start.getTime() + 10 * 60_000).toISOString()}::timestamptz)
      returning id`);
    return rows.rows[0]!.id as string;
  }

  beforeAll(async () => {
    const conn = await createProcessesDatabase({ season: { days: 7 } });
    ({ db, idTokens, close } = conn);
    const candidates = (
      await db.execute(sql`
      select l.id as location, l.timezone, st.id as slot_type, (select id from packages where slug = 'classic-print')
      as package
      from locations l join slot_types st on st.location_id = l.id where st.slug = 'standard' order by l.slug`)
    ).rows;
    // Perth's midnight is two hours or more from the others', so one location always has the next half hour in its
    // today.
    const inHalfAnHour = new Date(Date.now() + 30 * 60_000);
    const ids = candidates.find(
      (c) => localDateOf(inHalfAnHour, c.timezone as string) === localDateOf(new Date(), c.timezone as string),
    )!;
    location = ids.location as string;
    slotType = ids.slot_type as string;
    packageId = ids.package as string;
    elves = await Promise.all(Array.from({ length: 6 }, () => createPerson(db, true)));
    api = await startApiProcesses(3, { ...conn.env, LEAD_TIME_MINUTES: '0' });
  }, 120_000);
  afterAll(async () => {
    await api?.stop();
    await close?.();
  });

  const post = async (i: number, path: string, who: Person, body: object) => {
    const res = await fetch(`${api.urls[i % api.urls.length]}/api/v1${path}`, {
      method: 'POST',
      headers: { ...(await headersOf(idTokens, who)), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as { code?: string; checkedInAt?: string; id?: string } };
  };

  it('30 check-ins of one family at once: all 200 with the same time, one check-in recorded', async () => {
    const family = await createPerson(db, false);
    const booked = await bookDirect(db, family, await freshSession());
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        post(i, '/staff/check-ins', elves[i % elves.length]!, { locationId: location, reference: booked.reference }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(30).fill(200));
    expect(new Set(results.map((r) => r.body.checkedInAt)).size).toBe(1);
    const actions = await db.execute(sql`select action from staff_actions where booking_id = ${booked.id}::uuid`);
    expect(actions.rows).toEqual([{ action: 'check_in' }]);
  }, 60_000);

  const sale = (slotId: string) => ({
    slotId,
    firstName: 'Ada',
    lastName: 'Walker',
    details: FAMILY_AS_SENT,
    packages: [{ id: packageId, quantity: 1 }],
    addOns: [],
    paidWith: 'card',
  });

  it(
    '30 walk-in sales of one free session on 6 devices: exactly one booking, the rest 409 ' + 'SLOT_UNAVAILABLE',
    async () => {
      const slotId = await freshSession();
      const results = await Promise.all(
        Array.from({ length: 30 }, (_, i) => post(i, '/staff/walk-ins', elves[i % elves.length]!, sale(slotId))),
      );
      expect(results.filter((r) => r.status === 201)).toHaveLength(1);
      expect(results.filter((r) => r.status === 409 && r.body.code === 'SLOT_UNAVAILABLE')).toHaveLength(29);
      const booked = await db.execute(sql`select count(*)::int as n from bookings where slot_id = ${slotId}::uuid`);
      expect(booked.rows[0]!.n).toBe(1);
      const slot = await db.execute(sql`select booking_id from slots where id = ${slotId}::uuid`);
      expect(slot.rows[0]!.booking_id).toBe(results.find((r) => r.status === 201)!.body.id);
    },
    60_000,
  );

  it('20 walk-in sales against 20 online holds on one session: one winner in all', async () => {
    const slotId = await freshSession();
    const families = await Promise.all(Array.from({ length: 20 }, () => createPerson(db, false)));
    const results = await Promise.all([
      ...Array.from({ length: 20 }, (_, i) => post(i, '/staff/walk-ins', elves[i % elves.length]!, sale(slotId))),
      ...families.map((f, i) => post(i + 1, '/bookings/reservation', f, { slotId })),
    ]);
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409 && r.body.code === 'SLOT_UNAVAILABLE')).toHaveLength(39);
    const taken = await db.execute(sql`
      select (booking_id is not null)::int + coalesce(hold_expires_at > now(), false)::int as n from slots where id =
      ${slotId}::uuid`);
    expect(taken.rows[0]!.n).toBe(1);
  }, 60_000);
});
