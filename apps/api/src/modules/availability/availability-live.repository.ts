import { sql } from 'drizzle-orm';
import type { SlotStatus } from '@kringle/contracts/statuses';
import type { DbOrTx } from '../../db/client';
import { slotStatusSql } from './availability.repository';
import type { SlotNow } from './slot-feed';

/** Where the given slots are (location, local day) and their status now: one query for a batch of changes. */
export async function slotsNow(
  db: DbOrTx,
  args: { slotIds: string[]; now: Date; leadCutoff: Date },
): Promise<SlotNow[]> {
  if (!args.slotIds.length) return [];
  const result = await db.execute(sql`
    select s.id, s.location_id, to_char(s.start_at at time zone l.timezone, 'YYYY-MM-DD') as day,
    ${slotStatusSql(args.now, args.leadCutoff)} as status
    from slots s join locations l on l.id = s.location_id
    where s.id = any(${`{${args.slotIds.join(',')}}`}::uuid[])`);
  return result.rows.map((r) => ({
    slotId: r.id as string,
    locationId: r.location_id as string,
    date: r.day as string,
    status: r.status as SlotStatus,
  }));
}
