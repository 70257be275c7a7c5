import { z } from 'zod';
import { calendarDateSchema } from './dates';

/**
 * Managers' reports (issue 35, API.md "Season editor, closures, reports"; decision 0057): sales by
 * day, location or package, and occupancy per location and day.
 */

/** The longest range one report covers: a whole season and then some, never an open-ended scan. */
export const REPORT_MAX_DAYS = 120;

export const SALES_GROUPS = ['day', 'location', 'package'] as const;
export type SalesGroup = (typeof SALES_GROUPS)[number];
export const SALES_CHANNELS = ['online', 'walkin'] as const;
export type SalesChannel = (typeof SALES_CHANNELS)[number];
export const SALES_CHANNEL_LABELS: Record<SalesChannel, string> = { online: 'Online', walkin: 'Walk-in' };

const range = {
  from: calendarDateSchema.meta({ description: "First day, inclusive (YYYY-MM-DD, each location's own calendar)" }),
  to: calendarDateSchema.meta({ description: `Last day, inclusive; at most ${REPORT_MAX_DAYS} days after from` }),
  locationId: z.uuid().optional().meta({
    description:
      "One location (403 LOCATION_FORBIDDEN outside the caller's list); without it, every location the caller covers",
  }),
};

export const salesQuerySchema = z.strictObject({
  ...range,
  groupBy: z
    .enum(SALES_GROUPS)
    .default('day')
    .meta({ description: 'day (YYYY-MM-DD), location (its id) or package (the package names of the order)' }),
});
export type SalesQuery = z.infer<typeof salesQuerySchema>;

export const occupancyQuerySchema = z.strictObject(range);
export type OccupancyQuery = z.infer<typeof occupancyQuerySchema>;

const moneyFields = {
  bookings: z.int().meta({ description: 'Paid orders (one per booking)' }),
  grossCents: z.int().meta({ description: 'What was paid for the goods, GST included (donations apart)' }),
  gstCents: z
    .int()
    .meta({ description: "The GST of the tax invoices: each invoice's one eleventh, rounded to the cent, summed" }),
  refundsCents: z
    .int()
    .meta({ description: "Succeeded refunds of these orders' goods, whenever made (a refund takes the goods first)" }),
  refundsGstCents: z.int().meta({ description: 'The GST of the refund receipts, summed the same way' }),
  netCents: z.int().meta({ description: 'grossCents - refundsCents' }),
  disputedCents: z.int().meta({
    description: "Chargebacks opened on these orders by the cardholder's bank, whenever (inquiries left out)",
  }),
  disputesLostCents: z
    .int()
    .meta({ description: 'Of disputedCents, the disputes the bank decided for the cardholder' }),
};
export const salesFiguresSchema = z.object(moneyFields).meta({ id: 'SalesFigures' });
export type SalesFigures = z.infer<typeof salesFiguresSchema>;

const withChannels = z.object({
  ...moneyFields,
  channels: z.object({ online: salesFiguresSchema, walkin: salesFiguresSchema }).meta({
    description: 'The same figures for online sales and walk-ins (paid in store) apart; they add up to the row',
  }),
});

export const salesRowSchema = withChannels.extend({
  key: z.string().meta({ description: 'The day, the location id, or the package names (" + " between several)' }),
  label: z
    .string()
    .meta({ description: "As a person reads the key: the location's name; the day and package as the key" }),
});
export type SalesRow = z.infer<typeof salesRowSchema>;

export const salesReportSchema = z
  .object({
    from: z.string(),
    to: z.string(),
    groupBy: z.enum(SALES_GROUPS),
    items: z.array(salesRowSchema),
    totals: withChannels,
  })
  .meta({ id: 'SalesReport' });
export type SalesReport = z.infer<typeof salesReportSchema>;

export const occupancyRowSchema = z.object({
  date: z.string().meta({ description: "The location's own calendar day" }),
  locationId: z.uuid(),
  locationName: z.string(),
  capacity: z.int().meta({ description: 'Sessions that day (one family each), closed ones included' }),
  booked: z.int().meta({ description: 'Sessions a confirmed booking owns' }),
  held: z.int().meta({ description: 'Free sessions under a live hold (a family at checkout)' }),
  free: z.int().meta({ description: 'capacity - booked - held - closed' }),
  closed: z.int().meta({ description: 'Sessions out of sale and not booked' }),
  checkedIn: z.int(),
  noShow: z.int(),
});
export type OccupancyRow = z.infer<typeof occupancyRowSchema>;

export const occupancyReportSchema = z
  .object({ from: z.string(), to: z.string(), items: z.array(occupancyRowSchema) })
  .meta({ id: 'OccupancyReport' });
export type OccupancyReport = z.infer<typeof occupancyReportSchema>;
