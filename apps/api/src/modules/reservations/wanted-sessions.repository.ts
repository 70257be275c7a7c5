import { sql } from 'drizzle-orm';
import type { QueueWants } from '@kringle/contracts/queue';
import type { DbOrTx } from '../../db/client';
import { claimableOnline, instant } from '../sessions/session-rules.sql';

/**
 * The sessions a family's `wants` match that it could hold now (issue 55), earliest first: its
 * session type, and the day and window in the location's own clock when given. `excluded` are
 * sessions it already tried (taken meanwhile by a family in another process).
 */
export async function wantedSessions(
  db: DbOrTx,
  args: { locationId: string; wants: QueueWants; now: Date; leadCutoff: Date; excluded: string[]; limit: number },
): Promise<string[]> {
  const { wants } = args;
  const local = sql`(s.start_at at time zone l.timezone)`;
  const { rows } = await db.execute(sql`
    select s.id from slots s join locations l on l.id = s.location_id
    where s.location_id = ${args.locationId}::uuid and s.slot_type_id = ${wants.slotTypeId}::uuid
      and ${sql.raw(claimableOnline('s', instant(args.now), instant(args.leadCutoff)))}
      and (${wants.date ?? null}::date is null or ${local}::date = ${wants.date ?? null}::date)
      and (${wants.from ?? null}::time is null or ${local}::time >= ${wants.from ?? null}::time)
      and (${wants.to ?? null}::time is null or ${local}::time < ${wants.to ?? null}::time)
      and s.id <> all(${`{${args.excluded.join(',')}}`}::uuid[])
    order by s.start_at, s.id limit ${args.limit}`);
  return rows.map((r) => r.id as string);
}
