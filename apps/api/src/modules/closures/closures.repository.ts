import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client';
import { closureBookings, closures } from '../../db/schema/closures';

/** The closures' own rows (decision 0055): the closure, the claim of each booking, the outcomes. */

export type ClosureRow = typeof closures.$inferSelect;
export type ClosureBookingRow = typeof closureBookings.$inferSelect;

/** A new closure, or the one this manager already made with this Idempotency-Key. */
export async function insertClosure(
  tx: Tx,
  values: typeof closures.$inferInsert,
): Promise<{ row: ClosureRow; created: boolean }> {
  const [created] = await tx.insert(closures).values(values).onConflictDoNothing().returning();
  if (created) return { row: created, created: true };
  const [existing] = await tx
    .select()
    .from(closures)
    .where(and(eq(closures.createdBy, values.createdBy), eq(closures.idempotencyKey, values.idempotencyKey!)));
  return { row: existing!, created: false };
}

export async function setSessionCount(tx: Tx, closureId: string, sessions: number): Promise<void> {
  await tx.update(closures).set({ sessions }).where(eq(closures.id, closureId));
}

export async function insertClosureBookings(tx: Tx, closureId: string, bookingIds: string[]): Promise<void> {
  if (bookingIds.length === 0) return;
  await tx
    .insert(closureBookings)
    .values(bookingIds.map((bookingId) => ({ closureId, bookingId })))
    .onConflictDoNothing();
}

export async function findClosure(db: DbOrTx, id: string): Promise<ClosureRow | undefined> {
  const [row] = await db.select().from(closures).where(eq(closures.id, id));
  return row;
}

export async function outcomesOf(
  db: DbOrTx,
  closureId: string,
): Promise<(ClosureBookingRow & { reference: string })[]> {
  const { rows } = await db.execute(sql`
    select cb.id, cb.booking_id, b.reference, cb.outcome, cb.detail, cb.offer_slot_id, cb.offer_expires_at,
    cb.handled_at
    from closure_bookings cb join bookings b on b.id = cb.booking_id where cb.closure_id = ${closureId}::uuid order by
    cb.seq`);
  return rows.map((r) => ({
    id: r.id as string,
    closureId,
    bookingId: r.booking_id as string,
    reference: r.reference as string,
    outcome: r.outcome as ClosureBookingRow['outcome'],
    detail: r.detail as string,
    offerSlotId: r.offer_slot_id as string | null,
    offerExpiresAt: r.offer_expires_at ? new Date(r.offer_expires_at as string) : null,
    handledAt: r.handled_at ? new Date(r.handled_at as string) : null,
    seq: 0,
  }));
}

/** The claim: the next booking of the closure nobody has handled, locked; null when none is left. */
export async function claimNextBooking(tx: Tx, closureId: string): Promise<ClosureBookingRow | null> {
  const [row] = await tx
    .select()
    .from(closureBookings)
    .where(and(eq(closureBookings.closureId, closureId), isNull(closureBookings.outcome)))
    .orderBy(asc(closureBookings.seq))
    .limit(1)
    .for('update', { skipLocked: true });
  return row ?? null;
}

export async function setOutcome(
  tx: Tx,
  id: string,
  now: Date,
  values: Pick<ClosureBookingRow, 'outcome' | 'detail'> &
    Partial<Pick<ClosureBookingRow, 'offerSlotId' | 'offerExpiresAt'>>,
): Promise<void> {
  await tx
    .update(closureBookings)
    .set({ ...values, handledAt: now })
    .where(eq(closureBookings.id, id));
}

/** Running closures, oldest first. */
export async function runningClosures(db: DbOrTx, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: closures.id })
    .from(closures)
    .where(eq(closures.status, 'running'))
    .orderBy(asc(closures.createdAt))
    .limit(limit);
  return rows.map((r) => r.id);
}

/** Done once no booking waits to be handled (offers still open count as handled). */
export async function finishIfHandled(db: DbOrTx, closureId: string, now: Date): Promise<void> {
  await db.execute(sql`
    update closures set status = 'done', finished_at = ${now.toISOString()}::timestamptz
    where id = ${closureId}::uuid and status = 'running'
      and not exists (select 1 from closure_bookings where closure_id = ${closureId}::uuid and outcome is null)`);
}

/** Offers past their time, a batch at a time. */
export async function dueOffers(db: DbOrTx, now: Date, limit: number): Promise<string[]> {
  const rows = await db
    .select({ bookingId: closureBookings.bookingId })
    .from(closureBookings)
    .where(
      and(
        eq(closureBookings.outcome, 'move_offered'),
        sql`${closureBookings.offerExpiresAt} <= ${now.toISOString()}::timestamptz`,
      ),
    )
    .limit(limit);
  return rows.map((r) => r.bookingId);
}

/** The booking's latest closure row with the closure's words (the booking's `closure` field, the family's answers). */
export async function closureOfBooking(
  db: DbOrTx,
  bookingId: string,
): Promise<(ClosureBookingRow & { reason: string; message: string }) | undefined> {
  const [row] = await db
    .select({ cb: closureBookings, reason: closures.reason, message: closures.message })
    .from(closureBookings)
    .innerJoin(closures, eq(closures.id, closureBookings.closureId))
    .where(eq(closureBookings.bookingId, bookingId))
    .orderBy(sql`${closureBookings.seq} desc`)
    .limit(1);
  return row ? { ...row.cb, reason: row.reason, message: row.message } : undefined;
}

/** Locks one closure row of a booking (an answer to an offer and the expiry job take turns). */
export async function lockClosureBooking(tx: Tx, id: string): Promise<ClosureBookingRow | undefined> {
  const [row] = await tx.select().from(closureBookings).where(eq(closureBookings.id, id)).for('update');
  return row;
}
