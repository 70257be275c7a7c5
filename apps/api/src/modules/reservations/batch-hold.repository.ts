import type pg from 'pg';
import { noOneWaitingFor } from './waitlist-guard';
import type { HoldTargetRow, QuickHoldArgs, QuickHoldOutcome } from './reservations.repository';

export interface BatchHoldOutcome extends QuickHoldOutcome {
  /** The customer already has a live hold: nothing was tried for them (the general path decides). */
  hasLiveHold: boolean;
}

/**
 * Several customers' holds in one statement (hold-batcher.ts): the same checks and the same claim
 * as quickHold, row by row, with one round trip and one commit for all. Sessions are locked in id
 * order with SKIP LOCKED, so two batches never wait on each other (no deadlock): a session another
 * transaction is writing at that instant is simply not claimed here (answered as taken). Requests
 * must be for distinct sessions and distinct customers.
 */
export async function batchHold(pool: Pick<pg.Pool, 'query'>, requests: QuickHoldArgs[]): Promise<BatchHoldOutcome[]> {
  const result = await pool.query<HoldTargetRow & { held: boolean; has_live_hold: boolean }>({
    name: 'kringle-batch-hold',
    text: BATCH_HOLD_SQL,
    values: [
      requests.map((r) => r.reservationId),
      requests.map((r) => r.userId),
      requests.map((r) => r.slotId),
      requests.map((r) => r.expiresAt),
      requests.map((r) => r.now),
      requests.map((r) => r.leadCutoff),
      requests[0]!.bookingLimit,
      requests[0]!.refreshesLeft,
    ],
  });
  return result.rows.map((row) => ({
    slotLocationId: row.location_id,
    upcomingBookings: row.upcoming,
    heldByMe: row.held_by_me,
    held: row.held,
    hasLiveHold: row.has_live_hold,
    takenBefore: row.taken_before ? { holderId: row.holder_id, holdExpiresAt: row.hold_expires_at } : null,
    notOpen: row.not_open,
  }));
}

/** Arrays, one entry per request: $1 reservation id, $2 user, $3 slot, $4 expires at, $5 now, $6 lead cutoff; $7 booking limit, $8 refreshes. */
const BATCH_HOLD_SQL = `
  with req as (
    select * from unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::timestamptz[], $5::timestamptz[], $6::timestamptz[])
      with ordinality as r(reservation_id, user_id, slot_id, expires_at, now, lead_cutoff, ord)
  ), upcoming as (
    select r.ord, (
      select count(*)::int from bookings b join slots s on s.id = b.slot_id
      where b.user_id = r.user_id and b.status in ('payment_pending', 'completed') and s.start_at > r.now
    ) as n
    from req r
  ), live as (
    select r.ord from req r where exists (select 1 from reservations x where x.user_id = r.user_id and x.status = 'active' and x.waitlist_entry_id is null)
  ), target as (
    select r.ord, s.location_id, coalesce(h.user_id = r.user_id, false) as held_by_me,
      (s.kind <> 'session' or s.blocked or s.booking_id is not null or s.start_at < r.lead_cutoff
        or coalesce(s.hold_expires_at > r.now, false)) as taken_before,
      case when s.hold_expires_at > r.now then h.user_id end as holder_id,
      case when s.hold_expires_at > r.now then s.hold_expires_at end as hold_expires_at,
      coalesce(l.sales_open_at > r.now, false) as not_open
    from req r
      left join slots s on s.id = r.slot_id
      left join locations l on l.id = s.location_id
      left join reservations h on h.id = s.hold_reservation_id and h.status = 'active'
  ), locked as (
    select s.id from slots s join req r on r.slot_id = s.id join upcoming u on u.ord = r.ord
    where r.ord not in (select ord from live) and u.n < $7::int
      and s.kind = 'session' and not s.blocked and s.booking_id is null and s.start_at >= r.lead_cutoff
      and (s.hold_expires_at is null or s.hold_expires_at <= r.now)
      and not exists (select 1 from locations l where l.id = s.location_id and l.sales_open_at > r.now)
      and ${noOneWaitingFor('s')}
    order by s.id
    for update of s skip locked
  ), claimed as (
    update slots s set hold_reservation_id = r.reservation_id, hold_expires_at = r.expires_at
    from req r
    where s.id = r.slot_id and s.id in (select id from locked)
    returning r.ord, r.reservation_id, r.user_id, s.id as slot_id, s.location_id, r.expires_at, r.now
  ), inserted as (
    insert into reservations (id, user_id, slot_id, location_id, status, expires_at, refreshes_left, booking_id, created_at, updated_at)
    select c.reservation_id, c.user_id, c.slot_id, c.location_id, 'active', c.expires_at, $8::int, null, c.now, c.now
    from claimed c
    returning id
  )
  select u.n as upcoming, c.ord is not null as held, l.ord is not null as has_live_hold, t.location_id,
    coalesce(t.held_by_me, false) as held_by_me, coalesce(t.taken_before, false) as taken_before, t.holder_id, t.hold_expires_at,
    coalesce(t.not_open, false) as not_open
  from req r
    join upcoming u on u.ord = r.ord
    left join target t on t.ord = r.ord
    left join claimed c on c.ord = r.ord
    left join live l on l.ord = r.ord
  order by r.ord`;
