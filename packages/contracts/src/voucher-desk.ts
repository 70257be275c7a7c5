import { z } from 'zod';
import { reasonSchema } from './support';
import { VOUCHER_ENTRY_REASONS, voucherSchema } from './vouchers';

/** Support's desk (API.md: GET /staff/vouchers?q=, POST /staff/vouchers/{id}/cancel). */
export const staffVoucherQuerySchema = z.strictObject({
  q: z.string().trim().min(3, 'At least 3 characters').max(100).meta({
    description: "a code (whole), or part of the buyer's or recipient's e-mail or name",
  }),
});

export const voucherCancelBodySchema = z.strictObject({ reason: reasonSchema });

export const staffVoucherSchema = voucherSchema
  .omit({ bought: true, claimed: true })
  .extend({
    buyerEmail: z.string().nullable(),
    recipientEmail: z.string().nullable(),
    ownerEmail: z.string().nullable().meta({ description: 'the account it is claimed into' }),
    cancelReason: z.string().nullable(),
    refund: z
      .object({ cents: z.number().int(), status: z.enum(['pending', 'sent']) })
      .nullable()
      .meta({ description: "a cancel's refund of the unspent balance to the buyer's card" }),
    history: z.array(
      z.object({
        at: z.iso.datetime(),
        cents: z.number().int().meta({ description: 'signed' }),
        reason: z.enum(VOUCHER_ENTRY_REASONS),
        bookingId: z.uuid().nullable(),
      }),
    ),
  })
  .meta({ id: 'StaffVoucher' });
export type StaffVoucher = z.infer<typeof staffVoucherSchema>;
export const staffVoucherListSchema = z.object({ items: z.array(staffVoucherSchema) }).meta({ id: 'StaffVoucherList' });
export type StaffVoucherList = z.infer<typeof staffVoucherListSchema>;
