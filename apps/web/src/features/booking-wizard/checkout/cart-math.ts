import { MAX_ADD_ON_QUANTITY, MAX_PACKAGES, type CreateCartBody } from '@kringle/contracts/cart';
import type { AddOn, Package } from '@kringle/contracts/catalogue';
import { centsToDollars, CURRENCY, gstOf } from '@kringle/contracts/money';
import type { AnalyticsItem, EcommerceParams } from '../../../lib/analytics';
import type { AppliedPromo, CartItem } from '../state/booking-slice';

export type CatalogueItem = Package | AddOn;
export type Catalogue = Map<string, CatalogueItem>;

/** Items still in the cart: the spec's `remove` flag marks a line taken out (kept for "Undo"). */
export const activeItems = (packages: Record<string, CartItem>): CartItem[] =>
  Object.values(packages).filter((item) => !item.remove && item.totalQuantity > 0);

/** Spec §3: the cart amount is the sum of totalPrice (cents, GST included). */
export const cartTotalCents = (packages: Record<string, CartItem>): number =>
  activeItems(packages).reduce((sum, item) => sum + item.totalPrice, 0);

export const cartGstCents = (packages: Record<string, CartItem>): number => gstOf(cartTotalCents(packages));

export const packageCount = (packages: Record<string, CartItem>): number =>
  activeItems(packages)
    .filter((item) => item.type === 'package')
    .reduce((n, item) => n + item.totalQuantity, 0);

export const itemCount = (packages: Record<string, CartItem>): number =>
  activeItems(packages).reduce((n, item) => n + item.totalQuantity, 0);

/**
 * The most of one item the customer may choose now: the catalogue's limit and API.md's (packages 1 to 3 in total, each
 * add-on 0 to 10).
 */
export function maxQuantityFor(item: CatalogueItem, packages: Record<string, CartItem>): number {
  if (item.type === 'add_on') return Math.min(item.maxQuantity, MAX_ADD_ON_QUANTITY);
  const mine = packages[item.id];
  const own = mine && !mine.remove ? mine.totalQuantity : 0;
  return Math.min(item.maxQuantity, MAX_PACKAGES - (packageCount(packages) - own));
}

/** A cart line for `quantity` of a catalogue item (quantity 0 means not in the cart). */
export const cartLine = (item: CatalogueItem, quantity: number): CartItem => ({
  _id: item.id,
  type: item.type,
  totalQuantity: quantity,
  totalPrice: item.priceCents * quantity,
  remove: false,
});

/**
 * Spec §3 cart conversion payload: amount is the goods' total the customer saw (before any promo code); the
 * donation goes on top of it.
 */
export function toCartBody(
  reservationId: string,
  packages: Record<string, CartItem>,
  promoCode?: string | null,
  donationCents = 0,
  useCredit = false,
  /** Gift voucher codes, in the order they pay (before the credit). */
  vouchers: string[] = [],
): CreateCartBody {
  const lines = activeItems(packages);
  const pick = (type: CartItem['type']) =>
    lines.filter((l) => l.type === type).map((l) => ({ id: l._id, quantity: l.totalQuantity }));
  return {
    reservationId,
    amount: cartTotalCents(packages),
    packages: pick('package'),
    addOns: pick('add_on'),
    ...(promoCode ? { promoCode } : {}),
    ...(donationCents > 0 ? { donationCents } : {}),
    ...(useCredit ? { useCredit } : {}),
    ...(vouchers.length > 0 ? { vouchers } : {}),
  };
}

/** Re-prices the cart from a fresh catalogue (after a PRICE_MISMATCH); items no longer sold drop out. */
export function repriced(packages: Record<string, CartItem>, catalogue: Catalogue): Record<string, CartItem> {
  const next: Record<string, CartItem> = {};
  for (const line of Object.values(packages)) {
    const item = catalogue.get(line._id);
    if (item) next[line._id] = { ...line, totalPrice: item.priceCents * line.totalQuantity };
  }
  return next;
}

/** GA4 items, prices in dollars (AUD). */
function analyticsItems(lines: CartItem[], catalogue: Catalogue): AnalyticsItem[] {
  return lines.map((line) => {
    const item = catalogue.get(line._id);
    return {
      item_id: line._id,
      item_name: item?.name,
      item_category: line.type,
      price: centsToDollars(item?.priceCents ?? (line.totalQuantity ? line.totalPrice / line.totalQuantity : 0)),
      quantity: line.totalQuantity,
    };
  });
}

/**
 * An e-commerce event's parameters for some cart lines; with a promo code, GA4's coupon and the goods' value
 * paid. A donation is not the brand's revenue, so it is never in the value.
 */
export function ecommerce(lines: CartItem[], catalogue: Catalogue, promo?: AppliedPromo | null): EcommerceParams {
  const goods = lines.reduce((s, l) => s + l.totalPrice, 0);
  return {
    currency: CURRENCY,
    value: centsToDollars(promo ? goods - promo.cents : goods),
    items: analyticsItems(lines, catalogue),
    ...(promo ? { coupon: promo.code } : {}),
  };
}
