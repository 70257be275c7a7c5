import { sql } from 'drizzle-orm';
import type { LineItem } from '../../src/db/schema/bookings';
import { bookings, orders } from '../../src/db/schema/bookings';
import { markRefundSucceeded, syncOrderRefunded } from '../../src/modules/order-payments/refunds.repository';
import { newBookingReference } from '../../src/modules/checkout/booking-reference';
import type { Person, StaffDay } from '../staff/staff-fixtures';

/**
 * The reports' tests (not a test file itself): sales written straight to the database, refunds settled as Stripe would.
 */

/**
 * A paid online booking of `slotId` for `amountCents`, paid at `paidAt`, whose packages are
 * `packageNames` (the price on the first). It owns its session, as a confirmed booking does.
 */
export async function sell(
  w: StaffDay,
  owner: Person,
  slotId: string,
  sale: { amountCents: number; paidAt: Date; packageNames: string[] },
) {
  const slot = (await w.t.db.execute(sql`select location_id, slot_type_id from slots where id = ${slotId}::uuid`))
    .rows[0]!;
  const items: LineItem[] = sale.packageNames.map((name, i) => {
    const cents = i === 0 ? sale.amountCents : 0;
    return { id: crypto.randomUUID(), type: 'package', name, quantity: 1, unitPriceCents: cents, totalCents: cents };
  });
  const [booking] = await w.t.db
    .insert(bookings)
    .values({
      reference: newBookingReference(),
      userId: owner.id,
      locationId: slot.location_id as string,
      slotId,
      slotTypeId: slot.slot_type_id as string,
      status: 'completed',
      items,
      amountCents: sale.amountCents,
      confirmedAt: sale.paidAt,
    })
    .returning();
  const [order] = await w.t.db
    .insert(orders)
    .values({
      bookingId: booking!.id,
      userId: owner.id,
      status: 'paid',
      items,
      amountCents: sale.amountCents,
      paidAt: sale.paidAt,
    })
    .returning();
  await w.t.db.execute(sql`update slots set booking_id = ${booking!.id}::uuid where id = ${slotId}::uuid`);
  return { id: booking!.id, reference: booking!.reference, orderId: order!.id };
}

/** Stripe's answer to every pending refund of the booking, recorded as the refunds service does. */
export async function settleRefunds(w: StaffDay, bookingId: string): Promise<void> {
  const pending = (
    await w.t.db.execute(
      sql`select id, order_id from refunds where booking_id = ${bookingId}::uuid and status = 'pending'`,
    )
  ).rows;
  await w.t.db.transaction(async (tx) => {
    for (const r of pending) {
      await markRefundSucceeded(tx, r.id as string, `re_test_${(r.id as string).slice(0, 8)}`, w.clock.now());
      await syncOrderRefunded(tx, r.order_id as string, w.clock.now());
    }
  });
}
