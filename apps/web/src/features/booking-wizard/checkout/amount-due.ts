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

type Priced = Pick<BookingState, 'packages' | 'promo' | 'reservationData' | 'checkoutData'>;

/** The applied promo code if it was priced for this very cart and hold; otherwise it waits to be priced again. */
export function pricedPromo({ packages, promo, reservationData }: Priced): AppliedPromo | null {
  if (!promo || promo.holdId !== reservationData?.holdId || promo.goodsCents !== cartTotalCents(packages)) return null;
  return promo;
}

export interface AmountDue {
  promo: AppliedPromo | null;
  goodsCents: number;
  /** What the card pays and the GST in it (one eleventh of what is paid: a promo code lowers both). */
  dueCents: number;
  gstCents: number;
}

/**
 * The server's figures wherever it gave them: the checkout's amount once the order is placed, the priced
 * promo code's before; else the goods' total.
 */
export function amountDue(booking: Priced): AmountDue {
  const promo = pricedPromo(booking);
  const goodsCents = cartTotalCents(booking.packages);
  const dueCents = booking.checkoutData?.amountCents ?? promo?.dueCents ?? goodsCents;
  const gstCents = dueCents === promo?.dueCents ? promo.gstCents : gstOf(dueCents);
  return { promo, goodsCents, dueCents, gstCents };
}
