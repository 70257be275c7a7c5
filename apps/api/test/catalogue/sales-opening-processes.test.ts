import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db } from '../../src/db/client';
import { type ApiProcesses } from '../helpers/api-processes';
import { type TestCustomer } from '../helpers/customers';
import { startSeasonOnProcesses, type SeasonOnProcesses } from '../helpers/season-on-processes';

/**
 * A location opening a few seconds ahead, read and held through three real API processes on the
 * system clock: before the instant every process refuses, and from the instant every process sells,
 * although each has cached the day's answer (1 s cache) and refused holds on it moments before.
 */
describe('bookings open at the instant on every API process', () => {
  let api: ApiProcesses;
  let db: Db;
  let world: SeasonOnProcesses;
  let families: TestCustomer[];
  let slotsUrl: string;
  let slotId: string;
  let opensAt: Date;

  beforeAll(async () => {
    world = await startSeasonOnProcesses(3, 4);
    ({ api, db, families } = world);
    ({ slotId, slotsUrl } = world.session);
    // Seconds ahead, which a season file (minutes) cannot say: set on the row as a load would store it.
    opensAt = new Date(Date.now() + 6000);
    await db.execute(
      sql`update locations set sales_open_at =
${opensAt.toISOString()}::timestamptz where id = ${world.session.locationId}::uuid`,
    );
  }, 120_000);
  afterAll(async () => {
    await world?.close();
  });

  const statusOn = async (i: number) => {
    const res = await fetch(`${api.urls[i]}${slotsUrl}`, { headers: families[0]!.headers });
    const body = (await res.json()) as { salesOpenAt: string | null; items: { id: string; status: string }[] };
    return { salesOpenAt: body.salesOpenAt, status: body.items.find((s) => s.id === slotId)!.status };
  };
  const hold = (i: number, who: TestCustomer) =>
    fetch(`${api.urls[i]}/api/v1/bookings/reservation`, {
      method: 'POST',
      headers: { ...who.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ slotId }),
    }).then(async (res) => ({ status: res.status, code: ((await res.json()) as { code?: string }).code }));

  it('refuses everywhere before the instant and sells everywhere from it', async () => {
    for (const i of [0, 1, 2]) {
      expect(await statusOn(i)).toEqual({ salesOpenAt: opensAt.toISOString(), status: 'unavailable' });
      expect(await hold(i, families[i]!)).toEqual({ status: 409, code: 'SALES_NOT_OPEN' });
    }
    // Keep every process's cached answer hot right up to the instant (background refreshes included).
    while (Date.now() < opensAt.getTime() - 150) {
      await Promise.all([0, 1, 2].map((i) => statusOn(i)));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, opensAt.getTime() - Date.now())));
    const after = await Promise.all([0, 1, 2].map((i) => statusOn(i)));
    expect(after.map((a) => a.status)).toEqual(['available', 'available', 'available']);
    // The families refused a moment ago race for it: exactly one wins, and nobody is told "not open".
    const race = await Promise.all([0, 1, 2].map((i) => hold(i, families[i + 1]!)));
    expect(race.filter((r) => r.status === 201)).toHaveLength(1);
    expect(race.filter((r) => r.status === 409 && r.code === 'SLOT_UNAVAILABLE')).toHaveLength(2);
  }, 60_000);
});
