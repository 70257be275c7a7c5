import type { FastifyInstance } from 'fastify';
import type { PhotoCheckout } from '@kringle/contracts/photos';
import { EXTRA_PHOTO_ITEM_ID } from '@kringle/contracts/photos';
import { appError, errors } from '../../lib/errors';
import { stripeOf } from '../../plugins/stripe';
import { familyActor } from '../audit-trail/audit-entries.repository';
import { lockBooking } from '../booking-lifecycle/booking-rows.repository';
import { openPhotoOrder } from '../booking-lifecycle/photo-order-transitions';
import { ensurePaymentIntent } from '../checkout/checkout.service';
import { includedPhotos, visiblePhotos } from './photo-gallery.service';
import { extraPhotoPriceCents, findGallery, openPhotoOrderFor, photosOfBooking } from './photos.repository';
import { transactionWithRetry } from '../../db/retry-transaction';

type Deps = Pick<FastifyInstance, 'db' | 'clock' | 'config' | 'stripe' | 'log'>;

/**
 * More photos by card (decision 0065): an order of the booking for these locked photos at the
 * season's price, paid through the booking's own PaymentIntent flow, so the same webhooks and
 * reconciliation settle it and the same tax invoice prints it. The booking row is locked while
 * deciding, so the same photos asked for again while unpaid (a double tap, a retry after a
 * decline) get the same order and intent, never a second charge.
 */
export async function checkoutPhotos(
  deps: Deps,
  userId: string,
  bookingId: string,
  photoIds: string[],
): Promise<PhotoCheckout> {
  const stripe = stripeOf(deps);
  const now = deps.clock.now();
  const wanted = [...new Set(photoIds)].sort();
  const order = await transactionWithRetry(deps.db, async (tx) => {
    const booking = await lockBooking(tx, bookingId);
    if (!booking || booking.userId !== userId) throw errors.notFound('That booking');
    const existing = await openPhotoOrderFor(tx, bookingId, wanted);
    if (existing) return existing;
    const gallery = await findGallery(tx, bookingId);
    const byId = new Map(visiblePhotos(gallery, await photosOfBooking(tx, bookingId), now).map((r) => [r.id, r]));
    if (wanted.some((id) => !byId.has(id))) throw errors.notFound('That photo');
    const included = await includedPhotos({ db: tx }, booking, gallery);
    if (included === 'all' || wanted.some((id) => byId.get(id)!.unlockedAt !== null)) {
      throw appError(
        'ALREADY_PAID',
        included === 'all'
          ? 'Every photo is already included in your package.'
          : 'Some of these photos are already unlocked. Choose locked photos to buy.',
      );
    }
    const unitPriceCents = await extraPhotoPriceCents(tx);
    const amountCents = unitPriceCents * wanted.length;
    const item = {
      id: EXTRA_PHOTO_ITEM_ID,
      type: 'photo' as const,
      name: 'Extra digital photo',
      quantity: wanted.length,
      unitPriceCents,
      totalCents: amountCents,
    };
    const reconcileAt = new Date(now.getTime() + deps.config.PAYMENT_RECONCILE_GRACE_SECONDS * 1000);
    return openPhotoOrder({ tx, now, log: deps.log, actor: familyActor(userId) }, booking, {
      userId,
      items: [item],
      amountCents,
      photoIds: wanted,
      reconcileAt,
    });
  });
  const clientSecret = await ensurePaymentIntent(deps, stripe, order);
  return { orderId: order.id, client_secret: clientSecret, amountCents: order.amountCents };
}
