import { z } from 'zod';
import { AUDIT_ACTIONS } from './audit-actions';
import { DATE_PATTERN } from './dates';

/**
 * The audit trail (issue 34, decisions 0051 and 0062): who changed what of a booking, its order, a session or the
 * season.
 */
export const ACTOR_KINDS = ['family', 'staff', 'system', 'stripe'] as const;
export type ActorKind = (typeof ACTOR_KINDS)[number];
export const ACTOR_KIND_LABELS: Record<ActorKind, string> = {
  family: 'Family',
  staff: 'Staff',
  system: 'Kringle',
  stripe: 'Stripe',
};

/**
 * What an entry is about, read when the trail is read (never stored in it): the booking's
 * reference and family, the location, and the sessions and locations its before and after name,
 * so that a change can be said in plain words (audit-words.ts).
 */
export const auditAboutSchema = z
  .object({
    reference: z.string().nullable().meta({ description: "The booking's reference" }),
    family: z
      .object({ email: z.string().nullable(), name: z.string() })
      .nullable()
      .meta({ description: "The booking's family, or the family that acted" }),
    location: z
      .object({ name: z.string(), timezone: z.string() })
      .nullable()
      .meta({ description: 'The location of the booking, session or waiting room' }),
    sessions: z
      .record(z.string(), z.iso.datetime())
      .meta({ description: 'Start time of each session named by the entry (slotId, before.slotId, after.slotId)' }),
    locations: z
      .record(z.string(), z.string())
      .meta({ description: 'Name of each location named by before or after (locationId, locationIds)' }),
  })
  .meta({ id: 'AuditAbout' });
export type AuditAbout = z.infer<typeof auditAboutSchema>;

export const auditEntrySchema = z
  .object({
    id: z.uuid(),
    at: z.iso.datetime(),
    actor: z.object({
      kind: z.enum(ACTOR_KINDS),
      id: z.uuid().nullable().meta({ description: 'The account; null for system jobs and Stripe' }),
      email: z.string().nullable().meta({ description: 'As it was at the time; null once the account was deleted' }),
    }),
    action: z.enum(AUDIT_ACTIONS).meta({
      description:
        'The action, from the typed list (audit-actions.ts): a named transition (decision 0049) such as ' +
        'staffReschedule, or e.g. staff.role_changed',
    }),
    bookingId: z
      .uuid()
      .nullable()
      .meta({ description: 'The booking; null for an entry about a session (a hold) or a season version only' }),
    slotId: z
      .uuid()
      .nullable()
      .meta({ description: 'The session, for an entry about a hold, a waitlist offer or a closed session' }),
    seasonVersion: z.number().int().nullable().meta({ description: 'The season version saved' }),
    orderId: z.uuid().nullable(),
    reason: z.string().nullable(),
    before: z
      .record(z.string(), z.unknown())
      .meta({ description: "The booking's state and the old values of the fields that changed" }),
    after: z.record(z.string(), z.unknown()).meta({ description: 'The state and the new values' }),
    about: auditAboutSchema
      .optional()
      .meta({ description: 'Given by GET /staff/audit: what the entry is about, for plain words' }),
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntry = z.infer<typeof auditEntrySchema>;

const isTimeZone = (tz: string) => {
  try {
    new Intl.DateTimeFormat('en-AU', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
};

export const auditQuerySchema = z.strictObject({
  bookingId: z.uuid().optional(),
  actorId: z.uuid().optional(),
  from: z
    .string()
    .regex(DATE_PATTERN, 'Use YYYY-MM-DD')
    .optional()
    .meta({ description: 'First day, inclusive: a UTC day, or a day in timeZone when given' }),
  to: z
    .string()
    .regex(DATE_PATTERN, 'Use YYYY-MM-DD')
    .optional()
    .meta({ description: 'Last day, inclusive: a UTC day, or a day in timeZone when given' }),
  timeZone: z.string().max(64).refine(isTimeZone, 'Use an IANA time zone, e.g. Australia/Sydney').optional().meta({
    description: "The zone from and to are days of (the location's local day, e.g. Australia/Sydney); UTC when absent",
  }),
  family: z
    .string()
    .trim()
    .min(2)
    .max(200)
    .optional()
    .meta({ description: "Part of the family's e-mail or name: entries about its bookings and its own changes" }),
  reference: z
    .string()
    .trim()
    .min(4)
    .max(20)
    .transform((r) => r.toUpperCase())
    .optional()
    .meta({ description: "A booking's reference (any case)" }),
  staffEmail: z
    .string()
    .trim()
    .min(2)
    .max(254)
    .optional()
    .meta({ description: "Part of a staff member's e-mail: what they did, and the changes to their account" }),
  cursor: z.string().max(200).optional(),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;
export const auditCsvQuerySchema = auditQuerySchema.omit({ cursor: true });

export const auditListSchema = z
  .object({ items: z.array(auditEntrySchema), nextCursor: z.string().nullable() })
  .meta({ id: 'AuditList' });
export type AuditList = z.infer<typeof auditListSchema>;
