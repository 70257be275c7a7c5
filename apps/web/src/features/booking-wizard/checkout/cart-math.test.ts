import { describe, expect, it } from 'vitest';
import type { AddOn, Package } from '@kringle/contracts/catalogue';
import type { CartItem } from '../state/booking-slice';
import {
  activeItems,
  cartGstCents,
  cartLine,
  cartTotalCents,
  ecommerce,
  maxQuantityFor,
  packageCount,
  repriced,
  toCartBody,
} from './cart-math';
import { amountDue } from './amount-due';

const pkg = (id: string, priceCents: number, maxQuantity = 3): Package => ({
  id,
  type: 'package',
  name: `Package ${id}`,
  description: '',
  includes: [],
  priceCents,
  currency: 'AUD',
  imageUrl: '',
  maxQuantity,
});
const addOn = (id: string, priceCents: number): AddOn => ({
  id,
  type: 'add_on',
  name: `Extra ${id}`,
  description: '',
  priceCents,
  currency: 'AUD',
  maxQuantity: 10,
});
const map = (...lines: CartItem[]) => Object.fromEntries(lines.map((l) => [l._id, l]));

describe('cart maths', () => {
  const classic = pkg('p1', 3995);
  const deluxe = pkg('p2', 8995);
  const print = addOn('a1', 1295);

  it('keeps the spec §3 line shape and totals in cents, GST one eleventh', () => {
    const cart = map(cartLine(classic, 2), cartLine(print, 3));
    expect(cart.p1).toEqual({ _id: 'p1', type: 'package', totalQuantity: 2, totalPrice: 7990, remove: false });
    expect(cartTotalCents(cart)).toBe(7990 + 3885);
    expect(cartGstCents(cart)).toBe(Math.round(11875 / 11));
  });

  it('leaves lines flagged remove out of the totals and the payload', () => {
    const cart = map(cartLine(classic, 1), { ...cartLine(deluxe, 1), remove: true });
    expect(activeItems(cart).map((l) => l._id)).toEqual(['p1']);
    expect(cartTotalCents(cart)).toBe(3995);
    expect(toCartBody('r1', cart)).toEqual({
      reservationId: 'r1',
      amount: 3995,
      packages: [{ id: 'p1', quantity: 1 }],
      addOns: [],
    });
  });

  it('allows at most three packages in total and ten of an add-on', () => {
    const cart = map(cartLine(classic, 2));
    expect(packageCount(cart)).toBe(2);
    expect(maxQuantityFor(deluxe, cart)).toBe(1);
    expect(maxQuantityFor(classic, cart)).toBe(3);
    expect(maxQuantityFor(pkg('p3', 100, 1), {})).toBe(1);
    expect(maxQuantityFor(print, cart)).toBe(10);
  });

  it('re-prices from a fresh catalogue and drops what is no longer sold', () => {
    const cart = map(cartLine(classic, 2), cartLine(print, 1));
    const fresh = repriced(cart, new Map([['p1', pkg('p1', 4295)]]));
    expect(fresh).toEqual({ p1: { ...cart.p1, totalPrice: 8590 } });
  });

  it('describes lines for analytics in AUD dollars', () => {
    const catalogue = new Map([[classic.id, classic]]);
    expect(ecommerce([cartLine(classic, 2)], catalogue)).toEqual({
      currency: 'AUD',
      value: 79.9,
      items: [{ item_id: 'p1', item_name: 'Package p1', item_category: 'package', price: 39.95, quantity: 2 }],
    });
  });

  it('sends a donation on top of the goods, and counts it in what is due but not in the GST or the value', () => {
    const cart = map(cartLine(classic, 2));
    expect(toCartBody('r1', cart, null, 500)).toMatchObject({ amount: 7990, donationCents: 500 });
    expect(toCartBody('r1', cart, null, 0)).not.toHaveProperty('donationCents');
    const promo = { code: 'XMAS10', cents: 799, gstCents: 654, dueCents: 7691, goodsCents: 7990, holdId: 'h1' };
    const hold = { holdId: 'h1', slotId: 's1', expiresAt: '2099-01-01T00:00:00.000Z' };
    const booking = { packages: cart, promo, reservationData: hold, checkoutData: null, donationCents: 500 };
    expect(amountDue(booking)).toMatchObject({ donationCents: 500, dueCents: 7691, gstCents: 654 });
    // Once placed, the checkout's amount and donation are the truth (a booking reopened from My Bookings has no code).
    const placed = { bookingId: 'b1', client_secret: null, message: '', amountCents: 8490, donationCents: 500 };
    expect(amountDue({ ...booking, promo: null, checkoutData: placed })).toMatchObject({
      dueCents: 8490,
      gstCents: 726,
    });
    expect(ecommerce([cartLine(classic, 2)], new Map(), promo).value).toBe(71.91);
  });
});
