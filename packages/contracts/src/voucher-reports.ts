import { z } from 'zod';

/** The gift voucher liability report (API.md: GET /staff/reports/vouchers?from=&to=, decision 0112). */
export const voucherReportQuerySchema = z.strictObject({
  from: z.iso.date(),
  to: z.iso.date(),
});
export type VoucherReportQuery = z.infer<typeof voucherReportQuerySchema>;

const figures = {
  soldCount: z.number().int().meta({ description: 'vouchers paid that day (Sydney time)' }),
  soldCents: z.number().int(),
  redeemedCents: z
    .number()
    .int()
    .meta({ description: 'spent on bookings that day, less what lapses and refunds gave back that day' }),
  expiredCents: z.number().int().meta({ description: 'balances left on vouchers that expired that day' }),
  cancelledCents: z.number().int().meta({ description: "balances support cancelled that day (to the buyer's card)" }),
};
export const voucherReportSchema = z
  .object({
    items: z.array(z.object({ date: z.iso.date(), ...figures })),
    totals: z.object({
      ...figures,
      outstandingCents: z.number().int().meta({ description: "every live voucher's balance now: what is still owed" }),
    }),
  })
  .meta({ id: 'VoucherReport' });
export type VoucherReport = z.infer<typeof voucherReportSchema>;
