import { formatSessionTime } from '@kringle/contracts/dates';
import { DEFAULT_POLICY, refundDeadline, rescheduleDeadline, type PolicyRules } from '@kringle/contracts/policy';
import { serverNow } from '../../../lib/server-clock';

export interface PolicyText {
  reschedule: string;
  refund: string;
  /** True while the deadline is still ahead (the line reads as a promise, not a warning). */
  canReschedule: boolean;
  canRefund: boolean;
}

const times = (n: number) => (n === 1 ? 'once' : n === 2 ? 'twice' : `${n} times`);

/**
 * This booking's policy in plain words, with the deadlines of *its* session in the location's
 * time ("Free reschedule until Fri 4 Dec, 10:40 am AEDT"). A deadline already past says so.
 */
export function policyText(startAt: string, timezone: string, now: Date = new Date(serverNow()), rules: PolicyRules = DEFAULT_POLICY): PolicyText {
  const start = new Date(startAt);
  const moveBy = rescheduleDeadline(start, rules);
  const refundBy = refundDeadline(start, rules);
  const canReschedule = now < moveBy;
  const canRefund = now < refundBy;
  return {
    canReschedule,
    canRefund,
    reschedule: canReschedule
      ? `Free reschedule until ${formatSessionTime(moveBy, timezone)}, up to ${times(rules.rescheduleLimit)}, to another session at the same location.`
      : `Your session is less than ${rules.rescheduleCutoffHours} hours away, so it can't be moved to another time.`,
    refund: canRefund
      ? `Full refund if you cancel before ${formatSessionTime(refundBy, timezone)}. After that you can still cancel, but without a refund.`
      : `Your session is less than ${rules.refundCutoffHours} hours away, so if you cancel there is no refund.`,
  };
}
