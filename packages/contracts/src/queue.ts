import { z } from 'zod';
import { MAX_PACKAGES } from './cart';
import { reservationSchema } from './reservations';

/** API.md "Additions (2026-11-26)" → "Fair start (waiting room)", decision 0053. */
export const QUEUE_TICKET_STATUSES = ['before_open', 'waiting', 'admitted', 'sold_out', 'closed', 'lapsed'] as const;
export type QueueTicketStatus = (typeof QUEUE_TICKET_STATUSES)[number];

export const queueParamsSchema = z.strictObject({ locationId: z.uuid() });

const clockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'A time as HH:mm');

/** What a family will book, chosen in the waiting room before the opening (issue 55, decision 0116). */
export const queueWantsSchema = z
  .strictObject({
    slotTypeId: z.uuid(),
    date: z.iso.date().optional().meta({ description: "the preferred day, in the location's own zone" }),
    from: clockTime.optional().meta({ description: 'sessions starting at or after this local time (HH:mm)' }),
    to: clockTime.optional().meta({ description: 'sessions starting before this local time (HH:mm)' }),
    packages: z
      .array(z.strictObject({ id: z.uuid(), quantity: z.number().int().min(1).max(MAX_PACKAGES) }))
      .min(1, 'Choose at least one package')
      .max(MAX_PACKAGES),
  })
  .refine((w) => w.packages.reduce((n, p) => n + p.quantity, 0) <= MAX_PACKAGES, {
    message: `At most ${MAX_PACKAGES} packages in total`,
    path: ['packages'],
  })
  .refine((w) => new Set(w.packages.map((p) => p.id)).size === w.packages.length, {
    message: 'Each package once',
    path: ['packages'],
  })
  .refine((w) => !w.from || !w.to || w.from < w.to, { message: 'The window must end after it starts', path: ['to'] })
  .meta({ id: 'QueueWants' });
export type QueueWants = z.infer<typeof queueWantsSchema>;

/** POST /queue/{locationId}: no body (or `{}`) joins; `wants` (before the draw) sets what will be held. */
export const queueJoinBodySchema = z.strictObject({ wants: queueWantsSchema.optional() });
export type QueueJoinBody = z.infer<typeof queueJoinBodySchema>;

export const queueTicketSchema = z
  .object({
    status: z.enum(QUEUE_TICKET_STATUSES).meta({
      description:
        'before_open: in the line, the draw has not happened; waiting: placed, not yet admitted; admitted: may hold ' +
        'a session until admittedUntil; ' +
        'sold_out: nothing free right now (the waitlist is open; a freed session admits the next family); closed: ' +
        'the admission lapsed (or went unused, no hold taken, for QUEUE_IDLE_SECONDS) or the line closed; lapsed: ' +
        'not seen (no poll, no stream) for QUEUE_RECONNECT_SECONDS after the opening, so its place passed on; ' +
        'joining again puts it at the back, once',
    }),
    position: z
      .number()
      .int()
      .min(1)
      .nullable()
      .meta({ description: 'the place in the line (1 = first); null before the draw' }),
    ahead: z
      .number()
      .int()
      .min(0)
      .nullable()
      .meta({ description: 'families still waiting ahead; null before the draw' }),
    estimatedWaitSeconds: z.number().int().min(0).nullable().meta({
      description: 'from the admission rate measured over the last minutes; null when nothing has been measured yet',
    }),
    admittedUntil: z.iso.datetime().nullable(),
    opensAt: z.iso.datetime().meta({ description: 'the sales opening instant, when the draw happens' }),
    wants: queueWantsSchema.nullable().meta({ description: 'what the family chose to have held at its admission' }),
    reservation: reservationSchema.nullable().meta({
      description:
        'admitted with `wants`: the session held for it (a live hold or unpaid checkout made since its admission); ' +
        'null when none matched or before the admission',
    }),
  })
  .meta({ id: 'QueueTicket' });
export type QueueTicket = z.infer<typeof queueTicketSchema>;

export const queueFairnessSchema = z
  .object({
    seedHash: z
      .string()
      .meta({ description: 'hex SHA-256 of the seed (its UTF-8 text), published when the line opened' }),
    seed: z.string().nullable().meta({ description: 'the seed, published after the draw (null before)' }),
    drawnAt: z.iso.datetime().nullable(),
    entrants: z.array(z.string()).meta({
      description:
        'the ticket ids in the draw; after it, in drawn order (position 1 first): sorting them by hex ' +
        'HMAC-SHA256(key = seed, message = ticket id) ascending gives this order',
    }),
  })
  .meta({ id: 'QueueFairness' });
export type QueueFairness = z.infer<typeof queueFairnessSchema>;

export const staffQueueSummarySchema = z
  .object({
    locationId: z.uuid(),
    opensAt: z.iso.datetime(),
    drawnAt: z.iso.datetime().nullable(),
    paused: z.boolean(),
    closed: z.boolean(),
    length: z.number().int().min(0).meta({ description: 'families in the line still waiting' }),
    admitted: z.number().int().min(0).meta({ description: 'admitted, admission live, not holding a session' }),
    holding: z.number().int().min(0).meta({ description: 'admitted families holding a session or checking out' }),
    sold: z.number().int().min(0).meta({ description: "sessions of this location booked since the line's draw" }),
    freeSessions: z.number().int().min(0),
  })
  .meta({ id: 'StaffQueueSummary' });
export type StaffQueueSummary = z.infer<typeof staffQueueSummarySchema>;

/** GET /queue/{locationId}/report (issue 55): the drop, published from the draw on. */
export const queueReportSchema = z
  .object({
    final: z.boolean().meta({ description: 'true once the line has closed: the figures no longer change' }),
    seedHash: z.string(),
    seed: z.string(),
    entrants: z.array(z.string()).meta({ description: 'the ticket ids in the draw, in drawn order (as /fairness)' }),
    admittedByMinute: z
      .array(
        z.object({
          minute: z.string().meta({ description: "the location's local YYYY-MM-DDTHH:mm" }),
          admitted: z.number().int(),
        }),
      )
      .meta({ description: 'families admitted in each minute with any admission' }),
    heldWithinSeconds: z
      .object({ p50: z.number().nullable(), p95: z.number().nullable() })
      .meta({ description: "from a family's admission to its first hold there; null until one has held" }),
    soldOutAt: z.iso
      .datetime()
      .nullable()
      .meta({ description: 'when nothing was left on sale the first time after the draw' }),
  })
  .meta({ id: 'QueueReport' });
export type QueueReport = z.infer<typeof queueReportSchema>;
