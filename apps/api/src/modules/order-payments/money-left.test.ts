import { describe, expect, it } from 'vitest';
import { moneyOf, moneyOfRow } from './money-left';

const paid = (refundedCents: number, unsettledCents: number, amountCents = 3995) =>
  moneyOf({ amountCents, paid: true, refundedCents, unsettledCents });

describe('money left on an order, the one function', () => {
  it('an unpaid order has nothing left to refund, whatever its figures', () => {
    expect(moneyOf({ amountCents: 3995, paid: false, refundedCents: 0, unsettledCents: 0 }).leftCents).toBe(0);
    expect(moneyOf({ amountCents: 3995, paid: false, refundedCents: 1000, unsettledCents: 500 })).toEqual({
      refundedCents: 1000,
      unsettledCents: 500,
      leftCents: 0,
      goneCents: 1500,
    });
  });

  it('a paid order: paid less refunded less refunds not yet at the card, to the cent', () => {
    expect(paid(0, 0).leftCents).toBe(3995);
    expect(paid(1000, 0).leftCents).toBe(2995);
    expect(paid(1000, 1).leftCents).toBe(2994);
    expect(paid(0, 3995).leftCents).toBe(0);
    expect(paid(1000, 0)).toMatchObject({ refundedCents: 1000, unsettledCents: 0, goneCents: 1000 });
  });

  it('never below nothing, when Stripe reports more refunded than was recorded', () => {
    expect(paid(3995, 1000).leftCents).toBe(0);
    expect(paid(5000, 0).leftCents).toBe(0);
  });

  it('reads a row of the SQL figures, and no order as nothing', () => {
    expect(moneyOfRow([3995, true, 1000, 500])).toEqual(paid(1000, 500));
    expect(moneyOfRow([3995, false, 0, 0]).leftCents).toBe(0);
    expect(moneyOfRow(null)).toEqual({ refundedCents: 0, unsettledCents: 0, leftCents: 0, goneCents: 0 });
  });
});
