import { z } from 'zod';

/**
 * The manager's Live page (issue 50, API.md "Additions 2026-12-01, Operations"; decision 0094):
 * GET /staff/live and the same figures as server-sent events every 2 s on GET /staff/live/stream.
 */

/** How often the stream sends, and the window of the payment and error figures. */
export const LIVE_INTERVAL_MS = 2_000;
export const LIVE_WINDOW_MINUTES = 5;

export const liveQuerySchema = z.strictObject({
  locationId: z.uuid().optional().meta({
    description:
      "One location (403 LOCATION_FORBIDDEN outside the caller's list); without it, every location the caller covers",
  }),
});
export type LiveQuery = z.infer<typeof liveQuerySchema>;

const count = (description: string) => z.int().min(0).meta({ description });

export const liveLocationSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    sold: count("Today's sessions booked and paid (the location's local today)"),
    held: count("Today's sessions under a live hold: a family choosing or paying, not paid yet"),
    free: count("Today's sessions free and not over yet: still for sale, at the set if not online"),
    closed: count("Today's sessions out of sale (blocked or closed), not booked or held"),
    line: z
      .object({
        waiting: count('Families in the fair-start line waiting to be let in (before the draw as well)'),
        admitted: count('Families let in whose admission has not run out'),
      })
      .meta({ description: "The fair-start waiting room's figures (0 where the location has no line)" }),
    paymentsLast5Min: count(
      'Payments taken in the last 5 minutes: online bookings and photo orders paid, walk-ins sold at the set',
    ),
    failedPaymentsLast5Min: count('Card payments declined or failed in the last 5 minutes (each attempt counts)'),
  })
  .meta({ id: 'LiveLocation' });
export type LiveLocation = z.infer<typeof liveLocationSchema>;

export const liveSnapshotSchema = z
  .object({
    at: z.iso.datetime().meta({ description: 'When the figures were read (the server clock)' }),
    locations: z.array(liveLocationSchema),
    errorsLast5Min: count(
      'Answers with a 5xx status in the last 5 minutes, summed over the API processes that can reach the database',
    ),
  })
  .meta({ id: 'LiveSnapshot' });
export type LiveSnapshot = z.infer<typeof liveSnapshotSchema>;
