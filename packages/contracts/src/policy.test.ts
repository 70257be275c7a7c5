import { describe, expect, it } from 'vitest';
import {
  canCancel,
  canReschedule,
  DEFAULT_POLICY,
  refundableCents,
  refundDeadline,
  rescheduleDeadline,
  type PolicyBooking,
} from './policy';

const start = new Date('2026-12-10T00:00:00Z');
const booking = (over: Partial<PolicyBooking> = {}): PolicyBooking => ({
  status: 'completed',
  startAt: start,
  amountCents: 8990,
  rescheduleCount: 0,
  ...over,
});
const hoursBefore = (h: number) => new Date(start.getTime() - h * 3_600_000);

describe('policy rules', () => {
  it('computes the deadlines', () => {
    expect(rescheduleDeadline(start).toISOString()).toBe('2026-12-09T00:00:00.000Z');
    expect(refundDeadline(start).toISOString()).toBe('2026-12-08T00:00:00.000Z');
  });
  it('allows rescheduling until 24 h before, at most twice, confirmed bookings only', () => {
    expect(canReschedule(booking(), hoursBefore(24.01))).toBe(true);
    expect(canReschedule(booking(), hoursBefore(24))).toBe(false);
    expect(canReschedule(booking({ rescheduleCount: 1 }), hoursBefore(30))).toBe(true);
    expect(canReschedule(booking({ rescheduleCount: 2 }), hoursBefore(30))).toBe(false);
    expect(canReschedule(booking({ status: 'payment_pending' }), hoursBefore(30))).toBe(false);
  });
  it('refunds in full until 48 h before, nothing after', () => {
    expect(refundableCents(booking(), hoursBefore(48.5))).toBe(8990);
    expect(refundableCents(booking(), hoursBefore(48))).toBe(0);
    expect(refundableCents(booking({ refundedCents: 990 }), hoursBefore(72))).toBe(8000);
    expect(refundableCents(booking({ status: 'payment_failed' }), hoursBefore(72))).toBe(0);
  });
  it('cancels anything not cancelled before the session starts', () => {
    expect(canCancel(booking(), hoursBefore(1))).toBe(true);
    expect(canCancel(booking({ status: 'payment_pending' }), hoursBefore(1))).toBe(true);
    expect(canCancel(booking(), hoursBefore(0))).toBe(false);
    expect(canCancel(booking({ status: 'cancelled' }), hoursBefore(100))).toBe(false);
  });
  it('honours configured numbers', () => {
    const rules = { ...DEFAULT_POLICY, refundCutoffHours: 2, rescheduleLimit: 0 };
    expect(refundableCents(booking(), hoursBefore(3), rules)).toBe(8990);
    expect(canReschedule(booking(), hoursBefore(100), rules)).toBe(false);
  });
});
