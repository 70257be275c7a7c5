import { describe, expect, it } from 'vitest';
import {
  BOOKING_STATES,
  nextState,
  stateOf,
  TRANSITIONS,
  type BookingState,
  type TransitionName,
} from './transition-table';

/**
 * The whole table, written out by hand: every (state, transition) pair either moves to the state
 * named here or is refused (null). A change to the table must change this too, on purpose.
 */
const EXPECTED: Record<TransitionName, Partial<Record<BookingState, BookingState>>> = {
  openCheckout: { new: 'pending' },
  confirmPaid: { pending: 'confirmed', failed: 'confirmed', lapsed: 'confirmed' },
  loseSessionAfterPayment: { pending: 'cancelled', failed: 'cancelled', lapsed: 'cancelled' },
  refundLatePayment: { cancelled: 'cancelled', confirmed: 'confirmed', checked_in: 'checked_in', no_show: 'no_show' },
  failPayment: { pending: 'failed', failed: 'failed' },
  cancelPayment: { pending: 'cancelled', failed: 'cancelled' },
  lapseCheckout: { pending: 'lapsed', failed: 'lapsed' },
  cancel: { pending: 'cancelled', failed: 'cancelled', confirmed: 'cancelled' },
  reschedule: { confirmed: 'confirmed' },
  staffReschedule: { confirmed: 'confirmed' },
  staffCancel: { pending: 'cancelled', failed: 'cancelled', confirmed: 'cancelled', no_show: 'cancelled' },
  closureCancel: { pending: 'cancelled', failed: 'cancelled', confirmed: 'cancelled' },
  closureMove: { confirmed: 'confirmed' },
  refundPart: { confirmed: 'confirmed', checked_in: 'checked_in', no_show: 'no_show', cancelled: 'cancelled' },
  staffEditDetails: { pending: 'pending', failed: 'failed', confirmed: 'confirmed' },
  sellWalkIn: { new: 'confirmed' },
  openPhotoOrder: { confirmed: 'confirmed', checked_in: 'checked_in', no_show: 'no_show' },
  payPhotoOrder: { confirmed: 'confirmed', checked_in: 'checked_in', no_show: 'no_show' },
  refundPhotoOrder: {
    pending: 'pending',
    failed: 'failed',
    lapsed: 'lapsed',
    confirmed: 'confirmed',
    checked_in: 'checked_in',
    no_show: 'no_show',
    cancelled: 'cancelled',
  },
  failPhotoOrder: {
    pending: 'pending',
    failed: 'failed',
    lapsed: 'lapsed',
    confirmed: 'confirmed',
    checked_in: 'checked_in',
    no_show: 'no_show',
    cancelled: 'cancelled',
  },
  checkIn: { confirmed: 'checked_in', no_show: 'checked_in' },
  markNoShow: { confirmed: 'no_show' },
  undoCheckIn: { checked_in: 'confirmed' },
  undoNoShow: { no_show: 'confirmed' },
};

describe('the booking transition table', () => {
  const pairs = BOOKING_STATES.flatMap((state) =>
    (Object.keys(TRANSITIONS) as TransitionName[]).map((t) => [state, t] as const),
  );

  it.each(pairs)('%s × %s either moves or is refused, as written out', (state, transition) => {
    expect(nextState(state, transition)).toBe(EXPECTED[transition][state] ?? null);
  });

  it('names every transition the table has', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual(Object.keys(TRANSITIONS).sort());
  });

  it('reads the state from the row: a lapsed checkout and attendance told apart', () => {
    const row = { status: 'completed' as const, cancelReason: null, checkedInAt: null, noShowAt: null };
    expect(stateOf(undefined)).toBe('new');
    expect(stateOf({ ...row, status: 'payment_pending' })).toBe('pending');
    expect(stateOf({ ...row, status: 'payment_failed' })).toBe('failed');
    expect(stateOf({ ...row, status: 'cancelled', cancelReason: 'hold_expired' })).toBe('lapsed');
    expect(stateOf({ ...row, status: 'cancelled', cancelReason: 'customer_cancelled' })).toBe('cancelled');
    expect(stateOf(row)).toBe('confirmed');
    expect(stateOf({ ...row, checkedInAt: new Date() })).toBe('checked_in');
    expect(stateOf({ ...row, noShowAt: new Date() })).toBe('no_show');
  });
});
