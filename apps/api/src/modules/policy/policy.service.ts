import type { Policy } from '@kringle/contracts/policy-schema';
import type { Config } from '../../config/config';

/** The policy numbers in force, as configured (API.md "Policy"); the web app shows these, never its own. */
export const policyInForce = (config: Config): Policy => ({
  holdMinutes: config.HOLD_MINUTES,
  holdRefreshes: config.HOLD_REFRESHES,
  leadTimeMinutes: config.LEAD_TIME_MINUTES,
  rescheduleCutoffHours: config.RESCHEDULE_CUTOFF_HOURS,
  rescheduleLimit: config.RESCHEDULE_LIMIT,
  refundCutoffHours: config.REFUND_CUTOFF_HOURS,
  maxUpcomingBookings: config.MAX_UPCOMING_BOOKINGS,
  waitlistOfferMinutes: config.waitlistOfferMinutes,
  waitlistLimit: config.waitlistLimit,
  maxPeoplePerPhoto: config.maxPeoplePerPhoto,
});
