import type { BookingStatus } from './statuses';

/** API.md "Policy" numbers; the API reads them from configuration, these are the defaults. */
export interface PolicyRules {
  rescheduleCutoffHours: number;
  rescheduleLimit: number;
  refundCutoffHours: number;
}

export const DEFAULT_POLICY: PolicyRules = { rescheduleCutoffHours: 24, rescheduleLimit: 2, refundCutoffHours: 48 };

const HOUR = 3_600_000;

/** "once", "twice", "3 times": how the policy texts (app and e-mails) say a limit. */
export const times = (n: number) => (n === 1 ? 'once' : n === 2 ? 'twice' : `${n} times`);

/** "1 hour", "48 hours". */
export const hours = (n: number) => (n === 1 ? '1 hour' : `${n} hours`);

export interface PolicyBooking {
  status: BookingStatus;
  startAt: Date;
  amountCents: number;
  refundedCents?: number;
  rescheduleCount: number;
}

/** Last moment a booking may be moved to another session. */
export const rescheduleDeadline = (startAt: Date, rules: PolicyRules = DEFAULT_POLICY) =>
  new Date(startAt.getTime() - rules.rescheduleCutoffHours * HOUR);

/** Last moment a cancellation is refunded in full. */
export const refundDeadline = (startAt: Date, rules: PolicyRules = DEFAULT_POLICY) =>
  new Date(startAt.getTime() - rules.refundCutoffHours * HOUR);

/** Confirmed, before the cut-off, and not moved too often already. Walk-in bookings follow the same rule. */
export function canReschedule(b: PolicyBooking, now: Date, rules: PolicyRules = DEFAULT_POLICY): boolean {
  return (
    b.status === 'completed' && now < rescheduleDeadline(b.startAt, rules) && b.rescheduleCount < rules.rescheduleLimit
  );
}

/** Anything not yet cancelled whose session has not started; after the refund cut-off it cancels without refund. */
export function canCancel(b: PolicyBooking, now: Date): boolean {
  return b.status !== 'cancelled' && now < b.startAt;
}

/** What cancelling now gives back: everything still held until the cut-off, nothing after. */
export function refundableCents(b: PolicyBooking, now: Date, rules: PolicyRules = DEFAULT_POLICY): number {
  if (b.status !== 'completed' || now >= refundDeadline(b.startAt, rules)) return 0;
  return Math.max(0, b.amountCents - (b.refundedCents ?? 0));
}
