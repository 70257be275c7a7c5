import type { AuditAction } from '@kringle/contracts/audit-actions';
import { insertAuditEntry } from '../audit-trail/audit-entries.repository';
import type { BookingRow } from './booking-rows.repository';
import type { NewOrder, OrderRow } from '../order-payments/order-rows.repository';
import { declinePayment, openPayment, requestRefund, succeedPayment } from '../order-payments/payment-moves';
import { lockOpenGalleryWith, unlockBoughtPhotos } from './photo-orders.repository';
import type { RefundRow } from '../order-payments/refunds.repository';
import { nextState, stateOf } from './transition-table';
import { guard, type Ctx } from './transition-guard';

/**
 * A photo order's life (decision 0065): more photos bought from the gallery, paid by card through
 * the booking's own Stripe flow. The booking keeps its state throughout; the order's changes are
 * checked against transition-table.ts like every other and each writes an audit entry in the
 * same transaction, as payment-transitions.ts does for a booking's order.
 */
type Booking = Pick<BookingRow, 'id' | 'status' | 'cancelReason' | 'checkedInAt' | 'noShowAt'>;

/** `order.status` null: the order is new. */
async function auditOrder(
  ctx: Ctx,
  action: AuditAction,
  booking: Booking,
  order: { id: string; status: OrderRow['status'] | null },
  after: Record<string, unknown>,
): Promise<void> {
  const state = stateOf(booking);
  await insertAuditEntry(ctx.tx, {
    at: ctx.now,
    actor: ctx.actor,
    action,
    bookingId: booking.id,
    orderId: order.id,
    reason: ctx.reason ?? null,
    before: { state, orderStatus: order.status },
    after: { state, ...after },
  });
}

/** A pending photo order for photos of a confirmed (or attended) booking. */
export async function openPhotoOrder(
  ctx: Ctx,
  booking: Booking,
  order: Omit<NewOrder, 'bookingId' | 'kind' | 'photoIds' | 'status' | 'createdAt'> & { photoIds: string[] },
): Promise<OrderRow> {
  guard(ctx, booking, 'openPhotoOrder');
  const created = await openPayment(ctx, { ...order, bookingId: booking.id, kind: 'photos' });
  await auditOrder(
    ctx,
    'openPhotoOrder',
    booking,
    { id: created.id, status: null },
    { orderStatus: created.status, photoIds: created.photoIds, amountCents: created.amountCents },
  );
  return created;
}

export type PhotoPaymentOutcome = 'unlocked' | 'refunded';

/**
 * Stripe says the photo order is paid (the caller has locked it and seen it unpaid, so this runs
 * once per order). Its photos unlock and the allowance grows by as many; when they can no longer
 * be had (the booking cancelled, the gallery ended or a photo deleted) the money goes back in full.
 */
export async function recordPhotoPayment(
  ctx: Ctx,
  booking: Booking,
  order: OrderRow,
  paymentIntentId: string,
): Promise<{ outcome: PhotoPaymentOutcome; refund: RefundRow | null }> {
  await succeedPayment(ctx, order.id, paymentIntentId);
  const photoIds = order.photoIds ?? [];
  if (
    nextState(stateOf(booking), 'payPhotoOrder') &&
    (await lockOpenGalleryWith(ctx.tx, booking.id, photoIds, ctx.now))
  ) {
    const extraPhotos = await unlockBoughtPhotos(ctx.tx, booking.id, photoIds, ctx.now);
    await auditOrder(ctx, 'payPhotoOrder', booking, order, {
      orderStatus: 'paid',
      paidCents: order.amountCents,
      photoIds,
      extraPhotos,
    });
    return { outcome: 'unlocked', refund: null };
  }
  guard(ctx, booking, 'refundPhotoOrder');
  const refund = await requestRefund(ctx, {
    orderId: order.id,
    bookingId: booking.id,
    amountCents: order.amountCents,
    reason: 'photos_unavailable',
  });
  await auditOrder(ctx, 'refundPhotoOrder', booking, order, {
    orderStatus: 'paid',
    paidCents: order.amountCents,
    refundCents: refund.amountCents,
  });
  return { outcome: 'refunded', refund };
}

/** A card declined or the PaymentIntent cancelled: the order failed, nothing unlocks (a retry may still pay it). */
export async function failPhotoOrder(ctx: Ctx, booking: Booking, order: OrderRow): Promise<void> {
  guard(ctx, booking, 'failPhotoOrder');
  if (order.status === 'failed') return;
  await declinePayment(ctx, order.id);
  await auditOrder(ctx, 'failPhotoOrder', booking, order, { orderStatus: 'failed' });
}
