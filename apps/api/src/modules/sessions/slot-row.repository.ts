import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { claimableOnline, claimableWalkIn, closedByAClosure, instant } from './session-rules.sql';

/**
 * The slot row's booking columns and the season's slots (decisions 0007, 0089): every statement
 * that gives a session to a booking or frees it, and the season loader's sync. The writes of its
 * hold alone, each with its audit entry, are in holds.repository.ts and system-holds.repository.ts
 * and the drop-day ones in hold-statements.repository.ts: nothing outside modules/sessions writes
 * `slots` or `reservations`, and the claim rules are written once (session-rules.sql.ts). Every
 * claim is one conditional UPDATE: PostgreSQL re-checks the WHERE clause after waiting for a
 * concurrent writer's row lock, so of any number of racers exactly one gets the row.
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
      hold_reservation_id = case when hold_reservation_id = ${booking.reservationId}::uuid then null else
      hold_reservation_id end,
      hold_expires_at = case when hold_reservation_id = ${booking.reservationId}::uuid then null else hold_expires_at
      end
    where id = ${booking.slotId}::uuid and (booking_id = ${booking.id}::uuid or hold_reservation_id =
    ${booking.reservationId}::uuid)`);
}

export interface SlotSyncResult {
  planned: number;
  removed: number;
  /** Sessions outside the new plan that a booking or hold still refers to: taken out of sale, kept. */
  retired: number;
}

/**
 * The season loader's writes (catalogue/season.service.ts): makes the location's future slots match the plan in three
 * set-based statements. Slots a booking
 * or reservation refers to are never deleted or changed; they are blocked if the plan drops them.
 */
export async function syncSlots(
  tx: Tx,
  locationId: string,
  typeIds: Map<string, string>,
  plan: { slotTypeSlug: string; kind: 'session' | 'break'; startAt: Date; endAt: Date }[],
  now: Date,
): Promise<SlotSyncResult> {
  const typeCol = plan.map((p) => typeIds.get(p.slotTypeSlug)!);
  const kindCol = plan.map((p) => p.kind);
  const startCol = plan.map((p) => p.startAt.toISOString());
  const endCol = plan.map((p) => p.endAt.toISOString());
  const planned = sql`select * from
unnest(${sql.param(typeCol)}::uuid[], ${sql.param(kindCol)}::text[], ${sql.param(startCol)}::timestamptz[],
  ${sql.param(endCol)}::timestamptz[]) as p(slot_type_id, kind, start_at, end_at)`;

  await tx.execute(sql`
    insert into slots (location_id, slot_type_id, kind, start_at, end_at)
    select ${locationId}::uuid, p.slot_type_id, p.kind, p.start_at, p.end_at from (${planned}) p
    on conflict (location_id, slot_type_id, start_at) do update
      set kind = excluded.kind, end_at = excluded.end_at, blocked = ${sql.raw(closedByAClosure('slots'))}
      where slots.booking_id is null and not exists (select 1 from reservations r where r.slot_id = slots.id)`);

  const stale = sql`
    s.location_id = ${locationId}::uuid and s.start_at >= ${now.toISOString()}::timestamptz
    and not exists (select 1 from (${planned}) p where p.slot_type_id = s.slot_type_id and p.start_at = s.start_at)`;
  const removed = await tx.execute(sql`
    delete from slots s where ${stale}
      and s.booking_id is null and not exists (select 1 from reservations r where r.slot_id = s.id)`);
  const retired = await tx.execute(sql`update slots s set blocked = true where ${stale} and not s.blocked`);
  return { planned: plan.length, removed: removed.rowCount ?? 0, retired: retired.rowCount ?? 0 };
}
