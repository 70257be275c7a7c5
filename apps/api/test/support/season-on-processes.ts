import { localDateOf } from '@kringle/contracts/dates';
import { sql } from 'drizzle-orm';
import { generateJwtKey } from '../../src/config/secrets';
import { createDb, type Db } from '../../src/db/client';
import { systemClock } from '../../src/lib/clock';
import { IdTokens } from '../../src/modules/accounts/id-tokens';
import { demoSeason } from '../../src/modules/catalogue/demo-season';
import { loadSeason } from '../../src/modules/catalogue/season.service';
import { createTestDatabase } from '../test-app';
import { startApiProcesses, type ApiProcesses } from './api-processes';
import { createCustomers, type TestCustomer } from './customers';

export interface SeasonOnProcesses {
  db: Db;
  api: ApiProcesses;
  families: TestCustomer[];
  /** The first session more than two days out: its id, where, its local day and that day's slots URL. */
  session: { slotId: string; locationId: string; slotTypeId: string; date: string; slotsUrl: string };
  close(): Promise<void>;
}

/**
 * The multi-process tests' common start: a fresh database with the demo season on the system
 * clock, `customers` signed-in families, and `processes` real API processes sharing it.
 */
export async function startSeasonOnProcesses(processes: number, customers: number): Promise<SeasonOnProcesses> {
  const url = await createTestDatabase();
  const conn = createDb(url, 5);
  const now = new Date();
  await loadSeason(conn.db, demoSeason(now), now);
  const jwtKey = await generateJwtKey();
  const idTokens = await IdTokens.create({ privateKeyPem: jwtKey, issuer: 'kringle', audience: 'kringle-web', clock: systemClock });
  const families = await createCustomers(conn.db, idTokens, customers);
  const row = (
    await conn.db.execute(sql`
      select s.id, s.location_id, s.slot_type_id, s.start_at, l.timezone from slots s join locations l on l.id = s.location_id
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
    api = await startApiProcesses(processes, { DATABASE_URL: url, JWT_PRIVATE_KEY: jwtKey, APP_CHECK_SECRET: 'concurrency-test-secret-0123456789abcdef' });
  } catch (err) {
    await conn.pool.end();
    throw err;
  }
  return { db: conn.db, api, families, session, close: async () => (await api.stop(), await conn.pool.end()) };
}
