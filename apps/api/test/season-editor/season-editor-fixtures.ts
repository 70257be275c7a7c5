import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import type { Db } from '../../src/db/client';
import { ManualClock } from '../../src/lib/clock';
import { demoSeason } from '../../src/modules/catalogue/demo-season';
import { loadSeason } from '../../src/modules/catalogue/season.service';
import { createPerson, headersOf, type Person } from '../staff/staff-fixtures';
import { createTestApp, type TestApp } from '../helpers/test-app';

/** A Tuesday, 11:00 in Sydney: the demo season's 14 days run 1 to 14 December, Thursdays 3 and 10. */
export const NOW = new Date('2026-12-01T00:00:00Z');
export const SYDNEY = 'sydney-pitt-street';

export type SeasonFile = ReturnType<typeof demoSeason>;
export const demoFile = (): SeasonFile => structuredClone(demoSeason(NOW, { days: 14 }));

/** The demo file with Sydney's everyday standard hours (every day but Thursday) replaced. */
export function withSydneyHours(hours: string): SeasonFile {
  const file = demoFile();
  const sydney = file.locations.find((l) => l.slug === SYDNEY)!;
  sydney.sessions = sydney.sessions.map((s) =>
    s.slotType === 'standard' && !s.days.includes('thu') ? { ...s, hours } : s,
  );
  return file;
}

export interface EditorWorld {
  t: TestApp;
  manager: Person;
  call(
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    opts?: { payload?: unknown; ifMatch?: string; who?: Person },
  ): Promise<LightMyRequestResponse>;
}

/** An app on a still clock with the demo season loaded (version 1) and a manager with a second factor. */
export async function editorWorld(): Promise<EditorWorld> {
  const t = await createTestApp({}, new ManualClock(NOW));
  await loadSeason(t.db, demoFile(), NOW);
  const manager = await createPerson(
    t.db,
    true,
    { firstName: 'Mary', lastName: 'Boss' },
    { role: 'manager', mfaEnrolled: true },
  );
  return {
    t,
    manager,
    call: async (method, url, opts = {}) =>
      t.app.inject({
        method,
        url: `/api/v1${url}`,
        headers: {
          ...(await headersOf(t.app.idTokens, opts.who ?? manager)),
          ...(opts.ifMatch ? { 'if-match': opts.ifMatch } : {}),
        },
        ...(opts.payload === undefined ? {} : { payload: opts.payload as object }),
      }),
  };
}

/** Everything a season save may write, as one digest: equal before and after means nothing changed. */
export async function catalogueChecksum(db: Db): Promise<string> {
  const tables = [
    'slots',
    'locations',
    'slot_types',
    'packages',
    'add_ons',
    'reservations',
    'bookings',
    'season_versions',
  ];
  const parts = tables.map(
    (name) => sql`coalesce((select string_agg(t::text, ',' order by t::text) from ${sql.identifier(name)} t), '')`,
  );
  const result = await db.execute(sql`select md5(${sql.join(parts, sql` || '|' || `)}) as digest`);
  return result.rows[0]!.digest as string;
}

/** Sydney's future standard sessions on days other than Thursday that start at or after a local time. */
export async function sydneyEverydaySessionsFrom(db: Db, localTime: string): Promise<number> {
  const result = await db.execute(sql`
    select count(*)::int as n from slots s join locations l on l.id = s.location_id join slot_types t on t.id =
    s.slot_type_id
    where l.slug = ${SYDNEY} and t.slug = 'standard' and s.kind = 'session' and s.start_at >=
    ${NOW.toISOString()}::timestamptz
      and extract(isodow from s.start_at at time zone 'Australia/Sydney') <> 4
      and to_char(s.start_at at time zone 'Australia/Sydney', 'HH24:MI') >= ${localTime}`);
  return result.rows[0]!.n as number;
}

/** A future Sydney standard session starting at a local time on a given local day. */
export async function sydneySessionAt(db: Db, day: string, time: string): Promise<string> {
  const result = await db.execute(sql`
    select s.id from slots s join locations l on l.id = s.location_id join slot_types t on t.id = s.slot_type_id
    where l.slug = ${SYDNEY} and t.slug = 'standard' and s.kind = 'session'
      and to_char(s.start_at at time zone 'Australia/Sydney', 'YYYY-MM-DD HH24:MI') = ${`${day} ${time}`}`);
  return result.rows[0]!.id as string;
}
