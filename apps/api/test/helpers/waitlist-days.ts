import { sql } from 'drizzle-orm';
import type { Db } from '../../src/db/client';

export interface OneSessionDay {
  locationId: string;
  slotTypeId: string;
  date: string;
  /** The day's one session left on sale; the others are blocked. */
  slotId: string;
}

/**
 * Days of one session type, each with all its sessions but one blocked, so that a single hold
 * sells the day out (the waitlist's starting point). Whole days after `fromDays` days from now: a
 * day cut at that instant would keep earlier sessions free, and joining its waitlist is refused.
 */
export async function oneSessionDays(
  db: Db,
  count: number,
  opts: { slug?: string; fromDays?: number; sessions?: number } = {},
): Promise<OneSessionDay[]> {
  const rows = await db.execute(sql`
    select s.location_id, s.slot_type_id, to_char(s.start_at at time zone l.timezone, 'YYYY-MM-DD') as day,
      array_agg(s.id::text order by s.start_at) as ids
    from slots s join locations l on l.id = s.location_id join slot_types t on t.id = s.slot_type_id
    where t.slug = ${opts.slug ?? 'sensory'} and s.kind = 'session' and not s.blocked
      and (s.start_at at time zone l.timezone)::date > ((now() + make_interval(days => ${opts.fromDays ?? 3})) at time
      zone l.timezone)::date
    group by 1, 2, 3 order by 3, 1 limit ${count}`);
  const keep = opts.sessions ?? 1;
  const days: OneSessionDay[] = [];
  for (const r of rows.rows) {
    const ids = r.ids as string[];
    const rest = ids.slice(keep);
    if (rest.length) await db.execute(sql`update slots set blocked = true where id = any(${sql.param(rest)}::uuid[])`);
    days.push({
      locationId: r.location_id as string,
      slotTypeId: r.slot_type_id as string,
      date: r.day as string,
      slotId: ids[0]!,
    });
  }
  if (days.length < count) throw new Error(`only ${days.length} days found`);
  return days;
}
