import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';

/** The figures of a drop's public report (issue 55), read from the tickets and the holds they led to. */
export async function reportFigures(db: DbOrTx, locationId: string) {
  const byMinute = await db.execute(sql`
    select to_char(t.admitted_at at time zone l.timezone, 'YYYY-MM-DD"T"HH24:MI') as minute, count(*)::int as admitted
    from queue_tickets t join locations l on l.id = t.location_id
    where t.location_id = ${locationId}::uuid and t.admitted_at is not null
    group by 1 order by 1`);
  // From each admission to the family's first hold at the location after it.
  const held = await db.execute(sql`
    select percentile_cont(0.5) within group (order by h.seconds) as p50,
      percentile_cont(0.95) within group (order by h.seconds) as p95
    from queue_tickets t
    cross join lateral (
      select extract(epoch from min(r.created_at) - t.admitted_at)::float8 as seconds from reservations r
      where r.user_id = t.user_id and r.location_id = t.location_id and r.created_at >= t.admitted_at
    ) h
    where t.location_id = ${locationId}::uuid and t.admitted_at is not null and h.seconds is not null`);
  const line = await db.execute(sql`select sold_out_at from queue_lines where location_id = ${locationId}::uuid`);
  const round = (v: unknown) => (v === null || v === undefined ? null : Math.round(Number(v) * 10) / 10);
  const soldOut = line.rows[0]?.sold_out_at;
  return {
    admittedByMinute: byMinute.rows.map((r) => ({ minute: r.minute as string, admitted: r.admitted as number })),
    heldWithinSeconds: { p50: round(held.rows[0]?.p50), p95: round(held.rows[0]?.p95) },
    soldOutAt: soldOut ? new Date(soldOut as string) : null,
  };
}
