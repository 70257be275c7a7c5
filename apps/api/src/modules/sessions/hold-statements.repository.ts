import type pg from 'pg';
import type { AuditAction } from '@kringle/contracts/audit-actions';
import {
  addressHoldsOn,
  churnReleaseOf,
  claimableOnline,
  familyHoldsOrPays,
  freeAhead,
  heldNow,
  upcomingBookingsOf,
} from './session-rules.sql';
import { statusAfter } from './session-table';

/**
 * The drop-day hold statements (decisions 0014, 0015): one round trip per racer (quickHold) or per
 * batch of racers (batchHold), each the booking-limit count, the claim of the slot row and the
 * reservation insert in one statement. The claim is session-rules.sql.ts's, as every other hold's.
 */

export interface QuickHoldArgs {
  reservationId: string;
  userId: string;
  slotId: string;
  expiresAt: Date;
  refreshesLeft: number;
  now: Date;
  leadCutoff: Date;
  bookingLimit: number;
  /** The churn cool-down's settings (decision 0059): HOLD_COOLDOWN_RELEASES, HOLD_COOLDOWN_WINDOW_MINUTES. */
  cooldownReleases: number;
  cooldownWindowMinutes: number;
  /**
   * Where the hold is asked from (hold-address.ts), or null; with HOLD_ADDRESS_LIMIT in force (0: none; decision 0069).
   */
  address: string | null;
  addressLimit: number;
}

/** What a hold statement reads about the session and the customer (quickHold, batchHold). */
export interface HoldTargetRow {
  upcoming: number;
  location_id: string | null;
  held_by_me: boolean;
  taken_before: boolean;
  holder_id: string | null;
  hold_expires_at: Date | null;
  /** The location's bookings open after the statement's now: nothing was claimed (not "taken"). */
  not_open: boolean;
  blocked: boolean;
  address_full_until: Date | null;
}

export interface QuickHoldOutcome {
  /** Null when the slot does not exist. */
  slotLocationId: string | null;
  upcomingBookings: number;
  /** The slot is held by this customer's own live reservation (re-picking the same session). */
  heldByMe: boolean;
  held: boolean;
  /**
   * Already taken when the statement began (booked, blocked, too soon or held by a live hold), as
   * opposed to lost to a racer that committed meanwhile; with the live hold's holder and end.
   */
  takenBefore: { holderId: string | null; holdExpiresAt: Date | null } | null;
  /** The location's bookings were not open yet at the statement's now. */
  notOpen: boolean;
  /**
   * Nothing was tried: the family already has a hold or an unpaid checkout, or is cooling down
   * after a churn of releases (decision 0059). The general path decides what to answer.
   */
  blocked: boolean;
  /**
   * Nothing was tried: the address already holds HOLD_ADDRESS_LIMIT sessions of this location's
   * day (decision 0069); when the first of them ends.
   */
  addressFullUntil: Date | null;
}

const outcomeOf = (row: HoldTargetRow, held: boolean): QuickHoldOutcome => ({
  slotLocationId: row.location_id,
  upcomingBookings: row.upcoming,
  heldByMe: row.held_by_me,
  held,
  takenBefore: row.taken_before ? { holderId: row.holder_id, holdExpiresAt: row.hold_expires_at } : null,
  notOpen: row.not_open,
  blocked: row.blocked,
  addressFullUntil: row.address_full_until,
});

/**
 * The hold's audit entry (decision 0062), written by the hold's own statement from its `claimed`
 * rows (slot_id, reservation_id, user_id, expires_at, now): one more row inserted in the same
 * statement and commit, no extra round trip on the drop-day path.
 */
const TAKE_HOLD: AuditAction = 'takeHold';
const AUDIT_TAKEN = `
    insert into audit_entries (at, actor_kind, actor_id, actor_email, action, slot_id, before, after)
    select c.now, 'family', c.user_id, u.email, '${TAKE_HOLD}', c.slot_id, '{"state": "free"}'::jsonb,
      jsonb_build_object('state', 'held', 'reservationId', c.reservation_id, 'holdExpiresAt', c.expires_at)
    from claimed c join users u on u.id = c.user_id`;

/**
 * A customer without a live hold takes a session in one statement, so a drop-day racer costs
 * one round trip whether it wins or loses: the booking-limit count, the claim (the same
 * conditional UPDATE as claimSlot) and the reservation insert. A customer who already has a hold
 * or an unpaid checkout, or is cooling down, is not tried (`blocked`); a racing second hold of
 * the same family makes the insert hit reservations_one_active_per_user (23505): the statement
 * changes nothing and the caller takes the general path, which answers HOLD_LIMIT.
 */
export async function quickHold(pool: Pick<pg.Pool, 'query'>, args: QuickHoldArgs): Promise<QuickHoldOutcome> {
  const result = await pool.query<HoldTargetRow & { held: number }>({
    // Named: each connection parses and plans it once, then only binds values.
    name: 'kringle-quick-hold',
    text: QUICK_HOLD_SQL,
    values: [
      args.userId,
      args.slotId,
      args.reservationId,
      args.expiresAt,
      args.now,
      args.leadCutoff,
      args.bookingLimit,
      args.refreshesLeft,
      args.cooldownReleases,
      args.cooldownWindowMinutes,
      args.address,
      args.addressLimit,
    ],
  });
  const row = result.rows[0]!;
  return outcomeOf(row, row.held === 1);
}

/**
 * $1 user, $2 slot, $3 new reservation id, $4 expires at, $5 now, $6 lead cutoff, $7 booking limit,
 * $8 refreshes, $9 cool-down releases, $10 cool-down window (minutes), $11 address (or null), $12 its
 * cap (0: none). An address at its cap on the session's location and day claims nothing (decision
 * 0069); with no cap or no address the count is never run (a one-time filter).
 */
const QUICK_HOLD_SQL = `
  with upcoming as (
    select ${upcomingBookingsOf('$1::uuid', '$5::timestamptz')} as n
  ), blocked as (
    select ${familyHoldsOrPays('$1::uuid', '$5::timestamptz')}
      or ${churnReleaseOf('$1::uuid', '$5::timestamptz', '$9::int', '$10::int')} is not null as b
  ), target as (
    select s.location_id, coalesce(r.user_id = $1::uuid, false) as held_by_me,
      not (${freeAhead('s', '$5::timestamptz', '$6::timestamptz')}) as taken_before,
      case when ${heldNow('s', '$5::timestamptz')} then r.user_id end as holder_id,
      case when ${heldNow('s', '$5::timestamptz')} then s.hold_expires_at end as hold_expires_at,
      coalesce(l.sales_open_at > $5::timestamptz, false) as not_open,
      (s.start_at at time zone l.timezone)::date as day, l.timezone
    from slots s join locations l on l.id = s.location_id
      left join reservations r on r.id = s.hold_reservation_id and r.status = 'active'
    where s.id = $2::uuid
  ), crowded as (
    select a.first_ends from target t cross join lateral
    ${addressHoldsOn('$11::text', 't.location_id', 't.day', 't.timezone', '$5::timestamptz')} a
    where $12::int > 0 and $11::text is not null and a.n >= $12::int
  ), claimed as (
    update slots s set hold_reservation_id = $3::uuid, hold_expires_at = $4::timestamptz
    where s.id = $2::uuid and (select n from upcoming) < $7::int and not (select b from blocked)
      and not exists (select 1 from crowded)
      and ${claimableOnline('s', '$5::timestamptz', '$6::timestamptz')}
    returning s.id as slot_id, s.location_id, $3::uuid as reservation_id, $1::uuid as user_id, $4::timestamptz as
    expires_at, $5::timestamptz as now
  ), inserted as (
    insert into reservations (id, user_id, slot_id, location_id, status, expires_at, refreshes_left, booking_id,
    created_at, updated_at, hold_address)
    select $3::uuid, $1::uuid, slot_id, location_id,
    '${statusAfter('takeHold')}', $4::timestamptz, $8::int, null, $5::timestamptz, $5::timestamptz, $11::text
    from claimed
    returning id
  ), audited as (${AUDIT_TAKEN})
  select (select n from upcoming) as upcoming, (select count(*)::int from inserted) as held, t.location_id,
    coalesce(t.held_by_me, false) as held_by_me, coalesce(t.taken_before, false) as taken_before, t.holder_id,
    t.hold_expires_at,
    coalesce(t.not_open, false) as not_open, (select b from blocked) as blocked, (select first_ends from crowded) as
    address_full_until
  from (select 1) as one left join target t on true`;

/**
 * Several customers' holds in one statement (hold-batcher.ts): the same checks and the same claim
 * as quickHold, row by row, with one round trip and one commit for all. Sessions are locked in id
 * order with SKIP LOCKED, so two batches never wait on each other (no deadlock): a session another
 * transaction is writing at that instant is simply not claimed here (answered as taken). Requests
 * must be for distinct sessions and distinct customers.
 */
export async function batchHold(pool: Pick<pg.Pool, 'query'>, requests: QuickHoldArgs[]): Promise<QuickHoldOutcome[]> {
  const result = await pool.query<HoldTargetRow & { held: boolean }>({
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
      requests[0]!.cooldownReleases,
      requests[0]!.cooldownWindowMinutes,
      requests.map((r) => r.address),
      requests[0]!.addressLimit,
    ],
  });
  return result.rows.map((row) => outcomeOf(row, row.held));
}

/**
 * Arrays, one entry per request: $1 reservation id, $2 user, $3 slot, $4 expires at, $5 now, $6 lead
 * cutoff; then $7 booking limit, $8 refreshes, $9 cool-down releases, $10 cool-down window (minutes);
 * $11 addresses (an array, entries may be null), $12 their cap (0: none). Requests of one address
 * for one location's day in this batch count against the cap in their order (`ranked`), as if
 * each had already been taken: at the cap's edge a request behind one that then loses its race is
 * refused too (decision 0069).
 */
const BATCH_HOLD_SQL = `
  with req as (
    select * from unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::timestamptz[], $5::timestamptz[], $6::timestamptz[],
    $11::text[])
      with ordinality as r(reservation_id, user_id, slot_id, expires_at, now, lead_cutoff, address, ord)
  ), upcoming as (
    select r.ord, ${upcomingBookingsOf('r.user_id', 'r.now')} as n
    from req r
  ), blocked as (
    select r.ord from req r
    where ${familyHoldsOrPays('r.user_id', 'r.now')} or ${churnReleaseOf('r.user_id', 'r.now', '$9::int', '$10::int')}
    is not null
  ), target as (
    select r.ord, s.location_id, coalesce(h.user_id = r.user_id, false) as held_by_me,
      not (${freeAhead('s', 'r.now', 'r.lead_cutoff')}) as taken_before,
      case when ${heldNow('s', 'r.now')} then h.user_id end as holder_id,
      case when ${heldNow('s', 'r.now')} then s.hold_expires_at end as hold_expires_at,
      coalesce(l.sales_open_at > r.now, false) as not_open,
      (s.start_at at time zone l.timezone)::date as day, l.timezone
    from req r
      left join slots s on s.id = r.slot_id
      left join locations l on l.id = s.location_id
      left join reservations h on h.id = s.hold_reservation_id and h.status = 'active'
  ), ranked as (
    select r.ord, r.address, r.now, r.expires_at, t.location_id, t.day, t.timezone,
      row_number() over (partition by r.address, t.location_id, t.day order by r.ord) as k
    from req r join target t on t.ord = r.ord join upcoming u on u.ord = r.ord
    where $12::int > 0 and r.address is not null and t.location_id is not null
      and r.ord not in (select ord from blocked) and u.n < $7::int
  ), crowded as (
    select k.ord, coalesce(a.first_ends, k.expires_at) as first_ends
    from ranked k cross join lateral ${addressHoldsOn('k.address', 'k.location_id', 'k.day', 'k.timezone', 'k.now')} a
    where a.n + k.k > $12::int
  ), locked as (
    select s.id from slots s join req r on r.slot_id = s.id join upcoming u on u.ord = r.ord
    where r.ord not in (select ord from blocked) and u.n < $7::int and r.ord not in (select ord from crowded)
      and ${claimableOnline('s', 'r.now', 'r.lead_cutoff')}
    order by s.id
    for update of s skip locked
  ), claimed as (
    update slots s set hold_reservation_id = r.reservation_id, hold_expires_at = r.expires_at
    from req r
    where s.id = r.slot_id and s.id in (select id from locked)
    returning r.ord, r.reservation_id, r.user_id, s.id as slot_id, s.location_id, r.expires_at, r.now, r.address
  ), inserted as (
    insert into reservations (id, user_id, slot_id, location_id, status, expires_at, refreshes_left, booking_id,
    created_at, updated_at, hold_address)
    select c.reservation_id, c.user_id, c.slot_id, c.location_id,
    '${statusAfter('takeHold')}', c.expires_at, $8::int, null, c.now, c.now, c.address
    from claimed c
    returning id
  ), audited as (${AUDIT_TAKEN})
  select u.n as upcoming, c.ord is not null as held, b.ord is not null as blocked, t.location_id,
    coalesce(t.held_by_me, false) as held_by_me, coalesce(t.taken_before, false) as taken_before, t.holder_id,
    t.hold_expires_at,
    coalesce(t.not_open, false) as not_open, x.first_ends as address_full_until
  from req r
    join upcoming u on u.ord = r.ord
    left join target t on t.ord = r.ord
    left join claimed c on c.ord = r.ord
    left join blocked b on b.ord = r.ord
    left join crowded x on x.ord = r.ord
  order by r.ord`;
