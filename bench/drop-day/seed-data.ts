import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { addDays, localDateOf } from '@kringle/contracts/dates';
import type { Db } from '../../apps/api/src/db/client';
import { systemClock } from '../../apps/api/src/lib/clock';
import { IdTokens } from '../../apps/api/src/modules/accounts/id-tokens';
import { hashPassword } from '../../apps/api/src/modules/accounts/passwords';
import { demoSeason } from '../../apps/api/src/modules/catalogue/demo-season';
import { loadSeason } from '../../apps/api/src/modules/catalogue/season.service';
import { solveAppCheck } from '../../apps/api/test/helpers/solve-app-check';
import type { LoadRequest } from './load-generator';

export interface BenchCustomer {
  id: string;
  email: string;
  authorization: string;
}

export interface ReadTarget {
  locationId: string;
  slotTypeId: string;
  timezone: string;
}

/** Each customer reads one day of one target's sessions, over the next week (the drop-day read). */
export function availableSlotsReads(
  customers: BenchCustomer[],
  targets: ReadTarget[],
  appCheck: string,
): LoadRequest[] {
  return customers.map((c, i) => {
    const target = targets[i % targets.length]!;
    const dates = upcomingDates(target.timezone, 7);
    return {
      method: 'GET',
      path:
        `/api/v1/booking-slot/${target.locationId}/available-slots?date=${dates[i % dates.length]}&slotTypeId=` +
        `${target.slotTypeId}&filter=all`,
      headers: { authorization: c.authorization, 'x-app-check': appCheck },
    };
  });
}

/** The demo season (three centres, six weeks) through the same loader the CLI uses. */
export async function loadBenchSeason(db: Db): Promise<{ slots: number; targets: ReadTarget[] }> {
  const now = new Date();
  await loadSeason(db, demoSeason(now, { days: 42 }), now);
  const count = await db.execute(sql`select count(*)::int as n from slots where kind = 'session'`);
  const targets = await db.execute(sql`
    select l.id as location_id, t.id as slot_type_id, l.timezone
    from locations l join slot_types t on t.location_id = l.id
    where t.slug = 'standard' order by l.sort_order, l.name`);
  return {
    slots: count.rows[0]!.n as number,
    targets: targets.rows.map((r) => ({
      locationId: r.location_id as string,
      slotTypeId: r.slot_type_id as string,
      timezone: r.timezone as string,
    })),
  };
}

/**
 * Verified customers straight into the database (argon2 is measured by the sign-in scenario,
 * not paid 5,000 times here), with ID tokens signed by the API's own code and key.
 */
export async function createCustomers(
  db: Db,
  idTokens: IdTokens,
  count: number,
  prefix: string,
  passwordHash = 'not-a-real-hash',
): Promise<BenchCustomer[]> {
  const ids = Array.from({ length: count }, () => randomUUID());
  const emails = ids.map((id) => `${prefix}-${id.slice(0, 13)}@bench.kringle.test`);
  for (let i = 0; i < count; i += 2000) {
    await db.execute(sql`
      insert into users (id, email, password_hash, first_name, last_name, email_verified_at)
      select unnest(${sql.param(ids.slice(i, i + 2000))}::uuid[]),
      unnest(${sql.param(emails.slice(i, i + 2000))}::text[]),
             ${passwordHash}, 'Bench', 'Family', now()`);
  }
  return withFreshTokens(
    idTokens,
    ids.map((id, i) => ({ id, email: emails[i]! })),
  );
}

/** Each customer with a newly issued ID token (they last 15 minutes: a long bench issues again). */
export function withFreshTokens(
  idTokens: IdTokens,
  customers: { id: string; email: string }[],
): Promise<BenchCustomer[]> {
  return Promise.all(
    customers.map(async ({ id, email }) => {
      const { idToken } = await idTokens.issue({ id, email, emailVerified: true, isStaff: false, staffRole: null });
      return { id, email, authorization: `Bearer ${idToken}` };
    }),
  );
}

export const SIGN_IN_PASSWORD = 'Bench-Sign-In-2026!';

/** Customers with a real argon2id hash of SIGN_IN_PASSWORD (one hash shared: the cost to verify is the same). */
export async function createSignInCustomers(db: Db, idTokens: IdTokens, count: number): Promise<BenchCustomer[]> {
  return createCustomers(db, idTokens, count, 'sign-in', await hashPassword(SIGN_IN_PASSWORD));
}

export const benchIdTokens = (privateKeyPem: string) =>
  IdTokens.create({ privateKeyPem, issuer: 'kringle', audience: 'kringle-web', clock: systemClock });

/**
 * 300 sessions from tomorrow on, free and bookable: the slots the race is about. Also written to
 * a table that pgbench's script reads (pgbench has no arrays).
 */
export async function pickRaceSlots(db: Db, count: number): Promise<string[]> {
  const rows = await db.execute(sql`
    select id from slots
    where kind = 'session' and not blocked and booking_id is null and start_at > now() + interval '1 day'
    order by start_at, id limit ${count}`);
  const ids = rows.rows.map((r) => r.id as string);
  if (ids.length < count) throw new Error(`The season has only ${ids.length} sessions ahead; the race needs ${count}`);
  await db.execute(sql`drop table if exists bench_race_slots`);
  await db.execute(sql`create table bench_race_slots (n int primary key, slot_id uuid not null)`);
  await db.execute(
    sql`insert into bench_race_slots select ordinality::int, id from
unnest(${sql.param(ids)}::uuid[]) with ordinality as t(id)`,
  );
  return ids;
}

/** Frees the race slots again (after pgbench's holds or a previous race). */
export async function resetRaceSlots(db: Db): Promise<void> {
  await db.execute(
    sql`update reservations set status = 'cancelled' where status = 'active' and slot_id in (select slot_id from
bench_race_slots)`,
  );
  await db.execute(
    sql`update slots set hold_reservation_id = null, hold_expires_at = null where id in (select slot_id from
bench_race_slots)`,
  );
}

/** What the database says after the race: holds on race slots, and live reservations per slot. */
export async function countRaceHolds(
  db: Db,
): Promise<{ heldSlots: number; activeReservations: number; slotsWithTwoHolders: number }> {
  const held = await db.execute(sql`
    select count(*)::int as n from slots where id in (select slot_id from bench_race_slots) and hold_reservation_id is
    not null and hold_expires_at > now()`);
  const active = await db.execute(sql`
    select coalesce(sum(per_slot), 0)::int as active, count(*) filter (where per_slot > 1)::int as doubled from (
      select slot_id, count(*) as per_slot from reservations
      where status = 'active' and slot_id in (select slot_id from bench_race_slots) group by slot_id) t`);
  return {
    heldSlots: held.rows[0]!.n as number,
    activeReservations: active.rows[0]!.active as number,
    slotsWithTwoHolders: active.rows[0]!.doubled as number,
  };
}

/** Statements PostgreSQL ran since the last call (the busiest first), then starts counting again. */
export async function takeStatementCounts(
  db: Db,
  top = 6,
): Promise<Array<{ calls: number; rows: number; meanMs: number; query: string }>> {
  await db.execute(sql`create extension if not exists pg_stat_statements`);
  const rows = await db.execute(sql`
    select calls::int, rows::int, round(mean_exec_time::numeric, 3)::float8 as mean_ms, left(regexp_replace(query,
    '[[:space:]]+', ' ', 'g'), 140) as query
    from pg_stat_statements where query not ilike '%pg_stat_statements%' order by calls desc limit ${top}`);
  await db.execute(sql`select pg_stat_statements_reset()`);
  return rows.rows.map((r) => ({
    calls: r.calls as number,
    rows: r.rows as number,
    meanMs: r.mean_ms as number,
    query: r.query as string,
  }));
}

/** An app-check token obtained the way the web app gets one: solve the proof-of-work, exchange it. */
export async function appCheckToken(baseUrl: string): Promise<string> {
  const c = (await (await fetch(`${baseUrl}/api/v1/app-check/challenge`, { method: 'POST' })).json()) as {
    algorithm: string;
    challenge: string;
    salt: string;
    signature: string;
    maxnumber: number;
  };
  const number = c.algorithm === 'SHA-256' ? solveAppCheck(c.challenge, c.salt, c.maxnumber) : null;
  if (number === null) throw new Error('Could not solve the app-check challenge');
  const payload = Buffer.from(
    JSON.stringify({ algorithm: c.algorithm, challenge: c.challenge, number, salt: c.salt, signature: c.signature }),
  ).toString('base64');
  const res = await fetch(`${baseUrl}/api/v1/app-check/exchange`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ payload }),
  });
  if (!res.ok) throw new Error(`App-check exchange failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

/** The next `days` local dates at a location, starting tomorrow (today may be mostly past the lead time). */
export function upcomingDates(timezone: string, days: number): string[] {
  const today = localDateOf(new Date(), timezone);
  return Array.from({ length: days }, (_, i) => addDays(today, i + 1));
}
