import { localDateOf } from '@kringle/contracts/dates';
import { sql } from 'drizzle-orm';
import type { Db } from '../../src/db/client';
import { startApiProcesses, type ApiProcesses } from './api-processes';
import { createCustomers, type TestCustomer } from './customers';
import { createProcessesDatabase } from './processes-database';

export interface SeasonOnProcesses {
  db: Db;
  api: ApiProcesses;
  families: TestCustomer[];
  /** The processes' DATABASE_URL (the runtime role's). */
  databaseUrl: string;
  /** The first session more than two days out: its id, where, its local day and that day's slots URL. */
  session: { slotId: string; locationId: string; slotTypeId: string; date: string; slotsUrl: string };
  close(): Promise<void>;
}

/**
 * The multi-process tests' common start: a fresh database with two weeks of the demo season on the
 * system clock, `customers` signed-in families, and `processes` real API processes sharing it. Two
 * weeks, not the demo's own season: that one ends on Christmas Eve, so from about midday (UTC) on
 * 22 December until Sydney's Christmas Day it has no session two days out.
 */
export async function startSeasonOnProcesses(
  processes: number,
  customers: number,
  options: { env?: Record<string, string>; entry?: string } = {},
): Promise<SeasonOnProcesses> {
  const conn = await createProcessesDatabase({ season: { days: 14 } });
  const families = await createCustomers(conn.db, conn.idTokens, customers);
  const row = (
    await conn.db.execute(sql`
      select s.id, s.location_id, s.slot_type_id, s.start_at, l.timezone from slots s join locations l on l.id =
      s.location_id
      where s.kind = 'session' and s.start_at > now() + interval '2 days' order by l.sort_order, s.start_at limit 1`)
  ).rows[0]!;
  const date = localDateOf(new Date(row.start_at as string), row.timezone as string);
  const session = {
    slotId: row.id as string,
    locationId: row.location_id as string,
    slotTypeId: row.slot_type_id as string,
    date,
    slotsUrl: `/api/v1/booking-slot/${row.location_id}/available-slots?date=${date}&slotTypeId=${row.slot_type_id}`,
  };
  let api: ApiProcesses;
  try {
    api = await startApiProcesses(processes, { ...conn.env, ...options.env }, { entry: options.entry });
  } catch (err) {
    await conn.close();
    throw err;
  }
  return {
    db: conn.db,
    api,
    families,
    session,
    databaseUrl: conn.env.DATABASE_URL,
    close: async () => (await api.stop(), await conn.close()),
  };
}
