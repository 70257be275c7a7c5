import { z } from 'zod';
import { occupancyQuerySchema } from './reports';

/*
 * Apart from donations.ts, which the cart imports: the web app's cart chunk must not pull in the
 * reports' schemas, whose top-level use of a shared chunk's export broke the wizard (stop 63).
 */

/** The reports' days and location (both days inclusive). */
export const donationReportQuerySchema = occupancyQuerySchema;
export type DonationReportQuery = z.infer<typeof donationReportQuerySchema>;

export const donationDaySchema = z.object({
  date: z.iso.date(),
  count: z.number().int().meta({ description: 'paid orders with a donation, on their local day of payment' }),
  donatedCents: z.number().int(),
  refundedCents: z.number().int().meta({ description: 'given back with a full refund, on the day of the sale' }),
  netCents: z.number().int(),
});
export const donationReportSchema = z
  .object({
    charityName: z.string().nullable().meta({
      description: "as the range's orders recorded it (several joined by 'and'); none given: CHARITY_NAME, or null",
    }),
    items: z.array(donationDaySchema),
    totals: donationDaySchema.omit({ date: true }),
  })
  .meta({ id: 'DonationReport' });
export type DonationReport = z.infer<typeof donationReportSchema>;
