import type { Cart } from '@kringle/contracts/cart';
import { gstOf } from '@kringle/contracts/money';
import type { AppliedPromo, BookingState, VoucherPart } from '../state/booking-slice';
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
  'packages' | 'promo' | 'reservationData' | 'checkoutData' | 'donationCents' | 'creditCents' | 'vouchers'
>;

/** The gift vouchers' parts of a cart answer, in the order they pay. */
export const voucherPartsOf = (cart: Pick<Cart, 'payments'>): VoucherPart[] =>
  cart.payments.flatMap((p) => (p.kind === 'voucher' && p.code ? [{ code: p.code, cents: p.cents }] : []));

/**
 * The cart a voucher's part was priced for: the hold, the goods, the promo code and the donation (vouchers pay what
 * is left after the code, the donation included). Credit pays after them, so it does not move their parts.
 */
export function voucherPricingKey(
  b: Pick<BookingState, 'packages' | 'reservationData' | 'donationCents'>,
  promoCode: string | null | undefined,
): string {
  return [b.reservationData?.holdId ?? '', cartTotalCents(b.packages), promoCode ?? '', b.donationCents ?? 0].join('|');
}

/** The applied vouchers' parts if they were priced for this very cart; otherwise they wait to be priced again. */
export function pricedVoucherParts(booking: Priced): VoucherPart[] | null {
  const v = booking.vouchers;
  if (!v || v.pricedFor !== voucherPricingKey(booking, booking.promo?.code)) return null;
  return v.parts;
}

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
  /** Gift vouchers paying first (decision 0112), each with its part; then credit, then the card. */
  vouchers: VoucherPart[];
  voucherCents: number;
  /** Account credit paying part of the total (decision 0111): the card pays the rest. */
  creditCents: number;
  /** What the card pays, and the GST in the goods (one eleventh of the goods paid for: a promo code lowers both). */
  dueCents: number;
  gstCents: number;
}

/**
 * The server's figures wherever it gave them: the checkout's amounts once the order is placed, the priced
 * promo code's cents and vouchers' parts before; else the goods' total. A donation adds to what the card pays,
 * never to the GST; gift vouchers and then credit (up to the balance the family chose to use) take from what the
 * card pays, never from the GST: the card pays what the cart answers as `dueCents`.
 */
export function amountDue(booking: Priced): AmountDue {
  const promo = pricedPromo(booking);
  const goodsCents = cartTotalCents(booking.packages);
  const placed = booking.checkoutData;
  const donationCents = (placed ? placed.donationCents : booking.donationCents) ?? 0;
  const vouchers = placed ? (placed.voucherParts ?? []) : (pricedVoucherParts(booking) ?? []);
  const voucherCents = vouchers.reduce((n, p) => n + p.cents, 0);
  const creditCents = placed ? (placed.creditCents ?? 0) : null;
  const totalCents =
    placed?.amountCents !== undefined
      ? placed.amountCents + (creditCents ?? 0) + voucherCents
      : goodsCents - (promo?.cents ?? 0) + donationCents;
  const credit = creditCents ?? Math.max(0, Math.min(totalCents - voucherCents, booking.creditCents ?? 0));
  const gstCents =
    promo && totalCents === goodsCents - promo.cents + donationCents
      ? promo.gstCents
      : gstOf(totalCents - donationCents);
  return {
    promo,
    goodsCents,
    donationCents,
    vouchers,
    voucherCents,
    creditCents: credit,
    dueCents: Math.max(0, totalCents - voucherCents - credit),
    gstCents,
  };
}
