import { describe, expect, it } from 'vitest';
import { BOOKING_STATUSES, BOOKING_STATUS_TAGS } from './statuses';

describe('booking status tags (spec §4)', () => {
  it('has the spec labels and colours', () => {
    expect(BOOKING_STATUS_TAGS).toEqual({
      payment_pending: { label: 'Payment Pending', colour: 'orange' },
      completed: { label: 'Confirmed', colour: 'green' },
      cancelled: { label: 'Cancelled', colour: 'red' },
      payment_failed: { label: 'Payment Failed', colour: 'volcano' },
    });
    expect(Object.keys(BOOKING_STATUS_TAGS).sort()).toEqual([...BOOKING_STATUSES].sort());
  });
});
