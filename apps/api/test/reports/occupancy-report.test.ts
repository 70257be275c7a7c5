import { addDays, zonedToInstant } from '@kringle/contracts/dates';
import type { OccupancyReport } from '@kringle/contracts/reports';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectContractError } from '../security/security-fixtures';
import { bookDirect, createPerson, SYDNEY, staffDay, type Person, type StaffDay } from '../staff/staff-fixtures';

/** Issue 35's occupancy report (decision 0057): each session of a day counted once, as the run sheet shows it. */
describe('occupancy report', () => {
  let w: StaffDay;
  let manager: Person;
  let capacity: number;
  const get = async (query: string, who: Person = manager) => w.call('GET', `/staff/reports/occupancy${query}`, who);
  const rowsOf = async (query: string, who?: Person) => {
    const res = await get(query, who);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as OccupancyReport).items;
  };

  beforeAll(async () => {
    w = await staffDay();
    manager = await createPerson(
      w.t.db,
      true,
      { firstName: 'Mo', lastName: 'Manager' },
      { role: 'manager', mfaEnrolled: true },
    );
    // 10:30 in Sydney: the day's first sessions have started.
    w.clock.set(zonedToInstant(w.day, '10:30', SYDNEY));
    const s = w.sessions;
    const booked = [];
    for (const i of [0, 1, 2]) booked.push(await bookDirect(w.t.db, await createPerson(w.t.db, false), s[i]!.id));
    expect(
      (await w.call('POST', '/staff/check-ins', w.elf, { locationId: w.sydney, reference: booked[0]!.reference }))
        .statusCode,
    ).toBe(200);
    expect((await w.call('POST', `/staff/bookings/${booked[1]!.id}/no-show`, w.elf)).statusCode).toBe(200);
    // A live hold (a family at checkout), and one that has lapsed: free again.
    const hold = await w.call('POST', '/bookings/reservation', w.family, { slotId: s[12]!.id });
    expect(hold.statusCode, hold.body).toBe(201);
    await w.t.db.execute(
      sql`update slots set hold_reservation_id = gen_random_uuid(), hold_expires_at =
${w.clock.now().toISOString()}::timestamptz - interval '1 minute' where id = ${s[13]!.id}::uuid`,
    );
    // Two sessions out of sale, and a booked one too: a family is still coming to that one.
    await w.t.db.execute(
      sql`update slots set blocked = true where id = any(${sql.param([s[14]!.id, s[15]!.id, s[2]!.id])}::uuid[])`,
    );
    capacity = Number(
      (
        await w.t.db.execute(sql`select count(*) from slots where location_id = ${w.sydney}::uuid and kind = 'session'
          and start_at >= ${zonedToInstant(w.day, '00:00', SYDNEY).toISOString()}::timestamptz and start_at <
          ${zonedToInstant(addDays(w.day, 1), '00:00', SYDNEY).toISOString()}::timestamptz`)
      ).rows[0]!.count,
    );
  });
  afterAll(async () => w?.t.close());

  it('counts capacity, booked, held, free, closed, checked in and no-show per location and day', async () => {
    const rows = await rowsOf(`?from=${w.day}&to=${w.day}&locationId=${w.sydney}`);
    expect(capacity).toBeGreaterThan(20);
    expect(rows).toEqual([
      {
        date: w.day,
        locationId: w.sydney,
        locationName: 'Kringle Sydney, Pitt Street',
        capacity,
        booked: 3,
        held: 1,
        free: capacity - 6,
        closed: 2,
        checkedIn: 1,
        noShow: 1,
      },
    ]);
  });

  it('lists every location the manager covers, day by day, and only Brisbane to a manager scoped to it', async () => {
    const next = addDays(w.day, 1);
    const rows = await rowsOf(`?from=${w.day}&to=${next}`);
    const keys = rows.map((r) => `${r.date} ${r.locationName}`);
    expect(keys).toContain(`${w.day} Kringle Brisbane, Queen Street`);
    expect(keys).toContain(`${next} Kringle Sydney, Pitt Street`);
    expect(keys).toEqual([...keys].sort((a, b) => a.slice(0, 10).localeCompare(b.slice(0, 10))));
    for (const r of rows) expect(r.booked + r.held + r.free + r.closed).toBe(r.capacity);
    const scoped = await createPerson(
      w.t.db,
      true,
      { firstName: 'Bri', lastName: 'Manager' },
      { role: 'manager', mfaEnrolled: true, locationIds: [w.brisbane] },
    );
    expect(new Set((await rowsOf(`?from=${w.day}&to=${next}`, scoped)).map((r) => r.locationId))).toEqual(
      new Set([w.brisbane]),
    );
    expectContractError(
      await get(`?from=${w.day}&to=${next}&locationId=${w.sydney}`, scoped),
      403,
      'LOCATION_FORBIDDEN',
    );
  });

  it('answers the CSV, names quoted', async () => {
    const res = await w.call(
      'GET',
      `/staff/reports/occupancy.csv?from=${w.day}&to=${w.day}&locationId=${w.sydney}`,
      manager,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.body.split('\r\n')).toEqual([
      '\uFEFF"Date","Location","Capacity","Booked","Held","Free","Closed","Checked in","No-show"',
      `"${w.day}","Kringle Sydney, Pitt Street","${capacity}","3","1","${capacity - 6}","2","1","1"`,
      '',
    ]);
  });

  it('refuses bad input with the contract body, and other roles', async () => {
    for (const query of [
      '',
      `?from=${w.day}&to=2026-13-01`,
      `?from=${w.day}&to=${addDays(w.day, -1)}`,
      `?from=${w.day}&to=${addDays(w.day, 120)}`,
      `?from=${w.day}&to=${w.day}&groupBy=day`,
    ]) {
      expectContractError(await get(query), 400, 'VALIDATION_FAILED');
    }
    expect((await get(`?from=${w.day}&to=${addDays(w.day, 119)}`)).statusCode).toBe(200);
    const support = await createPerson(
      w.t.db,
      true,
      { firstName: 'Sue', lastName: 'Port' },
      { role: 'support', mfaEnrolled: true },
    );
    expectContractError(await get(`?from=${w.day}&to=${w.day}`, support), 403, 'ROLE_FORBIDDEN');
    expectContractError(await get(`?from=${w.day}&to=${w.day}`, w.elf), 403, 'ROLE_FORBIDDEN');
    expectContractError(
      await w.call('GET', `/staff/reports/occupancy.csv?from=${w.day}&to=${w.day}`, w.elf),
      403,
      'ROLE_FORBIDDEN',
    );
  });
});
