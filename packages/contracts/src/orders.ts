import { z } from 'zod';
import { lineItemSchema } from './cart';
import { ORDER_STATUSES, PAYMENT_STATUSES } from './statuses';

export const orderSchema = z
  .object({
    id: z.uuid(),
    bookingId: z.uuid(),
    status: z.enum(ORDER_STATUSES),
    paymentStatus: z.enum(PAYMENT_STATUSES).nullable(),
    amountCents: z.number().int(),
    refundedCents: z.number().int(),
    refundPendingCents: z
      .number()
      .int()
      .meta({ description: 'Refunds decided but not yet at the card: pending at Stripe, or being retried by staff.' }),
    items: z.array(lineItemSchema),
    createdAt: z.iso.datetime(),
    paidAt: z.iso.datetime().nullable(),
    refundedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'Order' });
export type Order = z.infer<typeof orderSchema>;
export const orderListSchema = z.object({ items: z.array(orderSchema) });
