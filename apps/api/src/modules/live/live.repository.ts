import { sql } from 'drizzle-orm';
import { LIVE_WINDOW_MINUTES, type LiveLocation } from '@kringle/contracts/live';
import type { DbOrTx } from '../../db/client';
import { instant, sessionFree, sessionHeld } from '../sessions/session-rules.sql';

/** The audit trail's actions that are a payment taken, and a card payment refused (transition-table.ts). */
const PAID_ACTIONS = ['confirmPaid', 'payPhotoOrder', 'sellWalkIn'];
const FAILED_ACTIONS = ['failPayment', 'failPhotoOrder'];

/**
 * Every location's figures now, in one statement (decision 0094). Today is each location's own
 * local day. A session counts once: sold (its booking paid), else held (a live hold), else closed
 * (out of sale), else free while it is not over; a session that ended unsold counts nowhere. The
 * line's figures are the waiting room's (queue.repository.ts lineCounts): admitted is a family let
 * in whose admission runs, or who holds a session since. Payments come from the audit trail, which
 * records each outcome at its instant in the change's own transaction: an order keeps only its
 * last state and no time of a failure. Reads slots_location_start_idx, queue_tickets_line_idx and
 * audit_entries_at_idx (5 minutes of entries).
 */
export async function liveFigures(db: DbOrTx, now: Date): Promise<LiveLocation[]> {
  const n = instant(now);
  const held = sql.raw(sessionHeld('s', n));
  const free = sql.raw(sessionFree('s', n));
  const { rows } = await db.execute(sql`
    with days as (
      select l.id, l.name, l.sort_order,
        (date_trunc('day', ${sql.raw(n)} at time zone l.timezone) at time zone l.timezone) as from_at,
        ((date_trunc('day', ${sql.raw(n)} at time zone l.timezone) + interval '1 day') at time zone l.timezone) as to_at
      from locations l
    ), payments as (
      select b.location_id,
        count(*) filter (where a.action = any(${sql.param(PAID_ACTIONS)}::text[]))::int as paid,
        count(*) filter (where a.action = any(${sql.param(FAILED_ACTIONS)}::text[]))::int as failed
      from audit_entries a join bookings b on b.id = a.booking_id
      where a.at > ${sql.raw(n)} - make_interval(mins => ${LIVE_WINDOW_MINUTES}) and a.at <= ${sql.raw(n)}
        and a.action = any(${sql.param([...PAID_ACTIONS, ...FAILED_ACTIONS])}::text[])
      group by 1
    )
    select d.id, d.name, x.sold, x.held, x.free, x.closed, q.waiting, q.admitted,
      coalesce(p.paid, 0) as paid, coalesce(p.failed, 0) as failed
    from days d
    cross join lateral (
      select count(*) filter (where s.booking_id is not null)::int as sold,
        count(*) filter (where ${held})::int as held,
        count(*) filter (where ${free} and s.end_at > ${sql.raw(n)})::int as free,
        count(*) filter (where s.blocked and s.booking_id is null and not coalesce(${held}, false))::int as closed
      from slots s
      where s.location_id = d.id and s.kind = 'session' and s.start_at >= d.from_at and s.start_at < d.to_at
    ) x
    cross join lateral (
      select count(*) filter (where t.status = 'waiting')::int as waiting,
        count(*) filter (where t.status = 'admitted' and (t.admitted_until > ${sql.raw(n)} or exists (
          select 1 from reservations r where r.user_id = t.user_id and r.location_id = t.location_id
            and r.status in ('active', 'checked_out') and r.expires_at > ${sql.raw(n)})))::int as admitted
      from queue_tickets t where t.location_id = d.id and t.status in ('waiting', 'admitted')
    ) q
    left join payments p on p.location_id = d.id
    order by d.sort_order, d.name`);
  return rows.map((r) => ({
    id: r.id as string,
    name: r.name as string,
    sold: r.sold as number,
    held: r.held as number,
    free: r.free as number,
    closed: r.closed as number,
    line: { waiting: r.waiting as number, admitted: r.admitted as number },
    paymentsLast5Min: r.paid as number,
    failedPaymentsLast5Min: r.failed as number,
  }));
}
