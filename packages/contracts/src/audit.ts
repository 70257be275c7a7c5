import { z } from 'zod';
import { DATE_PATTERN } from './dates';

/** The audit trail (issue 34, decisions 0051 and 0062): who changed what of a booking, its order, a session or the season. */
export const ACTOR_KINDS = ['family', 'staff', 'system', 'stripe'] as const;
export type ActorKind = (typeof ACTOR_KINDS)[number];
export const ACTOR_KIND_LABELS: Record<ActorKind, string> = { family: 'Family', staff: 'Staff', system: 'Kringle', stripe: 'Stripe' };

/** The transitions' names as people read them (booking-lifecycle/transition-table.ts). */
export const AUDIT_ACTION_LABELS: Record<string, string> = {
  openCheckout: 'Checkout started',
  confirmPaid: 'Paid and confirmed',
  loseSessionAfterPayment: 'Paid after the session was taken: refunded',
  refundLatePayment: 'Late payment refunded',
  failPayment: 'Payment declined',
  cancelPayment: 'Payment cancelled',
  lapseCheckout: 'Checkout lapsed unpaid',
  cancel: 'Cancelled by the family',
  reschedule: 'Moved by the family',
  staffReschedule: 'Moved by the team',
  staffCancel: 'Cancelled by the team',
  closureCancel: 'Session closed: cancelled and refunded in full',
  closureMove: 'Session closed: moved to the session offered',
  refundPart: 'Partly refunded by the team',
  staffEditDetails: "Who's coming changed by the team",
  sellWalkIn: 'Sold as a walk-in',
  openPhotoOrder: 'More photos ordered',
  payPhotoOrder: 'More photos paid and unlocked',
  refundPhotoOrder: 'Photos paid after they were gone: refunded',
  failPhotoOrder: 'Photo payment declined',
  downloadPhotoOriginal: 'Photo original downloaded',
  downloadPhotoZip: 'Photo originals downloaded (zip)',
  extendPhotoGallery: 'Photo gallery extended by the team',
  checkIn: 'Checked in',
  markNoShow: 'Marked no-show',
  undoCheckIn: 'Check-in undone',
  undoNoShow: 'No-show undone',
  takeHold: 'Session held',
  refreshHold: 'Hold extended',
  releaseHold: 'Hold let go',
  expireHold: 'Hold ran out',
  offerFromWaitlist: 'Offered to the waitlist',
  passOffer: 'Waitlist offer passed on',
  lapseOffer: 'Waitlist offer lapsed',
  claimOffer: 'Waitlist offer booked',
  closeSession: 'Session closed',
  offerClosureMove: 'Session held for a closure move',
  endClosureOffer: 'Closure move offer ended',
  settleRefund: 'Refund sent',
  giveUpRefund: 'Refund given up',
  refundReported: 'Refund reported by Stripe',
  saveSeason: 'Season saved',
};

export const auditEntrySchema = z
  .object({
    id: z.uuid(),
    at: z.iso.datetime(),
    actor: z.object({
      kind: z.enum(ACTOR_KINDS),
      id: z.uuid().nullable().meta({ description: 'The account; null for system jobs and Stripe' }),
      email: z.string().nullable().meta({ description: 'As it was at the time; null once the account was deleted' }),
    }),
    action: z.string().meta({ description: 'The named transition (decision 0049), e.g. staffReschedule' }),
    bookingId: z.uuid().nullable().meta({ description: 'The booking; null for an entry about a session (a hold) or a season version only' }),
    slotId: z.uuid().nullable().meta({ description: 'The session, for an entry about a hold, a waitlist offer or a closed session' }),
    seasonVersion: z.number().int().nullable().meta({ description: 'The season version saved' }),
    orderId: z.uuid().nullable(),
    reason: z.string().nullable(),
    before: z.record(z.string(), z.unknown()).meta({ description: "The booking's state and the old values of the fields that changed" }),
    after: z.record(z.string(), z.unknown()).meta({ description: 'The state and the new values' }),
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditQuerySchema = z.strictObject({
  bookingId: z.uuid().optional(),
  actorId: z.uuid().optional(),
  from: z.string().regex(DATE_PATTERN, 'Use YYYY-MM-DD').optional().meta({ description: 'First day (UTC), inclusive' }),
  to: z.string().regex(DATE_PATTERN, 'Use YYYY-MM-DD').optional().meta({ description: 'Last day (UTC), inclusive' }),
  cursor: z.string().max(200).optional(),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;
export const auditCsvQuerySchema = auditQuerySchema.omit({ cursor: true });

export const auditListSchema = z.object({ items: z.array(auditEntrySchema), nextCursor: z.string().nullable() }).meta({ id: 'AuditList' });
export type AuditList = z.infer<typeof auditListSchema>;
