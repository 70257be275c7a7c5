import { z } from 'zod';
import { AUDIT_ACTIONS } from './audit-actions';
import { DATE_PATTERN } from './dates';

/** The audit trail (issue 34, decisions 0051 and 0062): who changed what of a booking, its order, a session or the season. */
export const ACTOR_KINDS = ['family', 'staff', 'system', 'stripe'] as const;
export type ActorKind = (typeof ACTOR_KINDS)[number];
export const ACTOR_KIND_LABELS: Record<ActorKind, string> = { family: 'Family', staff: 'Staff', system: 'Kringle', stripe: 'Stripe' };

export const auditEntrySchema = z
  .object({
    id: z.uuid(),
    at: z.iso.datetime(),
    actor: z.object({
      kind: z.enum(ACTOR_KINDS),
      id: z.uuid().nullable().meta({ description: 'The account; null for system jobs and Stripe' }),
      email: z.string().nullable().meta({ description: 'As it was at the time; null once the account was deleted' }),
    }),
    action: z.enum(AUDIT_ACTIONS).meta({ description: 'The action, from the typed list (audit-actions.ts): a named transition (decision 0049) such as staffReschedule, or e.g. staff.role_changed' }),
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
