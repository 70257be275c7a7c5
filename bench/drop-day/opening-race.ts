import { sql } from 'drizzle-orm';
import type { Db } from '../../apps/api/src/db/client';
import type { RaceRound } from './drop-day.budgets';
import { runLoad, type LoadRequest } from './load-generator';
import { countRaceHolds, resetRaceSlots } from './seed-data';

/** How far ahead the opening is set: long enough for the load generator to start and warm up. */
const LEAD_MS = 6_000;

export interface OpeningRace extends RaceRound {
  /** The answer to one attempt a moment before the opening (must be 409 SALES_NOT_OPEN). */
  beforeOpening: { status: number; code: string | undefined };
}

/**
 * Issue 14: the race sessions' locations open LEAD_MS from now (salesOpenAt, as a season file
 * sets it), one attempt just before the instant proves the gate is shut, and every racing
 * attempt is sent from the instant on (the load generator waits for it after its warm-up).
 * The same exactly-N check as the plain race applies. The opening is cleared afterwards.
 */
export async function runOpeningRace(args: {
  db: Db;
  url: string;
  requests: LoadRequest[];
  connections: number;
  cpuPids: number[];
  tmp: string;
  warmUpPath: string;
}): Promise<OpeningRace> {
  const { db } = args;
  await resetRaceSlots(db);
  const locations = sql`(select distinct s.location_id from slots s join bench_race_slots r on r.slot_id = s.id)`;
  const opened = await db.execute(sql`
    update locations set sales_open_at = now() + make_interval(secs => ${LEAD_MS / 1000})
    where id in ${locations} returning extract(epoch from sales_open_at) * 1000 as at`);
  const opensAt = Math.round(Number(opened.rows[0]!.at));
  try {
    const first = args.requests[0]!;
    const early = await fetch(args.url + first.path, {
      method: first.method,
      headers: { ...first.headers, 'content-type': 'application/json' },
      body: first.body,
    });
    const beforeOpening = { status: early.status, code: ((await early.json()) as { code?: string }).code };
    const race = await runLoad(
      {
        url: args.url,
        connections: args.connections,
        amount: args.requests.length,
        requests: args.requests,
        warmUpPath: args.warmUpPath,
        cpuPids: args.cpuPids,
        startAt: opensAt,
      },
      args.tmp,
    );
    return {
      ...race,
      granted: race.statusCodes['201'] ?? 0,
      holdQueries: 0,
      database: await countRaceHolds(db),
      beforeOpening,
    };
  } finally {
    await db.execute(sql`update locations set sales_open_at = null where id in ${locations}`);
  }
}
