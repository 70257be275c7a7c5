import type { BusinessBuyer } from '@kringle/contracts/abn';
import type { CheckoutResult, ContinuePaymentResult } from '@kringle/contracts/cart';
import type { FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import { errors, notFound } from '../../lib/errors';
import { isStripeUnavailable, paymentsUnavailable } from '../../plugins/stripe';
import { lockReservation } from '../sessions/holds.repository';
import { newBookingReference } from './booking-reference';
import { activeProducts, findCart, type CartRow } from './cart.repository';
import { cartTotalCents } from './cart.service';
import { insertCreditEntry, lockCredit } from '../credit/credit.repository';
import { settleExpiredCredit } from '../credit/credit-expiry';
import { lockVoucherParts, spendVouchers } from '../vouchers/voucher-spending';
import { findBookingCheckout, findOrderByCart, slotOf } from './checkout.repository';
import { bookingDetails, findOrder, type BookingRow } from '../booking-lifecycle/booking-rows.repository';
import { bookingConfirmedMail } from '../booking-lifecycle/bookings.emails';
import { policyOf } from '../booking-lifecycle/booking-policy';
import { enqueueMail } from '../mail/outbox.repository';
import { lockPromo } from '../promos/promo-codes.repository';
import { promoCents, type PromoCart } from '../promos/promo-pricing';
import type { Tx } from '../../db/client';
import { attachPaymentIntent, type OrderRow } from '../order-payments/order-rows.repository';
import { openCheckout, recordPayment } from '../booking-lifecycle/payment-transitions';
import { policyInForce } from '../policy/policy.service';
import { familyActor } from '../audit-trail/audit-entries.repository';
import { stripeOf } from '../../plugins/stripe';
import { transactionWithRetry } from '../../db/retry-transaction';

type Deps = Pick<FastifyInstance, 'db' | 'clock' | 'config' | 'stripe' | 'log'>;

/** What the card pays of an order: its total less the gift vouchers and credit spent on it (decisions 0111, 0112). */
export const cardCents = (order: Pick<OrderRow, 'amountCents' | 'creditCents' | 'voucherCents'>) =>
  order.amountCents - order.creditCents - order.voucherCents;

const PAY_MESSAGE = 'Your session is held. Pay now to confirm your booking.';

/**
 * A cart priced earlier must still match today's catalogue, or the customer re-checks it. On the
 * checkout's own connection: a second one from the pool per checkout could exhaust it under a race.
 */
async function assertCartCurrent(tx: Tx, cart: CartRow): Promise<void> {
  const ids = (type: 'package' | 'add_on') => cart.items.filter((i) => i.type === type).map((i) => i.id);
  const found = await activeProducts(tx, ids('package'), ids('add_on'));
  const prices = new Map([...found.packages, ...found.addOns].map((p) => [p.id, p.priceCents]));
  if (cart.items.some((item) => prices.get(item.id) !== item.unitPriceCents)) {
    throw errors.cartInvalid();
  }
}

/**
 * The cart's promo code, priced again under its row lock: a use another checkout committed meanwhile
 * counts now, so the last use of a code goes to one family (409 PROMO_INVALID to the other).
 */
async function promoStill(tx: Tx, cart: CartRow, at: Omit<PromoCart, 'goodsCents'>): Promise<string | null> {
  if (!cart.promoCodeId) return null;
  const promo = await lockPromo(tx, cart.promoCodeId);
  const cents = await promoCents(tx, promo, promo?.code ?? '', { ...at, goodsCents: cart.amountCents });
  if (cents !== cart.discountCents)
    throw errors.cartInvalid('The promo code has changed since your cart was priced: please check your total.');
  return promo!.code;
}

/**
 * The cart's credit, taken now under the family's credit lock: a checkout on another process that
 * spent it meanwhile leaves too little, and this one is refused (409) with nothing written.
 */
async function assertCreditStill(tx: Tx, userId: string, cart: CartRow, now: Date): Promise<void> {
  if (cart.creditCents === 0) return;
  await lockCredit(tx, userId);
  // Credit whose three years ended since the cart was priced is gone first.
  if ((await settleExpiredCredit(tx, userId, now)).balanceCents < cart.creditCents)
    throw errors.cartInvalid('Your account credit has changed since your cart was priced: please check your total.');
}

/** The order the card owes nothing on is paid at once; its confirmation e-mail goes as a paid one's does. */
async function confirmUnpaid(deps: Deps, tx: Tx, now: Date, booking: BookingRow, order: OrderRow): Promise<void> {
  await recordPayment({ tx, now, log: deps.log, actor: familyActor(booking.userId) }, booking, order, null);
  const details = await bookingDetails(tx, booking.id);
  await enqueueMail(
    tx,
    bookingConfirmedMail(details, deps.config.BRAND_NAME, deps.config.PUBLIC_URL, now, policyOf(deps.config)),
  );
}

/**
 * Turns a live hold and its cart into a payment_pending booking and a pending order in one
 * transaction, then creates (or finds) the PaymentIntent with an idempotency key derived from the
 * order. Calling it again with the same cart returns the same booking, order and intent, so a
 * double click, a retry after a timeout, or a crash between the two steps never charges twice.
 */
export async function checkoutOrder(
  deps: Deps,
  userId: string,
  reservationId: string,
  cartId: string,
  business?: BusinessBuyer,
  purchaseIp: string | null = null,
): Promise<CheckoutResult> {
  const now = deps.clock.now();
  const { order, expiresAt } = await transactionWithRetry(deps.db, async (tx) => {
    const reservation = await lockReservation(tx, reservationId, userId);
    if (!reservation) throw notFound('That reservation');
    // A reschedule's hold never becomes a new booking (issue 48), whatever cart points at it. A
    // checked-out hold names the booking its own checkout made: a retry answers that one below.
    if (reservation.status === 'active' && reservation.bookingId) throw errors.rescheduleHold();
    const cart = await findCart(tx, cartId, userId);
    if (!cart || cart.reservationId !== reservation.id)
      throw errors.cartInvalid('That cart does not belong to this reservation.');
    const existing = await findOrderByCart(tx, cart.id);
    if (existing) return { order: existing, expiresAt: reservation.expiresAt };
    if (reservation.status !== 'active' || reservation.expiresAt <= now) throw errors.holdExpired();
    // Vouchers first, then the promo, then credit, each under its lock: the order every move takes
    // them in. First because it is where racing checkouts of one voucher are refused: those wait here
    // for the winner and then end without the reads below (decision 0114).
    await lockVoucherParts(tx, userId, cart.voucherParts, now);
    await assertCartCurrent(tx, cart);
    const slot = await slotOf(tx, reservation.slotId);
    const promoCode = await promoStill(tx, cart, {
      userId,
      locationId: slot.locationId,
      slotTypeId: slot.slotTypeId,
      now,
    });
    // The charity named at the sale goes on the invoice; gone from the configuration since the cart, no donation.
    const charity = deps.config.CHARITY_NAME;
    if (cart.donationCents > 0 && !charity)
      throw errors.cartInvalid('Donations are no longer offered: please check your total.');
    await assertCreditStill(tx, userId, cart, now);
    const totalCents = cartTotalCents(cart);
    const dueCents = totalCents - cart.voucherCents - cart.creditCents;
    const reconcileAt = new Date(now.getTime() + deps.config.PAYMENT_RECONCILE_GRACE_SECONDS * 1000);
    const created = await openCheckout(
      { tx, now, log: deps.log, actor: familyActor(userId) },
      {
        reference: newBookingReference(),
        userId,
        locationId: slot.locationId,
        slotId: slot.id,
        slotTypeId: slot.slotTypeId,
        reservationId: reservation.id,
        items: cart.items,
        amountCents: totalCents,
      },
      {
        userId,
        cartId: cart.id,
        items: cart.items,
        amountCents: totalCents,
        creditCents: cart.creditCents,
        voucherCents: cart.voucherCents,
        promoCodeId: cart.promoCodeId,
        promoCode,
        discountCents: cart.discountCents,
        donationCents: cart.donationCents,
        donationTo: cart.donationCents > 0 ? charity! : null,
        reconcileAt,
        buyerBusinessName: business?.name ?? null,
        buyerAbn: business?.abn ?? null,
        // The wizard's Policy step comes before checkout: what it showed is what was accepted, now
        // (a dispute's evidence, issue 56).
        policyAcceptedAt: now,
        policyAccepted: policyInForce(deps.config),
        purchaseIp,
      },
    );
    await spendVouchers(tx, userId, cart.voucherParts, {
      orderId: created.order.id,
      bookingId: created.booking.id,
      now,
    });
    if (cart.creditCents > 0)
      await insertCreditEntry(tx, {
        userId,
        cents: -cart.creditCents,
        reason: 'spent',
        bookingId: created.booking.id,
        orderId: created.order.id,
        refundId: null,
        expiresAt: null,
        at: now,
      });
    // Nothing left for the card (a 100% code, vouchers, credit): paid and confirmed now, no PaymentIntent
    // (decision 0106).
    if (dueCents === 0) await confirmUnpaid(deps, tx, now, created.booking, created.order);
    return { order: created.order, expiresAt: reservation.expiresAt };
  });
  // A cart paid wholly by vouchers, credit or a promo needs no card, so no Stripe either.
  const clientSecret = cardCents(order) === 0 ? null : await ensurePaymentIntent(deps, stripeOf(deps), order);
  return {
    bookingId: order.bookingId,
    orderId: order.id,
    client_secret: clientSecret,
    message: PAY_MESSAGE,
    amountCents: cardCents(order),
    expiresAt: expiresAt.toISOString(),
  };
}

/**
 * The order's PaymentIntent, created once: the key is derived from the order, so the SDK's own
 * retries and a customer's retry after a failure all get the same intent. When Stripe stays
 * unreachable the customer gets a 503 and keeps the hold and the order, ready to retry.
 */
export async function ensurePaymentIntent(deps: Pick<Deps, 'db'>, stripe: Stripe, order: OrderRow): Promise<string> {
  if (order.clientSecret) return order.clientSecret;
  let intent: Stripe.PaymentIntent;
  try {
    intent = await stripe.paymentIntents.create(
      {
        amount: cardCents(order),
        currency: 'aud',
        automatic_payment_methods: { enabled: true },
        metadata: { bookingId: order.bookingId, orderId: order.id },
        description: `Photos with Santa, booking ${order.bookingId}`,
      },
      { idempotencyKey: `order-${order.id}-payment-intent` },
    );
  } catch (err) {
    if (isStripeUnavailable(err)) throw paymentsUnavailable();
    throw err;
  }
  await attachPaymentIntent(deps.db, order.id, intent.id, intent.client_secret!);
  const stored = await findOrder(deps.db, order.id);
  return stored!.clientSecret!;
}

/** Pay again (another card) for a checkout whose hold still lives. */
export async function continuePayment(deps: Deps, userId: string, bookingId: string): Promise<ContinuePaymentResult> {
  const stripe = stripeOf(deps);
  const found = await findBookingCheckout(deps.db, bookingId, userId);
  if (!found) throw notFound('That booking');
  const { booking, order, reservation } = found;
  if (booking.status === 'completed' || order.status === 'paid') throw errors.alreadyPaid();
  const live = reservation && reservation.expiresAt > deps.clock.now();
  if (
    !live ||
    !['payment_pending', 'payment_failed'].includes(booking.status) ||
    !['pending', 'failed'].includes(order.status)
  )
    throw errors.holdExpired();
  return {
    client_secret: await ensurePaymentIntent(deps, stripe, order),
    expiresAt: reservation.expiresAt.toISOString(),
    reservationId: reservation.id,
  };
}
