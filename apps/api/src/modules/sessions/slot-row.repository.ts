import { sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client';
import { claimableOnline, claimableWalkIn, instant, upcomingBookingsOf } from './session-rules.sql';

/**
 * The slot row's owner (decision 0007): every statement that writes a session's booking columns is
 * here; those that write only its hold, each with its audit entry, are in holds.repository.ts
 * and the drop-day ones in hold-statements.repository.ts, so the claim rules are written once
 * (session-rules.sql.ts). The season loader alone also writes slots (their times and
 * blocks). Every claim is one conditional UPDATE: PostgreSQL re-checks the WHERE clause after
 * waiting for a concurrent writer's row lock, so of any number of racers exactly one gets the row.
 */

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

/** Lets go of a booking's checkout hold on its session, if it still has it (its transition writes the entry). */
export async function releaseSlotHoldOf(
  tx: Tx,
  booking: { slotId: string; reservationId: string | null },
): Promise<void> {
  if (!booking.reservationId) return;
  await tx.execute(sql`
    update slots set hold_reservation_id = null, hold_expires_at = null
    where id = ${booking.slotId}::uuid and hold_reservation_id = ${booking.reservationId}::uuid`);
}

/**
 * Gives the session to a paid booking: only if no confirmed booking has it and no other live hold
 * does (its own hold, or a lapsed one, is fine).
 */
export async function takeSlotForBooking(
  tx: Tx,
  booking: { id: string; slotId: string; reservationId: string | null },
  now: Date,
): Promise<boolean> {
  const result = await tx.execute(sql`
    update slots set booking_id = ${booking.id}::uuid, hold_reservation_id = null, hold_expires_at = null
    where id = ${booking.slotId}::uuid and booking_id is null
      and (hold_reservation_id is null or hold_reservation_id = ${booking.reservationId}::uuid
           or hold_expires_at <= ${now.toISOString()}::timestamptz)`);
  return result.rowCount === 1;
}

/** Moves a booking onto the session its reschedule hold owns; false if that hold no longer owns it. */
export async function takeHeldSlot(
  tx: Tx,
  args: { bookingId: string; slotId: string; reservationId: string; now: Date },
): Promise<boolean> {
  const result = await tx.execute(sql`
    update slots set booking_id = ${args.bookingId}::uuid, hold_reservation_id = null, hold_expires_at = null
    where id = ${args.slotId}::uuid and booking_id is null and hold_reservation_id = ${args.reservationId}::uuid
      and hold_expires_at > ${args.now.toISOString()}::timestamptz`);
  return result.rowCount === 1;
}

/** Frees a booking's session (and any hold of its checkout) at once. */
export async function freeBookingSlot(
  tx: Tx,
  booking: { id: string; slotId: string; reservationId: string | null },
): Promise<void> {
  await tx.execute(sql`
    update slots set booking_id = null,
      hold_reservation_id = case when hold_reservation_id = ${booking.reservationId}::uuid then null else hold_reservation_id end,
      hold_expires_at = case when hold_reservation_id = ${booking.reservationId}::uuid then null else hold_expires_at end
    where id = ${booking.slotId}::uuid and (booking_id = ${booking.id}::uuid or hold_reservation_id = ${booking.reservationId}::uuid)`);
}

/** Bookings that still count towards the per-account limit: paid or being paid, session ahead. */
export async function countUpcomingBookings(db: DbOrTx, userId: string, now: Date): Promise<number> {
  const result = await db.execute(sql`
    select ${sql.raw(upcomingBookingsOf('p.user_id', 'p.now'))} as n from (select ${userId}::uuid as user_id, ${now.toISOString()}::timestamptz as now) p`);
  return result.rows[0]!.n as number;
}
