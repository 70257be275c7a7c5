import { sql } from 'drizzle-orm';
import type { QueueWants } from '@kringle/contracts/queue';
import type { DbOrTx } from '../../db/client';
import { claimableOnline, instant } from '../sessions/session-rules.sql';

/** A session a family could hold now, with its type and its start in the location's own clock. */
export interface FreeSession {
  id: string;
  slotTypeId: string;
  /** YYYY-MM-DD and HH:mm, local to the location. */
  date: string;
  time: string;
}

/** Whether a free session is one the family's `wants` ask for (type, and the day and window when given). */
export const matchesWants = (s: FreeSession, wants: QueueWants): boolean =>
  s.slotTypeId === wants.slotTypeId &&
  (!wants.date || s.date === wants.date) &&
  (!wants.from || s.time >= wants.from) &&
  (!wants.to || s.time < wants.to);

/**
 * Every session of the location a family could hold now, earliest first (issue 55): one read for a
 * whole admission, matched to each family's `wants` in line order (wanted-holds.service.ts).
 */
export async function freeSessionsAt(
  db: DbOrTx,
  args: { locationId: string; now: Date; leadCutoff: Date },
): Promise<FreeSession[]> {
  const { rows } = await db.execute(sql`
    select s.id, s.slot_type_id, to_char(s.start_at at time zone l.timezone, 'YYYY-MM-DD') as date,
      to_char(s.start_at at time zone l.timezone, 'HH24:MI') as time
    from slots s join locations l on l.id = s.location_id
    where s.location_id = ${args.locationId}::uuid
      and ${sql.raw(claimableOnline('s', instant(args.now), instant(args.leadCutoff)))}
    order by s.start_at, s.id`);
  return rows.map((r) => ({
    id: r.id as string,
    slotTypeId: r.slot_type_id as string,
    date: r.date as string,
    time: r.time as string,
  }));
}
