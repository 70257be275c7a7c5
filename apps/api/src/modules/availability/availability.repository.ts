import { sql } from 'drizzle-orm';
import type { SlotStatus } from '@kringle/contracts/statuses';
import type { DbOrTx } from '../../db/client';
import { holdableSession, instant, sessionStatus } from '../sessions/session-rules.sql';

export interface SlotRow {
  id: string;
  slotTypeId: string;
  locationId: string;
  kind: 'session' | 'break';
  startAt: Date;
  endAt: Date;
  status: SlotStatus;
}

/**
 * A slot's status (sessionStatus in sessions/session-rules.sql.ts), derived at read time so an
 * expired hold is free the moment it expires. Needs the location as `l`.
 */
export const slotStatusSql = (now: Date, leadCutoff: Date) =>
  sql.raw(sessionStatus('s', 'l', instant(now), instant(leadCutoff)));

const toRow = (r: Record<string, unknown>): SlotRow => ({
  id: r.id as string,
  slotTypeId: r.slot_type_id as string,
  locationId: r.location_id as string,
  kind: r.kind as SlotRow['kind'],
  startAt: new Date(r.start_at as string),
  endAt: new Date(r.end_at as string),
  status: r.status as SlotStatus,
});

export async function slotsBetween(
  db: DbOrTx,
  args: {
    locationId: string;
    from: Date;
    to: Date;
    slotTypeId?: string;
    onlyBreaks: boolean;
    now: Date;
    leadCutoff: Date;
  },
): Promise<SlotRow[]> {
  const result = await db.execute(sql`
    select s.id, s.slot_type_id, s.location_id, s.kind, s.start_at, s.end_at,
    ${slotStatusSql(args.now, args.leadCutoff)} as status
    from slots s join locations l on l.id = s.location_id
    where s.location_id = ${args.locationId}::uuid
      and s.start_at >= ${args.from.toISOString()}::timestamptz and s.start_at < ${args.to.toISOString()}::timestamptz
      ${args.slotTypeId ? sql`and s.slot_type_id = ${args.slotTypeId}::uuid` : sql``}
      ${args.onlyBreaks ? sql`and s.kind = 'break'` : sql``}
    order by s.start_at, s.kind`);
  return result.rows.map(toRow);
}

export async function findSlot(
  db: DbOrTx,
  args: { slotId: string; now: Date; leadCutoff: Date },
): Promise<(SlotRow & { salesOpenAt: Date | null }) | undefined> {
  const result = await db.execute(sql`
    select s.id, s.slot_type_id, s.location_id, s.kind, s.start_at, s.end_at,
    ${slotStatusSql(args.now, args.leadCutoff)} as status, l.sales_open_at
    from slots s join locations l on l.id = s.location_id where s.id = ${args.slotId}::uuid`);
  const row = result.rows[0];
  return row
    ? { ...toRow(row), salesOpenAt: row.sales_open_at ? new Date(row.sales_open_at as string) : null }
    : undefined;
}

/**
 * Per local date of the location, over [from, to): sessions still to come (not blocked, after the
 * lead time) and how many of them are bookable. N sessions with 0 bookable is a fully booked day,
 * 0 sessions a closed one. One pass over the same rows as before: no extra work per request.
 */
export async function availableCountsByDate(
  db: DbOrTx,
  args: { locationId: string; slotTypeId: string; timezone: string; from: Date; to: Date; now: Date; leadCutoff: Date },
): Promise<Map<string, { available: number; sessions: number }>> {
  const result = await db.execute(sql`
    select to_char(s.start_at at time zone ${args.timezone}, 'YYYY-MM-DD') as day, count(*)::int as sessions,
      (count(*) filter (where ${sql.raw(holdableSession('s', instant(args.now), instant(args.leadCutoff)))}))::int as
      available
    from slots s
    where s.location_id = ${args.locationId}::uuid and s.slot_type_id = ${args.slotTypeId}::uuid
      and s.kind = 'session' and not s.blocked
      and s.start_at >= greatest(${args.from.toISOString()}::timestamptz, ${args.leadCutoff.toISOString()}::timestamptz)
      and s.start_at < ${args.to.toISOString()}::timestamptz
    group by 1`);
  return new Map(
    result.rows.map((r) => [r.day as string, { available: r.available as number, sessions: r.sessions as number }]),
  );
}
