import { z } from 'zod';

const count = (description: string) => z.number().int().min(0).meta({ description });

/**
 * GET /common/policy: the policy numbers in force (API.md "Policy"). Kept apart from policy.ts so
 * the web bundle, which imports the rules from there, does not pull in zod for them.
 */
export const policySchema = z
  .object({
    holdMinutes: count('How long a picked session is held'),
    holdRefreshes: count('How many times a hold may be extended'),
    leadTimeMinutes: count('How soon before its start a session can still be booked'),
    rescheduleCutoffHours: count('A booking may be moved until this many hours before its session'),
    rescheduleLimit: count('How many times a booking may be moved'),
    refundCutoffHours: count('A cancellation is refunded in full until this many hours before the session'),
    maxUpcomingBookings: count('How many upcoming bookings a customer may have at once'),
    waitlistOfferMinutes: count('How long a waitlist offer is held for its family'),
    waitlistLimit: count('How many waitlist entries a customer may have at once'),
    maxPeoplePerPhoto: count('How many people fit in one photo'),
  })
  .meta({ id: 'Policy' });
export type Policy = z.infer<typeof policySchema>;
