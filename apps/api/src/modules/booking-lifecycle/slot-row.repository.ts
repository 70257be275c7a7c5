import { eq, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client';
import { slots } from '../../db/schema/catalogue';
import { claimableOnline, claimableWalkIn, instant, upcomingBookingsOf } from './session-rules.sql';

/**
 * The slot row's owner (decision 0007): every statement that writes a session's hold or booking
 * columns is here (the drop-day ones in hold-statements.repository.ts), so the claim rules are
 * written once (session-rules.sql.ts). The season loader alone also writes slots (their times and
 * blocks). Every claim is one conditional UPDATE: PostgreSQL re-checks the WHERE clause after
 * waiting for a concurrent writer's row lock, so of any number of racers exactly one gets the row.
 */

/** An online hold (the general path; hold-statements.repository.ts has the drop-day ones). */
export async function claimSlot(tx: Tx, args: { slotId: string; reservationId: string; expiresAt: Date; now: Date; leadCutoff: Date }): Promise<boolean> {
  const result = await tx.execute(sql`
    update slots s set hold_reservation_id = ${args.reservationId}::uuid, hold_expires_at = ${args.expiresAt.toISOString()}::timestamptz
    where s.id = ${args.slotId}::uuid and ${sql.raw(claimableOnline('s', instant(args.now), instant(args.leadCutoff)))}`);
  return result.rowCount === 1;
}

/**
 * A walk-in takes the session with the same kind of claim as an online hold: of any number of
 * racers, online or at the set, exactly one gets the row. A session on a day a family waits for is
 * theirs to be offered first (decision 0028), at the set as online.
 */
export async function claimSlotForWalkIn(tx: Tx, slotId: string, bookingId: string, now: Date): Promise<boolean> {
  const result = await tx.execute(sql`
    update slots s set booking_id = ${bookingId}::uuid, hold_reservation_id = null, hold_expires_at = null
    where s.id = ${slotId}::uuid and ${sql.raw(claimableWalkIn('s', instant(now)))}`);
  return result.rowCount === 1;
}

/**
 * A staff move (decision 0051) takes the session with the online hold's claim, the lead time
 * aside (the brand's team may book closer to the session than a family): free, ahead, on sale,
 * nobody waiting for its day.
 */
export async function claimSlotForStaffMove(tx: Tx, slotId: string, bookingId: string, now: Date): Promise<boolean> {
  const result = await tx.execute(sql`
    update slots s set booking_id = ${bookingId}::uuid, hold_reservation_id = null, hold_expires_at = null
    where s.id = ${slotId}::uuid and ${sql.raw(claimableOnline('s', instant(now), instant(now)))}`);
  return result.rowCount === 1;
}

/** A waitlist offer's hold on a session its hand-off has locked and checked free. */
export async function holdLockedSlot(tx: Tx, slotId: string, reservationId: string, expiresAt: Date): Promise<void> {
  await tx.execute(sql`
    update slots set hold_reservation_id = ${reservationId}::uuid, hold_expires_at = ${expiresAt.toISOString()}::timestamptz where id = ${slotId}::uuid`);
}

/** Extends a hold only while this reservation still owns the slot. */
export async function extendSlotHold(tx: Tx, reservationId: string, expiresAt: Date): Promise<boolean> {
  const result = await tx.update(slots).set({ holdExpiresAt: expiresAt }).where(eq(slots.holdReservationId, reservationId));
  return (result.rowCount ?? 0) === 1;
}

/** Lets go of whatever session this reservation holds; the freed slot's id, if it held one. */
export async function clearSlotHold(tx: DbOrTx, reservationId: string): Promise<string | null> {
  const freed = await tx.execute(sql`
    update slots set hold_reservation_id = null, hold_expires_at = null where hold_reservation_id = ${reservationId}::uuid returning id`);
  return (freed.rows[0]?.id as string | undefined) ?? null;
}

/** Lets go of a booking's checkout hold on its session, if it still has it. */
export async function releaseSlotHoldOf(tx: Tx, booking: { slotId: string; reservationId: string | null }): Promise<void> {
  if (!booking.reservationId) return;
  await tx.execute(sql`
    update slots set hold_reservation_id = null, hold_expires_at = null
    where id = ${booking.slotId}::uuid and hold_reservation_id = ${booking.reservationId}::uuid`);
}

/**
 * Gives the session to a paid booking: only if no confirmed booking has it and no other live hold
 * does (its own hold, or a lapsed one, is fine).
 */
export async function takeSlotForBooking(tx: Tx, booking: { id: string; slotId: string; reservationId: string | null }, now: Date): Promise<boolean> {
  const result = await tx.execute(sql`
    update slots set booking_id = ${booking.id}::uuid, hold_reservation_id = null, hold_expires_at = null
    where id = ${booking.slotId}::uuid and booking_id is null
      and (hold_reservation_id is null or hold_reservation_id = ${booking.reservationId}::uuid
           or hold_expires_at <= ${now.toISOString()}::timestamptz)`);
  return result.rowCount === 1;
}

/** Moves a booking onto the session its reschedule hold owns; false if that hold no longer owns it. */
export async function takeHeldSlot(tx: Tx, args: { bookingId: string; slotId: string; reservationId: string; now: Date }): Promise<boolean> {
  const result = await tx.execute(sql`
    update slots set booking_id = ${args.bookingId}::uuid, hold_reservation_id = null, hold_expires_at = null
    where id = ${args.slotId}::uuid and booking_id is null and hold_reservation_id = ${args.reservationId}::uuid
      and hold_expires_at > ${args.now.toISOString()}::timestamptz`);
  return result.rowCount === 1;
}

/** Frees a booking's session (and any hold of its checkout) at once. */
export async function freeBookingSlot(tx: Tx, booking: { id: string; slotId: string; reservationId: string | null }): Promise<void> {
  await tx.execute(sql`
    update slots set booking_id = null,
      hold_reservation_id = case when hold_reservation_id = ${booking.reservationId}::uuid then null else hold_reservation_id end,
      hold_expires_at = case when hold_reservation_id = ${booking.reservationId}::uuid then null else hold_expires_at end
    where id = ${booking.slotId}::uuid and (booking_id = ${booking.id}::uuid or hold_reservation_id = ${booking.reservationId}::uuid)`);
}

/**
 * Expiry sweep: marks lapsed holds expired and frees their slots, a batch at a time. SKIP LOCKED
 * lets several API processes sweep together without waiting on or repeating each other.
 */
export async function expireLapsedHolds(db: DbOrTx, now: Date, batch = 500): Promise<number> {
  const result = await db.execute(sql`
    with lapsed as (
      select id from reservations
      where status = 'active' and expires_at <= ${now.toISOString()}::timestamptz
      order by expires_at limit ${batch} for update skip locked
    ), expired as (
      update reservations r set status = 'expired', updated_at = ${now.toISOString()}::timestamptz
      from lapsed where r.id = lapsed.id returning r.id
    )
    update slots s set hold_reservation_id = null, hold_expires_at = null
    from expired where s.hold_reservation_id = expired.id`);
  return result.rowCount ?? 0;
}

/** Bookings that still count towards the per-account limit: paid or being paid, session ahead. */
export async function countUpcomingBookings(db: DbOrTx, userId: string, now: Date): Promise<number> {
  const result = await db.execute(sql`
    select ${sql.raw(upcomingBookingsOf('p.user_id', 'p.now'))} as n from (select ${userId}::uuid as user_id, ${now.toISOString()}::timestamptz as now) p`);
  return result.rows[0]!.n as number;
}

/**
 * A closure (decision 0055) takes sessions out of sale at once: blocked, and every live hold on
 * them ends (the reservation is cancelled, so the family's hold answers why). Returns the holds
 * ended, with the waitlist entry of an offer among them.
 */
export async function closeSessions(tx: Tx, slotIds: string[], now: Date): Promise<{ reservationId: string; userId: string; waitlistEntryId: string | null }[]> {
  if (slotIds.length === 0) return [];
  const ids = sql.join(slotIds.map((id) => sql`${id}::uuid`), sql`, `);
  const ended = await tx.execute(sql`
    update reservations set status = 'cancelled', updated_at = ${now.toISOString()}::timestamptz
    where slot_id in (${ids}) and status = 'active'
    returning id, user_id, waitlist_entry_id`);
  await tx.execute(sql`
    update slots set blocked = true,
      hold_reservation_id = case when booking_id is null then null else hold_reservation_id end,
      hold_expires_at = case when booking_id is null then null else hold_expires_at end
    where id in (${ids})`);
  return ended.rows.map((r) => ({ reservationId: r.id as string, userId: r.user_id as string, waitlistEntryId: (r.waitlist_entry_id as string | null) ?? null }));
}

/** A closure's offer holds a session the caller locked and found free, under the offer's own id. */
export async function holdSlotForOffer(tx: Tx, slotId: string, offerId: string, expiresAt: Date): Promise<void> {
  await tx.execute(sql`
    update slots set hold_reservation_id = ${offerId}::uuid, hold_expires_at = ${expiresAt.toISOString()}::timestamptz where id = ${slotId}::uuid`);
}
