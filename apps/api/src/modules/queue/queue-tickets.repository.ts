import { sql } from 'drizzle-orm';
import type { QueueWants } from '@kringle/contracts/queue';
import type { Reservation } from '@kringle/contracts/reservations';
import type { DbOrTx } from '../../db/client';
import { date } from './queue.repository';

/** A family's ticket as read (its place counted in the line's order, decision 0117) and what it will book. */
export interface TicketRow {
  id: string;
  userId: string;
  status: 'waiting' | 'admitted' | 'closed' | 'lapsed';
  /** The place in the line, counted in its order (decision 0117); null until the draw and until placed. */
  position: number | null;
  admittedUntil: Date | null;
  ahead: number;
  wants: QueueWants | null;
  /** Admitted: the family's live hold or unpaid checkout at the location made since its admission. */
  reservation: Reservation | null;
}

/** The wants a ticket keeps (null: none, or no ticket). */
export async function ticketWants(db: DbOrTx, locationId: string, userId: string): Promise<QueueWants | null> {
  const { rows } = await db.execute(sql`
    select wants from queue_tickets where location_id = ${locationId}::uuid and user_id = ${userId}::uuid`);
  return (rows[0]?.wants as QueueWants | null | undefined) ?? null;
}

/** An admitted ticket's hold since its admission (issue 55): joined laterally as `h`, for admitted tickets only. */
const heldSinceAdmission = (now: Date) => sql`left join lateral (
    select r.id as h_id, r.slot_id as h_slot_id, r.status as h_status, r.expires_at as h_expires_at,
      r.refreshes_left as h_refreshes_left, r.booking_id as h_booking_id
    from reservations r
    where t.status = 'admitted' and r.user_id = t.user_id and r.location_id = t.location_id
      and r.created_at >= t.admitted_at and r.status in ('active', 'checked_out')
      and r.expires_at > ${now.toISOString()}::timestamptz
    order by r.created_at desc limit 1) h on true`;

/**
 * A ticket's place and the families still waiting ahead of it, counted in one pass over the
 * tickets before it in the line's order (queue_tickets_order_idx); none before the draw, when
 * nobody may see them, nor for a ticket not placed yet.
 */
const placeOf = sql`left join lateral (
    select q.drawn_at is not null as drawn from queue_lines q where q.location_id = t.location_id) d on true
  left join lateral (
    select count(*)::int as before, (count(*) filter (where a.status = 'waiting'))::int as ahead
    from queue_tickets a
    where a.location_id = t.location_id and a.line_key < t.line_key and d.drawn) c on t.line_key is not null`;

const ticketColumns = sql`t.id, t.user_id, t.status, t.admitted_until, t.wants, h.*,
  case when d.drawn and t.line_key is not null then c.before + 1 end as position,
  case when d.drawn and t.line_key is not null then c.ahead end as ahead`;

function toTicket(r: Record<string, unknown>, locationId: string): TicketRow {
  return {
    id: r.id as string,
    userId: r.user_id as string,
    status: r.status as TicketRow['status'],
    position: (r.position as number | null) ?? null,
    admittedUntil: date(r.admitted_until),
    ahead: (r.ahead as number | null) ?? 0,
    wants: (r.wants as QueueWants | null) ?? null,
    reservation: r.h_id
      ? {
          id: r.h_id as string,
          slotId: r.h_slot_id as string,
          locationId,
          status: r.h_status as Reservation['status'],
          expiresAt: date(r.h_expires_at)!.toISOString(),
          refreshesLeft: r.h_refreshes_left as number,
          bookingId: (r.h_booking_id as string | null) ?? null,
        }
      : null,
  };
}

export async function findTicket(
  db: DbOrTx,
  locationId: string,
  userId: string,
  now: Date,
): Promise<TicketRow | undefined> {
  const { rows } = await db.execute(
    sql`select ${ticketColumns} from queue_tickets t ${placeOf} ${heldSinceAdmission(now)}
    where t.location_id = ${locationId}::uuid and t.user_id = ${userId}::uuid`,
  );
  return rows[0] ? toTicket(rows[0], locationId) : undefined;
}

/**
 * The tickets of `userIds` with their places and how many wait ahead of each (for the live
 * streams): one pass over the line in its order (queue_tickets_order_idx, no sort), the rows and
 * their holds only for those asked.
 */
export async function watchedTickets(
  db: DbOrTx,
  locationId: string,
  now: Date,
  userIds: string[],
): Promise<TicketRow[]> {
  const { rows } = await db.execute(sql`
    with ranked as (
      select a.user_id, a.status, (count(*) over w)::int as position,
        (count(*) filter (where a.status = 'waiting') over w)::int as waiting_to_here
      from queue_tickets a
      where a.location_id = ${locationId}::uuid and a.line_key is not null
        and (select q.drawn_at is not null from queue_lines q where q.location_id = ${locationId}::uuid)
      window w as (order by a.line_key rows between unbounded preceding and current row))
    select t.id, t.user_id, t.status, t.admitted_until, t.wants, p.position,
      p.waiting_to_here - (p.status = 'waiting')::int as ahead, h.*
    from queue_tickets t left join ranked p on p.user_id = t.user_id
    ${heldSinceAdmission(now)}
    where t.location_id = ${locationId}::uuid and t.user_id = any(${`{${userIds.join(',')}}`}::uuid[])`);
  return rows.map((r) => toTicket(r, locationId));
}

/**
 * What the family will book (issue 55): set or changed while its ticket waits; once admitted it
 * stays as it was (the admission holds by it). Returns whether it was written.
 */
export async function setWants(
  db: DbOrTx,
  args: { locationId: string; userId: string; wants: QueueWants; holdAddress: string | null },
): Promise<boolean> {
  const { locationId, userId } = args;
  const { rows } = await db.execute(sql`
    update queue_tickets set wants = ${JSON.stringify(args.wants)}::jsonb, wants_address = ${args.holdAddress}
    where location_id = ${locationId}::uuid and user_id = ${userId}::uuid and status = 'waiting'
    returning 1`);
  return rows.length > 0;
}
