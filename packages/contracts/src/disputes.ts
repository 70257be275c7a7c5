import { z } from 'zod';

/**
 * Chargebacks (issue 56, API.md "Money after the sale"): a dispute Stripe opens on a paid order,
 * answered with an evidence draft made from what Kringle holds, reviewed and submitted by support.
 */

/** Stripe's dispute statuses (Stripe.Dispute.Status). */
export const DISPUTE_STATUSES = [
  'warning_needs_response',
  'warning_under_review',
  'warning_closed',
  'needs_response',
  'under_review',
  'won',
  'lost',
  'prevented',
] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];
/** Statuses in which evidence may still be staged and submitted. */
export const DISPUTE_OPEN_STATUSES: readonly DisputeStatus[] = ['warning_needs_response', 'needs_response'];

/**
 * The evidence Kringle drafts, in Stripe's own field names, each text as Stripe receives it. Stripe
 * takes `receipt` and `customer_communication` as uploaded files: the receipt goes as the tax
 * invoice's PDF (`receiptFileId`), the e-mails' text into `uncategorized_text` (decision 0105).
 */
export const DISPUTE_EVIDENCE_FIELDS = [
  'customer_name',
  'customer_email_address',
  'customer_purchase_ip',
  'product_description',
  'service_date',
  'cancellation_policy_disclosure',
  'refund_policy_disclosure',
  'access_activity_log',
  'receipt',
  'customer_communication',
  'uncategorized_text',
] as const;
export type DisputeEvidenceField = (typeof DISPUTE_EVIDENCE_FIELDS)[number];
export const DISPUTE_EVIDENCE_LABELS: Record<DisputeEvidenceField, string> = {
  customer_name: 'Customer name',
  customer_email_address: 'Customer e-mail',
  customer_purchase_ip: 'Address the payment came from',
  product_description: 'What was bought',
  service_date: 'Session date',
  cancellation_policy_disclosure: 'Cancellation policy the family accepted',
  refund_policy_disclosure: 'Refund policy the family accepted',
  access_activity_log: 'Check-in and photo access',
  receipt: 'Receipts',
  customer_communication: 'E-mails sent to the family',
  uncategorized_text: 'Statement',
};

export const disputeEvidenceSchema = z
  .object(
    Object.fromEntries(DISPUTE_EVIDENCE_FIELDS.map((f) => [f, z.string().nullable()])) as Record<
      DisputeEvidenceField,
      z.ZodNullable<z.ZodString>
    >,
  )
  .meta({ id: 'DisputeEvidence', description: "Stripe's evidence fields as drafted; null where nothing is held" });
export type DisputeEvidence = z.infer<typeof disputeEvidenceSchema>;

export const disputeSchema = z
  .object({
    id: z.string().meta({ description: "Stripe's dispute id (dp_...)" }),
    orderId: z.uuid(),
    bookingId: z.uuid(),
    bookingReference: z.string(),
    locationId: z.uuid(),
    reason: z.string().meta({ description: "Stripe's reason: fraudulent, product_not_received, ..." }),
    amountCents: z.int(),
    status: z.enum(DISPUTE_STATUSES),
    dueBy: z.iso.datetime().nullable().meta({ description: 'When the evidence must be in' }),
    evidence: disputeEvidenceSchema.nullable().meta({ description: 'The draft; null until it is made' }),
    evidenceStagedAt: z.iso
      .datetime()
      .nullable()
      .meta({ description: 'When the draft was staged on Stripe (submit:false); null until then' }),
    receiptFileId: z
      .string()
      .nullable()
      .meta({ description: "Stripe's File id of the tax invoice (a PDF) sent as the `receipt`; null until made" }),
    submittedAt: z.iso.datetime().nullable(),
    submittedBy: z.string().nullable().meta({ description: "The staff member's e-mail" }),
    submitReason: z.string().nullable(),
    createdAt: z.iso.datetime(),
    closedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'Dispute' });
export type Dispute = z.infer<typeof disputeSchema>;

export const disputeListSchema = z
  .object({ items: z.array(disputeSchema).meta({ description: 'Open ones first, then newest first; at most 200' }) })
  .meta({ id: 'DisputeList' });
export type DisputeList = z.infer<typeof disputeListSchema>;

export const disputeParamsSchema = z.strictObject({
  id: z
    .string()
    .regex(/^dp_[A-Za-z0-9]{1,60}$/, "Use Stripe's dispute id (dp_...)")
    .meta({ description: "Stripe's dispute id" }),
});
export const STATEMENT_MIN = 3;
export const STATEMENT_MAX = 2000;
export const disputeSubmitBodySchema = z.strictObject({
  reason: z
    .string()
    .trim()
    .min(STATEMENT_MIN, `Say why in at least ${STATEMENT_MIN} characters`)
    .max(STATEMENT_MAX, `At most ${STATEMENT_MAX} characters`)
    .meta({
      description:
        `Support's statement to the bank (${STATEMENT_MIN}-${STATEMENT_MAX} characters): sent first in ` +
        'uncategorized_text, and kept in the audit trail',
    }),
});
