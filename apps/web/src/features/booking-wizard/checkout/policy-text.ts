import { formatSessionTime } from '@kringle/contracts/dates';
import { hours, type PolicyRules, refundDeadline, rescheduleDeadline, times } from '@kringle/contracts/policy';
import { serverNow } from '../../../lib/server-clock';

export interface PolicyText {
  reschedule: string;
  refund: string;
  /** True while the deadline is still ahead (the line reads as a promise, not a warning). */
  canReschedule: boolean;
  canRefund: boolean;
}

/**
 * This booking's policy in plain words, with the deadlines of *its* session in the location's
 * time ("Free reschedule until Fri 4 Dec, 10:40 am AEDT"). A deadline already past says so.
 * `rules` are the API's numbers in force (GET /common/policy), never built-in ones.
 */
export function policyText(
  startAt: string,
  timezone: string,
  rules: PolicyRules,
  now: Date = new Date(serverNow()),
): PolicyText {
  const start = new Date(startAt);
  const moveBy = rescheduleDeadline(start, rules);
  const refundBy = refundDeadline(start, rules);
  const canReschedule = now < moveBy;
  const canRefund = now < refundBy;
  return {
    canReschedule,
    canRefund,
    reschedule: canReschedule
      ? `Free reschedule until ` +
        `${formatSessionTime(moveBy, timezone)}, up to ${times(rules.rescheduleLimit)}, to another session at the ` +
        `same location.`
      : `Your session is less than ${hours(rules.rescheduleCutoffHours)} away, so it can't be moved to another time.`,
    refund: canRefund
      ? `Full refund if you cancel before ` +
        `${formatSessionTime(refundBy, timezone)}. After that you can still cancel, but without a refund.`
      : `Your session is less than ${hours(rules.refundCutoffHours)} away, so if you cancel there is no refund.`,
  };
}
