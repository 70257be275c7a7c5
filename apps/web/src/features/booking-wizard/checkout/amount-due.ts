import type { Cart } from '@kringle/contracts/cart';
import { gstOf } from '@kringle/contracts/money';
import type { AppliedPromo, BookingState } from '../state/booking-slice';
import { cartTotalCents } from './cart-math';

/** The promo code a cart answer priced (the server's figures, never the web's own), or null. */
export function promoOf(cart: Cart, holdId: string): AppliedPromo | null {
  const promo = cart.discounts.find((d) => d.kind === 'promo');
  if (!promo) return null;
  return {
    code: promo.code,
    cents: promo.cents,
    gstCents: cart.gstCents,
    dueCents: cart.dueCents,
    goodsCents: cart.amountCents,
    holdId,
  };
}

type Priced = Pick<BookingState, 'packages' | 'promo' | 'reservationData' | 'checkoutData' | 'donationCents'>;

/** The applied promo code if it was priced for this very cart and hold; otherwise it waits to be priced again. */
export function pricedPromo({ packages, promo, reservationData }: Priced): AppliedPromo | null {
  if (!promo || promo.holdId !== reservationData?.holdId || promo.goodsCents !== cartTotalCents(packages)) return null;
  return promo;
}

export interface AmountDue {
  promo: AppliedPromo | null;
  goodsCents: number;
  /** Outside GST, paid after the goods (decision 0109). */
  donationCents: number;
  /** What the card pays and the GST in it (one eleventh of the goods paid for: a promo code lowers both). */
  dueCents: number;
  gstCents: number;
}

/**
 * The server's figures wherever it gave them: the checkout's amount once the order is placed, the priced
 * promo code's cents before; else the goods' total. A donation adds to what the card pays, never to the GST.
 */
export function amountDue(booking: Priced): AmountDue {
  const promo = pricedPromo(booking);
  const goodsCents = cartTotalCents(booking.packages);
  const placed = booking.checkoutData;
  const donationCents = (placed ? placed.donationCents : booking.donationCents) ?? 0;
  const dueCents = placed?.amountCents ?? goodsCents - (promo?.cents ?? 0) + donationCents;
  const gstCents =
    promo && dueCents === goodsCents - promo.cents + donationCents ? promo.gstCents : gstOf(dueCents - donationCents);
  return { promo, goodsCents, donationCents, dueCents, gstCents };
}
