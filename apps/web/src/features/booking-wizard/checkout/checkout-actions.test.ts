import { describe, expect, it } from 'vitest';
import type { Package } from '@kringle/contracts/catalogue';
import { setLocation, setPromo, setReservationData, toggleSlotType, upsertItem } from '../state/booking-slice';
import { SYDNEY_FIXTURE, wizardTestStore } from '../state/wizard-test-store';
import { stepIndex } from '../state/wizard-steps';
import { cartLine } from './cart-math';
import { placeOrder } from './checkout-actions';

const location = SYDNEY_FIXTURE;
const classic = (priceCents: number): Package => ({
  id: 'p1',
  type: 'package',
  name: 'Classic Print',
  description: '',
  includes: [],
  priceCents,
  currency: 'AUD',
  imageUrl: '',
  maxQuantity: 3,
});
const json = (body: unknown, status: number) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const details = {
  children: [{ firstName: 'Mia', age: 6 }],
  adults: 1,
  pets: 0,
  accessNeeds: ['wheelchair' as const],
  accessNote: '',
  noteForSanta: '',
};
const checkout = {
  bookingId: 'b1',
  orderId: 'o1',
  client_secret: 'pi_1_secret_x',
  message: 'Your session is held.',
  amountCents: 7990,
  expiresAt: '2099-01-01T00:10:00.000Z',
};

const cartAnswer = {
  id: 'c1',
  reservationId: 'h1',
  items: [],
  amountCents: 7990,
  gstCents: 726,
  discounts: [],
  payments: [],
  donationCents: 0,
  dueCents: 7990,
  currency: 'AUD',
};

function setup(routes: Record<string, unknown>) {
  const t = wizardTestStore(routes);
  t.store.dispatch(setLocation(location));
  t.store.dispatch(toggleSlotType(location.slotTypes[0]!));
  t.store.dispatch(setReservationData({ holdId: 'h1', slotId: 's1', expiresAt: '2099-01-01T00:00:00.000Z' }));
  t.store.dispatch(upsertItem(cartLine(classic(3995), 2)));
  return t;
}

describe('placeOrder', () => {
  it('creates the cart with the total shown, checks out, stores checkoutData and opens Payment', async () => {
    let sent: unknown;
    let sentDetails: unknown;
    const t = setup({
      'PUT /bookings/b1/details': (_url: string, init: RequestInit) => {
        sentDetails = JSON.parse(String(init.body));
        return json({ id: 'b1' }, 200);
      },
      'POST /cart': (_url: string, init: RequestInit) => {
        sent = JSON.parse(String(init.body));
        return json(cartAnswer, 201);
      },
      'POST /bookings/reservation/h1/checkoutOrder': () => json(checkout, 201),
    });
    await t.store.dispatch(placeOrder({ catalogue: new Map(), details }));
    expect(sent).toEqual({ reservationId: 'h1', amount: 7990, packages: [{ id: 'p1', quantity: 2 }], addOns: [] });
    expect(sentDetails).toEqual(details);
    const booking = t.store.getState().booking;
    expect(booking.checkoutData).toEqual({
      bookingId: 'b1',
      client_secret: 'pi_1_secret_x',
      message: 'Your session is held.',
      amountCents: 7990,
      business: null,
      donationCents: 0,
      creditCents: 0,
      voucherParts: [],
    });
    expect(booking.reservationData?.expiresAt).toBe(checkout.expiresAt);
    expect(booking.currentStep).toBe(stepIndex('payment'));
  });

  it('sends a booking for a business or school with the checkout, and keeps it with the order (issue 51)', async () => {
    const bodies: unknown[] = [];
    const business = { name: 'Bondi Public School', abn: '51824753556' };
    const t = setup({
      'PUT /bookings/b1/details': () => json({ id: 'b1' }, 200),
      'POST /cart': () => json(cartAnswer, 201),
      'POST /bookings/reservation/h1/checkoutOrder': (_url: string, init: RequestInit) => {
        bodies.push(JSON.parse(String(init.body)));
        return json(checkout, 201);
      },
    });
    await t.store.dispatch(placeOrder({ catalogue: new Map(), details, business }));
    expect(bodies).toEqual([{ cartId: 'c1', business }]);
    expect(t.store.getState().booking.checkoutData?.business).toEqual(business);
  });

  it('after PRICE_MISMATCH re-prices the cart from the catalogue and stays on Overview', async () => {
    const t = setup({
      'POST /cart': () =>
        json({ error: 'Prices have changed: your total is now $85.90.', code: 'PRICE_MISMATCH' }, 409),
      'GET /product/packages': { items: [classic(4295)] },
      'GET /product/addons': { items: [] },
    });
    const result = await t.store.dispatch(placeOrder({ catalogue: new Map(), details }));
    expect(placeOrder.rejected.match(result) && result.payload?.data.code).toBe('PRICE_MISMATCH');
    expect(t.store.getState().booking.packages.p1).toMatchObject({ totalQuantity: 2, totalPrice: 8590 });
    expect(t.store.getState().booking.checkoutData).toBeNull();
  });

  it('stays on Overview with the field errors when the API refuses who is coming', async () => {
    const t = setup({
      'POST /cart': () => json(cartAnswer, 201),
      'POST /bookings/reservation/h1/checkoutOrder': () => json(checkout, 201),
      'PUT /bookings/b1/details': () =>
        json(
          {
            error: 'Pets come to pet nights only.',
            code: 'VALIDATION_FAILED',
            details: [{ path: 'body.pets', message: 'Pets come to pet nights only.' }],
          },
          400,
        ),
    });
    const result = await t.store.dispatch(placeOrder({ catalogue: new Map(), details: { ...details, pets: 1 } }));
    expect(placeOrder.rejected.match(result) && result.payload?.data.details).toEqual([
      { path: 'body.pets', message: 'Pets come to pet nights only.' },
    ]);
    expect(t.store.getState().booking.currentStep).not.toBe(stepIndex('payment'));
  });

  it('sends the applied promo code with the cart, keeps the server figures and what the card pays', async () => {
    let sent: unknown;
    const t = setup({
      'PUT /bookings/b1/details': () => json({ id: 'b1' }, 200),
      'POST /cart': (_url: string, init: RequestInit) => {
        sent = JSON.parse(String(init.body));
        return json(
          { ...cartAnswer, gstCents: 654, discounts: [{ kind: 'promo', code: 'XMAS10', cents: 799 }], dueCents: 7191 },
          201,
        );
      },
      'POST /bookings/reservation/h1/checkoutOrder': () => json({ ...checkout, amountCents: 7191 }, 201),
    });
    t.store.dispatch(
      setPromo({ code: 'XMAS10', cents: 799, gstCents: 654, dueCents: 7191, goodsCents: 7990, holdId: 'h1' }),
    );
    window.__kringleAnalytics = [];
    await t.store.dispatch(placeOrder({ catalogue: new Map(), details }));
    expect(sent).toMatchObject({ amount: 7990, promoCode: 'XMAS10' });
    const booking = t.store.getState().booking;
    expect(booking.checkoutData?.amountCents).toBe(7191);
    expect(booking.currentStep).toBe(stepIndex('payment'));
    expect(window.__kringleAnalytics.find((e) => e.event === 'begin_checkout')?.params).toMatchObject({
      coupon: 'XMAS10',
      value: 71.91,
    });
  });

  it('drops a promo code the cart refuses (used up meanwhile) and stays on Overview with the reason', async () => {
    const t = setup({
      'POST /cart': () =>
        json(
          {
            error: 'XMAS10 has been used as many times as it may be.',
            code: 'PROMO_INVALID',
            details: [{ path: 'body.promoCode', message: 'used_up' }],
          },
          409,
        ),
    });
    t.store.dispatch(
      setPromo({ code: 'XMAS10', cents: 799, gstCents: 654, dueCents: 7191, goodsCents: 7990, holdId: 'h1' }),
    );
    const result = await t.store.dispatch(placeOrder({ catalogue: new Map(), details }));
    expect(placeOrder.rejected.match(result) && result.payload?.data.code).toBe('PROMO_INVALID');
    expect(t.store.getState().booking.promo).toBeNull();
    expect(t.store.getState().booking.checkoutData).toBeNull();
  });
});
