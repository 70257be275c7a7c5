/**
 * What a session is, written once as SQL text (decision 0089): free, held, booked, on sale,
 * claimable. Every reader and every claim uses these words: the hold statements, availability,
 * the waiting room, the staff run sheet, closures, reports and the waitlist. Each takes the name
 * the statement gives the slots row (`s`) and SQL expressions for the instants, so the drop-day
 * statements (positional parameters) and the Drizzle ones (`sql` templates) use the same words.
 * The instants are always the API's own (never user input).
 */

/**
 * Held right now: a live hold of any kind (a family's, a reschedule's, a waitlist or a closure
 * offer) has the slot row. A hold is over the moment its time runs out, before any sweep writes it
 * (null when no hold: use it where null reads as false).
 */
export const heldNow = (s: string, now: string): string => `${s}.hold_expires_at > ${now}`;

/** No live hold on it: never held, let go, or lapsed. */
const notHeld = (s: string, now: string): string => `(${s}.hold_expires_at is null or ${s}.hold_expires_at <= ${now})`;

/** Under a live hold and not booked: a family choosing or paying (the Live page's "held"). */
export const sessionHeld = (s: string, now: string): string => `${s}.booking_id is null and ${heldNow(s, now)}`;

/** Free of bookings, blocks and live holds: what every claim of a session asks first. */
export const sessionFree = (s: string, now: string): string =>
  `${s}.kind = 'session' and not ${s}.blocked and ${s}.booking_id is null
   and ${notHeld(s, now)}`;

/**
 * Free and far enough ahead (the lead time), on sale yet or not: the stock a fair-start line
 * waits for (queue-admission.repository.ts), counted before the opening too.
 */
export const freeAhead = (s: string, now: string, leadCutoff: string): string =>
  `${sessionFree(s, now)} and ${s}.start_at >= ${leadCutoff}`;

/**
 * A session's status as the family's screens show it (availability): booked > reserved (held
 * now) > unavailable (a break, blocked, within the lead time, or the location `l`'s bookings not
 * open yet) > available.
 */
export const sessionStatus = (s: string, l: string, now: string, leadCutoff: string): string => `
  case
    when ${s}.booking_id is not null then 'booked'
    when ${heldNow(s, now)} then 'reserved'
    when ${s}.kind = 'break' or ${s}.blocked or ${s}.start_at < ${leadCutoff}
      or coalesce(${l}.sales_open_at > ${now}, false) then 'unavailable'
    else 'available'
  end`;

/** The location's bookings are open (decision 0025): checked in the claim itself, so no attempt wins a moment early. */
export const salesOpen = (s: string, now: string): string =>
  `not exists (select 1 from locations so where so.id = ${s}.location_id and so.sales_open_at > ${now})`;

/**
 * The waitlist's guard (decision 0028): a session whose day has a family waiting is not for sale.
 * It goes to the first of them (waitlist.hand-off.ts), so no public hold can take it, whether it was
 * freed a moment ago or its hold merely lapsed without any write. Probes waitlist_line_idx; with
 * nobody waiting on any day (most of the season) it reads one empty index page.
 */
export const noOneWaitingFor = (s: string): string => `not exists (
  select 1 from waitlist_entries w join locations wl on wl.id = w.location_id
  where w.status = 'waiting' and w.location_id = ${s}.location_id and w.slot_type_id = ${s}.slot_type_id
    and w.date = (${s}.start_at at time zone wl.timezone)::date)`;

/** A session anyone could hold now, waitlist aside: free, far enough ahead (the lead time), on sale. */
export const holdableSession = (s: string, now: string, leadCutoff: string): string =>
  `${freeAhead(s, now, leadCutoff)} and ${salesOpen(s, now)}`;

/** The claim of an online hold: holdable and nobody waiting for its day. */
export const claimableOnline = (s: string, now: string, leadCutoff: string): string =>
  `${holdableSession(s, now, leadCutoff)} and ${noOneWaitingFor(s)}`;

/** The claim of a walk-in at the set: any free session not over yet (no lead time, sold in store), nobody waiting. */
export const claimableWalkIn = (s: string, now: string): string =>
  `${sessionFree(s, now)} and ${s}.end_at > ${now} and ${noOneWaitingFor(s)}`;

/** Bookings paid or being paid: what makes a day "booked" for a family and counts towards the booking limit. */
export const LIVE_BOOKING_STATUSES = `('payment_pending', 'completed')`;

/** How many of a family's live bookings are still ahead (the per-account limit, MAX_UPCOMING_BOOKINGS). */
export const upcomingBookingsOf = (user: string, now: string): string =>
  `(select count(*)::int from bookings ub join slots us on us.id = ub.slot_id
    where ub.user_id = ${user} and ub.status in ${LIVE_BOOKING_STATUSES} and us.start_at > ${now})`;

/** Bookings checked out and not paid yet: the family can still pay while their hold's time runs. */
const UNPAID_BOOKING_STATUSES = `('payment_pending', 'payment_failed')`;

/**
 * The family already has a hold (even one lapsed but not yet swept) or an unpaid checkout still
 * running, waitlist offers aside (decision 0059): a new hold must go the general way, which
 * decides between 200 (the same session), 409 HOLD_LIMIT, and sweeping a lapsed hold.
 */
export const familyHoldsOrPays = (user: string, now: string): string => `(
  exists (select 1 from reservations fa where fa.user_id = ${user} and fa.status = 'active'
    and fa.waitlist_entry_id is null)
  or exists (select 1 from bookings fb join reservations fr on fr.id = fb.reservation_id
    where fb.user_id = ${user} and fb.status in ${UNPAID_BOOKING_STATUSES} and fr.status = 'checked_out'
      and fr.expires_at > ${now} and fr.waitlist_entry_id is null))`;

/**
 * The churn cool-down (decision 0059): with more than `releases` sessions let go by the family
 * within the last `windowMinutes`, the release that tipped it (the one after the `releases` most
 * recent); the cool-down lasts until it leaves the window. Null when there is no churn, or with
 * `releases` 0 (off). Probes reservations_user_released_idx.
 */
export const churnReleaseOf = (user: string, now: string, releases: string, windowMinutes: string): string => `(
  select cr.updated_at from reservations cr
  where ${releases} > 0 and cr.user_id = ${user} and cr.status = 'cancelled' and cr.waitlist_entry_id is null
    and cr.updated_at > ${now} - make_interval(mins => ${windowMinutes})
  order by cr.updated_at desc offset ${releases} limit 1)`;
/**
 * Sessions of one location's local day held right now from one address (decision 0069): live holds
 * and unpaid checkouts still holding their session, waitlist offers aside. One row: `n`, and
 * `first_ends`, when the first of them ends (a refusal's Retry-After). Probes
 * reservations_address_live_idx: an address with no live hold there reads one empty index page.
 */
export const addressHoldsOn = (
  address: string,
  locationId: string,
  day: string,
  timezone: string,
  now: string,
): string => `(
  select count(*)::int as n, min(ah.hold_expires_at) as first_ends
  from reservations ar join slots ah on ah.hold_reservation_id = ar.id
  where ar.hold_address = ${address} and ar.location_id = ${locationId} and ar.expires_at > ${now}
    and ar.status in ('active', 'checked_out') and ar.waitlist_entry_id is null
    and ah.hold_expires_at > ${now} and (ah.start_at at time zone ${timezone})::date = ${day})`;

/** A session a closure took out of sale (decision 0055): a season reload must not put it back on sale. */
export const closedByAClosure = (s: string): string => `exists (
  select 1 from closures c where c.location_id = ${s}.location_id
    and (c.slot_type_id is null or c.slot_type_id = ${s}.slot_type_id)
    and ${s}.start_at >= c.from_at and ${s}.start_at < c.to_at and ${s}.kind = 'session')`;

/** An instant the API computed, as SQL text (ISO 8601, never user input). */
export const instant = (at: Date): string => `'${at.toISOString()}'::timestamptz`;
