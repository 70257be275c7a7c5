import { describe, expect, it } from 'vitest';
import {
  canMovePayment,
  canMoveRefund,
  PAYMENT_MOVES,
  PAYMENT_STATES,
  REFUND_MOVES,
  REFUND_STATES,
  type PaymentMoveName,
  type PaymentState,
  type RefundMoveName,
  type RefundState,
} from './payment-table';

/**
 * Both tables written out by hand (decision 0091): the states each move may start from. A change
 * to a table must change this too, on purpose.
 */
const PAYMENT: Record<PaymentMoveName, PaymentState[]> = {
  open: ['new'],
  payInStore: ['new'],
  succeed: ['pending', 'failed'],
  decline: ['pending', 'failed'],
  abandon: ['pending', 'failed'],
  syncRefunded: ['pending', 'failed', 'paid', 'refunded'],
};
const REFUND: Record<RefundMoveName, RefundState[]> = {
  request: ['new'],
  settle: ['pending'],
  giveUp: ['pending'],
  backToCard: ['succeeded'],
};

describe('the payment and refund tables', () => {
  it('each payment move starts only from the states written here', () => {
    expect(Object.keys(PAYMENT_MOVES).sort()).toEqual(Object.keys(PAYMENT).sort());
    for (const move of Object.keys(PAYMENT) as PaymentMoveName[])
      for (const state of PAYMENT_STATES)
        expect(canMovePayment(state, move), `${state} × ${move}`).toBe(PAYMENT[move].includes(state));
  });

  it('each refund move starts only from the states written here', () => {
    expect(Object.keys(REFUND_MOVES).sort()).toEqual(Object.keys(REFUND).sort());
    for (const move of Object.keys(REFUND) as RefundMoveName[])
      for (const state of REFUND_STATES)
        expect(canMoveRefund(state, move), `${state} × ${move}`).toBe(REFUND[move].includes(state));
  });

  it('a paid order is never paid, declined or abandoned again; a settled refund never moves', () => {
    for (const move of ['succeed', 'decline', 'abandon'] as const) {
      expect(canMovePayment('paid', move)).toBe(false);
      expect(canMovePayment('refunded', move)).toBe(false);
    }
    for (const state of ['succeeded', 'failed'] as const)
      for (const move of ['settle', 'giveUp'] as const) expect(canMoveRefund(state, move)).toBe(false);
  });

  it('the moves lead where they say', () => {
    expect(PAYMENT_MOVES.succeed.to).toBe('paid');
    expect(PAYMENT_MOVES.decline.to).toBe('failed');
    expect(PAYMENT_MOVES.abandon.to).toBe('failed');
    expect(REFUND_MOVES.settle.to).toBe('succeeded');
    expect(REFUND_MOVES.giveUp.to).toBe('failed');
  });
});
