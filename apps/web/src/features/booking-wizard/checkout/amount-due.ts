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

type Priced = Pick<
  BookingState,
  'packages' | 'promo' | 'reservationData' | 'checkoutData' | 'donationCents' | 'creditCents'
>;

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
  /** Account credit paying part of the total (decision 0111): the card pays the rest. */
  creditCents: number;
  /** What the card pays, and the GST in the goods (one eleventh of the goods paid for: a promo code lowers both). */
  dueCents: number;
  gstCents: number;
}

/**
 * The server's figures wherever it gave them: the checkout's amounts once the order is placed, the priced
 * promo code's cents before; else the goods' total. A donation adds to what the card pays, never to the GST;
 * credit (up to the balance the family chose to use) takes from what the card pays, never from the GST.
 */
export function amountDue(booking: Priced): AmountDue {
  const promo = pricedPromo(booking);
  const goodsCents = cartTotalCents(booking.packages);
  const placed = booking.checkoutData;
  const donationCents = (placed ? placed.donationCents : booking.donationCents) ?? 0;
  const creditCents = placed ? (placed.creditCents ?? 0) : null;
  const totalCents =
    placed?.amountCents !== undefined
      ? placed.amountCents + (creditCents ?? 0)
      : goodsCents - (promo?.cents ?? 0) + donationCents;
  const credit = creditCents ?? Math.min(totalCents, booking.creditCents ?? 0);
  const gstCents =
    promo && totalCents === goodsCents - promo.cents + donationCents
      ? promo.gstCents
      : gstOf(totalCents - donationCents);
  return { promo, goodsCents, donationCents, creditCents: credit, dueCents: totalCents - credit, gstCents };
}
